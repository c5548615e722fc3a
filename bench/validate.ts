/**
 * Parse + validate throughput over the conformance file, on one core.
 *
 *   node --import tsx bench/validate.ts [seconds]
 *
 * Every query of `conformance/queries.txt` is parsed and validated against the
 * version-2 schema in turn (rejected ones included: building their errors is part of the
 * work). Prints queries per second for all queries and for the accepted ones alone,
 * per second of CPU time of this process (what one core does, whatever else the machine
 * runs) and per second of wall-clock time. Goal: at least 20,000 queries/s on one core.
 */
import { readFileSync } from 'node:fs';
import { parse, readQueryCorpus } from '../src/dsl/index.ts';
import { isQuarryError } from '../src/errors/index.ts';
import { validate } from '../src/schema/index.ts';

const seconds = Number(process.argv[2] ?? 3);
const corpus = readQueryCorpus(readFileSync(new URL('../conformance/queries.txt', import.meta.url), 'utf8')).map(
  (q) => q.query,
);

function once(text: string): boolean {
  try {
    validate(parse(text), { dslVersion: 2, source: text });
    return true;
  } catch (error) {
    if (!isQuarryError(error)) throw error;
    return false;
  }
}

const accepted = corpus.filter(once);

/** Queries per CPU second and per wall-clock second over about `budgetMs` of CPU time. */
function measure(queries: readonly string[], budgetMs: number): { cpu: number; wall: number } {
  let done = 0;
  const wallStart = process.hrtime.bigint();
  const cpuStart = process.cpuUsage();
  let cpuMs = 0;
  while (cpuMs < budgetMs) {
    for (const q of queries) once(q);
    done += queries.length;
    const used = process.cpuUsage(cpuStart);
    cpuMs = (used.user + used.system) / 1000;
  }
  const wallS = Number(process.hrtime.bigint() - wallStart) / 1e9;
  return { cpu: done / (cpuMs / 1000), wall: done / wallS };
}

const fmt = (n: number): string => Math.round(n).toLocaleString('en-US');
measure(corpus, 500); // warm-up: let the JIT settle
const all = measure(corpus, seconds * 1000);
const ok = measure(accepted, seconds * 1000);
const goal = 20_000;
console.log(
  `parse+validate, ${corpus.length} conformance queries (${accepted.length} accepted), ${seconds} s of CPU each:`,
);
console.log(`  all queries:      ${fmt(all.cpu)} queries/s per core (${fmt(all.wall)} by the wall clock)`);
console.log(`  accepted queries: ${fmt(ok.cpu)} queries/s per core (${fmt(ok.wall)} by the wall clock)`);
console.log(`  goal ${fmt(goal)} queries/s on one core: ${all.cpu >= goal ? 'met' : 'NOT met'}`);
