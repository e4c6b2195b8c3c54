/**
 * Warnings a test causes on purpose: kept for its assertions and printed only when
 * SKILLMOUNT_TEST_VERBOSE=1, so a green run's output holds nothing that looks like a failure.
 */
export const VERBOSE = process.env.SKILLMOUNT_TEST_VERBOSE === '1';

/** Collects messages; with SKILLMOUNT_TEST_VERBOSE=1 it also prints each one, marked as expected. */
export function expectedWarnings(label: string): { messages: string[]; add(message: string): void } {
  const messages: string[] = [];
  return {
    messages,
    add(message) {
      messages.push(message);
      if (VERBOSE) console.warn(`(expected) ${label}: ${message}`);
    },
  };
}
