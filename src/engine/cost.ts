/**
 * A query's cost, estimated before it runs from its plan and the table statistics, in
 * "rows touched". It only has to sort queries into two classes (a one-page lookup versus a
 * whole-corpus facet), not to predict milliseconds, so the model is deliberately coarse:
 * the rows a filter keeps come from fixed selectivities per filter kind, a page of records
 * costs its rows (or every match when it must sort them all), and each facet or per-year
 * output reads every match once more per indicator.
 */
import type { FilterPlan, OutputPlan, SearchPlan } from '../compile/plan.ts';

/** Rows per source table, from the back end's statistics. */
export type TableStatistics = Readonly<Record<string, number>>;

export type CostClass = 'cheap' | 'expensive';

export interface QueryCost {
  /** Estimated rows touched. */
  readonly rows: number;
  readonly costClass: CostClass;
}

/** Rows touched above which a query runs in the expensive lane (configurable: query.cheapRowLimit). */
export const DEFAULT_CHEAP_ROW_LIMIT = 20_000;

/** Rows assumed for a table the statistics do not know (it may be new, or empty). */
const UNKNOWN_TABLE_ROWS = 100_000;

/**
 * @example estimateCost(plan('search publications where id = "pub.1" return publications'), { publications: 1e6 })
 * // { rows: 1, costClass: 'cheap' }
 */
export function estimateCost(
  plan: SearchPlan,
  stats: TableStatistics,
  cheapRowLimit = DEFAULT_CHEAP_ROW_LIMIT,
): QueryCost {
  const total = stats[plan.source] ?? UNKNOWN_TABLE_ROWS;
  let matched = plan.filter === undefined ? total : Math.max(1, total * selectivity(plan.filter, total));
  // A full-text match is read from its index: few rows unless the terms are common.
  if (plan.fullText !== undefined) matched = Math.max(1, matched * 0.05);
  const rows = Math.ceil(
    plan.outputs.reduce((sum, output) => sum + outputRows(output, matched), matched === total ? 0 : matched),
  );
  return { rows, costClass: rows > cheapRowLimit ? 'expensive' : 'cheap' };
}

/** The fraction of a table's rows a filter keeps. */
function selectivity(filter: FilterPlan, total: number): number {
  switch (filter.kind) {
    case 'and':
      return filter.items.reduce((s, item) => s * selectivity(item, total), 1);
    case 'or':
      return Math.min(
        1,
        filter.items.reduce((s, item) => s + selectivity(item, total), 0),
      );
    case 'not':
      return 1 - selectivity(filter.item, total);
    case 'compare':
      if (filter.op !== '=') return filter.op === '!=' ? 1 : 0.3;
      return isIdentifier(filter.field.name) ? 1 / Math.max(1, total) : 0.01;
    case 'in':
      return Math.min(1, filter.values.length * (isIdentifier(filter.field.name) ? 1 / Math.max(1, total) : 0.01));
    case 'range':
      return 0.2;
    case 'words':
      return 0.05;
    case 'empty':
    case 'count':
      return 0.5;
  }
}

function isIdentifier(field: string): boolean {
  return field === 'id' || field === 'doi' || field.endsWith('_id');
}

/** Rows an output reads beyond finding the matches. */
function outputRows(output: OutputPlan, matched: number): number {
  switch (output.kind) {
    case 'records':
      // The default order reads an index in order and stops; another order sorts every match.
      return output.order.by === 'default' ? output.skip + output.limit : matched + output.skip + output.limit;
    case 'facet':
      return matched * (1 + output.indicators.length) * (output.multi ? 3 : 1);
    case 'citations_per_year':
      // Every citing link of every match, grouped by year.
      return matched * 5;
    case 'funding_per_year':
      // Every match's amount spread over its active years.
      return matched * 3;
  }
}
