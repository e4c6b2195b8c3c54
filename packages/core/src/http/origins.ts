import { describeValue, optionFail, type OptionFail } from '../option-checks.js';

/**
 * The checked `allowedOrigins` option: browser origins (`https://app.example.com`) whose requests
 * pass the Origin rule besides the `allowedHosts` names. Serialised origins, as browsers send them.
 */
export type OriginRule = ReadonlySet<string>;

const NONE: OriginRule = new Set();

/**
 * Each entry must be exactly an origin: a scheme (http or https), a host and an optional port.
 * `*` and `null` are refused: an Origin check that lets every page through (or every sandboxed
 * or file page) protects nothing, and a browser host is always one known origin.
 */
export function normalizeAllowedOrigins(value: readonly string[] | undefined, packageName: string): OriginRule {
  if (value === undefined) return NONE;
  const fail: OptionFail = optionFail(packageName);
  if (!Array.isArray(value)) {
    fail('invalid-type', 'allowedOrigins', `must be a list of origins such as ["https://app.example.com"], got ${describeValue(value)}`);
  }
  const origins = new Set<string>();
  value.forEach((entry: unknown, i) => {
    if (typeof entry !== 'string')
      fail('invalid-type', 'allowedOrigins', `entry ${i} must be a string such as "https://app.example.com", got ${describeValue(entry)}`);
    if (entry === '*' || entry === 'null') {
      fail(
        'invalid-value',
        'allowedOrigins',
        `entry ${i} is ${JSON.stringify(entry)}, which would let any web page a user opens call this endpoint with the user's network position; ` +
          'list the origins of your browser hosts instead, e.g. "https://app.example.com"',
      );
    }
    const origin = originOf(entry);
    if (origin === undefined) {
      fail(
        'invalid-value',
        'allowedOrigins',
        `entry ${i} (${JSON.stringify(entry)}) is not an origin: give a scheme (http or https), a host and an optional port, ` +
          'with no path, e.g. "https://app.example.com" or "http://localhost:5173"',
      );
    }
    origins.add(origin);
  });
  return origins;
}

/** The serialised origin `text` names, when it is exactly one (a trailing `/` aside); else undefined. */
function originOf(text: string): string | undefined {
  // No path, query, fragment or user: "https://a.example/x" is a page, not an origin.
  if (!/^https?:\/\/[^/?#@\\]+\/?$/i.test(text)) return undefined;
  try {
    return new URL(text).origin;
  } catch {
    return undefined;
  }
}
