/**
 * An error as one line for a warning: its message and its cause's, so a log says what failed and
 * why. With `name`, the class name leads (`TypeError: …`), for errors a handler did not expect.
 */
export function describeError(error: unknown, options: { name?: boolean } = {}): string {
  if (error instanceof Error) {
    const cause = error.cause instanceof Error ? ` (cause: ${error.cause.message})` : '';
    return `${options.name ? `${error.name}: ` : ''}${error.message}${cause}`;
  }
  return String(error);
}
