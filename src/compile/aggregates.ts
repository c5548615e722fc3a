/**
 * Facet indicators as SQL aggregates over the matching records `s`: sums and averages are
 * standard SQL, the median is the dialect's, the geometric mean uses `exp` and `ln`.
 */
import type { Indicator } from './plan.ts';
import { accessField } from './access.ts';
import type { Dialect } from './dialect.ts';
import type { SourceLayout } from './layout.ts';

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

/** The record field an indicator reads (undefined for `count`). */
export function indicatorField(indicator: Indicator): string | undefined {
  return indicator === 'count' ? undefined : INDICATOR_FIELD[indicator].field;
}

/** How an indicator summarises its field (the same in SQL and in the engine's in-memory facets). */
export function indicatorAggregation(indicator: Exclude<Indicator, 'count'>): {
  readonly field: string;
  readonly integer: boolean;
  readonly aggregation: 'sum' | 'avg' | 'median' | 'geometric_mean';
} {
  const spec = INDICATOR_FIELD[indicator];
  const integer = spec.type === 'integer';
  switch (indicator) {
    case 'citations_total':
    case 'recent_citations_total':
    case 'funding':
      return { field: spec.field, integer, aggregation: 'sum' };
    case 'citations_avg':
    case 'altmetric_avg':
    case 'rcr_avg':
      return { field: spec.field, integer, aggregation: 'avg' };
    case 'citations_median':
    case 'altmetric_median':
      return { field: spec.field, integer, aggregation: 'median' };
    case 'fcr_gavg':
      return { field: spec.field, integer, aggregation: 'geometric_mean' };
  }
}

/**
 * @example indicatorSql(sqliteDialect, pubs, 'fcr_gavg')
 *   // 'exp(avg(ln(s."field_citation_ratio" + 1))) - 1'
 */
export function indicatorSql(dialect: Dialect, source: SourceLayout, indicator: Indicator): string {
  if (indicator === 'count') return 'count(*)';
  const spec = INDICATOR_FIELD[indicator];
  const access = accessField(dialect, source, { name: spec.field, type: spec.type, multi: false });
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
      return dialect.median(x);
    case 'fcr_gavg':
      // Geometric mean with the usual +1 offset, so records with a ratio of 0 take part.
      return `exp(avg(ln(${x} + 1))) - 1`;
  }
}
