/**
 * Facets and aggregates on the same data, three ways: the tuned SQLite layout in SQL
 * (narrow side tables, stored link counts, built-in median); the engine as it runs, whose
 * link facets count over in-memory columns fed the matching keys by SQLite
 * (`engine/backends/sqlite/columnar-facets.ts`); and DuckDB (columnar, `@duckdb/node-api`)
 * over the same columns copied from the SQLite file at start, fed the match set of a word
 * from SQLite's full-text index (DuckDB has no full-text index of its own offline). Prints
 * p50 per shape for each, and each columnar path's load time and memory.
 *
 *   npx tsx bench/engine-comparison.ts --db /tmp/quarry-synthetic-100000.db [--runs 11]
 *
 * Also run as one section of bench/goals.ts.
 */
import { performance } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import type Database from 'better-sqlite3';
import { SqliteQueryContext } from '../src/engine/backends/sqlite/query-context.ts';
import type { QueryResult } from '../src/engine/types.ts';
import { openReadOnly } from '../src/store/sqlite/open.ts';

interface DuckConnection {
  run(sql: string): Promise<unknown>;
  runAndReadAll(sql: string): Promise<{ getRowObjectsJS(): Record<string, unknown>[] }>;
  createAppender(table: string): Promise<DuckAppender>;
  closeSync(): void;
}
interface DuckAppender {
  appendInteger(v: number): void;
  appendBigInt(v: bigint): void;
  appendDouble(v: number): void;
  appendVarchar(v: string): void;
  appendNull(): void;
  endRow(): void;
  flushSync(): void;
  closeSync(): void;
}

export interface ComparisonRow {
  readonly shape: string;
  /** SQLite answering the facet in SQL. */
  readonly sqliteMs: number;
  /** The engine: link facets from in-memory columns (the rest in SQL). */
  readonly memoryMs: number;
  readonly duckdbMs: number;
  /** All three answered the same top rows (ids and counts). */
  readonly same: boolean;
}

export interface Comparison {
  /** DuckDB: loading the columns, and the memory they took. */
  readonly loadMs: number;
  readonly rssDeltaMb: number;
  /** The engine's in-memory columns: the first run of every shape (which reads them), and the bytes they hold. */
  readonly memoryLoadMs: number;
  readonly memoryHeldMb: number;
  readonly rows: readonly ComparisonRow[];
}

function run(ctx: SqliteQueryContext, dsl: string): QueryResult {
  return ctx.run(dsl, { dslVersion: 2 });
}

const median = (xs: number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  return s[s.length >> 1] ?? NaN;
};

/** Copies the narrow publication columns and two link tables into an in-memory DuckDB. */
async function loadDuckDb(db: Database.Database): Promise<DuckConnection> {
  // Not a dependency: npm ci from a lock made on one platform fails without DuckDB's other
  // platforms' optional bindings. Install it for this benchmark: npm install --no-save @duckdb/node-api
  const duckdbPackage = '@duckdb/node-api';
  const loaded: unknown = await import(duckdbPackage).catch(() => {
    throw new Error(`the engine comparison needs DuckDB: npm install --no-save ${duckdbPackage}`);
  });
  const { DuckDBInstance } = loaded as {
    DuckDBInstance: {
      create(path?: string, options?: Record<string, string>): Promise<{ connect(): Promise<DuckConnection> }>;
    };
  };
  // Two threads: the machine's cores; the same budget SQLite's two workers have.
  const instance = await DuckDBInstance.create(':memory:', { threads: '2' });
  const duck = await instance.connect();
  await duck.run(
    'CREATE TABLE pubs (pk BIGINT, year INTEGER, times_cited INTEGER, altmetric DOUBLE, rcr DOUBLE, n_researchers INTEGER, n_research_orgs INTEGER)',
  );
  await duck.run('CREATE TABLE orgs (pk BIGINT, org_id VARCHAR)');
  await duck.run('CREATE TABLE funders (pk BIGINT, org_id VARCHAR)');
  const pubs = await duck.createAppender('pubs');
  const num = (a: DuckAppender, v: unknown, int: boolean): void => {
    if (typeof v !== 'number') a.appendNull();
    else if (int) a.appendInteger(v);
    else a.appendDouble(v);
  };
  for (const r of db
    .prepare(
      'SELECT pk, year, times_cited, altmetric, relative_citation_ratio AS rcr, n_researchers, n_research_orgs FROM publications_narrow',
    )
    .raw()
    .iterate() as Iterable<unknown[]>) {
    pubs.appendBigInt(BigInt(r[0] as number));
    num(pubs, r[1], true);
    num(pubs, r[2], true);
    num(pubs, r[3], false);
    num(pubs, r[4], false);
    num(pubs, r[5], true);
    num(pubs, r[6], true);
    pubs.endRow();
  }
  pubs.closeSync();
  for (const [table, source] of [
    ['orgs', 'publication_research_orgs'],
    ['funders', 'publication_funders'],
  ] as const) {
    const a = await duck.createAppender(table);
    for (const r of db.prepare(`SELECT publication_pk, org_id FROM ${source}`).raw().iterate() as Iterable<
      [number, string]
    >) {
      a.appendBigInt(BigInt(r[0]));
      a.appendVarchar(r[1]);
      a.endRow();
    }
    a.closeSync();
  }
  return duck;
}

/** The pks matching a word, from SQLite's full-text index, as a DuckDB table `m`. */
async function matchSet(db: Database.Database, duck: DuckConnection, word: string): Promise<void> {
  await duck.run('CREATE OR REPLACE TEMP TABLE m (pk BIGINT)');
  const a = await duck.createAppender('m');
  for (const pk of db
    .prepare('SELECT rowid FROM publications_fts WHERE publications_fts MATCH ?')
    .pluck()
    .iterate(`"${word}"`) as Iterable<number>) {
    a.appendBigInt(BigInt(pk));
    a.endRow();
  }
  a.closeSync();
}

interface Shape {
  readonly name: string;
  readonly dsl: string;
  /** Builds the match set if the shape has one, then the DuckDB statement. */
  readonly duck: (db: Database.Database, duck: DuckConnection) => Promise<Record<string, unknown>[]>;
  readonly key: string;
}

function shapes(word: string): Shape[] {
  return [
    {
      name: 'text facet median+rcr',
      dsl: `search publications for "${word}" return research_orgs aggregate altmetric_median, rcr_avg sort by rcr_avg limit 5`,
      key: 'research_orgs',
      duck: async (db, duck) => {
        await matchSet(db, duck, word);
        return (
          await duck.runAndReadAll(
            'SELECT o.org_id AS id, count(*) AS count, median(p.altmetric) AS altmetric_median, avg(p.rcr) AS rcr_avg FROM m JOIN pubs p USING (pk) JOIN orgs o USING (pk) GROUP BY 1 ORDER BY rcr_avg DESC NULLS LAST, count DESC, id LIMIT 5',
          )
        ).getRowObjectsJS();
      },
    },
    {
      name: 'count filter funders facet',
      dsl: 'search publications where count(researchers) > 1 return funders limit 5',
      key: 'funders',
      duck: async (_db, duck) =>
        (
          await duck.runAndReadAll(
            'SELECT f.org_id AS id, count(*) AS count FROM pubs p JOIN funders f USING (pk) WHERE p.n_researchers > 1 GROUP BY 1 ORDER BY count DESC, id LIMIT 5',
          )
        ).getRowObjectsJS(),
    },
    {
      name: 'text funders citations',
      dsl: `search publications for "${word}" return funders aggregate citations_total sort by citations_total limit 5`,
      key: 'funders',
      duck: async (db, duck) => {
        await matchSet(db, duck, word);
        return (
          await duck.runAndReadAll(
            'SELECT f.org_id AS id, count(*) AS count, coalesce(sum(p.times_cited), 0) AS citations_total FROM m JOIN pubs p USING (pk) JOIN funders f USING (pk) GROUP BY 1 ORDER BY citations_total DESC NULLS LAST, count DESC, id LIMIT 5',
          )
        ).getRowObjectsJS();
      },
    },
    {
      name: 'year facet (corpus)',
      dsl: 'search publications return year limit 1000',
      key: 'year',
      duck: async (_db, duck) =>
        (
          await duck.runAndReadAll(
            'SELECT year AS id, count(*) AS count FROM pubs WHERE year IS NOT NULL GROUP BY 1 ORDER BY count DESC, id LIMIT 1000',
          )
        ).getRowObjectsJS(),
    },
  ];
}

/** Same top rows: ids and counts in order. */
function sameRows(a: readonly Record<string, unknown>[], b: readonly Record<string, unknown>[]): boolean {
  const key = (rows: readonly Record<string, unknown>[]) =>
    JSON.stringify(rows.map((r) => [String(r.id), Number(r.count)]));
  return key(a) === key(b);
}

/** Runs every shape `runs` times each way (after one warm-up each). */
export async function compareEngines(db: Database.Database, word: string, runs: number): Promise<Comparison> {
  const sql = new SqliteQueryContext(db, { columnar: false });
  let t0 = performance.now();
  const memory = new SqliteQueryContext(db);
  for (const shape of shapes(word)) run(memory, shape.dsl);
  const memoryLoadMs = performance.now() - t0;
  const memoryHeldMb = (memory.columnar?.heldBytes ?? 0) / 2 ** 20;
  const rss0 = process.memoryUsage().rss;
  t0 = performance.now();
  const duck = await loadDuckDb(db);
  const loadMs = performance.now() - t0;
  const rssDeltaMb = (process.memoryUsage().rss - rss0) / 2 ** 20;
  const rows: ComparisonRow[] = [];
  for (const shape of shapes(word)) {
    const sqliteRows = (run(sql, shape.dsl)[shape.key] ?? []) as Record<string, unknown>[];
    const memoryRows = (run(memory, shape.dsl)[shape.key] ?? []) as Record<string, unknown>[];
    const duckRows = await shape.duck(db, duck);
    const s: number[] = [];
    const m: number[] = [];
    const d: number[] = [];
    for (let i = 0; i < runs; i++) {
      let t = performance.now();
      run(sql, shape.dsl);
      s.push(performance.now() - t);
      t = performance.now();
      run(memory, shape.dsl);
      m.push(performance.now() - t);
      t = performance.now();
      await shape.duck(db, duck);
      d.push(performance.now() - t);
    }
    rows.push({
      shape: shape.name,
      sqliteMs: median(s),
      memoryMs: median(m),
      duckdbMs: median(d),
      same: sameRows(sqliteRows, duckRows) && sameRows(sqliteRows, memoryRows),
    });
  }
  duck.closeSync();
  return { loadMs, rssDeltaMb, memoryLoadMs, memoryHeldMb, rows };
}

/** A mid-frequency word of the index (as bench/query-shapes.ts picks them). */
export function benchmarkWord(db: Database.Database): string {
  const words = db
    .prepare(
      "SELECT term FROM publications_fts_vocab WHERE length(term) > 4 AND term GLOB '[a-z]*' ORDER BY doc DESC LIMIT 100",
    )
    .pluck()
    .all() as string[];
  return words[Math.min(60, words.length - 1)] ?? 'the';
}

export function printComparison(c: Comparison): void {
  console.log(
    `engine comparison (same data): the engine's in-memory columns read in ${c.memoryLoadMs.toFixed(0)} ms (first run of every shape) and hold ${c.memoryHeldMb.toFixed(0)} MiB; DuckDB loaded its columns in ${c.loadMs.toFixed(0)} ms, +${c.rssDeltaMb.toFixed(0)} MiB RSS`,
  );
  console.log(
    '  shape'.padEnd(32),
    'SQL p50'.padStart(11),
    'columns p50'.padStart(12),
    'DuckDB p50'.padStart(11),
    'SQL/columns'.padStart(12),
    'SQL/DuckDB'.padStart(11),
    ' same rows',
  );
  for (const r of c.rows) {
    console.log(
      `  ${r.shape}`.padEnd(32),
      `${r.sqliteMs.toFixed(1)} ms`.padStart(11),
      `${r.memoryMs.toFixed(1)} ms`.padStart(12),
      `${r.duckdbMs.toFixed(1)} ms`.padStart(11),
      `${(r.sqliteMs / r.memoryMs).toFixed(1)}x`.padStart(12),
      `${(r.sqliteMs / r.duckdbMs).toFixed(1)}x`.padStart(11),
      ` ${r.same ? 'yes' : 'NO'}`,
    );
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const { values } = parseArgs({ options: { db: { type: 'string' }, runs: { type: 'string', default: '11' } } });
  if (values.db === undefined) throw new Error('--db <record database> is required');
  const db = openReadOnly(values.db);
  printComparison(await compareEngines(db, benchmarkWord(db), Number(values.runs)));
  db.close();
}
