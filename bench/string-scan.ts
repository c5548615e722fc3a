/**
 * Some packages slow string scans in the whole process once they are loaded: V8 then runs a
 * `charCodeAt` loop over a long string several times slower (measured: a 6 MB scan 6 → 56
 * ms, and the parse rate of the conformance queries 337k → 238k a second). ioredis is one (its `class
 * VerbatimString extends String`), which is why the service loads it only when a Redis is
 * configured (`src/store/redis/connect.ts`). This prints the scan and the parse rate of the
 * conformance queries before and after loading a package, so a new dependency can be checked.
 *
 *   npx tsx bench/string-scan.ts [package=ioredis]
 */
import { readFileSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import { readQueryCorpus } from '../src/dsl/corpus.ts';
import { parse } from '../src/dsl/parse.ts';
import { benchmarkQueries, DEFAULT_CORPUS } from './parse.ts';

const name = process.argv[2] ?? 'ioredis';
const text = Array.from({ length: 850_000 }, (_, i) => String(i * 7)).join(',');
const queries = readQueryCorpus(readFileSync(DEFAULT_CORPUS, 'utf8')).map((q) => q.query);

function scan(s: string): number {
  let v = 0;
  for (let i = 0; i < s.length; i++) v = (v + s.charCodeAt(i)) | 0;
  return v;
}

function measure(label: string): void {
  const times: number[] = [];
  for (let r = 0; r < 7; r++) {
    const t = performance.now();
    scan(text);
    times.push(performance.now() - t);
  }
  times.sort((a, b) => a - b);
  const parsed = benchmarkQueries(queries, (q) => parse(q), 2);
  console.log(
    `${label.padEnd(28)} scan of ${(text.length / 2 ** 20).toFixed(1)} MB: ${(times[3] as number).toFixed(1)} ms (median of 7); parse: ${Math.round(parsed.perSecond).toLocaleString('en')} queries/s`,
  );
}

measure('before loading anything');
await import('../src/backends.ts');
measure("after the service's modules");
await import(name);
measure(`after ${name}`);
