/**
 * The SQLite QueryEngine: parse, validate and lower on the calling thread (mistakes are
 * reported at once, without queueing), estimate the query's cost, then execute in a pool
 * of worker threads behind the fair scheduler (cheap and expensive lanes, callers taking
 * turns, a cap per caller), each worker with its own read-only connection, under a
 * per-query time limit and the caller's AbortSignal.
 */
import { performance } from 'node:perf_hooks';
import type Database from 'better-sqlite3';
import { RECORD_KINDS } from '../../../model/storage.ts';
import { dataEpochReader } from '../../../store/sqlite/data-epoch.ts';
import { openReadOnly } from '../../../store/sqlite/open.ts';
import { DEFAULT_CHEAP_ROW_LIMIT, estimateCost, type TableStatistics } from '../../cost.ts';
import { expensiveWorkersFor, FairPool } from '../../fair-pool.ts';
import { defaultFacetColumnsMb } from '../../../facet-columns-budget.ts';
import { outcomeFromJson, outcomeFromResult } from '../../outcome.ts';
import { workerModule } from '../../pool.ts';
import { labelsOf } from '../../query-labels.ts';
import { DerivedValues, runFunction, type FunctionHost } from '../../function-context.ts';
import { prepareQuery } from '../../run-query.ts';
import type { SqliteTask, SqliteWorkerData } from './worker.ts';
import type { QueryEngine, QueryOptions, QueryOutcome } from '../../types.ts';

export interface SqliteEngineOptions {
  readonly dbPath: string;
  /** Worker threads of the cheap lane (default 2). */
  readonly workers?: number;
  /** Worker threads of the expensive lane (default one fewer than `workers`, at least one). */
  readonly expensiveWorkers?: number;
  /** Default per-query time limit in ms (default 30 000); `QueryOptions.timeoutMs` overrides it. */
  readonly timeoutMs?: number;
  /** SQLite page cache for all workers together, in MiB (default 256); each worker gets its share. */
  readonly pageCacheMb?: number;
  /** Memory-mapped reads for all workers together, in MiB (default 512); each worker maps its share. */
  readonly mmapMb?: number;
  /**
   * In-memory link facet columns for all workers together, in MiB (default: an eighth of the
   * machine's memory, 256 MiB to 4 GiB, `defaultFacetColumnsMb`); each
   * worker holds its share; 0 answers every facet in SQL (`columnar-facets.ts`).
   */
  readonly facetColumnsMb?: number;
  /** Queries one principal may have running or waiting at once (default 4). */
  readonly maxPerPrincipal?: number;
  /** Estimated rows touched above which a query runs in the expensive lane (default DEFAULT_CHEAP_ROW_LIMIT). */
  readonly cheapRowLimit?: number;
}

export const DEFAULT_PAGE_CACHE_MB = 256;
/** An eighth of the machine's memory, between 256 MiB and 4 GiB (`facet-columns-budget.ts`). */
export const DEFAULT_FACET_COLUMNS_MB = defaultFacetColumnsMb();
export const DEFAULT_MMAP_MB = 512;

export const DEFAULT_TIMEOUT_MS = 30_000;
export const DEFAULT_MAX_PER_PRINCIPAL = 4;

/** The SQLite engine, which can also tell the data's epoch (for a result cache in front of it). */
export interface SqliteQueryEngine extends QueryEngine {
  /** Changes whenever an import writes records (`store/sqlite/data-epoch.ts`); a point read on this thread. */
  dataEpoch(): string;
}

/**
 * @example
 * const engine = createSqliteEngine({ dbPath: 'records.db' });
 * const { result } = await engine.run('search publications return year', { dslVersion: 2 });
 */
export function createSqliteEngine(options: SqliteEngineOptions): SqliteQueryEngine {
  // Fail fast on a missing or foreign file, with the engine's coded error. The connection
  // stays open on this thread for the epoch: a point read of a few microseconds.
  const epochDb = openReadOnly(options.dbPath, { cacheMb: 1, mmapMb: 0 });
  const readEpoch = dataEpochReader(epochDb);
  const statistics = tableStatistics(epochDb, readEpoch);
  const workers = options.workers ?? 2;
  const expensiveWorkers = options.expensiveWorkers ?? expensiveWorkersFor(workers);
  const threads = workers + expensiveWorkers;
  // One memory budget, split between the workers of both lanes: the serving process's size
  // is set by configuration, not by how many workers it runs.
  const workerData: SqliteWorkerData = {
    dbPath: options.dbPath,
    tuning: {
      cacheMb: (options.pageCacheMb ?? DEFAULT_PAGE_CACHE_MB) / threads,
      mmapMb: (options.mmapMb ?? DEFAULT_MMAP_MB) / threads,
      tempStore: 'file',
    },
    facetColumnsMb: (options.facetColumnsMb ?? DEFAULT_FACET_COLUMNS_MB) / threads,
  };
  const pool = new FairPool<SqliteTask, string>({
    filename: workerModule('worker', import.meta.url),
    workers,
    expensiveWorkers,
    workerData,
    warmUpTask: { kind: 'ping' } satisfies SqliteTask,
    maxPerPrincipal: options.maxPerPrincipal ?? DEFAULT_MAX_PER_PRINCIPAL,
  });
  const cheapRowLimit = options.cheapRowLimit ?? DEFAULT_CHEAP_ROW_LIMIT;
  const defaultTimeout = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  // Statement functions run on this thread and read through this engine's own queries.
  const derived = new DerivedValues();
  const host: FunctionHost = {
    run: (text, queryOptions) => engine.run(text, queryOptions),
    dataEpoch: readEpoch,
    defaultTimeoutMs: defaultTimeout,
  };
  const engine: SqliteQueryEngine = {
    async run(text: string, queryOptions: QueryOptions): Promise<QueryOutcome> {
      const t0 = performance.now();
      const prepared = prepareQuery(text, {
        dslVersion: queryOptions.dslVersion,
        ...(queryOptions.permissions === undefined ? {} : { permissions: queryOptions.permissions }),
      });
      const t1 = performance.now();
      if (prepared.kind === 'answer')
        return outcomeFromResult(prepared.result, { parseMs: t1 - t0, executeMs: 0 }, labelsOf(prepared));
      if (prepared.kind === 'function') {
        const result = await runFunction(prepared.prepared, queryOptions, host, derived);
        return outcomeFromResult(result, { parseMs: t1 - t0, executeMs: performance.now() - t1 }, labelsOf(prepared));
      }
      const costClass = queryOptions.background
        ? 'expensive'
        : estimateCost(prepared.plan, statistics(), cheapRowLimit).costClass;
      const { result: json, queueMs } = await pool.run(
        {
          kind: 'execute',
          plan: queryOptions.countMatches === false ? { ...prepared.plan, uncounted: true } : prepared.plan,
        },
        {
          principal: queryOptions.principal,
          costClass,
          timeoutMs: queryOptions.timeoutMs ?? defaultTimeout,
          signal: queryOptions.signal,
        },
      );
      const labels = { ...labelsOf(prepared), cost: costClass };
      return outcomeFromJson(json, { parseMs: t1 - t0, executeMs: performance.now() - t1, queueMs }, labels);
    },
    async ready(): Promise<boolean> {
      try {
        const reply = await pool.direct({ kind: 'ping' }, 5_000);
        return (JSON.parse(reply) as { ok?: unknown }).ok === true;
      } catch {
        return false;
      }
    },
    queueDepth: () => pool.load().queued,
    load: () => pool.load(),
    dataEpoch: readEpoch,
    async close() {
      derived.clear();
      await pool.close();
      epochDb.close();
    },
  };
  return engine;
}

/**
 * Rows per source table for the cost estimates: the largest `pk` of each (a point read,
 * where count(*) would scan a million rows), read again only when an import has changed the
 * data's epoch.
 */
function tableStatistics(db: Database.Database, readEpoch: () => string): () => TableStatistics {
  const reads = RECORD_KINDS.flatMap((table) => {
    try {
      return [[table, db.prepare<[], number | null>(`SELECT max(pk) FROM "${table}"`).pluck()] as const];
    } catch {
      return []; // a table this database lacks: the estimate assumes a large one
    }
  });
  let epoch: string | undefined;
  let stats: TableStatistics = {};
  return () => {
    const now = readEpoch();
    if (now !== epoch) {
      stats = Object.fromEntries(reads.map(([table, read]) => [table, read.get() ?? 0]));
      epoch = now;
    }
    return stats;
  };
}
