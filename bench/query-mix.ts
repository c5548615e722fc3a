/**
 * Query-mix benchmark: the shapes of bench/query-shapes.ts (taken from
 * conformance/queries.txt) run directly against the engine (in process, one
 * connection: no HTTP, no pool). Prints p50/p95/p99 per shape.
 *
 *   npx tsx bench/query-mix.ts --db records.db [--runs 30]
 *   npx tsx bench/query-mix.ts --scale 100000        (builds the demo database first)
 *
 * Goals at 1M publications: p50 ≤ 10 ms and p99 ≤ 100 ms per shape, the whole-corpus
 * `return researchers` facet ≤ 300 ms, a 1000-record page ≤ 60 ms.
 */
import { performance } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import { runQuery } from '../src/engine/backends/sqlite/query-context.ts';
import { openReadOnly } from '../src/store/sqlite/open.ts';
import { queryShapes } from './query-shapes.ts';

const { values: args } = parseArgs({
  options: { db: { type: 'string' }, scale: { type: 'string' }, runs: { type: 'string', default: '30' } },
});

async function databasePath(): Promise<string> {
  if (args.db !== undefined) return args.db;
  const fixture = '../test/fixtures/demo-db.ts';
  const mod = (await import(fixture)) as { demoDatabase: (o: { publications: number }) => Promise<string> };
  return mod.demoDatabase({ publications: Number(args.scale ?? 10_000) });
}

function percentile(sorted: readonly number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] as number;
}

async function main(): Promise<void> {
  const path = await databasePath();
  const db = openReadOnly(path);
  const total = db.prepare('SELECT count(*) FROM publications').pluck().get() as number;
  const runs = Math.max(1, Number(args.runs));
  console.log(`query mix on ${path}: ${total} publications, ${runs} runs per shape (after 2 warm-up runs)`);
  console.log('shape'.padEnd(30), 'p50 ms'.padStart(8), 'p95 ms'.padStart(8), 'p99 ms'.padStart(8), 'rows'.padStart(8));
  for (const [name, make] of queryShapes(db)) {
    for (let i = 0; i < 2; i++) runQuery(db, make(i), { dslVersion: 2 });
    const times: number[] = [];
    let rows = 0;
    for (let i = 0; i < runs; i++) {
      const text = make(i);
      const t0 = performance.now();
      const result = runQuery(db, text, { dslVersion: 2 });
      times.push(performance.now() - t0);
      rows = (result._stats as { total_count: number }).total_count;
    }
    times.sort((a, b) => a - b);
    const f = (x: number): string => x.toFixed(1).padStart(8);
    console.log(
      name.padEnd(30),
      f(percentile(times, 50)),
      f(percentile(times, 95)),
      f(percentile(times, 99)),
      String(rows).padStart(8),
    );
  }
  db.close();
}

await main();
