/**
 * Runs compiled statements on a better-sqlite3 connection and builds the executed result:
 * the total count, record pages (JSON document + columns + entity fields filled per page)
 * and facet rows with their display fields.
 */
import type Database from 'better-sqlite3';
import type {
  CompiledCitations,
  CompiledFacet,
  CompiledRecords,
  CompiledSearch,
} from '../../../compile/compile-search.ts';
import { LIST_COLUMN_PREFIX } from '../../../compile/layout.ts';
import type { Sql, SqlParam } from '../../../compile/sql.ts';
import type { ExecutedFacet, ExecutedRecords, ExecutedRows, Row } from '../../shape.ts';

type DbRow = Record<string, unknown>;

/** Statements are prepared once per connection and reused (the text is the cache key). */
export class StatementCache {
  readonly #db: Database.Database;
  readonly #cache = new Map<string, Database.Statement>();
  readonly #plans = new Map<string, readonly string[]>();
  constructor(db: Database.Database) {
    this.#db = db;
  }
  get(sql: string): Database.Statement {
    let stmt = this.#cache.get(sql);
    if (stmt === undefined) {
      stmt = this.#db.prepare(sql);
      if (this.#cache.size > 500) this.#cache.clear();
      this.#cache.set(sql, stmt);
    }
    return stmt;
  }

  /** SQLite's plan for a statement (EXPLAIN QUERY PLAN's steps), asked once per statement text. */
  plan(sql: Sql): readonly string[] {
    let steps = this.#plans.get(sql.text);
    if (steps === undefined) {
      steps = (this.#db.prepare(`EXPLAIN QUERY PLAN ${sql.text}`).all(...sql.params) as Array<{ detail: string }>).map(
        (step) => step.detail,
      );
      if (this.#plans.size > 500) this.#plans.clear();
      this.#plans.set(sql.text, steps);
    }
    return steps;
  }

  /**
   * Whether a statement sorts all its rows before the LIMIT (a temporary B-tree for the
   * whole ORDER BY), rather than reading an index in order and stopping early.
   */
  sortsEveryRow(sql: Sql): boolean {
    return this.plan(sql).includes('USE TEMP B-TREE FOR ORDER BY');
  }

  /** Whether a statement reads one covering index and nothing else (a count that is cheap by itself). */
  readsOneCoveringIndex(sql: Sql): boolean {
    const steps = this.plan(sql);
    return steps.length === 1 && steps[0]?.includes(' USING COVERING INDEX ') === true;
  }
}

export interface ExecutedStatements {
  readonly totalCount: number;
  readonly results: ReadonlyArray<ExecutedRecords | ExecutedFacet | ExecutedRows>;
}

export function executeCompiled(cache: StatementCache, compiled: CompiledSearch): ExecutedStatements {
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
  const results = compiled.outputs.map((o) => {
    switch (o.kind) {
      case 'records': {
        if (o !== counting) return executeRecords(cache, o, o.page);
        const executed = executeRecords(cache, o, o.pageWithTotal);
        totalCount = executed.total;
        return executed;
      }
      case 'facet':
        return executeFacet(cache, o);
      case 'citations_per_year':
        return executeCitations(cache, o);
    }
  });
  // An empty page carries no count (skip past the end, or nothing matched).
  totalCount ??= (cache.get(compiled.count.text).get(...compiled.count.params) as { n: number }).n;
  return { totalCount, results };
}

function all(cache: StatementCache, sql: string, params: readonly SqlParam[]): DbRow[] {
  return cache.get(sql).all(...params) as DbRow[];
}

/** `IN (?, ?, ...)` for a list of keys. */
function inList(n: number): string {
  return `(${Array.from({ length: n }, () => '?').join(', ')})`;
}

/** The records of a page; `total` is the page's `__total` column when it has one and a row. */
function executeRecords(
  cache: StatementCache,
  compiled: CompiledRecords,
  page: Sql,
): ExecutedRecords & { readonly total: number | undefined } {
  const rows = all(cache, page.text, page.params);
  const records = new Map<unknown, Record<string, unknown>>();
  const first = rows[0];
  const total = typeof first?.__total === 'number' ? first.__total : undefined;
  const columns =
    first === undefined ? [] : Object.keys(first).filter((k) => k !== '__key' && k !== '__doc' && k !== '__total');
  for (const row of rows) {
    const raw = row.__doc;
    // The parsed document becomes the record; column values are written onto it.
    const record = (typeof raw === 'string' && raw.length > 2 ? JSON.parse(raw) : {}) as Record<string, unknown>;
    for (const k of columns) {
      const v = row[k];
      if (v !== null) record[k] = v;
    }
    records.set(row.__key, record);
  }
  const keys = [...records.keys()] as SqlParam[];
  if (keys.length > 0) {
    for (const step of compiled.hydrate) {
      const linked = all(cache, step.sqlPrefix + inList(keys.length), [...step.params, ...keys]);
      const byKey = new Map<unknown, unknown[]>();
      for (const { __key, ...value } of linked) {
        const item = step.entity === undefined ? value.id : entityRow(value);
        const list = byKey.get(__key);
        if (list === undefined) byKey.set(__key, [item]);
        else list.push(item);
      }
      for (const [key, record] of records) {
        const values = byKey.get(key);
        if (step.multi) {
          if (values !== undefined) record[step.field] = values;
          else if (!Array.isArray(record[step.field])) delete record[step.field];
        } else if (values !== undefined) {
          record[step.field] = values[0];
        }
      }
    }
  }
  return { output: compiled.output, records: [...records.values()], total };
}

function executeFacet(cache: StatementCache, compiled: CompiledFacet): ExecutedFacet {
  const rows = all(cache, compiled.statement.text, compiled.statement.params).map(roundIndicators);
  if (compiled.display === undefined || rows.length === 0) return { output: compiled.output, rows };
  const ids = rows.map((r) => r.id as SqlParam);
  const details = new Map<unknown, DbRow>();
  for (const d of all(cache, compiled.display.sqlPrefix + inList(ids.length), ids)) details.set(d.id, entityRow(d));
  const shaped = rows.map((r): Row => {
    const { id, count, ...indicators } = r;
    return { id, count, ...(details.get(id) ?? {}), ...indicators };
  });
  return { output: compiled.output, rows: shaped };
}

/** An entity's display row: nulls dropped, list columns parsed (empty lists dropped). */
function entityRow(row: DbRow): DbRow {
  const out: DbRow = {};
  for (const [k, v] of Object.entries(row)) {
    if (v === null) continue;
    if (k.startsWith(LIST_COLUMN_PREFIX)) {
      const list = typeof v === 'string' ? (JSON.parse(v) as unknown[]) : [];
      if (list.length > 0) out[k.slice(LIST_COLUMN_PREFIX.length)] = list;
    } else {
      out[k] = v;
    }
  }
  return out;
}

/** Averages and medians as plain numbers with a sensible precision. */
function roundIndicators(row: DbRow): DbRow {
  const out: DbRow = {};
  for (const [k, v] of Object.entries(row))
    out[k] = typeof v === 'number' && !Number.isInteger(v) ? Math.round(v * 1e4) / 1e4 : v;
  return out;
}

/** One row per year from `from` to `to`, zeros included. */
function executeCitations(cache: StatementCache, compiled: CompiledCitations): ExecutedRows {
  const counts = new Map<number, number>();
  for (const r of all(cache, compiled.statement.text, compiled.statement.params))
    counts.set(Number(r.year), Number(r.count));
  const rows: Row[] = [];
  for (let year = compiled.output.from; year <= compiled.output.to; year++)
    rows.push({ year, count: counts.get(year) ?? 0 });
  return { output: compiled.output, rows };
}
