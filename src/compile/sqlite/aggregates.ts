/**
 * Facet indicators as SQLite aggregates over the matching records `s`. Medians use the
 * `quarry_median` aggregate and the geometric mean SQLite's math functions; the engine
 * registers `quarry_median` on every connection (`engine/sqlite/functions.ts`).
 */
import type { Indicator } from '../plan.ts';
import { accessField } from './access.ts';
import type { SourceLayout } from '../layout.ts';

/** The aggregate a caller-registered function must provide. */
export const MEDIAN_FUNCTION = 'quarry_median';

/** The per-record field each indicator summarises. */
const INDICATOR_FIELD: Readonly<Record<Exclude<Indicator, 'count'>, { field: string; type: 'integer' | 'float' }>> = {
  citations_total: { field: 'times_cited', type: 'integer' },
  citations_avg: { field: 'times_cited', type: 'integer' },
  citations_median: { field: 'times_cited', type: 'integer' },
  recent_citations_total: { field: 'recent_citations', type: 'integer' },
  altmetric_avg: { field: 'altmetric', type: 'float' },
  altmetric_median: { field: 'altmetric', type: 'float' },
  rcr_avg: { field: 'relative_citation_ratio', type: 'float' },
  fcr_gavg: { field: 'field_citation_ratio', type: 'float' },
  funding: { field: 'funding_usd', type: 'float' },
};

/**
 * @example indicatorSql(layout, 'fcr_gavg')
 *   // 'exp(avg(ln(s."field_citation_ratio" + 1))) - 1'
 */
export function indicatorSql(source: SourceLayout, indicator: Indicator): string {
  if (indicator === 'count') return 'count(*)';
  const spec = INDICATOR_FIELD[indicator];
  const access = accessField(source, { name: spec.field, type: spec.type, multi: false });
  if (access.kind !== 'scalar') throw new Error(`indicator field ${spec.field} is not single-valued`);
  const x = access.expr;
  switch (indicator) {
    case 'citations_total':
    case 'recent_citations_total':
    case 'funding':
      return `coalesce(sum(${x}), 0)`;
    case 'citations_avg':
    case 'altmetric_avg':
    case 'rcr_avg':
      return `avg(${x})`;
    case 'citations_median':
    case 'altmetric_median':
      return `${MEDIAN_FUNCTION}(${x})`;
    case 'fcr_gavg':
      // Geometric mean with the usual +1 offset, so records with a ratio of 0 take part.
      return `exp(avg(ln(${x} + 1))) - 1`;
  }
}

/** The median of the non-null numbers, or null; what `quarry_median` computes. */
export function median(values: readonly number[]): number | null {
  if (values.length === 0) return null;
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 === 1
    ? (sorted[mid] as number)
    : ((sorted[mid - 1] as number) + (sorted[mid] as number)) / 2;
}
