/**
 * Fairness under load: a mixed workload against a real `quarry serve` on 127.0.0.1 with
 * autocannon. Five principals (accounts) send cheap one-page lookups and expensive
 * whole-corpus facet queries at fixed rates, 80% cheap and 20% expensive, for a bounded
 * time; the cheap class's latency under that load is printed next to its idle latency.
 *
 *   npx tsx bench/fair-load.ts [--db FILE | --scale 15000] [--seconds 10] [--rate 40] [--workers 2]
 *
 * `--rate` is the cheap requests per second in all; expensive ones come at a quarter of it.
 * Rate limits and the result cache are off; the per-principal cap of queries at once (429
 * with Retry-After) is on, and
 * expensive answers of 429 are counted apart (a fair scheduler sheds them, not cheap ones).
 */
import { parseArgs } from 'node:util';
import autocannon from 'autocannon';
import { benchDatabase, benchKeys, serve } from './serve.ts';

const { values: args } = parseArgs({
  options: {
    db: { type: 'string' },
    scale: { type: 'string', default: '15000' },
    seconds: { type: 'string', default: '10' },
    rate: { type: 'string', default: '40' },
    workers: { type: 'string', default: '2' },
    principals: { type: 'string', default: '5' },
  },
});
const seconds = Math.min(120, Number(args.seconds));
const cheapRate = Number(args.rate);
const principalCount = Number(args.principals);

/** One record page by a selective filter: a few milliseconds. */
const CHEAP = [2008, 2010, 2012, 2014, 2016].map(
  (year) => `search publications where year = ${year} return publications[id + title + year] limit 5`,
);
/**
 * Broad facets with medians under a filter that reads every record's author list from its
 * document: hundreds of milliseconds of CPU at 15k publications. (Without that filter the
 * facets read the narrow side table and take ~20 ms, too quick to load anything.)
 */
const EXPENSIVE = [
  'search publications where authors != "zzqq" return researchers aggregate citations_total, citations_median limit 1000 return research_orgs aggregate citations_median limit 1000 return year aggregate citations_median return type aggregate citations_median',
  'search publications where authors != "nobody" return research_orgs aggregate citations_median limit 1000 return year aggregate citations_median return type aggregate citations_median',
];

interface ClassFigures {
  readonly p50: number;
  readonly p90: number;
  readonly p99: number;
  readonly max: number;
  readonly sent: number;
  readonly ok: number;
  readonly tooMany: number;
  readonly otherErrors: number;
}

/** One autocannon run of `queries` rotating over the principals' tokens at `rate` requests a second. */
async function run(
  url: string,
  tokens: readonly string[],
  queries: readonly string[],
  rate: number,
  connections: number,
) {
  let next = 0;
  const statuses = new Map<number, number>();
  const result = await autocannon({
    url,
    connections,
    pipelining: 1,
    duration: seconds,
    overallRate: rate,
    requests: [
      {
        method: 'POST',
        path: '/v2/api/query',
        setupRequest: (request) => {
          const i = next++;
          return {
            ...request,
            headers: {
              authorization: `Bearer ${tokens[i % tokens.length]}`,
              'content-type': 'text/plain',
            },
            body: queries[i % queries.length],
          };
        },
        onResponse: (status) => {
          statuses.set(status, (statuses.get(status) ?? 0) + 1);
        },
      },
    ],
  });
  const ok = statuses.get(200) ?? 0;
  const tooMany = statuses.get(429) ?? 0;
  const sent = [...statuses.values()].reduce((a, b) => a + b, 0);
  const figures: ClassFigures = {
    p50: result.latency.p50,
    p90: result.latency.p90,
    p99: result.latency.p99,
    max: result.latency.max,
    sent,
    ok,
    tooMany,
    otherErrors: sent - ok - tooMany + result.errors + result.timeouts,
  };
  return figures;
}

async function main(): Promise<void> {
  const dbPath = benchDatabase(args.db, args.scale);
  const keys = await benchKeys(dbPath, principalCount);
  // The result cache off: the workload repeats a handful of texts, which it would answer from memory.
  const server = await serve(dbPath, {
    QUARRY_RATE_LIMITS: 'off',
    QUARRY_QUERY_WORKERS: args.workers,
    QUARRY_QUERY_CACHE_MB: '0',
  });
  try {
    const tokens = await Promise.all(
      keys.map(async (key) => (await fetch(`${server.url}/v2/token?api_key=${encodeURIComponent(key)}`)).text()),
    );
    // Warm-up: workers loaded, statements prepared, pages cached.
    for (const body of [...CHEAP, ...EXPENSIVE]) {
      const res = await fetch(`${server.url}/v2/api/query`, {
        method: 'POST',
        headers: { authorization: `Bearer ${tokens[0]}` },
        body,
      });
      if (res.status !== 200) throw new Error(`warm-up query answered ${res.status}: ${await res.text()}`);
    }
    console.log(
      `Fair load on ${dbPath}: ${principalCount} principals, ${args.workers} engine workers, ${seconds} s per phase; ` +
        `cheap ${cheapRate}/s, expensive ${cheapRate / 4}/s under load (80% / 20%)`,
    );
    const idle = await run(server.url, tokens, CHEAP, Math.min(cheapRate, 20), 1);
    const [cheap, expensive] = await Promise.all([
      run(server.url, tokens, CHEAP, cheapRate, 8),
      run(server.url, tokens, EXPENSIVE, cheapRate / 4, 8),
    ]);
    const row = (name: string, f: ClassFigures) =>
      console.log(
        name.padEnd(22),
        ...[f.p50, f.p90, f.p99, f.max].map((x) => x.toFixed(1).padStart(8)),
        ...[f.sent, f.ok, f.tooMany, f.otherErrors].map((x) => String(x).padStart(7)),
      );
    console.log(
      ''.padEnd(22),
      ...['p50 ms', 'p90 ms', 'p99 ms', 'max ms'].map((h) => h.padStart(8)),
      ...['sent', '200', '429', 'other'].map((h) => h.padStart(7)),
    );
    row('cheap, idle', idle);
    row('cheap, under load', cheap);
    row('expensive, under load', expensive);
    console.log(
      `cheap p50 under load = ${(cheap.p50 / idle.p50).toFixed(1)} x idle p50; ` +
        `p99 under load = ${cheap.p99.toFixed(1)} ms (bound: 10 x idle p50 + 50 ms = ${(10 * idle.p50 + 50).toFixed(1)} ms)`,
    );
  } finally {
    server.child.kill('SIGTERM');
  }
}

await main();
