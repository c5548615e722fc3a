/**
 * Samplers over tabulated distributions: each turns one uniform draw into a value, so
 * they compose with the counter-based random source.
 */

/** Discrete distribution over indexes 0..n-1 with the given weights (inverse CDF by binary search). */
export class Weighted {
  private readonly cdf: Float64Array;
  constructor(weights: ArrayLike<number>) {
    this.cdf = new Float64Array(weights.length);
    let sum = 0;
    for (let k = 0; k < weights.length; k++) {
      sum += Math.max(0, weights[k] as number);
      this.cdf[k] = sum;
    }
    if (!(sum > 0)) throw new Error('a weighted distribution needs a positive weight');
    for (let k = 0; k < this.cdf.length; k++) this.cdf[k] = (this.cdf[k] as number) / sum;
  }

  get size(): number {
    return this.cdf.length;
  }

  /** The index whose CDF interval holds u in [0, 1). */
  sample(u: number): number {
    const cdf = this.cdf;
    let lo = 0;
    let hi = cdf.length - 1;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if ((cdf[mid] as number) > u) hi = mid;
      else lo = mid + 1;
    }
    return lo;
  }

  /** Probability of index k. */
  probability(k: number): number {
    return (this.cdf[k] as number) - (k > 0 ? (this.cdf[k - 1] as number) : 0);
  }
}

/** Zipf weights 1/(rank+1)^s over n items. */
export function zipfWeights(n: number, s: number): Float64Array {
  const w = new Float64Array(n);
  for (let k = 0; k < n; k++) w[k] = 1 / Math.pow(k + 1, s);
  return w;
}

/**
 * A fast Zipf sampler for word draws: a quantised inverse CDF (2^16 cells), so one draw is
 * one table look-up. The quantisation only affects words rarer than 1/65536.
 */
export class ZipfTable {
  private readonly table: Uint16Array | Uint32Array;
  constructor(n: number, s: number) {
    const cells = 1 << 16;
    const weighted = new Weighted(zipfWeights(n, s));
    this.table = n <= 65535 ? new Uint16Array(cells) : new Uint32Array(cells);
    for (let c = 0; c < cells; c++) this.table[c] = weighted.sample((c + 0.5) / cells);
  }

  sample(u: number): number {
    return this.table[Math.floor(u * 65536)] as number;
  }
}

/** Lotka's law: P(n) ∝ n^-exponent for n in 1..max. */
export function lotka(exponent: number, max: number): Weighted {
  const w = new Float64Array(max);
  for (let n = 1; n <= max; n++) w[n - 1] = Math.pow(n, -exponent);
  return new Weighted(w);
}

/** A Lomax (Pareto II) deviate with shape alpha and scale 1 from u in [0, 1): heavy tail, mean 1/(alpha-1). */
export function lomax(u: number, alpha: number): number {
  return Math.pow(1 - u, -1 / alpha) - 1;
}

/**
 * The maximum-likelihood exponent of a discrete power law truncated at the largest value
 * (golden-section search over the log-likelihood). Used by the validation report.
 */
export function estimatePowerLawExponent(countsByValue: ArrayLike<number>): number {
  // countsByValue[v] = how many items have value v (v >= 1)
  let n = 0;
  let sumLog = 0;
  let max = 1;
  for (let v = 1; v < countsByValue.length; v++) {
    const c = countsByValue[v] as number;
    if (c > 0) {
      n += c;
      sumLog += c * Math.log(v);
      max = v;
    }
  }
  if (n === 0) return NaN;
  const logLik = (a: number): number => {
    let z = 0;
    for (let v = 1; v <= max; v++) z += Math.pow(v, -a);
    return -a * sumLog - n * Math.log(z);
  };
  let lo = 1.01;
  let hi = 5;
  const g = (Math.sqrt(5) - 1) / 2;
  for (let k = 0; k < 60; k++) {
    const a = hi - g * (hi - lo);
    const b = lo + g * (hi - lo);
    if (logLik(a) > logLik(b)) hi = b;
    else lo = a;
  }
  return (lo + hi) / 2;
}
