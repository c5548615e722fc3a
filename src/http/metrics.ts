import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
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
  return { registry, requests, queryDuration, rateLimitRejections };
}
