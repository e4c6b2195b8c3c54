/**
 * The bounds of a search, checked before any work: what one query may cost is set here, so the
 * surfaces and the docs quote the same numbers.
 */
export const SEARCH_LIMITS = Object.freeze({
  /** Characters (UTF-16 code units) in a query. */
  maxQueryLength: 256,
  /** Distinct words in a query, after stop words are dropped. */
  maxTerms: 12,
  /** Results on a page when no limit is asked for. */
  defaultLimit: 10,
  /** Results on one page at most. */
  maxLimit: 50,
  /** Results a query can page through in all: a cursor never reaches past them. */
  maxResults: 250,
  /** Dictionary words one query word may stand for (prefix and typo matches), the best kept. */
  maxExpansions: 8,
  /** Shortest last word of a query that also matches as a prefix of longer words. */
  minPrefixLength: 3,
  /** Shortest word that also matches words one edit away (when no visible skill holds it as it is). */
  minFuzzyLength: 4,
  /** Shortest word that also matches words two edits away. */
  minFuzzy2Length: 8,
  /** Characters of a SKILL.md body indexed when bodies are indexed. */
  maxBodyChars: 16_384,
  /** Candidates handed to a rerank hook: the best this many by lexical score. */
  rerankDepth: 100,
});
