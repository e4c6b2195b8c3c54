import SearchableMap from 'minisearch/SearchableMap';
import type { SkillEntry } from '../types.js';
import { compare } from '../text/compare.js';
import { SEARCH_LIMITS } from './limits.js';
import { skillFields, FIELD_COUNT } from './fields.js';
import { bm25Idf, FIELD_B, FIELD_WEIGHTS, K1, MATCH_WEIGHTS } from './ranking.js';
import type { SkillSearchCandidate } from './types.js';

/** The skills that hold one word: their slots, and per skill how often each field holds it (`FIELD_COUNT` numbers each). */
interface Postings {
  slots: number[];
  counts: number[];
}

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
  readonly #words = new SearchableMap<Postings>();
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
        postings = { slots: [], counts: [] };
        this.#words.set(word, postings);
      }
      postings.slots.push(slot);
      for (const n of perField) postings.counts.push(n);
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
      const at = postings.slots.indexOf(slot);
      const last = postings.slots.length - 1;
      // Swap with the last posting: the order of postings never reaches a result.
      postings.slots[at] = postings.slots[last]!;
      postings.slots.pop();
      for (let f = 0; f < FIELD_COUNT; f++) postings.counts[at * FIELD_COUNT + f] = postings.counts[last * FIELD_COUNT + f]!;
      postings.counts.length = last * FIELD_COUNT;
      if (last === 0) this.#words.delete(word);
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
    for (const term of terms) {
      for (const { postings, weight, df } of this.#expand(term, shown)) {
        const idf = bm25Idf(n, df);
        const { slots, counts } = postings;
        for (let i = 0; i < slots.length; i++) {
          const slot = slots[i]!;
          if (shown && shown[slot] === 0) continue;
          const lengths = docs[slot]!.lengths;
          let tf = 0;
          for (let f = 0; f < FIELD_COUNT; f++) {
            const count = counts[i * FIELD_COUNT + f]!;
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
   * The dictionary words `term` stands for: itself, longer words it begins, words a typo away;
   * only words some visible skill holds (so a hidden skill's words take no place), the
   * `maxExpansions` best by match weight, then document frequency, then the word.
   */
  #expand(term: string, shown: Uint8Array | undefined): Expansion[] {
    const { minPrefixLength, minFuzzyLength, minFuzzy2Length, maxExpansions } = SEARCH_LIMITS;
    const weights = new Map<string, { postings: Postings; weight: number }>();
    const offer = (word: string, postings: Postings, weight: number) => {
      const held = weights.get(word);
      if (!held || held.weight < weight) weights.set(word, { postings, weight });
    };
    const exact = this.#words.get(term);
    if (exact) offer(term, exact, MATCH_WEIGHTS.exact);
    if (term.length >= minPrefixLength)
      for (const [word, postings] of this.#words.atPrefix(term)) if (word !== term) offer(word, postings, MATCH_WEIGHTS.prefix);
    if (term.length >= minFuzzyLength) {
      const distance = term.length >= minFuzzy2Length ? 2 : 1;
      for (const [word, [postings, edits]] of this.#words.fuzzyGet(term, distance)) {
        if (edits > 0) offer(word, postings, edits === 1 ? MATCH_WEIGHTS.oneEdit : MATCH_WEIGHTS.twoEdits);
      }
    }
    const expansions: Expansion[] = [];
    for (const [word, { postings, weight }] of weights) {
      let df = postings.slots.length;
      if (shown) {
        df = 0;
        for (const slot of postings.slots) df += shown[slot]!;
      }
      if (df > 0) expansions.push({ word, postings, weight, df });
    }
    expansions.sort((a, b) => b.weight - a.weight || b.df - a.df || compare(a.word, b.word));
    if (expansions.length > maxExpansions) expansions.length = maxExpansions;
    return expansions;
  }
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
