import { SkillResultError } from './errors.js';

/**
 * Fetch every page of a paginated method, at most `maxPages` (`0`: no cap), refusing a server
 * whose cursors repeat (its paging loops and would never end).
 */
export async function walkPages<P extends { nextCursor?: string | undefined }>(
  method: string,
  fetchPage: (cursor: string | undefined) => Promise<P>,
  maxPages: number,
): Promise<P[]> {
  const pages: P[] = [];
  const seen = new Set<string>();
  let cursor: string | undefined;
  do {
    if (maxPages !== 0 && pages.length >= maxPages) {
      throw new SkillResultError(
        method,
        `${method} has more than ${maxPages} pages; stopped there. ` + `Raise the maxPages option (0 for no cap) if the server really serves that many`,
      );
    }
    const page = await fetchPage(cursor);
    pages.push(page);
    cursor = page.nextCursor;
    if (cursor !== undefined) {
      if (seen.has(cursor)) {
        throw new SkillResultError(
          method,
          `${method} returned the cursor ${JSON.stringify(cursor)} a second time (page ${pages.length}); ` +
            `the server's paging loops, so the listing was abandoned`,
        );
      }
      seen.add(cursor);
    }
  } while (cursor !== undefined);
  return pages;
}
