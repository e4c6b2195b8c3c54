/**
 * The lexical ranking: BM25F. A skill's score for a query word sums, over its fields, the word's
 * count times the field's weight, each normalized by the field's length against the average
 * (`FIELD_B`); that sum is saturated (`K1`) and multiplied by the word's rarity (`bm25Idf`) and by
 * how the word matched (`MATCH_WEIGHTS`). A skill's score is the sum over the query's words of
 * each word's best match.
 */

/** Name, description, version, body: a word in the name says most about what a skill is for. */
export const FIELD_WEIGHTS: readonly number[] = [3, 1, 0.5, 0.3];
/** Length normalization per field: none for the version, a little for the name. */
export const FIELD_B: readonly number[] = [0.3, 0.75, 0, 0.75];
/** Term-frequency saturation. */
export const K1 = 1.2;
/** A match of the word itself counts fully; a longer word it begins, or a typo away, less. */
export const MATCH_WEIGHTS = Object.freeze({ exact: 1, prefix: 0.6, oneEdit: 0.5, twoEdits: 0.3 });

/** Rarity of a word held by `df` of `n` skills (always positive). */
export const bm25Idf = (n: number, df: number): number => Math.log(1 + (n - df + 0.5) / (df + 0.5));
