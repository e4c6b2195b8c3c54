/**
 * The public types of search, declared with the package's other public types (types.ts) and
 * named here too, where the search code lives.
 */
export type {
  SkillSearchCandidate,
  SkillSearchOptions,
  SkillSearchPage,
  SkillSearchRerank,
  SkillSearchSettings,
} from '../types.js';
