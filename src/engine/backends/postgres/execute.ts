/**
 * Runs compiled statements on one PostgreSQL connection (inside the query's transaction)
 * and hands the rows to `../../compiled-rows.ts`: the total count, record pages with their
 * entity fields, facet rows with their display fields, citation years.
 */
import type pg from 'pg';
import type { CompiledRecords, CompiledSearch } from '../../../compile/compile-search.ts';
import { postgresDialect } from '../../../compile/postgres/dialect.ts';
import type { Sql, SqlParam } from '../../../compile/sql.ts';
import {
  applyHydrate,
  perYearValues,
  facetRows,
  inList,
  pageKeys,
  pageRecords,
  recordsById,
  withDisplay,
  withEntityRecords,
  type DbRow,
} from '../../compiled-rows.ts';
import type { ExecutedFacet, ExecutedPerYear, ExecutedRecords } from '../../shape.ts';

export interface ExecutedStatements {
  readonly totalCount: number;
  readonly results: ReadonlyArray<ExecutedRecords | ExecutedFacet | ExecutedPerYear>;
}

/**
 * PostgreSQL text cannot hold NUL, and the writer drops it from every stored value, so a
 * value is compared without its NULs too (the same records match as after the import).
 */
const bindable = (p: SqlParam): SqlParam => (typeof p === 'string' ? p.replaceAll('\0', '') : p);

async function all(client: pg.PoolClient, text: string, params: readonly SqlParam[]): Promise<DbRow[]> {
  return (await client.query<DbRow>(text, params.map(bindable))).rows;
}

/** `IN ($n+1, ...)` after a prefix with `n` parameters of its own. */
const marks = (count: number, before: number): string => inList(count, (n) => postgresDialect.placeholder(n), before);

export async function executePg(client: pg.PoolClient, compiled: CompiledSearch): Promise<ExecutedStatements> {
  let totalCount: number | undefined;
  const results: Array<ExecutedRecords | ExecutedFacet | ExecutedPerYear> = [];
  for (const step of compiled.prelude ?? []) await all(client, step.text, step.params);
  // A relevance page under a filter ranks every match anyway: it counts them too.
  const counting = compiled.outputs.find(
    (o): o is CompiledRecords => o.kind === 'records' && o.totalFromPage === 'always',
  );
  for (const o of compiled.outputs) {
    switch (o.kind) {
      case 'records': {
        const executed = await executeRecords(client, o, o === counting ? o.pageWithTotal : o.page);
        if (o === counting) totalCount = executed.total;
        results.push(executed);
        break;
      }
      case 'facet': {
        const rows = facetRows(o, await all(client, o.statement.text, o.statement.params));
        const ids = rows.map((r) => r.id as SqlParam);
        if (o.records !== undefined && rows.length > 0) {
          const found = await all(client, o.records.sqlPrefix + marks(ids.length, 0), ids);
          const { records } = pageRecords(found);
          const keys = pageKeys(records);
          if (keys.length > 0) {
            for (const step of o.records.hydrate) {
              const sql = step.sqlPrefix + marks(keys.length, step.params.length) + step.sqlSuffix;
              applyHydrate(records, step, await all(client, sql, [...step.params, ...keys]));
            }
          }
          results.push(withEntityRecords(o, rows, recordsById(found, records)));
          break;
        }
        if (o.display === undefined || rows.length === 0) {
          results.push({ output: o.output, rows });
          break;
        }
        results.push(withDisplay(o, rows, await all(client, o.display.sqlPrefix + marks(ids.length, 0), ids)));
        break;
      }
      case 'per_year': {
        // From the per-year tables while they match the records (their freshness row is there).
        const pre = o.preAggregated;
        const fresh = pre !== undefined && (await all(client, pre.fresh.text, pre.fresh.params)).length > 0;
        const statement = fresh ? pre.statement : o.statement;
        results.push(perYearValues(o, await all(client, statement.text, statement.params)));
        break;
      }
    }
  }
  // An empty page carries no count (skip past the end, or nothing matched).
  totalCount ??= Number((await all(client, compiled.count.text, compiled.count.params))[0]?.n ?? 0);
  return { totalCount, results };
}

async function executeRecords(
  client: pg.PoolClient,
  compiled: CompiledRecords,
  page: Sql,
): Promise<ExecutedRecords & { readonly total: number | undefined }> {
  const { records, total } = pageRecords(await all(client, page.text, page.params));
  const keys = pageKeys(records);
  if (keys.length > 0) {
    for (const step of compiled.hydrate) {
      const sql = step.sqlPrefix + marks(keys.length, step.params.length) + step.sqlSuffix;
      applyHydrate(records, step, await all(client, sql, [...step.params, ...keys]));
    }
  }
  return { output: compiled.output, records: [...records.values()], total };
}
