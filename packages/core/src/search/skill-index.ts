import SearchableMap from 'minisearch/SearchableMap';
import type { SkillEntry } from '../types.js';
import { compare } from '../text/compare.js';
import { SEARCH_LIMITS } from './limits.js';
import { skillFields, FIELD_COUNT } from './fields.js';
import { bm25Idf, FIELD_B, FIELD_WEIGHTS, K1, MATCH_WEIGHTS } from './ranking.js';
import type { SkillSearchCandidate } from './types.js';

/**
 * The skills that hold one word: pairs of a skill's slot and how often each field holds the word
 * (packed, see `pack`), and how many of them hold it in their frontmatter (name, description,
 * version): only such words are matched by prefix and typo.
 */
interface Postings {
  pairs: number[];
  frontmatter: number;
}

/** Bits per field count (name, description, version, body) in a packed posting: 28 in all, so it stays a small integer. */
const BITS = [4, 8, 4, 12] as const;
const SHIFTS = [0, 4, 12, 16] as const;
const MASKS = BITS.map((b) => 2 ** b - 1);

/** A word's counts per field in one small integer, each capped at its field's width (a word repeated that often gains nothing more). */
function pack(counts: readonly number[]): number {
  let packed = 0;
  for (let f = 0; f < FIELD_COUNT; f++) packed += Math.min(counts[f]!, MASKS[f]!) * 2 ** SHIFTS[f]!;
  return packed;
}

const inFrontmatter = (packed: number) => (packed & 0xffff) !== 0;

/** One indexed skill: its entry, its field lengths in words, and its distinct words (to take it out again). */
interface Doc {
  entry: SkillEntry;
  lengths: number[];
  words: string[];
}

/** A dictionary word a query word stands for, with the weight of that match and its document frequency. */
interface Expansion {
  word: string;
  postings: Postings;
  weight: number;
  df: number;
}

/**
 * A lexical index of skills (BM25F over name, description, version and, by option, body), kept
 * beside a catalog and updated skill by skill. Ranking statistics (skill count, average field
 * lengths, document frequencies) are computed over the skills a request may see, so a search
 * under a visibility rule gives exactly what an index of the visible skills alone would give:
 * with no rule they are kept up to date as skills come and go; with one they are counted per
 * search over the visible skills. The term dictionary is MiniSearch's radix tree
 * (`SearchableMap`), for its prefix and typo matching; scoring is done here, because no library
 * computes its statistics over a per-request subset.
 */
export class SkillIndex {
  readonly #docs: (Doc | undefined)[] = [];
  readonly #free: number[] = [];
  readonly #slots = new Map<string, number>();
  /** Every word, for exact matches. */
  readonly #words = new Map<string, Postings>();
  /** Words some skill holds in its frontmatter, as a radix tree for prefix and typo matches. */
  readonly #dictionary = new SearchableMap<Postings>();
  readonly #lengthSums = new Array<number>(FIELD_COUNT).fill(0);
  #count = 0;
  /** Scratch space for one search at a time (searches are synchronous), grown with the slots. */
  #scores = new Float64Array(0);
  #best = new Float64Array(0);

  /** Skills held. */
  get size(): number {
    return this.#count;
  }

  /** Whether the skill at `uri` is held. */
  has(uri: string): boolean {
    return this.#slots.has(uri);
  }

  /** Index a skill (replacing the one at its URI), with its SKILL.md body text when bodies are indexed. */
  add(entry: SkillEntry, body?: string): void {
    this.remove(entry.uri);
    const fields = skillFields(entry, body);
    const slot = this.#free.pop() ?? this.#docs.length;
    const counts = new Map<string, number[]>();
    const lengths = fields.map((words, field) => {
      for (const word of words) {
        let perField = counts.get(word);
        if (!perField) {
          perField = new Array<number>(FIELD_COUNT).fill(0);
          counts.set(word, perField);
        }
        perField[field]!++;
      }
      return words.length;
    });
    for (const [word, perField] of counts) {
      let postings = this.#words.get(word);
      if (!postings) {
        postings = { pairs: [], frontmatter: 0 };
        this.#words.set(word, postings);
      }
      const packed = pack(perField);
      postings.pairs.push(slot, packed);
      if (inFrontmatter(packed) && postings.frontmatter++ === 0) this.#dictionary.set(word, postings);
    }
    this.#docs[slot] = { entry, lengths, words: [...counts.keys()] };
    this.#slots.set(entry.uri, slot);
    for (let f = 0; f < FIELD_COUNT; f++) this.#lengthSums[f]! += lengths[f]!;
    this.#count++;
  }

  /** Take the skill at `uri` out; nothing when it is not held. */
  remove(uri: string): void {
    const slot = this.#slots.get(uri);
    if (slot === undefined) return;
    const doc = this.#docs[slot]!;
    for (const word of doc.words) {
      const postings = this.#words.get(word)!;
      const pairs = postings.pairs;
      let at = 0;
      while (pairs[at] !== slot) at += 2;
      if (inFrontmatter(pairs[at + 1]!) && --postings.frontmatter === 0) this.#dictionary.delete(word);
      // Swap with the last pair: the order of postings never reaches a result.
      pairs[at] = pairs[pairs.length - 2]!;
      pairs[at + 1] = pairs[pairs.length - 1]!;
      pairs.length -= 2;
      if (pairs.length === 0) this.#words.delete(word);
    }
    for (let f = 0; f < FIELD_COUNT; f++) this.#lengthSums[f]! -= doc.lengths[f]!;
    this.#docs[slot] = undefined;
    this.#free.push(slot);
    this.#slots.delete(uri);
    this.#count--;
  }

  /**
   * The skills matching any of `terms` (query words, already checked), best first with ties by
   * URI, at most `depth` of them; only those `visible` allows, ranked as if no other existed.
   */
  search(terms: readonly string[], visible: ((entry: SkillEntry) => boolean) | undefined, depth: number): SkillSearchCandidate[] {
    const docs = this.#docs;
    let shown: Uint8Array | undefined;
    let n = this.#count;
    let sums: readonly number[] = this.#lengthSums;
    if (visible) {
      shown = new Uint8Array(docs.length);
      n = 0;
      const counted = new Array<number>(FIELD_COUNT).fill(0);
      for (let slot = 0; slot < docs.length; slot++) {
        const doc = docs[slot];
        if (doc === undefined || visible(doc.entry) !== true) continue;
        shown[slot] = 1;
        n++;
        for (let f = 0; f < FIELD_COUNT; f++) counted[f]! += doc.lengths[f]!;
      }
      sums = counted;
    }
    if (n === 0 || terms.length === 0) return [];
    // Average lengths from integer sums: the same numbers whichever skills were added, removed or hidden.
    const averages = sums.map((sum) => (sum > 0 ? sum / n : 1));
    if (this.#scores.length < docs.length) {
      this.#scores = new Float64Array(docs.length);
      this.#best = new Float64Array(docs.length);
    }
    const scores = this.#scores;
    const best = this.#best;
    const matched: number[] = [];
    const termMatched: number[] = [];
    for (let t = 0; t < terms.length; t++) {
      // The last word may be one still being typed: it alone also matches longer words it begins.
      for (const { postings, weight, df } of this.#expand(terms[t]!, shown, t === terms.length - 1)) {
        const idf = bm25Idf(n, df);
        const pairs = postings.pairs;
        for (let i = 0; i < pairs.length; i += 2) {
          const slot = pairs[i]!;
          if (shown && shown[slot] === 0) continue;
          const packed = pairs[i + 1]!;
          const lengths = docs[slot]!.lengths;
          let tf = 0;
          for (let f = 0; f < FIELD_COUNT; f++) {
            const count = (packed >>> SHIFTS[f]!) & MASKS[f]!;
            if (count > 0) tf += (FIELD_WEIGHTS[f]! * count) / (1 - FIELD_B[f]! + (FIELD_B[f]! * lengths[f]!) / averages[f]!);
          }
          const score = (weight * idf * tf * (K1 + 1)) / (tf + K1);
          if (score > best[slot]!) {
            if (best[slot] === 0) termMatched.push(slot);
            best[slot] = score;
          }
        }
      }
      // A query word scores a skill by its best match (exact, prefix or typo), added in query order.
      for (const slot of termMatched) {
        if (scores[slot] === 0) matched.push(slot);
        scores[slot]! += best[slot]!;
        best[slot] = 0;
      }
      termMatched.length = 0;
    }
    const ranked = topByScore(matched, scores, (slot) => docs[slot]!.entry.uri, depth);
    const candidates = ranked.map((slot) => ({ entry: docs[slot]!.entry, score: scores[slot]! }));
    for (const slot of matched) scores[slot] = 0;
    return candidates;
  }

  /**
   * The dictionary words `term` stands for: itself, longer words it begins (when it is the
   * query's last word), words a typo away (when no visible skill holds it);
   * only words some visible skill holds (so a hidden skill's words take no place), the
   * `maxExpansions` best by match weight, then document frequency, then the word.
   */
  #expand(term: string, shown: Uint8Array | undefined, last: boolean): Expansion[] {
    const { minPrefixLength, minFuzzyLength, minFuzzy2Length, maxExpansions } = SEARCH_LIMITS;
    const expansions: Expansion[] = [];
    const exact = this.#words.get(term);
    const exactDf = !exact ? 0 : shown ? visibleCounts(exact, shown).df : exact.pairs.length / 2;
    if (exact && exactDf > 0) expansions.push({ word: term, postings: exact, weight: MATCH_WEIGHTS.exact, df: exactDf });
    const weights = new Map<string, { postings: Postings; weight: number }>();
    const offer = (word: string, postings: Postings, weight: number) => {
      const held = weights.get(word);
      if (!held || held.weight < weight) weights.set(word, { postings, weight });
    };
    if (last && term.length >= minPrefixLength) {
      for (const [word, postings] of this.#dictionary.atPrefix(term)) if (word !== term) offer(word, postings, MATCH_WEIGHTS.prefix);
    }
    // Typos are looked for only for words no visible skill holds: a word the skills use is taken as meant.
    if (term.length >= minFuzzyLength && exactDf === 0) {
      const distance = term.length >= minFuzzy2Length ? 2 : 1;
      for (const [word, [postings, edits]] of this.#dictionary.fuzzyGet(term, distance)) {
        if (edits > 0) offer(word, postings, edits === 1 ? MATCH_WEIGHTS.oneEdit : MATCH_WEIGHTS.twoEdits);
      }
    }
    const others: Expansion[] = [];
    for (const [word, { postings, weight }] of weights) {
      // A word matched by prefix or typo must be in the frontmatter of a skill the request sees:
      // the dictionary of a catalog holding only those skills.
      const { df, frontmatter } = shown ? visibleCounts(postings, shown) : { df: postings.pairs.length / 2, frontmatter: postings.frontmatter };
      if (frontmatter > 0) others.push({ word, postings, weight, df });
    }
    others.sort((a, b) => b.weight - a.weight || b.df - a.df || compare(a.word, b.word));
    for (const e of others) {
      if (expansions.length >= maxExpansions) break;
      expansions.push(e);
    }
    return expansions;
  }
}

/** How many visible skills hold a word, and how many of them in their frontmatter. */
function visibleCounts(postings: Postings, shown: Uint8Array): { df: number; frontmatter: number } {
  const pairs = postings.pairs;
  let df = 0;
  let frontmatter = 0;
  for (let i = 0; i < pairs.length; i += 2) {
    if (shown[pairs[i]!] === 0) continue;
    df++;
    if (inFrontmatter(pairs[i + 1]!)) frontmatter++;
  }
  return { df, frontmatter };
}

/** The `depth` best slots by score, then URI: a bounded heap, so a word every skill holds costs no full sort. */
function topByScore(slots: readonly number[], scores: Float64Array, uriOf: (slot: number) => string, depth: number): number[] {
  // `worse(a, b)`: a ranks below b.
  const worse = (a: number, b: number) => scores[a]! < scores[b]! || (scores[a] === scores[b] && uriOf(a) > uriOf(b));
  const heap: number[] = [];
  const down = (from: number) => {
    let at = from;
    for (;;) {
      const left = 2 * at + 1;
      const right = left + 1;
      let low = at;
      if (left < heap.length && worse(heap[left]!, heap[low]!)) low = left;
      if (right < heap.length && worse(heap[right]!, heap[low]!)) low = right;
      if (low === at) return;
      [heap[at], heap[low]] = [heap[low]!, heap[at]!];
      at = low;
    }
  };
  for (const slot of slots) {
    if (heap.length < depth) {
      heap.push(slot);
      for (let at = heap.length - 1; at > 0; ) {
        const parent = (at - 1) >> 1;
        if (!worse(heap[at]!, heap[parent]!)) break;
        [heap[at], heap[parent]] = [heap[parent]!, heap[at]!];
        at = parent;
      }
    } else if (depth > 0 && worse(heap[0]!, slot)) {
      heap[0] = slot;
      down(0);
    }
  }
  return heap.sort((a, b) => (worse(a, b) ? 1 : worse(b, a) ? -1 : 0));
}
