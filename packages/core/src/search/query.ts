import { codePoint, controlCharacterIn, escapeControls } from '../text/escape.js';
import { SkillSearchError } from './errors.js';
import { SEARCH_LIMITS } from './limits.js';
import { tokenize } from './tokens.js';

/**
 * A query checked and split into its distinct words, before any work: its length, its
 * characters and its word count are bounded here. Words repeated count once.
 *
 * @throws {@link SkillSearchError} (`reason: 'query'`) when the query is not a string, is empty or
 * blank, is too long, holds a control character, or has too many words.
 */
export function queryTerms(query: unknown): string[] {
  const { maxQueryLength, maxTerms } = SEARCH_LIMITS;
  if (typeof query !== 'string') throw queryError(`the query must be a string, got ${query === null ? 'null' : typeof query}`);
  if (query.length > maxQueryLength) {
    throw queryError(`the query is ${query.length} characters long; at most ${maxQueryLength} are allowed: shorten it to the words that matter`);
  }
  const control = controlCharacterIn(query);
  if (control !== undefined) throw queryError(`the query holds a control character (${codePoint(control)}); send plain words on one line`);
  if (query.trim() === '') throw queryError('the query is empty; send a few words that describe the task');
  const terms = [...new Set(tokenize(query))];
  if (terms.length > maxTerms) {
    throw queryError(`the query has ${terms.length} distinct words; at most ${maxTerms} are allowed: keep the words that matter`);
  }
  return terms;
}

function queryError(problem: string): SkillSearchError {
  return new SkillSearchError('query', `Invalid search query: ${escapeControls(problem)}`);
}
