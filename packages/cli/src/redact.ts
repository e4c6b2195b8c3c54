/**
 * Keeping credentials out of what the CLI prints: labels of locations carry no password, a
 * location's password is registered when it is parsed, and every error and warning line the CLI
 * writes passes `redact`.
 */
const secrets = new Set<string>();

/** Remember a password so that `redact` masks it in any URL or `password=` parameter, however it is spelled. */
export function hideSecret(secret: string): void {
  if (secret.length === 0) return;
  secrets.add(secret);
  try {
    secrets.add(decodeURIComponent(secret));
  } catch {
    // not percent-encoded: the raw spelling is enough
  }
  secrets.add(encodeURIComponent(secret));
}

/**
 * `text` with passwords masked wherever they would appear: as the `user:password@` of a URL, or a
 * `password=` parameter. Registered passwords are matched in those places even when they hold
 * characters the patterns stop at; a password is not masked elsewhere, so a common one such as
 * `postgres` does not garble `postgres://` in every message.
 */
export function redact(text: string): string {
  let out = text;
  // Longest first, so a password containing another one is masked whole.
  for (const secret of [...secrets].sort((a, b) => b.length - a.length)) {
    out = out.split(`:${secret}@`).join(':***@');
    out = out.split(`password=${secret}`).join('password=***');
  }
  return out.replace(/(\b[a-z][a-z0-9+.-]*:\/\/[^/\s:@]*):[^/\s@]*@/gi, '$1:***@').replace(/\b(password=)[^&\s#]*/gi, '$1***');
}

/**
 * A URL without its password (and without a `password` query parameter), for messages. A string
 * that is not a URL has any `user:password@` masked instead.
 */
export function withoutPassword(location: string): string {
  let url: URL;
  try {
    url = new URL(location);
  } catch {
    return redact(location);
  }
  url.password = '';
  for (const key of [...url.searchParams.keys()]) if (key.toLowerCase() === 'password') url.searchParams.delete(key);
  return url.href;
}
