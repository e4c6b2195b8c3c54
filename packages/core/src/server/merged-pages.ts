/**
 * One paginated list (`prompts/list`) made of the skills' pages and the app's own pages: the
 * first page holds both first pages; then the skills' next pages (by the catalog's cursor), then
 * the app's. The cursor carries both positions, so either side may paginate.
 */
import { invalidParams } from '../errors.js';

const PREFIX = 'skillmount.';

interface Position {
  /** The catalog's cursor of the next skills page; absent when the skills are done. */
  s?: string;
  /** The app's cursor of its next page; absent when the app is done (or never began: see `app`). */
  a?: string;
}

export interface Page<T> {
  items: T[];
  nextCursor?: string;
}

/**
 * The page at `cursor` (undefined: the first). `skills(cursor)` and `app(cursor)` give one page of
 * each side; `app` is undefined when the app lists nothing of its own.
 */
export async function mergedPage<T>(
  cursor: string | undefined,
  method: string,
  skills: (cursor: string | undefined) => Promise<Page<T>>,
  app: ((cursor: string | undefined) => Promise<Page<T>>) | undefined,
): Promise<Page<T>> {
  if (cursor === undefined) {
    const [own, theirs] = await Promise.all([app?.(undefined), skills(undefined)]);
    return withNext([...(own?.items ?? []), ...theirs.items], { s: theirs.nextCursor, a: own?.nextCursor });
  }
  const at = decode(cursor, method);
  if (at.s !== undefined) {
    const page = await skills(at.s);
    return withNext(page.items, { s: page.nextCursor, a: at.a });
  }
  if (at.a === undefined || !app) return { items: [] };
  const page = await app(at.a);
  return withNext(page.items, { a: page.nextCursor });
}

function withNext<T>(items: T[], next: Position): Page<T> {
  if (next.s === undefined && next.a === undefined) return { items };
  return { items, nextCursor: PREFIX + Buffer.from(JSON.stringify(next)).toString('base64url') };
}

function decode(cursor: string, method: string): Position {
  const refused = () => invalidParams(`${method}: params.cursor is not one this server gave; start again without a cursor`);
  if (!cursor.startsWith(PREFIX) || cursor.length > 16_384) throw refused();
  let position: unknown;
  try {
    position = JSON.parse(Buffer.from(cursor.slice(PREFIX.length), 'base64url').toString('utf8'));
  } catch {
    throw refused();
  }
  if (typeof position !== 'object' || position === null || Array.isArray(position)) throw refused();
  const { s, a } = position as Record<string, unknown>;
  // A cursor this server gives always holds one position at least.
  if ((s === undefined && a === undefined) || (s !== undefined && typeof s !== 'string') || (a !== undefined && typeof a !== 'string')) throw refused();
  return { ...(s !== undefined ? { s: s as string } : {}), ...(a !== undefined ? { a: a as string } : {}) };
}
