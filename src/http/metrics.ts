import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import type { ResultCacheStats } from '../engine/result-cache.ts';
import type { QueryEngine } from '../engine/types.ts';
import type { RefusalCounts, RefusalReason } from './connection-gate.ts';

/** Latency buckets in seconds, from a cached lookup to the default query time limit. */
const SECONDS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30];

export interface ServiceMetrics {
  readonly registry: Registry;
  readonly requests: Counter<'route' | 'method' | 'status'>;
  readonly requestDuration: Histogram<'route' | 'family' | 'status'>;
  readonly queryDuration: Histogram<'family' | 'source' | 'result' | 'cost' | 'outcome'>;
  readonly queueWait: Histogram;
  readonly rateLimitRejections: Counter<'rule'>;
  readonly tokensIssued: Counter<'family'>;
  readonly tokenFailures: Counter<'family' | 'code'>;
}

/**
 * The metrics `/metrics` serves (docs/operations.md lists them; docs/grafana-dashboard.json
 * reads them). Node's default metrics keep their standard names (`process_cpu_seconds_total`,
 * `nodejs_eventloop_lag_seconds`, ...) so stock dashboards find them. Each app gets its own
 * registry, so several apps (tests) can live in one process.
 */
export function createMetrics(
  engine: QueryEngine,
  sources: {
    /** The connection gate's refusals (`ConnectionGate.refused`), which never reach a route. */
    readonly connectionsRefused?: () => RefusalCounts;
  } = {},
): ServiceMetrics {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  const registers = [registry];
  const requests = new Counter({
    name: 'quarry_http_requests_total',
    help: 'HTTP requests answered, by route pattern, method and status.',
    labelNames: ['route', 'method', 'status'] as const,
    registers,
  });
  const requestDuration = new Histogram({
    name: 'quarry_http_request_duration_seconds',
    help: 'Time from a request arriving to its answer being sent, by route pattern, API family (token, auth, web, operations) and status.',
    labelNames: ['route', 'family', 'status'] as const,
    buckets: SECONDS,
    registers,
  });
  const queryDuration = new Histogram({
    name: 'quarry_query_duration_seconds',
    help: 'Time to answer query requests, from authentication to the serialised result, by family, searched source, result kind, cost lane (cheap, expensive, cached) and outcome (ok or the error category).',
    labelNames: ['family', 'source', 'result', 'cost', 'outcome'] as const,
    buckets: SECONDS,
    registers,
  });
  const queueWait = new Histogram({
    name: 'quarry_engine_queue_wait_seconds',
    help: "Time queries waited for an engine worker before starting (in the scheduler's lanes and the pool's queue).",
    buckets: SECONDS,
    registers,
  });
  const rateLimitRejections = new Counter({
    name: 'quarry_rate_limit_rejections_total',
    help: 'Requests refused with 429, by rate-limit rule (query.maxPerPrincipal: a caller past its queries at once).',
    labelNames: ['rule'] as const,
    registers,
  });
  const tokensIssued = new Counter({
    name: 'quarry_tokens_issued_total',
    help: 'Tokens issued, by family (token: opaque, auth: JWT).',
    labelNames: ['family'] as const,
    registers,
  });
  const tokenFailures = new Counter({
    name: 'quarry_token_failures_total',
    help: 'Failed logins and refused tokens, by family and error code.',
    labelNames: ['family', 'code'] as const,
    registers,
  });
  new Gauge({
    name: 'quarry_engine_queue_length',
    help: 'Queries waiting for an engine worker.',
    registers,
    collect() {
      this.set(engine.load?.().queued ?? engine.queueDepth());
    },
  });
  new Gauge({
    name: 'quarry_engine_active_workers',
    help: 'Engine workers running a query now.',
    registers,
    collect() {
      this.set(engine.load?.().active ?? 0);
    },
  });
  new Gauge({
    name: 'quarry_engine_workers',
    help: 'Engine workers in all (queries that can run at once).',
    registers,
    collect() {
      this.set(engine.load?.().workers ?? 0);
    },
  });
  const refused = sources.connectionsRefused;
  if (refused !== undefined) {
    new Counter({
      name: 'quarry_http_connections_refused_total',
      help: 'Connections refused at accept time by the connection caps, by reason: per_address (answered 429), total (answered 503), unanswered (closed past the caps on lingering refusals).',
      labelNames: ['reason'] as const,
      registers,
      collect() {
        // The gate counts; the scrape copies its running totals (every reason, zeros too).
        this.reset();
        for (const [reason, count] of Object.entries(refused()) as Array<[RefusalReason, number]>) {
          this.inc({ reason }, count);
        }
      },
    });
  }
  const cacheStats = (engine as Partial<{ cacheStats(): ResultCacheStats }>).cacheStats?.bind(engine);
  if (cacheStats !== undefined) registerResultCacheMetrics(registry, cacheStats);
  return {
    registry,
    requests,
    requestDuration,
    queryDuration,
    queueWait,
    rateLimitRejections,
    tokensIssued,
    tokenFailures,
  };
}

/**
 * Counts a token issuance or check: issued on success, a failure by code otherwise.
 *
 * @example const token = await countToken(ctx.metrics, 'auth', 'issue', ctx.tokens.issueJwt(credentials));
 */
export async function countToken<T>(
  metrics: ServiceMetrics,
  family: 'token' | 'auth',
  action: 'issue' | 'check',
  work: Promise<T>,
): Promise<T> {
  try {
    const value = await work;
    if (action === 'issue') metrics.tokensIssued.inc({ family });
    return value;
  } catch (error) {
    const code = (error as { code?: unknown }).code;
    metrics.tokenFailures.inc({ family, code: typeof code === 'string' ? code : 'INTERNAL' });
    throw error;
  }
}

/** The result cache's hits, misses and size (`engine/result-cache.ts`), read when scraped. */
function registerResultCacheMetrics(registry: Registry, stats: () => ResultCacheStats): void {
  const counter = (name: string, help: string, pick: (s: ResultCacheStats) => number) =>
    new Counter({
      name,
      help,
      registers: [registry],
      collect() {
        // The cache counts; the scrape copies its running total.
        this.reset();
        this.inc(pick(stats()));
      },
    });
  const gauge = (name: string, help: string, pick: (s: ResultCacheStats) => number) =>
    new Gauge({
      name,
      help,
      registers: [registry],
      collect() {
        this.set(pick(stats()));
      },
    });
  counter('quarry_result_cache_hits_total', 'Queries answered from the result cache.', (s) => s.hits);
  counter(
    'quarry_result_cache_misses_total',
    'Queries the result cache did not hold (run by the engine).',
    (s) => s.misses,
  );
  gauge('quarry_result_cache_entries', 'Results held by the result cache.', (s) => s.entries);
  gauge('quarry_result_cache_bytes', 'Memory held by cached results, in bytes.', (s) => s.bytes);
}
