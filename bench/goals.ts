/**
 * Every performance goal of the project (issue 11) with its measured figure beside it, in
 * one run on one record database: the query mix (p50/p99 per shape), a repeated query
 * through the result cache, citations per year over the whole corpus, serving memory after
 * the mix, database size, import rate and memory (a generated import of `--import N`
 * publications), and the engine comparison (SQL, the in-memory link columns and DuckDB on the same data).
 *
 *   npx tsx bench/synthetic-db.ts --publications 100000 --out /tmp/q100k.db
 *   npx tsx bench/goals.ts --db /tmp/q100k.db [--runs 15] [--import 20000] [--no-compare] [--facet-columns-mb N]
 *
 * `--facet-columns-mb` sets the in-memory facet columns' budget (`query.facetColumnsMb`, default
 * 256): at 10M publications the columns need more than the default, and the facets then run in SQL.
 *
 * Goals are stated for 1M publications on a 2-core machine; at smaller scales the figures
 * show the trend. Wall times on a shared machine vary; `cpu` columns are this thread's CPU.
 */
import { mkdtempSync, rmSync, statSync, existsSync } from 'node:fs';
import { cpus, loadavg, tmpdir, totalmem } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import { recordWriterFor } from '../src/backends.ts';
import {
  createSqliteEngine,
  DEFAULT_FACET_COLUMNS_MB,
  DEFAULT_MMAP_MB,
  DEFAULT_PAGE_CACHE_MB,
} from '../src/engine/backends/sqlite/engine.ts';
import { SqliteQueryContext } from '../src/engine/backends/sqlite/query-context.ts';
import { withResultCache } from '../src/engine/result-cache.ts';
import { isQuarryError } from '../src/errors/index.ts';
import { openReadOnly } from '../src/store/sqlite/open.ts';
import { databaseParts, formatParts } from './db-size.ts';
import { benchmarkWord, compareEngines, printComparison } from './engine-comparison.ts';
import { queryShapes } from './query-shapes.ts';

const { values: args } = parseArgs({
  options: {
    db: { type: 'string' },
    runs: { type: 'string', default: '15' },
    import: { type: 'string', default: '20000' },
    'no-compare': { type: 'boolean', default: false },
    'facet-columns-mb': { type: 'string' },
  },
});
if (args.db === undefined) throw new Error('--db <record database> is required (bench/synthetic-db.ts makes one)');
const dbPath = args.db;
const runs = Math.max(3, Number(args.runs));
const facetColumnsMb =
  args['facet-columns-mb'] === undefined ? DEFAULT_FACET_COLUMNS_MB : Number(args['facet-columns-mb']);

/** Shapes whose goal is p50 ≤ 10 ms: lookups, sorted pages, date and id filters, corpus facets. */
const FAST = new Set([
  'orgs+years ids page 250',
  'org+year grant ids',
  'sort by times_cited',
  'date filter',
  'three facets',
  'researchers facet (corpus)',
  'year facet limit 1000',
]);

const pct = (sorted: readonly number[], p: number): number =>
  sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] as number;
const ms = (x: number): string => `${x.toFixed(1)} ms`;
const verdict = (ok: boolean): string => (ok ? 'met' : 'NOT met');
const line = (goal: string, figure: string, ok: boolean | undefined): void =>
  console.log(`  ${goal.padEnd(58)} ${figure.padEnd(34)} ${ok === undefined ? '' : verdict(ok)}`);

// The service's whole default memory budget on one connection, so RSS after the mix is the serving figure.
const db = openReadOnly(dbPath, { cacheMb: DEFAULT_PAGE_CACHE_MB, mmapMb: DEFAULT_MMAP_MB, tempStore: 'file' });
const publications = db.prepare('SELECT count(*) FROM publications').pluck().get() as number;
const context = new SqliteQueryContext(db, {
  columnar: facetColumnsMb > 0 && { budgetBytes: facetColumnsMb * 2 ** 20 },
});
/** Runs a query in this thread, on `db`, as a worker of the service runs it. */
const runQuery = (query: string): void => void context.run(query, { dslVersion: 2 });
console.log(
  `goals on ${dbPath}: ${publications.toLocaleString('en')} publications; ${cpus().length} cores, ` +
    `${(totalmem() / 2 ** 30).toFixed(0)} GiB, load average ${loadavg()
      .map((l) => l.toFixed(1))
      .join(' ')}; ${new Date().toISOString()}`,
);

// 1. The query mix, in process on one connection.
console.log(`\nquery mix (${runs} runs per shape after 2 warm-up runs)`);
console.log(
  `  ${'shape'.padEnd(28)} ${'p50'.padStart(9)} ${'p99'.padStart(9)} ${'cpu p50'.padStart(9)}  goal`.padEnd(70),
);
let mixMet = 0;
let mixMetOnCpu = 0;
const shapes = queryShapes(db);
for (const [name, make] of shapes) {
  for (let i = 0; i < 2; i++) runQuery(make(i));
  const wall: number[] = [];
  const cpu: number[] = [];
  for (let i = 0; i < runs; i++) {
    const t = performance.now();
    const c = process.cpuUsage();
    runQuery(make(i));
    const u = process.cpuUsage(c);
    wall.push(performance.now() - t);
    cpu.push((u.user + u.system) / 1000);
  }
  wall.sort((a, b) => a - b);
  cpu.sort((a, b) => a - b);
  const p50 = pct(wall, 50);
  const p99 = pct(wall, 99);
  const cpu50 = pct(cpu, 50);
  const limit = name === '1000-record page' ? 60 : FAST.has(name) ? 10 : 100;
  const goal = name === '1000-record page' ? 'p50 ≤ 60 ms' : `p50 ≤ ${limit} ms, p99 ≤ 300 ms`;
  const ok = p50 <= limit && p99 <= 300;
  if (ok) mixMet++;
  if (cpu50 <= limit) mixMetOnCpu++;
  // On a loaded machine wall time is mostly waiting for a core: say when the CPU time meets it.
  const onCpu = !ok && cpu50 <= limit ? ' (met on CPU)' : '';
  console.log(
    `  ${name.padEnd(28)} ${ms(p50).padStart(9)} ${ms(p99).padStart(9)} ${ms(cpu50).padStart(9)}  ${goal.padEnd(27)} ${verdict(ok)}${onCpu}`,
  );
}
const mixRss = process.memoryUsage().rss;

console.log('\ngoals');
line(
  'every shape of the mix within its goal',
  `${mixMet} of ${shapes.length} shapes (${mixMetOnCpu} on CPU p50)`,
  mixMet === shapes.length,
);

// 2. A repeated identical query through the result cache, over the real engine (worker pool).
{
  const sqlite = createSqliteEngine({ dbPath, workers: 1, facetColumnsMb });
  const engine = withResultCache(sqlite, { maxBytes: 64 * 2 ** 20, epoch: () => sqlite.dataEpoch() });
  const heavy = 'search publications return research_orgs aggregate citations_median, rcr_avg limit 20';
  const first = performance.now();
  await engine.run(heavy, { dslVersion: 2 });
  const firstMs = performance.now() - first;
  const times: number[] = [];
  for (let i = 0; i < 200; i++) {
    const t = performance.now();
    await engine.run(heavy, { dslVersion: 2 });
    times.push(performance.now() - t);
  }
  times.sort((a, b) => a - b);
  line(
    'a repeated identical query ≤ 2 ms (result cache)',
    `p50 ${ms(pct(times, 50))}, p99 ${ms(pct(times, 99))} (first ${firstMs.toFixed(0)} ms)`,
    pct(times, 50) <= 2,
  );
  await engine.close();
}

// 3. Citations and funding per year over the whole corpus.
const newest = (db.prepare('SELECT max(year) FROM publications').pluck().get() as number | null) ?? 2024;
const references = db.prepare('SELECT count(*) FROM publication_references').pluck().get() as number;
for (const [goal, query] of [
  [
    'citations_per_year over the whole corpus ≤ 100 ms',
    `search publications return citations_per_year(${newest - 10}, ${newest})`,
  ],
  [
    'funding_per_year over the whole corpus ≤ 100 ms',
    `search grants return funding_per_year(${newest - 10}, ${newest}, "USD")`,
  ],
] as const) {
  try {
    runQuery(query);
    const times: number[] = [];
    const cpuTimes: number[] = [];
    for (let i = 0; i < 5; i++) {
      const t = performance.now();
      const c = process.cpuUsage();
      runQuery(query);
      const used = process.cpuUsage(c);
      times.push(performance.now() - t);
      cpuTimes.push((used.user + used.system) / 1000);
    }
    times.sort((a, b) => a - b);
    cpuTimes.sort((a, b) => a - b);
    const note = query.includes('citations') ? ` (${references.toLocaleString('en')} reference rows)` : '';
    line(goal, `p50 ${ms(pct(times, 50))}, cpu ${ms(pct(cpuTimes, 50))}${note}`, pct(times, 50) <= 100);
  } catch (error) {
    if (!isQuarryError(error)) throw error;
    line(goal, `not measured: ${error.problems[0]?.code ?? error.message}`, undefined);
  }
}

// 4. Memory after the mix, and the database's size.
line(
  'serving RSS ≤ 1 GiB after the whole mix',
  `${(mixRss / 2 ** 20).toFixed(0)} MiB (${DEFAULT_PAGE_CACHE_MB} MiB cache, ${DEFAULT_MMAP_MB} MiB mmap, ${facetColumnsMb} MiB columns)`,
  mixRss <= 2 ** 30,
);
const size = ['', '-wal'].reduce((s, ext) => s + (existsSync(dbPath + ext) ? statSync(dbPath + ext).size : 0), 0);
const perRecord = size / Math.max(1, publications);
line(
  'database ≤ 4 GB at 1M publications',
  `${(size / 2 ** 20).toFixed(0)} MiB, ${(perRecord / 1024).toFixed(1)} KiB/publication → ${((perRecord * 1e6) / 1e9).toFixed(1)} GB at 1M, ${((perRecord * 1e7) / 1e9).toFixed(0)} GB at 10M`,
  perRecord * 1e6 <= 4e9,
);
// What the size is made of (bench/db-size.ts prints every part).
for (const text of formatParts(databaseParts(db), publications, 6)) console.log(`    ${text}`);

// 5. Import: generate N publications and import them (the same path as `quarry import`).
const importCount = Number(args.import);
if (importCount > 0) {
  const { generate } = await import('../src/data/generate/index.ts');
  const { importFiles } = await import('../src/data/import/index.ts');
  const dir = mkdtempSync(join(tmpdir(), 'quarry-goals-'));
  try {
    const g0 = performance.now();
    const manifest = await generate({ publications: importCount, seed: 20240601, outDir: join(dir, 'data') });
    const genSeconds = (performance.now() - g0) / 1000;
    const records = Object.values(manifest.counts).reduce((s, n) => s + n, 0);
    let peak = process.memoryUsage().rss;
    const sample = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 200);
    const t0 = performance.now();
    const c0 = process.cpuUsage();
    await importFiles({
      paths: [join(dir, 'data')],
      open: recordWriterFor(join(dir, 'records.db')),
      format: 'quarry',
      onError: 'abort',
    });
    const wall = (performance.now() - t0) / 1000;
    const u = process.cpuUsage(c0);
    clearInterval(sample);
    const cpu = (u.user + u.system) / 1e6;
    // The goals are stated for 1M publications, and finish() grows faster than the records
    // (index sorts, the pass over the references): a smaller import shows the trend but gives
    // no verdict. bench/generate-import.ts 1000000 measures the real thing.
    const atScale = importCount >= 1_000_000;
    const scale = atScale ? '' : ` (${importCount.toLocaleString('en')} publications; the goal is for 1M)`;
    line(
      'import ≥ 20,000 records/s',
      `${Math.round(records / wall).toLocaleString('en')}/s wall, ${Math.round(records / cpu).toLocaleString('en')}/s CPU${scale}`,
      atScale ? records / wall >= 20_000 : undefined,
    );
    line(
      'generate + import 1M ≤ 10 minutes',
      `${(genSeconds + wall).toFixed(0)} s for ${importCount.toLocaleString('en')} publications`,
      atScale ? genSeconds + wall <= 600 : undefined,
    );
    line(
      'import peak memory ≤ 2 GiB',
      `${(peak / 2 ** 20).toFixed(0)} MiB (this process, sampled)${scale}`,
      atScale ? peak <= 2 * 2 ** 30 : undefined,
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
} else {
  line('import ≥ 20,000 records/s', 'not run (--import N)', undefined);
}

// 6. The engine comparison on the same data.
if (args['no-compare'] !== true) {
  console.log('');
  try {
    printComparison(await compareEngines(db, benchmarkWord(db), Math.max(3, Math.round(runs / 2))));
  } catch (error) {
    console.log(`engine comparison not run: ${error instanceof Error ? error.message : String(error)}`);
  }
}
db.close();
