/**
 * A facet over a link field computed from in-memory columns: the matching record keys, the
 * link column (record → linked value ordinals) and one number column per indicator
 * (record → value, NaN for NULL). It gives the rows the SQL facet gives (`facets.ts`):
 * per value `count(*)` of the matching link rows and each indicator, ordered by the sort
 * key (NULLs last), then `count` descending, then id ascending, the first `limit` kept.
 *
 * Indicators follow SQLite's own arithmetic so the answers agree: integer sums are exact;
 * real sums and averages use the Kahan-Babuska-Neumaier summation SQLite's `sum`/`avg`
 * use; the median is the percentile extension's (the mean of the middle two by
 * `v1 + (v2 - v1) * 0.5`); `ln` of a non-positive number is NULL. Values reach callers
 * rounded to four decimals (`compiled-rows.ts`), as the SQL ones do.
 */
import type { LinkColumn } from './link-column.ts';
import { topK } from './top-k.ts';

export type Aggregation = 'sum' | 'avg' | 'median' | 'geometric_mean';

export interface Measure {
  /** The row's column name (the indicator, `rcr_avg`). */
  readonly name: string;
  readonly aggregation: Aggregation;
  /** An integer field: its sum is exact and `coalesce(sum, 0)` gives 0 over no values. */
  readonly integer: boolean;
  /** The field per record key; NaN where the record has no value (beyond the end too). */
  readonly column: Float64Array;
}

export interface FacetRequest {
  readonly link: LinkColumn;
  /** The matching record keys; undefined when every record matches. */
  readonly matches: Int32Array | undefined;
  readonly measures: readonly Measure[];
  /** `count` or the name of one of the measures. */
  readonly sortBy: string;
  readonly direction: 'asc' | 'desc';
  readonly limit: number;
}

export type FacetRow = Record<string, string | number | null>;

interface Accumulated {
  readonly counts: Int32Array;
  /** Per measure (sums, averages, geometric means): running sum, its error term, non-null count. */
  readonly sums: Array<{ sum: Float64Array; err: Float64Array; n: Int32Array } | undefined>;
}

/** The facet's rows, `id`, `count` and each measure, best first. */
export function aggregateFacet(request: FacetRequest): FacetRow[] {
  const { link, measures } = request;
  const acc = accumulate(request);
  const sortIndex = request.sortBy === 'count' ? -1 : measures.findIndex((m) => m.name === request.sortBy);
  if (request.sortBy !== 'count' && sortIndex < 0) throw new Error(`no measure ${request.sortBy} to sort by`);
  const sortMeasure = measures[sortIndex];
  const groups = link.ids.length;
  let sortValues: Float64Array | undefined;
  if (sortMeasure !== undefined) {
    // NaN marks a NULL: it sorts after every value, whatever the direction.
    sortValues = new Float64Array(groups);
    const medians = sortMeasure.aggregation === 'median' ? medianValues(request, sortMeasure, undefined) : undefined;
    for (let g = 0; g < groups; g++)
      sortValues[g] = acc.counts[g] === 0 ? NaN : finalValue(acc, sortIndex, sortMeasure, g, medians?.get(g));
  }
  const counts = acc.counts;
  const desc = request.direction === 'desc';
  const before = (a: number, b: number): boolean => {
    if (sortValues !== undefined) {
      const x = sortValues[a] as number;
      const y = sortValues[b] as number;
      const xNull = Number.isNaN(x);
      const yNull = Number.isNaN(y);
      if (xNull !== yNull) return yNull;
      if (!xNull && x !== y) return desc ? x > y : x < y;
      // Then count descending, whatever the direction of the sort key.
      if (counts[a] !== counts[b]) return (counts[a] as number) > (counts[b] as number);
    } else if (counts[a] !== counts[b]) {
      return desc ? (counts[a] as number) > (counts[b] as number) : (counts[a] as number) < (counts[b] as number);
    }
    return a < b;
  };
  const kept = topK(present(counts), request.limit, before);
  const wanted = new Set(kept);
  const medians = new Map<Measure, Map<number, number | null>>();
  for (const m of measures)
    if (m.aggregation === 'median' && m !== sortMeasure) medians.set(m, medianValues(request, m, wanted));
  return kept.map((g) => {
    const row: FacetRow = { id: link.ids[g] as string | number, count: counts[g] as number };
    measures.forEach((m, i) => {
      if (m === sortMeasure && sortValues !== undefined) {
        const v = sortValues[g] as number;
        row[m.name] = Number.isNaN(v) ? null : v;
      } else {
        const v = finalValue(acc, i, m, g, medians.get(m)?.get(g));
        row[m.name] = Number.isNaN(v) ? null : v;
      }
    });
    return row;
  });
}

function* present(counts: Int32Array): Generator<number> {
  for (let g = 0; g < counts.length; g++) if ((counts[g] as number) > 0) yield g;
}

/** One pass over the matches' link rows: counts, and the sums of every summing measure. */
function accumulate(request: FacetRequest): Accumulated {
  const { link, matches, measures } = request;
  const groups = link.ids.length;
  const counts = new Int32Array(groups);
  const sums = measures.map((m) =>
    m.aggregation === 'median'
      ? undefined
      : { sum: new Float64Array(groups), err: new Float64Array(groups), n: new Int32Array(groups) },
  );
  const { offsets, values } = link;
  const lastKey = offsets.length - 2;
  const visit = (key: number): void => {
    if (key < 0 || key > lastKey) return;
    const end = offsets[key + 1] as number;
    for (let j = offsets[key] as number; j < end; j++) {
      const g = values[j] as number;
      counts[g] = (counts[g] as number) + 1;
      for (let i = 0; i < measures.length; i++) {
        const s = sums[i];
        if (s === undefined) continue;
        const m = measures[i] as Measure;
        let x = key < m.column.length ? (m.column[key] as number) : NaN;
        if (m.aggregation === 'geometric_mean') x = x + 1 > 0 ? Math.log(x + 1) : NaN;
        if (Number.isNaN(x)) continue;
        s.n[g] = (s.n[g] as number) + 1;
        if (m.integer && m.aggregation !== 'geometric_mean') {
          s.sum[g] = (s.sum[g] as number) + x;
        } else {
          // Kahan-Babuska-Neumaier, as SQLite's sum() and avg() over reals.
          const total = s.sum[g] as number;
          const t = total + x;
          s.err[g] = (s.err[g] as number) + (Math.abs(total) > Math.abs(x) ? total - t + x : x - t + total);
          s.sum[g] = t;
        }
      }
    }
  };
  if (matches === undefined) {
    for (let key = 0; key <= lastKey; key++) visit(key);
  } else {
    for (let i = 0; i < matches.length; i++) visit(matches[i] as number);
  }
  return { counts, sums };
}

/** A measure's value for group `g` (NaN for NULL); `median` is the group's median when the measure is one. */
function finalValue(acc: Accumulated, index: number, m: Measure, g: number, median: number | null | undefined): number {
  if (m.aggregation === 'median') return median === undefined || median === null ? NaN : median;
  const s = acc.sums[index];
  if (s === undefined) return NaN;
  const n = s.n[g] as number;
  const total = (s.sum[g] as number) + (s.err[g] as number);
  switch (m.aggregation) {
    case 'sum':
      // coalesce(sum(x), 0)
      return n === 0 ? 0 : total;
    case 'avg':
      return n === 0 ? NaN : total / n;
    case 'geometric_mean':
      return n === 0 ? NaN : Math.exp(total / n) - 1;
  }
}

/** The median of `m` per group, for the groups in `only` (every group when undefined). */
function medianValues(
  request: FacetRequest,
  m: Measure,
  only: ReadonlySet<number> | undefined,
): Map<number, number | null> {
  const { offsets, values } = request.link;
  const lastKey = offsets.length - 2;
  const byGroup = new Map<number, number[]>();
  const visit = (key: number): void => {
    if (key < 0 || key > lastKey) return;
    const end = offsets[key + 1] as number;
    const x = key < m.column.length ? (m.column[key] as number) : NaN;
    for (let j = offsets[key] as number; j < end; j++) {
      const g = values[j] as number;
      if (only !== undefined && !only.has(g)) continue;
      let list = byGroup.get(g);
      if (list === undefined) byGroup.set(g, (list = []));
      if (!Number.isNaN(x)) list.push(x);
    }
  };
  if (request.matches === undefined) {
    for (let key = 0; key <= lastKey; key++) visit(key);
  } else {
    for (let i = 0; i < request.matches.length; i++) visit(request.matches[i] as number);
  }
  const out = new Map<number, number | null>();
  for (const [g, list] of byGroup) out.set(g, medianOf(list));
  return out;
}

/** SQLite's percentile extension at 50%: sorted values, `v1 + (v2 - v1) * (ix - i1)`. */
export function medianOf(list: number[]): number | null {
  if (list.length === 0) return null;
  const sorted = Float64Array.from(list).sort();
  const ix = (sorted.length - 1) * 0.5;
  const i1 = Math.floor(ix);
  const i2 = ix === i1 || i1 === sorted.length - 1 ? i1 : i1 + 1;
  const v1 = sorted[i1] as number;
  const v2 = sorted[i2] as number;
  return v1 + (v2 - v1) * (ix - i1);
}
