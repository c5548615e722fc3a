/**
 * The speed goals of each source beyond publications (issue 35): on a record database that
 * holds them beside the publications, every facet the source offers, filtered pages, a
 * full-text search with a facet and a 1000-record page, p50 and p99 per shape. Goals as for
 * publications: facets and filtered pages p50 ≤ 100 ms, a 1000-record page p50 ≤ 60 ms.
 *
 *   node bin/quarry.js generate --publications 1000000 --out /tmp/g1m \
 *     --source-records patents=999999,clinical_trials=300000,datasets=860000
 *   node bin/quarry.js import /tmp/g1m --db /tmp/g1m.db
 *   npx tsx bench/source-goals.ts --db /tmp/g1m.db [--sources patents,datasets] [--runs 15]
 *
 * The shapes are drawn from each source's declaration (its facets, its default order) and
 * their values from the data (the top value of each facet, a mid-frequency title word), so
 * a source added to the registry is measured without editing this file. Wall times on a
 * shared machine vary; the `cpu` column is this thread's CPU time.
 */
import { cpus, loadavg, totalmem } from 'node:os';
import { performance } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import {
  DEFAULT_FACET_COLUMNS_MB,
  DEFAULT_MMAP_MB,
  DEFAULT_PAGE_CACHE_MB,
} from '../src/engine/backends/sqlite/engine.ts';
import { SqliteQueryContext } from '../src/engine/backends/sqlite/query-context.ts';
import { isQuarryError } from '../src/errors/index.ts';
import { DECLARED_SOURCES, declaredSource } from '../src/model/sources.ts';
import { openReadOnly } from '../src/store/sqlite/open.ts';

/** The sources the first build held, measured by bench/goals.ts. */
const MEASURED_ELSEWHERE = new Set(['publications', 'grants', 'researchers', 'organizations']);

const { values: args } = parseArgs({
  options: {
    db: { type: 'string' },
    sources: { type: 'string' },
    runs: { type: 'string', default: '15' },
  },
});
if (args.db === undefined) throw new Error('--db <record database> is required');
const runs = Math.max(3, Number(args.runs));
const sources =
  args.sources === undefined
    ? DECLARED_SOURCES.filter((s) => !MEASURED_ELSEWHERE.has(s.name))
    : args.sources.split(',').map((name) => {
        const source = declaredSource(name.trim());
        if (source === undefined) throw new Error(`no source named ${name}`);
        return source;
      });

const db = openReadOnly(args.db, { cacheMb: DEFAULT_PAGE_CACHE_MB, mmapMb: DEFAULT_MMAP_MB, tempStore: 'file' });
const context = new SqliteQueryContext(db, { columnar: { budgetBytes: DEFAULT_FACET_COLUMNS_MB * 2 ** 20 } });
type Answer = Readonly<Record<string, unknown>>;
const run = (query: string): Answer => context.run(query, { dslVersion: 2 });

const pct = (sorted: readonly number[], p: number): number =>
  sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] as number;
const ms = (x: number): string => `${x.toFixed(1)} ms`;
const quote = (s: string): string => JSON.stringify(s);

/** The rows a facet answers (`[{id, count, ...}]`), or none. */
function facetRows(answer: Answer, field: string): readonly Record<string, unknown>[] {
  const rows = answer[field];
  return Array.isArray(rows) ? (rows as Record<string, unknown>[]) : [];
}

/** A mid-frequency word of the source's titles: common enough to match, rare enough to narrow. */
function titleWord(source: string): string | undefined {
  const records = facetRows(run(`search ${source} return ${source}[basics] limit 500`), source);
  const counts = new Map<string, number>();
  for (const r of records)
    for (const w of (typeof r['title'] === 'string' ? r['title'] : '').toLowerCase().match(/[a-z]{5,}/g) ?? [])
      counts.set(w, (counts.get(w) ?? 0) + 1);
  const ranked = [...counts].sort((a, b) => b[1] - a[1]).map(([w]) => w);
  return ranked[Math.min(ranked.length - 1, 10)];
}

interface Shape {
  readonly name: string;
  readonly query: string;
  readonly goalMs: number;
}

/** The shapes of one source, from its declaration and its data. */
function shapesOf(source: (typeof DECLARED_SOURCES)[number]): Shape[] {
  const name = source.name;
  const table = source.fieldTable;
  const facets = table.fields.filter(([, , flags]) => flags.includes('c')).map(([field, type]) => ({ field, type }));
  const shapes: Shape[] = [];
  let filter: string | undefined;
  for (const { field, type } of facets) {
    const query = `search ${name} return ${field} limit 20`;
    shapes.push({ name: `facet ${field}`, query, goalMs: 100 });
    const top = facetRows(run(query), field)[0]?.['id'];
    if (filter === undefined && (typeof top === 'number' || typeof top === 'string') && type !== 'json')
      filter = `${field} = ${typeof top === 'number' ? top : quote(top)}`;
  }
  const order = `sort by ${table.defaultOrder.field} ${table.defaultOrder.direction}`;
  if (filter !== undefined)
    shapes.push({
      name: `filtered page (${filter})`,
      query: `search ${name} where ${filter} return ${name} ${order} limit 20`,
      goalMs: 100,
    });
  if (table.fields.some(([field]) => field === 'year'))
    shapes.push({
      name: 'year range page',
      query: `search ${name} where year in [2015:2018] return ${name} ${order} limit 20`,
      goalMs: 100,
    });
  const word = titleWord(name);
  const entityFacet = facets.find(({ type }) => type === 'organizations' || type === 'researchers') ?? facets[0];
  if (word !== undefined && entityFacet !== undefined)
    shapes.push({
      name: `text + facet ${entityFacet.field}`,
      query: `search ${name} for ${quote(word)} return ${entityFacet.field} limit 20`,
      goalMs: 100,
    });
  if (word !== undefined)
    shapes.push({ name: 'text page', query: `search ${name} for ${quote(word)} return ${name} limit 20`, goalMs: 100 });
  shapes.push({ name: '1000-record page', query: `search ${name} return ${name} limit 1000`, goalMs: 60 });
  return shapes;
}

console.log(
  `source goals on ${args.db}: ${cpus().length} cores, ${(totalmem() / 2 ** 30).toFixed(0)} GiB, load average ${loadavg()
    .map((l) => l.toFixed(1))
    .join(' ')}; ${new Date().toISOString()}`,
);
let met = 0;
let measured = 0;
for (const source of sources) {
  const count = db.prepare(`SELECT count(*) FROM ${source.name}`).pluck().get() as number;
  console.log(`\n${source.name}: ${count.toLocaleString('en')} records (${runs} runs per shape after 2 warm-up runs)`);
  if (count === 0) {
    console.log('  not measured: the database holds none');
    continue;
  }
  console.log(`  ${'shape'.padEnd(52)} ${'p50'.padStart(9)} ${'p99'.padStart(9)} ${'cpu p50'.padStart(9)}  goal`);
  for (const shape of shapesOf(source)) {
    try {
      for (let i = 0; i < 2; i++) run(shape.query);
      const wall: number[] = [];
      const cpu: number[] = [];
      for (let i = 0; i < runs; i++) {
        const t = performance.now();
        const c = process.cpuUsage();
        run(shape.query);
        const used = process.cpuUsage(c);
        wall.push(performance.now() - t);
        cpu.push((used.user + used.system) / 1000);
      }
      wall.sort((a, b) => a - b);
      cpu.sort((a, b) => a - b);
      const ok = pct(wall, 50) <= shape.goalMs;
      measured++;
      if (ok) met++;
      const onCpu = !ok && pct(cpu, 50) <= shape.goalMs ? ' (met on CPU)' : '';
      console.log(
        `  ${shape.name.slice(0, 52).padEnd(52)} ${ms(pct(wall, 50)).padStart(9)} ${ms(pct(wall, 99)).padStart(9)} ${ms(pct(cpu, 50)).padStart(9)}  p50 ≤ ${shape.goalMs} ms ${ok ? 'met' : 'NOT met'}${onCpu}`,
      );
    } catch (error) {
      if (!isQuarryError(error)) throw error;
      console.log(`  ${shape.name.slice(0, 52).padEnd(52)} refused: ${error.problems[0]?.code ?? error.message}`);
      console.log(`    ${shape.query}`);
    }
  }
}
console.log(`\n${met} of ${measured} shapes within their goal`);
db.close();
