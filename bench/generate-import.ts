/**
 * Generate + import benchmark: generates N publications (default 1,000,000) with the
 * deterministic generator, imports them into a fresh SQLite record database, and prints the
 * time and records/s of each stage (wall and CPU; the machine may be shared).
 *
 *   npx tsx bench/generate-import.ts [publications=1000000] [--seed S] [--keep] [--dir DIR] [--gzip]
 *
 * Goals (spec): the whole run in at most 10 minutes at 1M; import at 20,000 records/s or more.
 */
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { generate } from '../src/data/generate/index.ts';
import { importFiles } from '../src/data/import/index.ts';
import { recordWriterFor } from '../src/backends.ts';
import { describeThreads, sampleThreadCpu } from './thread-cpu.ts';

const args = process.argv.slice(2);
const publications = Number((args.find((a) => /^\d[\d_]*$/.test(a)) ?? '1000000').replace(/_/g, ''));
const seedArg = args.indexOf('--seed');
const seed = seedArg >= 0 ? Number(args[seedArg + 1]) : 20240601;
const dirArg = args.indexOf('--dir');
const dir = dirArg >= 0 ? (args[dirArg + 1] as string) : mkdtempSync(join(tmpdir(), 'quarry-bench-gi-'));
const keep = args.includes('--keep') || dirArg >= 0;
// Gzip shards: at 10M publications, plain JSONL (64 GB) and the database do not fit on one disk together.
const gzip = args.includes('--gzip');

function cpuSeconds(start: NodeJS.CpuUsage): number {
  const u = process.cpuUsage(start);
  return (u.user + u.system) / 1e6;
}

let lastLog = 0;
const log = (text: string): void => {
  const now = performance.now();
  if (now - lastLog > 15_000) {
    lastLog = now;
    console.log(`  ... ${text}`);
  }
};

console.log(
  `generate + import ${publications.toLocaleString('en')} publications (seed ${seed}) in ${dir}; load average ${loadavg()
    .map((l) => l.toFixed(1))
    .join(' ')}`,
);
const t0 = performance.now();
const c0 = process.cpuUsage();
// Wall time of each generation phase, from its first progress report to the next phase's.
const phaseTimes: { phase: string; started: number }[] = [];
const manifest = await generate({
  publications,
  seed,
  outDir: join(dir, 'data'),
  gzip,
  onProgress: (p) => {
    if (phaseTimes.at(-1)?.phase !== p.phase) phaseTimes.push({ phase: p.phase, started: performance.now() });
    log(`generate ${p.phase} ${p.done}/${p.total}`);
  },
});
const phaseSeconds = phaseTimes
  .filter((p) => p.phase !== 'done')
  .map((p, i) => `${p.phase} ${(((phaseTimes[i + 1]?.started ?? performance.now()) - p.started) / 1000).toFixed(1)} s`);
const genSeconds = (performance.now() - t0) / 1000;
const genCpu = cpuSeconds(c0);
const generated = Object.values(manifest.counts).reduce((s, n) => s + n, 0);
const bytes = manifest.shards.reduce((s, x) => s + x.bytes, 0);
console.log(
  `generate: ${genSeconds.toFixed(1)} s wall, ${genCpu.toFixed(1)} s CPU; ${generated.toLocaleString('en')} records (${Math.round(generated / genSeconds).toLocaleString('en')} records/s), ${(bytes / 2 ** 20).toFixed(0)} MiB ${gzip ? 'gzip JSONL' : 'JSONL'}`,
);
console.log(`  phases (wall): ${phaseSeconds.join(', ')}`);
console.log(`  counts ${JSON.stringify(manifest.counts)}`);
console.log(
  `  validation ${manifest.validation.passed ? 'passed' : 'FAILED'}: ${manifest.validation.checks.map((c) => `${c.name}=${c.value}${c.ok ? '' : ' (OUT)'}`).join(', ')}`,
);

const dbPath = join(dir, 'records.db');
let finishStarted = 0;
let loadThreads = '';
const finishSteps: string[] = [];
const threads = sampleThreadCpu();
const t1 = performance.now();
const c1 = process.cpuUsage();
const report = await importFiles({
  paths: [join(dir, 'data')],
  open: recordWriterFor(dbPath),
  format: 'quarry',
  onError: 'abort',
  onFinishStep: (step, ms) => finishSteps.push(`${step} ${(ms / 1000).toFixed(1)} s`),
  onProgress: (p) => {
    if (p.phase === 'finish' && finishStarted === 0) {
      finishStarted = performance.now();
      loadThreads = describeThreads(threads.stop());
    }
    log(`import ${p.phase} ${p.records} records`);
  },
});
const importSeconds = (performance.now() - t1) / 1000;
const importCpu = cpuSeconds(c1);
const imported = Object.values(report.records).reduce((s, n) => s + n, 0);
const loadSeconds = ((finishStarted || performance.now()) - t1) / 1000;
console.log(
  `import: ${importSeconds.toFixed(1)} s wall (load ${loadSeconds.toFixed(1)} s + finish ${(importSeconds - loadSeconds).toFixed(1)} s), ${importCpu.toFixed(1)} s CPU; ` +
    `${imported.toLocaleString('en')} records -> ${Math.round(imported / importSeconds).toLocaleString('en')} records/s overall, ${Math.round(imported / loadSeconds).toLocaleString('en')} records/s while loading`,
);
console.log(
  `  ${Math.round(imported / importCpu).toLocaleString('en')} records per CPU second; CPU per thread while loading (the writer is main): ${loadThreads}`,
);
console.log(`  finish steps (wall): ${finishSteps.join(', ')}`);
console.log(
  `  publications/s overall: ${Math.round(publications / importSeconds).toLocaleString('en')}; database ${(statSync(dbPath).size / 2 ** 20).toFixed(0)} MiB; peak RSS ${(process.resourceUsage().maxRSS / 1024).toFixed(0)} MiB`,
);
const total = (performance.now() - t0) / 1000;
console.log(
  `total: ${total.toFixed(1)} s (${(total / 60).toFixed(1)} min; goal at 1M: <= 10 min) load average ${loadavg()
    .map((l) => l.toFixed(1))
    .join(' ')}`,
);
if (!keep) rmSync(dir, { recursive: true, force: true });
