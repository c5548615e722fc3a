import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import type { ResultCacheStats } from '../engine/result-cache.ts';
import type { QueryEngine } from '../engine/types.ts';

export interface ServiceMetrics {
  readonly registry: Registry;
  readonly requests: Counter<'route' | 'method' | 'status'>;
  readonly queryDuration: Histogram<'family' | 'outcome'>;
  readonly rateLimitRejections: Counter<'rule'>;
}

/**
 * The metrics `/metrics` serves. Each app gets its own registry, so several apps (tests)
 * can live in one process.
 */
export function createMetrics(engine: QueryEngine): ServiceMetrics {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry, prefix: 'quarry_process_' });
  const requests = new Counter({
    name: 'quarry_http_requests_total',
    help: 'HTTP requests answered, by route pattern, method and status.',
    labelNames: ['route', 'method', 'status'] as const,
    registers: [registry],
  });
  const queryDuration = new Histogram({
    name: 'quarry_query_duration_seconds',
    help: 'Time to answer query requests, from authentication to the serialised result.',
    labelNames: ['family', 'outcome'] as const,
    buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
    registers: [registry],
  });
  const rateLimitRejections = new Counter({
    name: 'quarry_rate_limit_rejections_total',
    help: 'Requests refused with 429, by rate-limit rule.',
    labelNames: ['rule'] as const,
    registers: [registry],
  });
  new Gauge({
    name: 'quarry_engine_queue_depth',
    help: 'Queries waiting for an engine worker.',
    registers: [registry],
    collect() {
      this.set(engine.queueDepth());
    },
  });
  const cacheStats = (engine as Partial<{ cacheStats(): ResultCacheStats }>).cacheStats?.bind(engine);
  if (cacheStats !== undefined) registerResultCacheMetrics(registry, cacheStats);
  return { registry, requests, queryDuration, rateLimitRejections };
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
