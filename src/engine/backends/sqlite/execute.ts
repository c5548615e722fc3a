/**
 * Runs compiled statements on a better-sqlite3 connection (the rows become results in
 * `../../compiled-rows.ts`): the total count, record pages with their entity fields, facet
 * rows with their display fields; and asks SQLite's planner whether a page sorts every match.
 */
import type {
  CompiledPerYear,
  CompiledFacet,
  CompiledRecords,
  CompiledSearch,
} from '../../../compile/compile-search.ts';
import type { Sql, SqlParam } from '../../../compile/sql.ts';
import {
  applyHydrate,
  perYearValues,
  facetRows,
  inList,
  pageKeys,
  pageRecords,
  pageRecordsOfArrays,
  recordsById,
  withDisplay,
  withEntityRecords,
  type DbRow,
} from '../../compiled-rows.ts';
import type { ExecutedFacet, ExecutedPerYear, ExecutedRecords } from '../../shape.ts';
import { matchingKeys, type ColumnarFacets } from './columnar-facets.ts';
import type { StatementCache } from './statement-cache.ts';
import { countDistinct } from '../../columnar/distinct-count.ts';

export interface ExecutedStatements {
  readonly totalCount: number;
  readonly results: ReadonlyArray<ExecutedRecords | ExecutedFacet | ExecutedPerYear>;
}

/** `columnar`, when given, answers the link facets it holds from memory (`columnar-facets.ts`). */
export function executeCompiled(
  cache: StatementCache,
  compiled: CompiledSearch,
  columnar?: ColumnarFacets,
): ExecutedStatements {
  // Before anything else (the plans asked below may read what it creates).
  for (const step of compiled.prelude ?? []) cache.get(step.text).run(...step.params);
  // A page that looks at every match anyway counts them too (one pass over the filter, not
  // two) — unless the count alone is a read of one covering index: then counting beside the
  // page costs more (every match is kept for the window, not just the top LIMIT rows).
  const counting = compiled.outputs.find(
    (o): o is CompiledRecords =>
      o.kind === 'records' &&
      (o.totalFromPage === 'always' ||
        (o.totalFromPage === 'if-sorting-every-row' &&
          cache.sortsEveryRow(o.page) &&
          !cache.readsOneCoveringIndex(compiled.count))),
  );
  let totalCount: number | undefined;
  // The matching keys the in-memory facets of this search have read (they share them).
  const searchMatches = new Map<string, Int32Array>();
  const results = compiled.outputs.map((o) => {
    switch (o.kind) {
      case 'records': {
        if (o !== counting) return executeRecords(cache, o, o.page);
        const executed = executeRecords(cache, o, o.pageWithTotal);
        totalCount = executed.total;
        return executed;
      }
      case 'facet': {
        const fromMemory = columnar?.rows(cache, o, searchMatches);
        if (fromMemory === undefined)
          return executeFacet(cache, o, facetRows(o, all(cache, o.statement.text, o.statement.params)));
        // The facet read every matching key: their number is the search's total (the count
        // statement selects the same records).
        totalCount ??= fromMemory.matched;
        return executeFacet(cache, o, facetRows(o, fromMemory.rows));
      }
      case 'per_year':
        return executePerYear(cache, o);
    }
  });
  // An empty page carries no count (skip past the end, or nothing matched).
  totalCount ??=
    compiled.countKeys === undefined
      ? (cache.get(compiled.count.text).get(...compiled.count.params) as { n: number }).n
      : countDistinct(matchingKeys(cache, compiled.countKeys.text, compiled.countKeys.params));
  return { totalCount, results };
}

function all(cache: StatementCache, sql: string, params: readonly SqlParam[]): DbRow[] {
  return cache.get(sql).all(...params) as DbRow[];
}

/** A statement's rows as arrays, with its column names (the statement is shared: its mode is put back). */
function allArrays(
  cache: StatementCache,
  sql: string,
  params: readonly SqlParam[],
): { readonly names: string[]; readonly rows: unknown[][] } {
  const statement = cache.get(sql);
  statement.raw(true);
  try {
    return { names: statement.columns().map((c) => c.name), rows: statement.all(...params) as unknown[][] };
  } finally {
    statement.raw(false);
  }
}

/** The records of a page; `total` is the page's `__total` column when it has one and a row. */
function executeRecords(
  cache: StatementCache,
  compiled: CompiledRecords,
  page: Sql,
): ExecutedRecords & { readonly total: number | undefined } {
  const { names, rows } = allArrays(cache, page.text, page.params);
  const { records, total } = pageRecordsOfArrays(names, rows, cache.unpack);
  const keys = pageKeys(records);
  if (keys.length > 0) {
    for (const step of compiled.hydrate)
      applyHydrate(
        records,
        step,
        all(cache, step.sqlPrefix + inList(keys.length) + step.sqlSuffix, [...step.params, ...keys]),
      );
  }
  return { output: compiled.output, records: [...records.values()], total };
}

/** A facet's rows (`rows`, best first) with their display fields or entity records. */
function executeFacet(cache: StatementCache, compiled: CompiledFacet, rows: DbRow[]): ExecutedFacet {
  if (rows.length === 0) return { output: compiled.output, rows };
  const ids = rows.map((r) => r.id as SqlParam);
  if (compiled.records !== undefined) {
    const found = all(cache, compiled.records.sqlPrefix + inList(ids.length), ids);
    const { records } = pageRecords(found, cache.unpack);
    const keys = pageKeys(records);
    if (keys.length > 0) {
      for (const step of compiled.records.hydrate)
        applyHydrate(
          records,
          step,
          all(cache, step.sqlPrefix + inList(keys.length) + step.sqlSuffix, [...step.params, ...keys]),
        );
    }
    return withEntityRecords(compiled, rows, recordsById(found, records));
  }
  if (compiled.display === undefined) return { output: compiled.output, rows };
  return withDisplay(compiled, rows, all(cache, compiled.display.sqlPrefix + inList(ids.length), ids));
}

/** From the per-year tables while they match the records (their freshness row is there), else by the direct SQL. */
function executePerYear(cache: StatementCache, compiled: CompiledPerYear): ExecutedPerYear {
  const pre = compiled.preAggregated;
  const fresh = pre !== undefined && all(cache, pre.fresh.text, pre.fresh.params).length > 0;
  const statement = fresh ? pre.statement : compiled.statement;
  return perYearValues(compiled, all(cache, statement.text, statement.params));
}
