/**
 * A bulk export of a whole source, with the interactive query mix running beside it:
 * the export's rate in records/s, and the mix's p50/p99 before and during the export (the
 * fair scheduler keeps export chunks in the expensive lane, so cheap queries keep their own
 * workers). The export's job table and file go to a temporary folder: the database is only
 * read.
 *
 *   npx tsx bench/synthetic-db.ts --publications 200000 --out /tmp/q-200k.db
 *   npx tsx bench/export.ts --db /tmp/q-200k.db [--query "search publications return publications"] [--clients 2] [--baseline-seconds 10]
 */
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import Database from 'better-sqlite3';
import { createSqliteEngine } from '../src/engine/backends/sqlite/engine.ts';
import { ExportService } from '../src/exports/export-service.ts';
import { systemClock } from '../src/identity/clock.ts';
import { openSqliteExportStore } from '../src/store/sqlite/export-store.ts';
import { queryShapes } from './query-shapes.ts';

const { values: args } = parseArgs({
  options: {
    db: { type: 'string' },
    query: { type: 'string', default: 'search publications return publications' },
    clients: { type: 'string', default: '2' },
    'baseline-seconds': { type: 'string', default: '10' },
  },
});
if (args.db === undefined) throw new Error('usage: npx tsx bench/export.ts --db <records.db>');
const dbPath = args.db;
const clients = Number(args.clients);

const readDb = new Database(dbPath, { readonly: true });
const shapes = queryShapes(readDb);
readDb.close();

const engine = createSqliteEngine({ dbPath, workers: 2, timeoutMs: 60_000 });
const work = mkdtempSync(join(tmpdir(), 'quarry-bench-export-'));
const store = openSqliteExportStore(join(work, 'jobs.db'));
const exports = new ExportService({
  store,
  engine,
  dir: join(work, 'files'),
  clock: systemClock,
  chunkRecords: 1000,
  maxRunning: 1,
  maxPerAccount: 2,
  retentionMs: 3600_000,
  timeoutMs: 60_000,
});
await exports.start();

/** Runs the mix with `clients` callers (each its own principal) until `until()`; answers each query's ms. */
async function mix(until: () => boolean): Promise<number[]> {
  const times: number[] = [];
  let i = 0;
  await Promise.all(
    Array.from({ length: clients }, async (_v, c) => {
      while (!until()) {
        const shape = shapes[i++ % shapes.length]!;
        const t0 = performance.now();
        await engine.run(shape[1](i), { dslVersion: 2, principal: String(c + 1) });
        times.push(performance.now() - t0);
      }
    }),
  );
  return times.sort((a, b) => a - b);
}

const pct = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0;
const line = (label: string, t: number[]) =>
  `${label}: ${t.length} queries, p50 ${pct(t, 50).toFixed(1)} ms, p99 ${pct(t, 99).toFixed(1)} ms`;

// Workers started, then the mix alone.
await mix(
  (
    (end) => () =>
      performance.now() > end
  )(performance.now() + 2000),
);
const baseline = await mix(
  (
    (end) => () =>
      performance.now() > end
  )(performance.now() + Number(args['baseline-seconds']) * 1000),
);

const t0 = performance.now();
const job = await exports.submit({ accountId: 1, text: args.query, format: 'jsonl', sources: null });
let finished = false;
const during = mix(() => finished);
for (;;) {
  const now = await store.get(job.id);
  if (now?.state === 'done' || now?.state === 'failed') {
    finished = true;
    const seconds = (performance.now() - t0) / 1000;
    const duringTimes = await during;
    if (now.state === 'failed') throw new Error(`export failed: ${now.error}`);
    const file = exports.fileOf(now)!;
    console.log(`database: ${dbPath}`);
    console.log(`query: ${args.query}`);
    console.log(
      `export: ${now.records} records in ${seconds.toFixed(1)} s = ${Math.round(now.records / seconds)} records/s, ` +
        `file ${(statSync(file).size / 2 ** 20).toFixed(1)} MiB gzip`,
    );
    console.log(line(`mix alone (${clients} callers)`, baseline));
    console.log(line(`mix during the export`, duringTimes));
    break;
  }
  await new Promise((resolve) => setTimeout(resolve, 100));
}
await exports.close();
await store.close();
await engine.close();
rmSync(work, { recursive: true, force: true });
