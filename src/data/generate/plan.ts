/**
 * How many records of each kind a run makes, scaled by ratio from the counts per 1,000,000
 * publications of spec/generator.md (with floors so tiny runs still have every kind, and
 * caps where an identifier format runs out of digits).
 */

export const FIRST_YEAR = 1995;
export const LAST_YEAR = 2025;
export const GRANT_FIRST_YEAR = 1989;
/** Yearly growth of output (publications and grants). */
export const GROWTH = 1.04;

export interface Plan {
  readonly publications: number;
  /** Research organizations (authors' affiliations). */
  readonly organizations: number;
  /** Funder organizations (written with the organizations). */
  readonly funders: number;
  /** Funders that have grant records. */
  readonly grantFunders: number;
  readonly grants: number;
  readonly journals: number;
}

/** The counts for a run of `publications` publications. */
export function planFor(publications: number): Plan {
  const per = (n: number): number => Math.round((n * publications) / 1_000_000);
  const funders = Math.min(20_000, Math.max(10, per(3_000)));
  return {
    publications,
    organizations: Math.min(80_000, Math.max(40, per(25_000))),
    funders,
    grantFunders: Math.min(funders, Math.max(4, per(400))),
    grants: Math.min(1_000_000, Math.max(20, per(100_000))),
    journals: Math.min(99_999, Math.max(20, per(8_000))),
  };
}

/**
 * Start index of each year when `count` items grow by GROWTH a year from `first` to `last`:
 * result[y - first] is the first index of year y; result[last - first + 1] === count.
 */
export function yearStarts(count: number, first: number, last: number): Int32Array {
  const years = last - first + 1;
  let total = 0;
  for (let k = 0; k < years; k++) total += Math.pow(GROWTH, k);
  const starts = new Int32Array(years + 1);
  let cum = 0;
  for (let k = 0; k < years; k++) {
    starts[k] = Math.round((count * cum) / total);
    cum += Math.pow(GROWTH, k);
  }
  starts[years] = count;
  return starts;
}

/** The year of item `index` given yearStarts (binary search). */
export function yearOfIndex(starts: Int32Array, first: number, index: number): number {
  let lo = 0;
  let hi = starts.length - 2;
  while (lo < hi) {
    const mid = (lo + hi + 1) >>> 1;
    if ((starts[mid] as number) <= index) lo = mid;
    else hi = mid - 1;
  }
  return first + lo;
}
