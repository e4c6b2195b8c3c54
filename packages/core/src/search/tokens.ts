/**
 * Text into index words: lower case, accents folded, split at anything that is not a letter or a
 * digit, English stop words dropped, plurals reduced (a light stemmer: "dashboards" and
 * "dashboard" are one word). The same function for skills and queries, so both meet.
 */

const STOP_WORDS = new Set(
  (
    'a an and are as at be been but by can do does for from has have how i if in into is it its my me of on or our ' +
    'so than that the their them then there these this those to use used uses using was we what when where which ' +
    'while who why will with you your'
  ).split(' '),
);

/** One run of letters and digits (marks kept with their letters). */
const WORD = /[\p{L}\p{N}][\p{L}\p{M}\p{N}]*/gu;
const MARKS = /\p{M}+/gu;

/**
 * A word reduced to its singular by Harman's S-stemmer: "queries" → "query", "caches" → "cache",
 * "tests" → "test"; "class", "status" and "analysis" kept.
 */
export function stem(word: string): string {
  if (word.length <= 3 || !word.endsWith('s')) return word;
  if (word.endsWith('ies') && !word.endsWith('eies') && !word.endsWith('aies')) return `${word.slice(0, -3)}y`;
  if (word.endsWith('es') && !word.endsWith('aes') && !word.endsWith('ees') && !word.endsWith('oes')) return word.slice(0, -1);
  if (word.endsWith('us') || word.endsWith('ss') || word.endsWith('is')) return word;
  return word.slice(0, -1);
}

/** The words of `text`, in order, stop words dropped and plurals reduced; repeated words kept (they count). */
export function tokenize(text: string): string[] {
  const folded = text.normalize('NFKD').replace(MARKS, '').toLowerCase();
  const words: string[] = [];
  for (const match of folded.matchAll(WORD)) {
    const word = match[0];
    if (STOP_WORDS.has(word)) continue;
    words.push(stem(word));
  }
  return words;
}
