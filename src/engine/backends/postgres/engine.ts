/**
 * The PostgreSQL QueryEngine: parse, validate and lower on the calling thread (as SQLite's),
 * compile with PostgreSQL's dialect, and run the statements of one query on one pooled
 * connection (in autocommit: a transaction around them would cost two more round trips per
 * query; the count and the page may then see different commits of a running import, as with
 * SQLite's WAL readers between statements). Reads go to the replicas (`readUrls`, round robin) when there are any, else to
 * the primary.
 *
 * The time limit is enforced on the server: `statement_timeout` is set on the connection,
 * and when the limit (or the caller's AbortSignal) fires first, the running statement is
 * cancelled with `pg_cancel_backend`; the connection is returned to the pool (or dropped if
 * it broke), so a cancelled query never holds a connection.
 *
 * @example
 * const engine = createPostgresEngine({ url: 'postgres://postgres@127.0.0.1/quarry' });
 * const { result } = await engine.run('search publications return year', { dslVersion: 2 });
 */
import { performance } from 'node:perf_hooks';
import type pg from 'pg';
import { compileSearch } from '../../../compile/compile-search.ts';
import type { SearchPlan } from '../../../compile/plan.ts';
import { postgresDialect } from '../../../compile/postgres/dialect.ts';
import { RECORDS_LAYOUT } from '../../../compile/records-layout.ts';
import { QuarryError } from '../../../errors/index.ts';
import { openPgPool } from '../../../store/postgres/pool.ts';
import { outcomeFromResult } from '../../outcome.ts';
import { DerivedValues, runFunction, type FunctionHost } from '../../function-context.ts';
import { labelsOf } from '../../query-labels.ts';
import { prepareQuery } from '../../run-query.ts';
import { shapeResult } from '../../shape.ts';
import type { QueryEngine, QueryOptions, QueryOutcome } from '../../types.ts';
import { executePg } from './execute.ts';
import { expandPatterns } from './vocabulary.ts';

export interface PostgresEngineOptions {
  /** The primary (also read from when there are no replicas). */
  readonly url: string;
  /** Streaming replicas to read from, round robin. */
  readonly readUrls?: readonly string[];
  /** Connections per pool (default 8). */
  readonly connections?: number;
  /** Default per-query time limit in ms (default 30 000); `QueryOptions.timeoutMs` overrides it. */
  readonly timeoutMs?: number;
}

const DEFAULT_TIMEOUT_MS = 30_000;
const QUERY_CANCELED = '57014';

/** Why a query stopped early. */
class Stop {
  constructor(
    readonly kind: 'timeout' | 'abort',
    readonly detail: string,
  ) {}
}

export function createPostgresEngine(options: PostgresEngineOptions): QueryEngine {
  const max = options.connections ?? 8;
  const primary = openPgPool(options.url, { max, applicationName: 'quarry query' });
  const replicas = (options.readUrls ?? []).map((url) => openPgPool(url, { max, applicationName: 'quarry query' }));
  const readers = replicas.length > 0 ? replicas : [primary];
  let next = 0;
  let closed = false;
  const timeouts = new WeakMap<pg.PoolClient, number>();
  const defaultTimeout = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;

  async function execute(plan: SearchPlan, queryOptions: QueryOptions): Promise<Record<string, unknown>> {
    const timeoutMs = queryOptions.timeoutMs ?? defaultTimeout;
    const pool = readers[next++ % readers.length] as pg.Pool;
    let client: pg.PoolClient;
    try {
      client = await pool.connect();
    } catch (error) {
      throw QuarryError.of('ENGINE_DATABASE_UNAVAILABLE', {
        params: { path: 'PostgreSQL', reason: error instanceof Error ? error.message : String(error) },
      });
    }
    let stop: Stop | undefined;
    const cancel = (why: Stop): void => {
      if (stop !== undefined) return;
      stop = why;
      // From another connection: the one running the query is busy until it is cancelled.
      pool
        .query('SELECT pg_cancel_backend($1)', [(client as unknown as { processID: number }).processID])
        .catch(() => undefined);
    };
    const timer = setTimeout(() => cancel(new Stop('timeout', String(timeoutMs))), timeoutMs);
    const onAbort = (): void => {
      const reason = queryOptions.signal?.reason as unknown;
      cancel(new Stop('abort', reason instanceof Error ? reason.message : 'the caller went away'));
    };
    if (queryOptions.signal?.aborted === true) onAbort();
    else queryOptions.signal?.addEventListener('abort', onAbort, { once: true });
    let broken = false;
    try {
      // The server's own limit, set on the connection only when it changes (a round trip
      // saved per query); each statement of the query is cut off by it.
      const limit = Math.max(1, Math.ceil(timeoutMs));
      if (timeouts.get(client) !== limit) {
        await client.query(`SET statement_timeout = ${limit}`);
        timeouts.set(client, limit);
      }
      const warnings: string[] = [];
      const expanded = await expandPatterns(client, plan, warnings);
      const compiled = compileSearch(postgresDialect, RECORDS_LAYOUT, plan, {
        expandPattern: (vocabulary, glob) => expanded.get(`${vocabulary}\u0000${glob}`) ?? [],
      });
      const executed = await executePg(client, compiled);
      return shapeResult({ plan, ...executed, warnings });
    } catch (error) {
      const code = (error as { code?: unknown }).code;
      if (stop !== undefined || code === QUERY_CANCELED) {
        if (stop?.kind === 'abort') throw QuarryError.of('ENGINE_CANCELLED', { params: { reason: stop.detail } });
        throw QuarryError.of('ENGINE_TIMEOUT', { params: { limitMs: timeoutMs } });
      }
      if (error instanceof QuarryError) throw error;
      if (typeof code !== 'string' || /^(08|57P)/.test(code)) {
        broken = true;
        throw QuarryError.of('ENGINE_DATABASE_UNAVAILABLE', {
          params: { path: 'PostgreSQL', reason: error instanceof Error ? error.message : String(error) },
        });
      }
      throw error;
    } finally {
      clearTimeout(timer);
      queryOptions.signal?.removeEventListener('abort', onAbort);
      // A cancel request may still be on its way when the statement ends by itself; the
      // connection is then closed rather than reused, so it can never stop the next query.
      client.release(broken || stop !== undefined);
    }
  }

  // Statement functions run on this thread and read through this engine's own queries; what
  // they derive is kept per data epoch: the time the last import finished deriving
  // (`store_meta.finished_at`, written by `store/postgres/derive.ts`), read on the primary.
  const derived = new DerivedValues();
  const host: FunctionHost = {
    run: (text, queryOptions) => engine.run(text, queryOptions),
    dataEpoch: async () => {
      try {
        const { rows } = await primary.query<{ value: string }>(
          "SELECT value FROM store_meta WHERE key = 'finished_at'",
        );
        return rows[0]?.value ?? '';
      } catch {
        return '';
      }
    },
    defaultTimeoutMs: defaultTimeout,
  };
  const engine: QueryEngine = {
    async run(text: string, queryOptions: QueryOptions): Promise<QueryOutcome> {
      if (closed) throw QuarryError.of('ENGINE_CLOSED');
      const t0 = performance.now();
      const prepared = prepareQuery(text, {
        dslVersion: queryOptions.dslVersion,
        ...(queryOptions.permissions === undefined ? {} : { permissions: queryOptions.permissions }),
      });
      const t1 = performance.now();
      if (prepared.kind === 'answer') return outcomeFromResult(prepared.result, { parseMs: t1 - t0, executeMs: 0 });
      if (prepared.kind === 'function') {
        const result = await runFunction(prepared.prepared, queryOptions, host, derived);
        return outcomeFromResult(result, { parseMs: t1 - t0, executeMs: performance.now() - t1 }, labelsOf(prepared));
      }
      const plan = queryOptions.countMatches === false ? { ...prepared.plan, uncounted: true } : prepared.plan;
      const result = await execute(plan, queryOptions);
      return outcomeFromResult(result, { parseMs: t1 - t0, executeMs: performance.now() - t1 });
    },
    async ready(): Promise<boolean> {
      try {
        await Promise.all(readers.map((p) => p.query('SELECT 1')));
        return true;
      } catch {
        return false;
      }
    },
    queueDepth: () => readers.reduce((n, p) => n + p.waitingCount, 0),
    dataEpoch: () => host.dataEpoch(),
    async close(): Promise<void> {
      if (closed) return;
      closed = true;
      derived.clear();
      await Promise.all([primary, ...replicas].map((p) => p.end()));
    },
  };
  return engine;
}
