/**
 * Parsing throughput over the conformance file: parses every query in a loop for a few
 * seconds on one core and prints queries per second.
 *
 *   node --import tsx bench/parse.ts [--seconds 3] [--file path/to/queries.txt]
 *
 * `benchmarkQueries` is exported so that a wider benchmark (parse + validate) can reuse
 * the loop with its own per-query function.
 */
import { readFileSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { readQueryCorpus } from '../src/dsl/corpus.ts';
import { parse } from '../src/dsl/parse.ts';

export const DEFAULT_CORPUS = fileURLToPath(new URL('../conformance/queries.txt', import.meta.url));

export interface BenchResult {
  readonly queries: number;
  readonly seconds: number;
  readonly perSecond: number;
  /** How many of the corpus queries the function rejected (errors are part of the work). */
  readonly failing: number;
}

/**
 * Runs `work` over `queries` round after round until `seconds` have passed (after one
 * warm-up second) and reports the rate. A throw counts as a finished query.
 */
export function benchmarkQueries(
  queries: readonly string[],
  work: (query: string) => unknown,
  seconds = 3,
): BenchResult {
  let failing = 0;
  for (const q of queries) {
    try {
      work(q);
    } catch {
      failing++;
    }
  }
  const runFor = (limitMs: number): { count: number; ms: number } => {
    let count = 0;
    const start = performance.now();
    let now = start;
    while (now - start < limitMs) {
      for (const q of queries) {
        try {
          work(q);
        } catch {
          // rejected queries cost time too; they are counted like the others
        }
      }
      count += queries.length;
      now = performance.now();
    }
    return { count, ms: now - start };
  };
  runFor(1000);
  const { count, ms } = runFor(seconds * 1000);
  return { queries: count, seconds: ms / 1000, perSecond: count / (ms / 1000), failing };
}

function arg(name: string): string | undefined {
  const i = process.argv.indexOf(name);
  return i >= 0 ? process.argv[i + 1] : undefined;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const file = arg('--file') ?? DEFAULT_CORPUS;
  const seconds = Number(arg('--seconds') ?? 3);
  const queries = readQueryCorpus(readFileSync(file, 'utf8')).map((r) => r.query);
  const result = benchmarkQueries(queries, parse, seconds);
  console.log(
    `parse: ${queries.length} corpus queries (${result.failing} rejected), ${result.queries} parses in ${result.seconds.toFixed(2)} s = ${Math.round(result.perSecond).toLocaleString('en-US')} queries/s`,
  );
}
