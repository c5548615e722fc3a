/**
 * The query mix over HTTP: the shapes of bench/query-shapes.ts sent to a real `quarry serve`
 * (child process, rate limits off) with autocannon, next to the same queries run through
 * the engine in this process (the same worker pool type, the same concurrency), measured
 * in the same run. Prints latency percentiles, throughput and the HTTP/engine ratios.
 *
 *   npx tsx bench/http-query-mix.ts [--db FILE | --scale 100000] [--connections 4] [--seconds 10]
 *
 * Without --db it builds (once) the synthetic database of bench/synthetic-db.ts.
 * Goals: HTTP p50 ≤ 1.2 × engine p50; ≥ 1,000 queries/s for the mix on 2 cores.
 */
import { performance } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import autocannon from 'autocannon';
import type Database from 'better-sqlite3';
import { createSqliteEngine } from '../src/engine/backends/sqlite/engine.ts';
import { openReadOnly } from '../src/store/sqlite/open.ts';
import { queryShapes } from './query-shapes.ts';
import { benchDatabase, benchKeys, serve } from './serve.ts';

const { values: args } = parseArgs({
  options: {
    db: { type: 'string' },
    scale: { type: 'string', default: '20000' },
    connections: { type: 'string', default: '4' },
    seconds: { type: 'string', default: '10' },
    workers: { type: 'string', default: '2' },
  },
});
const connections = Number(args.connections);
const seconds = Number(args.seconds);
const workers = Number(args.workers);

/** Every shape of bench/query-shapes.ts, `variants` times with different values. */
function mix(db: Database.Database, variants: number): string[] {
  const shapes = queryShapes(db);
  const out: string[] = [];
  for (let i = 0; i < variants; i++) for (const [, make] of shapes) out.push(make(i));
  return out;
}

interface Figures {
  readonly p50: number;
  readonly p90: number;
  readonly p99: number;
  readonly perSecond: number;
  readonly count: number;
  readonly errors: number;
}

function percentile(sorted: readonly number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? NaN;
}

/** The mix through the engine in this process: `concurrency` loops for `seconds`. */
async function engineRun(dbPath: string, queries: readonly string[], concurrency: number): Promise<Figures> {
  const engine = createSqliteEngine({ dbPath, workers });
  try {
    for (const text of queries) await engine.run(text, { dslVersion: 2 }); // warm-up: every query once
    const times: number[] = [];
    let errors = 0;
    let next = 0;
    const end = performance.now() + seconds * 1000;
    const started = performance.now();
    await Promise.all(
      Array.from({ length: concurrency }, async () => {
        while (performance.now() < end) {
          const text = queries[next++ % queries.length] as string;
          const t0 = performance.now();
          try {
            await engine.run(text, { dslVersion: 2 });
          } catch {
            errors++;
          }
          times.push(performance.now() - t0);
        }
      }),
    );
    const elapsed = (performance.now() - started) / 1000;
    times.sort((a, b) => a - b);
    return {
      p50: percentile(times, 50),
      p90: percentile(times, 90),
      p99: percentile(times, 99),
      perSecond: times.length / elapsed,
      count: times.length,
      errors,
    };
  } finally {
    await engine.close();
  }
}

/** The queries the engine answers (warm) in under `ms` milliseconds. */
async function fastQueries(dbPath: string, queries: readonly string[], ms: number): Promise<string[]> {
  const engine = createSqliteEngine({ dbPath, workers });
  try {
    const out: string[] = [];
    for (const text of queries) {
      await engine.run(text, { dslVersion: 2 });
      const t0 = performance.now();
      await engine.run(text, { dslVersion: 2 });
      if (performance.now() - t0 < ms) out.push(text);
    }
    return out;
  } finally {
    await engine.close();
  }
}

async function httpRun(url: string, token: string, queries: readonly string[], concurrency: number): Promise<Figures> {
  const requests = queries.map((body) => ({
    method: 'POST' as const,
    path: '/v3/api/query',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'text/plain' },
    body,
  }));
  // Warm-up: every query once.
  for (const r of requests)
    await (await fetch(url + r.path, { method: 'POST', headers: r.headers, body: r.body })).arrayBuffer();
  const result = await autocannon({ url, connections: concurrency, pipelining: 1, duration: seconds, requests });
  return {
    p50: result.latency.p50,
    p90: result.latency.p90,
    p99: result.latency.p99,
    perSecond: result.requests.average,
    count: result.requests.total,
    errors: result.errors + result.non2xx,
  };
}

async function main(): Promise<void> {
  const dbPath = benchDatabase(args.db, args.scale);
  const db = openReadOnly(dbPath);
  const total = db.prepare('SELECT count(*) FROM publications').pluck().get() as number;
  const queries = mix(db, 10);
  db.close();

  // An account and a key for the HTTP side (in the same file, as `quarry serve` expects).
  const [key] = await benchKeys(dbPath, 1);

  // The full mix is dominated by a few whole-corpus facets, so the HTTP layer's own cost is
  // also measured on the "fast" part of the mix: the queries the engine answers in < 10 ms.
  const fast = await fastQueries(dbPath, queries, 10);
  console.log(
    `HTTP query mix on ${dbPath}: ${total} publications, ${queries.length} queries (21 shapes; ${fast.length} of them under 10 ms), ${workers} engine workers, ${seconds} s per run`,
  );
  const rows: Array<[string, Figures, Figures]> = [];
  const server = await serve(dbPath, { QUARRY_RATE_LIMITS: 'off', QUARRY_QUERY_WORKERS: String(workers) });
  try {
    const token = await (await fetch(`${server.url}/v3/token?api_key=${encodeURIComponent(key ?? '')}`)).text();
    for (const [name, list] of [
      ['full mix', queries],
      ['fast mix', fast],
    ] as const) {
      if (list.length === 0) continue;
      for (const c of [1, connections]) {
        const http = await httpRun(server.url, token, list, c);
        const engine = await engineRun(dbPath, list, c);
        rows.push([`${name}, c=${c}`, engine, http]);
      }
    }
  } finally {
    server.child.kill('SIGTERM');
  }
  const f = (x: number) => x.toFixed(1).padStart(8);
  console.log(
    ''.padEnd(18),
    'side'.padEnd(8),
    'p50 ms'.padStart(8),
    'p90 ms'.padStart(8),
    'p99 ms'.padStart(8),
    'q/s'.padStart(8),
    'queries'.padStart(8),
    'errors'.padStart(7),
  );
  for (const [name, engine, http] of rows) {
    console.log(
      name.padEnd(18),
      'engine'.padEnd(8),
      f(engine.p50),
      f(engine.p90),
      f(engine.p99),
      f(engine.perSecond),
      String(engine.count).padStart(8),
      String(engine.errors).padStart(7),
    );
    console.log(
      ''.padEnd(18),
      'http'.padEnd(8),
      f(http.p50),
      f(http.p90),
      f(http.p99),
      f(http.perSecond),
      String(http.count).padStart(8),
      String(http.errors).padStart(7),
    );
    console.log(
      ''.padEnd(18),
      'ratio'.padEnd(8),
      f(http.p50 / engine.p50),
      f(http.p90 / engine.p90),
      f(http.p99 / engine.p99),
      f(http.perSecond / engine.perSecond),
    );
  }
  console.log('goals: HTTP p50 ≤ 1.2 × engine p50; ≥ 1000 queries/s for the mix on 2 cores');
}

await main();
