/**
 * Titles, abstracts and concepts that read like research, from a model of real titles and
 * abstracts (vendored as `text-model.json.gz`, built by scripts/vendor-text-model.ts):
 * trigram chains over the "glue" of research prose (words common to several sources) with
 * slots where the real text named its topic, and per Fields of Research division the topic
 * phrases that fill those slots (FoR labels, OpenAlex concepts, trial conditions).
 *
 * Each paper draws a few key topics of its division; its title and abstract fill most slots
 * with them, so a search for a common topic ("climate change", "machine learning",
 * "breast cancer") finds the papers about it, in numbers that follow the topics' Zipf ranks.
 * Every choice is a draw from the caller's `Draws`, so output is deterministic for a seed.
 *
 * @example
 *   const topics = model.topics('32', r, 4);      // ['breast cancer', 'chemotherapy', ...]
 *   model.title('32', topics, r);                 // 'A randomized trial of chemotherapy in breast cancer ...'
 */
import { ZipfTable } from './distributions.ts';
import type { Draws } from './prng.ts';

/** The token of a slot for a topic phrase. */
export const SLOT = '§';
/** The token of a slot for a place name. */
export const PLACE = '@';

/** One chain state: the two previous tokens, the tokens that followed them and how often. */
export type ChainRow = [a: number, b: number, next: number[], counts: number[]];

/** The vendored model as stored. */
export interface TextModelData {
  /** What it was built from (source: counts). */
  readonly sources: readonly string[];
  /** Every token; index 0 is the empty token that starts and ends a sequence. */
  readonly vocab: readonly string[];
  readonly titles: readonly ChainRow[];
  readonly abstracts: readonly ChainRow[];
  /** Per FoR division code, topic phrases (as written inside a sentence) with their counts, most frequent first. */
  readonly topics: Readonly<Record<string, readonly [string, number][]>>;
}

const MAX_TOKENS = 70;
const ATTACH_LEFT = new Set([',', ';', ':', ')']);

/**
 * A trigram chain flattened into typed arrays: state k's successors are entries
 * [start[k], start[k + 1]) holding the token, the cumulative probability and the state that
 * follows, so a walk is array reads only (no map look-ups), one draw per token.
 */
class Chain {
  private readonly start: Int32Array;
  private readonly token: Int32Array;
  private readonly cum: Float64Array;
  private readonly succ: Int32Array;

  constructor(rows: readonly ChainRow[], size: number) {
    const stateOf = new Map<number, number>();
    rows.forEach(([a, b], k) => stateOf.set(a * size + b, k));
    const entries = rows.reduce((n, row) => n + row[2].length, 0);
    this.start = new Int32Array(rows.length + 1);
    this.token = new Int32Array(entries);
    this.cum = new Float64Array(entries);
    this.succ = new Int32Array(entries);
    let at = 0;
    rows.forEach(([, b, next, counts], k) => {
      this.start[k] = at;
      const total = counts.reduce((x, y) => x + y, 0);
      let acc = 0;
      next.forEach((t, j) => {
        acc += counts[j] as number;
        this.token[at] = t;
        this.cum[at] = acc / total;
        this.succ[at] = t === 0 ? -1 : (stateOf.get(b * size + t) ?? -1);
        at++;
      });
      this.cum[at - 1] = 1;
    });
    this.start[rows.length] = at;
    if (stateOf.get(0) !== 0) throw new Error('a text chain must start with the empty state');
  }

  /** Token ids of one sequence (without the start and end tokens), at most MAX_TOKENS. */
  walk(r: Draws): number[] {
    const out: number[] = [];
    let state = 0;
    while (state >= 0 && out.length < MAX_TOKENS) {
      const u = r.next();
      let e = this.start[state] as number;
      let last = (this.start[state + 1] as number) - 1;
      // Most states have a few successors (a scan); the busy ones are searched by halves.
      while (last - e > 8) {
        const mid = (e + last) >>> 1;
        if ((this.cum[mid] as number) > u) last = mid;
        else e = mid + 1;
      }
      while (e < last && (this.cum[e] as number) <= u) e++;
      const t = this.token[e] as number;
      if (t === 0) break;
      out.push(t);
      state = this.succ[e] as number;
    }
    return out;
  }
}

/** A division's topic phrases with Zipf weights by rank. */
interface TopicPool {
  readonly phrases: readonly string[];
  readonly zipf: ZipfTable;
}

export class TextModel {
  private readonly titles: Chain;
  private readonly abstracts: Chain;
  private readonly pools = new Map<string, TopicPool>();
  private readonly fallback: TopicPool;
  private readonly slot: number;
  private readonly place: number;
  private readonly placeZipf: ZipfTable;
  /** 1 for punctuation written without a space before it. */
  private readonly attaches: Uint8Array;
  private readonly phraseWords = new Map<string, number>();

  /** `places`: place names for place slots, most common first. */
  constructor(
    private readonly data: TextModelData,
    private readonly places: readonly string[],
  ) {
    const size = data.vocab.length;
    this.titles = new Chain(data.titles, size);
    this.abstracts = new Chain(data.abstracts, size);
    const all: string[] = [];
    for (const [division, list] of Object.entries(data.topics)) {
      const phrases = list.map(([p]) => p);
      all.push(...phrases.slice(0, 20));
      this.pools.set(division, { phrases, zipf: new ZipfTable(phrases.length, 0.9) });
    }
    this.fallback = { phrases: all, zipf: new ZipfTable(Math.max(1, all.length), 0.9) };
    this.attaches = Uint8Array.from(data.vocab, (t) => (ATTACH_LEFT.has(t) ? 1 : 0));
    this.slot = data.vocab.indexOf(SLOT);
    this.place = data.vocab.indexOf(PLACE);
    if (places.length === 0) throw new Error('a text model needs place names');
    this.placeZipf = new ZipfTable(places.length, 0.7);
  }

  private pool(division: string): TopicPool {
    return this.pools.get(division) ?? this.fallback;
  }

  /** `n` distinct key topics of a paper of `division`, the most central first. */
  topics(division: string, r: Draws, n: number): string[] {
    const pool = this.pool(division);
    const out: string[] = [];
    for (let tries = 0; out.length < n && tries < n * 4; tries++) {
      const p = pool.phrases[pool.zipf.sample(r.next())] as string;
      if (!out.includes(p)) out.push(p);
    }
    return out;
  }

  /** Concepts: the key topics, then further topics of the division, `n` in all. */
  concepts(division: string, topics: readonly string[], r: Draws, n: number): string[] {
    const out = topics.slice(0, n);
    const pool = this.pool(division);
    for (let tries = 0; out.length < n && tries < n * 4; tries++) {
      const p = pool.phrases[pool.zipf.sample(r.next())] as string;
      if (!out.includes(p)) out.push(p);
    }
    return out;
  }

  /** Words in a phrase (cached: the same topics recur). */
  private wordsIn(phrase: string): number {
    let n = this.phraseWords.get(phrase);
    if (n === undefined) {
      n = phrase.split(' ').length;
      this.phraseWords.set(phrase, n);
    }
    return n;
  }

  /** Renders token ids, filling slots: key topics in turn, now and then another topic or a place. */
  private render(
    ids: readonly number[],
    division: string,
    topics: readonly string[],
    r: Draws,
    used: { at: number },
  ): { text: string; words: number } {
    let text = '';
    let words = 0;
    let openParen = false;
    for (let k = 0; k < ids.length; k++) {
      const id = ids[k] as number;
      let token: string;
      let attach = false;
      if (id === this.slot) {
        if (topics.length > 0 && r.next() < 0.6) token = topics[used.at++ % topics.length] as string;
        else {
          const pool = this.pool(division);
          token = pool.phrases[pool.zipf.sample(r.next())] as string;
        }
        words += this.wordsIn(token);
      } else if (id === this.place) {
        token = this.places[this.placeZipf.sample(r.next())] as string;
        words += this.wordsIn(token);
      } else {
        token = this.data.vocab[id] as string;
        attach = this.attaches[id] === 1;
        if (!attach && token !== '(') words++;
      }
      if (k === 0) text = token.charAt(0).toUpperCase() + token.slice(1);
      else text += attach || openParen ? token : ` ${token}`;
      openParen = token === '(';
    }
    return { text, words };
  }

  /** A title (5 to 25 words). */
  title(division: string, topics: readonly string[], r: Draws): string {
    let best = '';
    for (let attempt = 0; attempt < 4; attempt++) {
      const { text, words } = this.render(this.titles.walk(r), division, topics, r, { at: 0 });
      best = text;
      if (words >= 5 && words <= 25) break;
    }
    return best;
  }

  /** An abstract of about `target` words, in sentences. */
  abstract(division: string, topics: readonly string[], r: Draws, target: number): string {
    const used = { at: 0 };
    const parts: string[] = [];
    let words = 0;
    while (words < target) {
      const ids = this.abstracts.walk(r);
      if (ids.length === 0) continue;
      const sentence = this.render(ids, division, topics, r, used);
      parts.push(`${sentence.text}.`);
      words += sentence.words;
    }
    return parts.join(' ');
  }
}
