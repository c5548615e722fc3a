/**
 * Query-mix benchmark: the shapes of bench/query-shapes.ts (taken from
 * conformance/queries.txt) run directly against the engine (in process, one connection:
 * no HTTP, no pool). Prints p50/p95/p99 per shape.
 *
 *   npx tsx bench/query-mix.ts --db records.db [--runs 30]
 *   npx tsx bench/query-mix.ts --scale 100000        (builds the demo database first)
 *   npx tsx bench/query-mix.ts --scale 100000 --postgres postgres://postgres@127.0.0.1:5432
 *       also loads the same generated data into a new PostgreSQL database on that server
 *       (printing the load time), runs every shape there beside SQLite, and drops it after
 *       (keep it with --keep).
 *
 * Goals at 1M publications: p50 ≤ 10 ms and p99 ≤ 100 ms per shape, the whole-corpus
 * `return researchers` facet ≤ 300 ms, a 1000-record page ≤ 60 ms.
 */
import { statSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import pg from 'pg';
import { createPostgresEngine } from '../src/engine/backends/postgres/engine.ts';
import { runQuery } from '../src/engine/backends/sqlite/query-context.ts';
import { openReadOnly } from '../src/store/sqlite/open.ts';
import { queryShapes } from './query-shapes.ts';

const { values: args } = parseArgs({
  options: {
    db: { type: 'string' },
    scale: { type: 'string' },
    runs: { type: 'string', default: '30' },
    postgres: { type: 'string' },
    keep: { type: 'boolean', default: false },
  },
});

interface Fixtures {
  readonly demoDataset: (o: { publications: number }) => Promise<{ dbPath: string; dataDir: string }>;
}
interface PgFixtures {
  readonly createTestPgDatabase: (
    label: string,
    server?: string,
  ) => Promise<{ name: string; url: string; drop: () => Promise<void> }>;
  readonly loadNativeShards: (dataDir: string, url: string) => Promise<void>;
}

async function dataset(): Promise<{ dbPath: string; dataDir?: string }> {
  if (args.db !== undefined) return { dbPath: args.db };
  const fixture = '../test/fixtures/demo-db.ts';
  const mod = (await import(fixture)) as Fixtures;
  return mod.demoDataset({ publications: Number(args.scale ?? 10_000) });
}

async function sizeOf(url: string): Promise<string> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const r = await client.query<{ size: string }>(
      'SELECT pg_size_pretty(pg_database_size(current_database())) AS size',
    );
    return r.rows[0]?.size ?? '?';
  } finally {
    await client.end();
  }
}

function percentile(sorted: readonly number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] as number;
}

type Run = (text: string) => Promise<{ total: number }>;

async function measure(
  run: Run,
  make: (i: number) => string,
  runs: number,
): Promise<{ times: number[]; rows: number }> {
  for (let i = 0; i < 2; i++) await run(make(i));
  const times: number[] = [];
  let rows = 0;
  for (let i = 0; i < runs; i++) {
    const t0 = performance.now();
    rows = (await run(make(i))).total;
    times.push(performance.now() - t0);
  }
  times.sort((a, b) => a - b);
  return { times, rows };
}

async function main(): Promise<void> {
  const { dbPath, dataDir } = await dataset();
  const db = openReadOnly(dbPath);
  const total = db.prepare('SELECT count(*) FROM publications').pluck().get() as number;
  const runs = Math.max(1, Number(args.runs));
  const engines: Array<{ name: string; run: Run; close: () => Promise<void> }> = [
    {
      name: 'sqlite',
      run: (text) =>
        Promise.resolve({
          total: (runQuery(db, text, { dslVersion: 2 })._stats as { total_count: number }).total_count,
        }),
      close: () => Promise.resolve(),
    },
  ];
  if (args.postgres !== undefined) {
    if (dataDir === undefined) throw new Error('--postgres needs --scale (the generated JSONL to load)');
    const fixture = '../test/fixtures/pg-db.ts';
    const pg = (await import(fixture)) as PgFixtures;
    const target = await pg.createTestPgDatabase('bench', args.postgres);
    const t0 = performance.now();
    await pg.loadNativeShards(dataDir, target.url);
    const loadS = (performance.now() - t0) / 1000;
    const size = await sizeOf(target.url);
    console.log(
      `postgres: loaded ${dataDir} into ${target.name} in ${loadS.toFixed(1)} s (COPY batches + finish); database ${size}, SQLite file ${(statSync(dbPath).size / 2 ** 20).toFixed(0)} MiB`,
    );
    const engine = createPostgresEngine({ url: target.url, connections: 1 });
    engines.push({
      name: 'postgres',
      run: async (text) => ({
        total: ((await engine.run(text, { dslVersion: 2 })).result._stats as { total_count: number }).total_count,
      }),
      close: async () => {
        await engine.close();
        if (args.keep) console.log(`kept ${target.url}`);
        else await target.drop();
      },
    });
  }
  console.log(`query mix on ${dbPath}: ${total} publications, ${runs} runs per shape (after 2 warm-up runs)`);
  const f = (x: number): string => x.toFixed(1).padStart(8);
  console.log(
    'shape'.padEnd(30),
    ...engines.flatMap((e) => [`${e.name} p50`.padStart(12), 'p95'.padStart(8), 'p99'.padStart(8)]),
    'rows'.padStart(8),
  );
  for (const [name, make] of queryShapes(db)) {
    const cells: string[] = [];
    let rows = 0;
    for (const e of engines) {
      const m = await measure(e.run, make, runs);
      cells.push(f(percentile(m.times, 50)).padStart(12), f(percentile(m.times, 95)), f(percentile(m.times, 99)));
      rows = m.rows;
    }
    console.log(name.padEnd(30), ...cells, String(rows).padStart(8));
  }
  for (const e of engines) await e.close();
  db.close();
}

await main();
