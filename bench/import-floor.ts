/**
 * How fast the SQLite import could go if reading cost nothing: the same files imported whole
 * (`importFiles`, reading and writing side by side), then read and prepared first and only then
 * written by the writer alone and finished. The writer is one connection on one thread, and
 * `finish()` runs after the load, so the second time (write + finish) bounds the first whatever
 * is done on the reading side (helper threads, cheaper parsing, balancing the threads).
 *
 *   npx tsx bench/import-floor.ts DIR      (DIR: the shards of `bench/generate-import.ts N --dir DIR`, i.e. DIR/data)
 *
 * Holds every prepared batch in memory for the second pass: about 1.3 GiB at 100k generated
 * publications, so run it at 100k, not 1M. The machine's speed drifts between runs: compare
 * the two figures of one run, or run it twice.
 */
import { rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { expandInputs } from '../src/data/import/detect.ts';
import { importFiles } from '../src/data/import/index.ts';
import { readInputs, type BatchEvent } from '../src/data/import/read-inputs.ts';
import { recordWriterFor } from '../src/backends.ts';
import type { SqliteRows } from '../src/store/sqlite/prepare-rows.ts';
import { openSqliteRecordWriter } from '../src/store/sqlite/record-writer.ts';

/** The goal (issue: import ≥ 20,000 records/s, `finish()` included). */
const GOAL_RECORDS_PER_SECOND = 20_000;
const BATCH_SIZE = 5000;

const dir = process.argv[2];
if (dir === undefined) {
  console.error('usage: npx tsx bench/import-floor.ts DIR   (the --dir of bench/generate-import.ts)');
  process.exit(2);
}
const dataDir = join(dir, 'data');

const freshFile = (name: string): string => {
  const path = join(dir, name);
  for (const suffix of ['', '-wal', '-shm']) rmSync(path + suffix, { force: true });
  return path;
};
const cpuSince = (start: NodeJS.CpuUsage): number => {
  const used = process.cpuUsage(start);
  return (used.user + used.system) / 1e6;
};
const perSecond = (records: number, seconds: number): string =>
  `${Math.round(records / seconds).toLocaleString('en')} records/s`;

// 1. The import as it runs: reading and writing side by side, then finish().
const wholePath = freshFile('floor-whole.db');
let loaded = 0;
let started = performance.now();
let cpu = process.cpuUsage();
const report = await importFiles({
  paths: [dataDir],
  open: recordWriterFor(wholePath),
  format: 'quarry',
  onError: 'abort',
  onProgress: (p) => {
    if (p.phase === 'finish' && loaded === 0) loaded = performance.now();
  },
});
const whole = (performance.now() - started) / 1000;
const wholeCpu = cpuSince(cpu);
const records = Object.values(report.records).reduce((sum, n) => sum + n, 0);
console.log(
  `import, reading beside writing: ${whole.toFixed(1)} s (load ${((loaded - started) / 1000).toFixed(1)} s, finish ${((performance.now() - loaded) / 1000).toFixed(1)} s), ${wholeCpu.toFixed(1)} s CPU; ${records.toLocaleString('en')} records, ${perSecond(records, whole)}`,
);
rmSync(wholePath, { force: true });

// 2. Every batch read and prepared first, then written by the writer alone.
const inputs = await expandInputs([dataDir]);
const batches: BatchEvent<SqliteRows>[] = [];
started = performance.now();
cpu = process.cpuUsage();
await readInputs(
  {
    inputs: inputs.map((input) => ({ input, format: 'quarry' as const })),
    onError: 'abort',
    batchSize: BATCH_SIZE,
    abstracts: new Map(),
    preparation: 'sqlite',
  },
  (event) => {
    if (event.type === 'batch') batches.push(event);
    return Promise.resolve();
  },
);
const reading = (performance.now() - started) / 1000;
const readingCpu = cpuSince(cpu);

const alonePath = freshFile('floor-alone.db');
const writer = openSqliteRecordWriter(alonePath, { bulk: true, batchSize: BATCH_SIZE });
const run = await writer.begin(
  { paths: [dataDir], bulk: true },
  inputs.map((i) => i.name),
);
started = performance.now();
cpu = process.cpuUsage();
for (const batch of batches) writer.commit(run, batch, batch);
const writing = (performance.now() - started) / 1000;
const writingCpu = cpuSince(cpu);
batches.length = 0;
started = performance.now();
cpu = process.cpuUsage();
writer.finish();
const finishing = (performance.now() - started) / 1000;
const finishingCpu = cpuSince(cpu);
writer.end(run, 'done');
writer.close();
const size = statSync(alonePath).size;
rmSync(alonePath, { force: true });

const floor = writing + finishing;
console.log(`reading and preparing alone (one thread): ${reading.toFixed(1)} s, ${readingCpu.toFixed(1)} s CPU`);
console.log(
  `the writer alone: ${writing.toFixed(1)} s (${writingCpu.toFixed(1)} s CPU) + finish ${finishing.toFixed(1)} s (${finishingCpu.toFixed(1)} s CPU) = ${floor.toFixed(1)} s, ${perSecond(records, floor)}; file ${(size / 2 ** 20).toFixed(0)} MiB`,
);
console.log(
  `the writer alone is ${((100 * floor) / whole).toFixed(0)}% of the import; the goal (${GOAL_RECORDS_PER_SECOND.toLocaleString('en')} records/s) is ${(records / GOAL_RECORDS_PER_SECOND).toFixed(1)} s for these records: ${floor <= records / GOAL_RECORDS_PER_SECOND ? 'within' : 'past'} the writer's floor on this machine`,
);
console.log(
  `both cores at most: the import's ${wholeCpu.toFixed(1)} s of CPU over 2 cores is ${(wholeCpu / 2).toFixed(1)} s, ${((100 * wholeCpu) / 2 / whole).toFixed(0)}% of the import`,
);
