/**
 * The serving process's memory after the whole query mix, on the real service: `quarry
 * serve` (its default workers and memory settings) answers every shape of
 * bench/query-shapes.ts `--runs` times over HTTP, one query at a time, through the
 * token-path family, with the result cache off so every query runs. Prints the process's
 * RSS (its worker threads included) after start-up and after the mix, and the slowest
 * query per shape (the first run of a facet reads its in-memory columns in that worker).
 *
 *   npx tsx bench/serving-memory.ts --db records.db [--runs 6]
 *
 * Goal (issue 11): serving RSS ≤ 1 GiB after the whole mix at 1M publications.
 */
import { readFileSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import { openReadOnly } from '../src/store/sqlite/open.ts';
import { queryShapes } from './query-shapes.ts';
import { benchKeys, serve } from './serve.ts';

const { values: args } = parseArgs({
  options: { db: { type: 'string' }, runs: { type: 'string', default: '6' } },
});
if (args.db === undefined) throw new Error('--db <record database> is required');
const dbPath = args.db;
const runs = Math.max(1, Number(args.runs));

function rssMib(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = Number(/VmRSS:\s+(\d+) kB/.exec(status)?.[1] ?? NaN);
  return kb / 1024;
}

const db = openReadOnly(dbPath);
const shapes = queryShapes(db);
db.close();
const [key] = await benchKeys(dbPath, 1);
const server = await serve(dbPath, { QUARRY_RATE_LIMITS: 'off', QUARRY_QUERY_CACHE_MB: '0' });
const pid = server.child.pid as number;
try {
  const token = await (await fetch(`${server.url}/v3/token?api_key=${encodeURIComponent(key ?? '')}`)).text();
  const query = (body: string): Promise<Response> =>
    fetch(`${server.url}/v3/api/query`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'text/plain' },
      body,
    });
  // One query first: the workers open the database.
  await (await query('search publications return year limit 1')).arrayBuffer();
  const started = rssMib(pid);
  console.log(`serving ${dbPath}: RSS after start-up ${started.toFixed(0)} MiB; ${runs} runs of each shape`);
  for (const [name, make] of shapes) {
    const times: number[] = [];
    for (let i = 0; i < runs; i++) {
      const t = performance.now();
      const response = await query(make(i));
      await response.arrayBuffer();
      if (response.status !== 200) throw new Error(`${name}: HTTP ${response.status}`);
      times.push(performance.now() - t);
    }
    const sorted = [...times].sort((a, b) => a - b);
    console.log(
      `  ${name.padEnd(28)} median ${(sorted[sorted.length >> 1] as number).toFixed(1).padStart(7)} ms, slowest ${(sorted[sorted.length - 1] as number).toFixed(1).padStart(7)} ms`,
    );
  }
  const after = rssMib(pid);
  console.log(`RSS after the mix: ${after.toFixed(0)} MiB (goal ≤ 1024 MiB: ${after <= 1024 ? 'met' : 'NOT met'})`);
} finally {
  server.child.kill('SIGTERM');
}
