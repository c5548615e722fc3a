/**
 * A category classifier learned from the deployment's own records: multinomial naive Bayes
 * over the content words of title and abstract (no weights from outside). A record with
 * several categories counts once for each. Training keeps a uniform sample of at most
 * `maxRecords` records (reservoir sampling with a fixed seed), so its time and memory are
 * bounded however many records the deployment holds.
 *
 * @example
 *   const t = new CategoryTrainer();
 *   t.offer('Deep learning for image segmentation', [{ id: '46', name: '46 Information and Computing Sciences' }]);
 *   ...
 *   t.train().classify('Convolutional networks for images');
 *   // [{id: '46', name: '46 Information and Computing Sciences', score: 0.91}]
 */
import { tokens } from '../text/words.ts';

export interface Category {
  readonly id: string;
  readonly name: string;
}

export interface ScoredCategory extends Category {
  /** In [0, 1]: the category's share of the tempered posterior. */
  readonly score: number;
}

export interface TrainerOptions {
  /** Records kept for training at most (default 50,000). */
  readonly maxRecords?: number;
  /** Words kept at most, the most widely used first (default 60,000). */
  readonly maxFeatures?: number;
  /** A word must appear in this many training texts to count (default 2). */
  readonly minRecords?: number;
  /** Seed of the sample (default fixed, so a deployment trains the same model from the same data). */
  readonly seed?: number;
}

export interface ClassifyOptions {
  /** At most this many categories (default 5). */
  readonly limit?: number;
  /** Keep categories scoring at least this share of the best one (default 0.5). */
  readonly relative?: number;
}

/** Additive smoothing of word counts. */
const ALPHA = 0.5;
/**
 * The posterior is tempered to the average evidence per word (times this), so scores say how
 * clearly a text leans to a category rather than being 1.0 for any long text.
 */
const TEMPER = 12;

/** A small deterministic generator (mulberry32) for the sample. */
function random(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export class CategoryTrainer {
  private readonly sample: { text: string; categories: readonly Category[] }[] = [];
  private seen = 0;
  private readonly next: () => number;
  private readonly maxRecords: number;

  constructor(private readonly options: TrainerOptions = {}) {
    this.maxRecords = options.maxRecords ?? 50_000;
    this.next = random(options.seed ?? 20240601);
  }

  /** Records offered so far (with text and at least one category). */
  get offered(): number {
    return this.seen;
  }

  /** Offers one record; it is kept with probability `maxRecords / offered` (reservoir sampling). */
  offer(text: string, categories: readonly Category[]): void {
    if (text.trim() === '' || categories.length === 0) return;
    this.seen++;
    if (this.sample.length < this.maxRecords) {
      this.sample.push({ text, categories });
      return;
    }
    const k = Math.floor(this.next() * this.seen);
    if (k < this.maxRecords) this.sample[k] = { text, categories };
  }

  train(): CategoryModel {
    const intern = new Map<string, number>();
    const docs: Uint32Array[] = [];
    const df: number[] = [];
    for (const { text } of this.sample) {
      const ids = tokens(text).map((t) => {
        let id = intern.get(t);
        if (id === undefined) {
          id = intern.size;
          intern.set(t, id);
          df.push(0);
        }
        return id;
      });
      for (const id of new Set(ids)) df[id] = (df[id] as number) + 1;
      docs.push(Uint32Array.from(ids));
    }
    const minRecords = this.options.minRecords ?? 2;
    const maxFeatures = this.options.maxFeatures ?? 60_000;
    const kept = [...intern.entries()]
      .filter(([, id]) => (df[id] as number) >= minRecords)
      .sort((a, b) => (df[b[1]] as number) - (df[a[1]] as number) || (a[0] < b[0] ? -1 : 1))
      .slice(0, maxFeatures);
    const featureOf = new Int32Array(intern.size).fill(-1);
    const features = new Map<string, number>();
    kept.forEach(([word, id], f) => {
      featureOf[id] = f;
      features.set(word, f);
    });

    const labelOf = new Map<string, number>();
    const labels: Category[] = [];
    const docCount: number[] = [];
    for (const { categories } of this.sample)
      for (const c of categories)
        if (!labelOf.has(c.id)) {
          labelOf.set(c.id, labels.length);
          labels.push({ id: c.id, name: c.name });
          docCount.push(0);
        }
    const F = kept.length;
    const counts = new Float32Array(labels.length * F);
    const totals = new Float64Array(labels.length);
    this.sample.forEach(({ categories }, d) => {
      const doc = docs[d] as Uint32Array;
      const ls = [...new Set(categories.map((c) => labelOf.get(c.id) as number))];
      for (const l of ls) docCount[l] = (docCount[l] as number) + 1;
      for (const id of doc) {
        const f = featureOf[id] as number;
        if (f < 0) continue;
        for (const l of ls) {
          counts[l * F + f] = (counts[l * F + f] as number) + 1;
          totals[l] = (totals[l] as number) + 1;
        }
      }
    });
    const logLikelihood = new Float32Array(labels.length * F);
    const logPrior = new Float64Array(labels.length);
    const allDocs = docCount.reduce((a, b) => a + b, 0);
    for (let l = 0; l < labels.length; l++) {
      const denominator = Math.log((totals[l] as number) + ALPHA * F);
      for (let f = 0; f < F; f++)
        logLikelihood[l * F + f] = Math.log((counts[l * F + f] as number) + ALPHA) - denominator;
      logPrior[l] = Math.log((docCount[l] as number) / allDocs);
    }
    return new CategoryModel(labels, features, logLikelihood, logPrior, this.sample.length, this.seen);
  }
}

export class CategoryModel {
  constructor(
    private readonly labels: readonly Category[],
    private readonly features: ReadonlyMap<string, number>,
    private readonly logLikelihood: Float32Array,
    private readonly logPrior: Float64Array,
    /** Records trained on. */
    readonly trainedOn: number,
    /** Records offered (trainedOn is a sample of these). */
    readonly offered: number,
  ) {}

  /** Categories it knows. */
  get categories(): number {
    return this.labels.length;
  }

  /** Words it reads. */
  get vocabulary(): number {
    return this.features.size;
  }

  /** Every category it knows for a text, best first, scores summing to 1 (empty when it knows no word of the text). */
  rank(text: string): ScoredCategory[] {
    const counts = new Map<number, number>();
    let n = 0;
    for (const t of tokens(text)) {
      const f = this.features.get(t);
      if (f === undefined) continue;
      counts.set(f, (counts.get(f) ?? 0) + 1);
      n++;
    }
    if (n === 0 || this.labels.length === 0) return [];
    const F = this.features.size;
    const z = new Float64Array(this.labels.length);
    for (let l = 0; l < this.labels.length; l++) {
      let sum = 0;
      for (const [f, c] of counts) sum += c * (this.logLikelihood[l * F + f] as number);
      z[l] = ((this.logPrior[l] as number) + sum) * (TEMPER / n);
    }
    let max = -Infinity;
    for (const v of z) if (v > max) max = v;
    let total = 0;
    for (let l = 0; l < z.length; l++) {
      z[l] = Math.exp((z[l] as number) - max);
      total += z[l] as number;
    }
    return this.labels
      .map((c, l) => ({ id: c.id, name: c.name, score: (z[l] as number) / total }))
      .sort((a, b) => b.score - a.score || (a.id < b.id ? -1 : 1));
  }

  /** The categories of a text: the best, and those close to it. Scores rounded to 3 decimals. */
  classify(text: string, options: ClassifyOptions = {}): ScoredCategory[] {
    const ranked = this.rank(text);
    const best = ranked[0];
    if (best === undefined) return [];
    const limit = options.limit ?? 5;
    const relative = options.relative ?? 0.5;
    return ranked
      .filter((c, k) => k < limit && c.score >= best.score * relative)
      .map((c) => ({ ...c, score: Math.round(c.score * 1000) / 1000 }));
  }
}
