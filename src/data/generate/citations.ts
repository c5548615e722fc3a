/**
 * The citation network. Each paper has a latent attractiveness (Lomax, shape 2: a heavy
 * tail with exponent about 3 and many papers that are hardly ever cited); a paper's
 * references go mostly to recent earlier years (an exponential age kernel weighted by each
 * year's output) and, within a year, to papers in proportion to their attractiveness.
 * References are drawn from counter-based streams, so the counting pass and the writing
 * pass see the same lists and `times_cited` is exactly the number of citing papers.
 */
import { lomax, Weighted } from './distributions.ts';
import { FIRST_YEAR } from './plan.ts';
import type { RandomSource } from './prng.ts';

/** Share of a paper's references that point inside the generated set. */
const INTERNAL_SHARE = 0.44;
const AGE_SCALE_YEARS = 6;

/** Mean references per paper in year y (about 30 in 2000, 45 in 2019). */
export function meanReferences(year: number): number {
  return Math.max(20, 30 + ((year - 2000) * 15) / 19);
}

export class CitationModel {
  /** Attractiveness of each paper. */
  readonly fitness: Float32Array;
  /** Running sum of fitness within the paper's year (inclusive). */
  private readonly prefix: Float64Array;
  /** For each citing year: a distribution over cited years FIRST_YEAR..y. */
  private readonly ageTables: Weighted[];

  constructor(
    private readonly random: RandomSource,
    private readonly starts: Int32Array,
  ) {
    const n = starts[starts.length - 1] as number;
    this.fitness = new Float32Array(n);
    this.prefix = new Float64Array(n);
    const years = starts.length - 1;
    for (let y = 0; y < years; y++) {
      let sum = 0;
      for (let i = starts[y] as number; i < (starts[y + 1] as number); i++) {
        // About one paper in nine is all but invisible (never or hardly ever cited).
        const dormant = random.uniform('publication', i, 'dormant') < 0.11 ? 0.01 : 1;
        const f = (lomax(random.uniform('publication', i, 'fitness'), 2) + 0.002) * dormant;
        this.fitness[i] = f;
        sum += f;
        this.prefix[i] = sum;
      }
    }
    this.ageTables = [];
    for (let y = 0; y < years; y++) {
      const w = new Float64Array(y + 1);
      for (let t = 0; t <= y; t++) {
        const size = (starts[t + 1] as number) - (starts[t] as number);
        w[t] = size * Math.exp(-(y - t) / AGE_SCALE_YEARS) * (t === y ? 0.3 : 1);
      }
      this.ageTables.push(new Weighted(w.some((v) => v > 0) ? w : Float64Array.of(1)));
    }
  }

  /**
   * The internal references of paper i (year y, review or not): distinct indexes of earlier
   * papers (earlier years, or earlier in the same year), in draw order.
   */
  references(i: number, year: number, review: boolean): number[] {
    const r = this.random.draws('publication', i, 'references');
    const yk = year - FIRST_YEAR;
    const mean = meanReferences(year) * INTERNAL_SHARE * (review ? 2.5 : 1);
    const wanted = Math.min(i, Math.max(0, Math.round(mean * Math.exp(0.45 * r.normal() - 0.1))));
    const out: number[] = [];
    const table = this.ageTables[yk];
    if (table === undefined || wanted === 0) return out;
    for (let tries = 0; out.length < wanted && tries < wanted * 3; tries++) {
      const t = table.sample(r.next());
      const lo = this.starts[t] as number;
      const hi = t === yk ? i : (this.starts[t + 1] as number);
      if (hi <= lo) continue;
      const total = this.prefix[hi - 1] as number;
      const u = r.next() * total;
      let a = lo;
      let b = hi - 1;
      while (a < b) {
        const mid = (a + b) >>> 1;
        if ((this.prefix[mid] as number) > u) b = mid;
        else a = mid + 1;
      }
      if (!out.includes(a)) out.push(a);
    }
    return out;
  }
}
