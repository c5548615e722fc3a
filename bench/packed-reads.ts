/**
 * The read shapes that pay for packed text (issue 11): a page of 1,000 whole publications,
 * 100 with their abstracts, a filter on a document-only field, and four facets under such a
 * filter. CPU p50 (this thread) per shape, in process on one connection.
 *
 *   npx tsx bench/packed-reads.ts --db /tmp/q100k/records.db [--runs 9]
 */
import { parseArgs } from 'node:util';
import { runQuery } from '../src/engine/backends/sqlite/query-context.ts';
import { openReadOnly } from '../src/store/sqlite/open.ts';

const { values: args } = parseArgs({
  options: { db: { type: 'string' }, runs: { type: 'string', default: '9' }, only: { type: 'string' } },
});
if (args.db === undefined) throw new Error('--db <record database> is required');
const runs = Math.max(3, Number(args.runs));
const db = openReadOnly(args.db, { tempStore: 'memory' });
const years = db
  .prepare('SELECT year FROM publications WHERE year IS NOT NULL GROUP BY year ORDER BY count(*) DESC LIMIT 3')
  .pluck()
  .all() as number[];
const year = (i: number): number => years[i % years.length] as number;

const shapes: [string, (i: number) => string][] = [
  [
    '1000-record page',
    (i) => `search publications where year = ${year(i)} return publications[basics+extras] limit 1000`,
  ],
  [
    '100 with abstracts',
    (i) => `search publications where year = ${year(i)} return publications[id+title+abstract] limit 100`,
  ],
  [
    'document-only filter',
    (i) => `search publications where year = ${year(i)} and authors = "Wang" return publications`,
  ],
  [
    'four facets, document filter',
    (i) =>
      `search publications where year = ${year(i)} and authors != "zzqq" return researchers aggregate citations_total, citations_median limit 1000 return research_orgs aggregate citations_median limit 1000 return year aggregate citations_median return type aggregate citations_median`,
  ],
];

const pct = (sorted: readonly number[], p: number): number =>
  sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] as number;
for (const [name, make] of shapes) {
  if (args.only !== undefined && !name.includes(args.only)) continue;
  runQuery(db, make(0), { dslVersion: 2 });
  const cpu: number[] = [];
  for (let i = 0; i < runs; i++) {
    const c = process.cpuUsage();
    runQuery(db, make(i), { dslVersion: 2 });
    const u = process.cpuUsage(c);
    cpu.push((u.user + u.system) / 1000);
  }
  cpu.sort((a, b) => a - b);
  console.log(`${name.padEnd(30)} cpu p50 ${pct(cpu, 50).toFixed(1).padStart(8)} ms  (min ${cpu[0]?.toFixed(1)})`);
}
