/**
 * The demo database `npm start` creates on first run: generate a synthetic dataset into a
 * temporary folder, import it, and move the finished database into place (so an
 * interrupted build never leaves a half-made file where the service looks for one).
 *
 * @example
 *   await buildDemoDatabase({ dbPath: '.quarry/records.db', writerFor: recordWriterFor, publications: 10_000, seed: 20240601 });
 */
import { mkdtempSync, renameSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { DEFAULT_SEED, generate, type Manifest } from './generate/index.ts';
import { SOURCE_GENERATORS } from './generate/source-generators.ts';
import { importFiles, type ImportReport, type RecordTarget } from './import/index.ts';

/** Share of the generation half each generator phase takes (start, end), so progress never moves back. */
const GENERATE_BANDS: Readonly<Record<string, readonly [number, number]>> = {
  'reading reference data': [0, 3],
  citations: [3, 12],
  grants: [12, 16],
  publications: [16, 42],
  researchers: [42, 45],
  // The registered sources' phases share the rest, one slice each in the order they run.
  ...Object.fromEntries(
    SOURCE_GENERATORS.map((g, k, all) => [g.kind, [45 + (5 * k) / all.length, 45 + (5 * (k + 1)) / all.length]]),
  ),
  done: [50, 50],
};

/** Overall progress: `done` of `total` (100) with the current phase. */
export interface DemoProgress {
  readonly phase: string;
  readonly done: number;
  readonly total: number;
}

export interface BuildDemoOptions {
  readonly dbPath: string;
  /** The record writer for a database file; the composition root's `recordWriterFor`. */
  readonly writerFor: (dbPath: string) => RecordTarget;
  readonly publications?: number;
  readonly seed?: number;
  readonly onProgress?: (progress: DemoProgress) => void;
  /** Keep the generated JSONL here instead of a temporary folder (removed afterwards). */
  readonly dataDir?: string;
}

/** Generates and imports a demo dataset into `dbPath`. Returns the manifest and import report. */
export async function buildDemoDatabase(
  options: BuildDemoOptions,
): Promise<{ manifest: Manifest; report: ImportReport }> {
  const onProgress = options.onProgress ?? ((): void => undefined);
  const work = mkdtempSync(join(tmpdir(), 'quarry-demo-'));
  const dataDir = options.dataDir ?? join(work, 'data');
  // The database is built beside its final place so the rename stays on one file system.
  const building = join(dirname(options.dbPath), `.building-${process.pid}-${Date.now()}.db`);
  try {
    const manifest = await generate({
      publications: options.publications ?? 10_000,
      seed: options.seed ?? DEFAULT_SEED,
      outDir: dataDir,
      onProgress: (p) => {
        const [from, to] = GENERATE_BANDS[p.phase] ?? [0, 0];
        onProgress({
          phase: `generating ${p.phase}`,
          done: Math.round(from + (to - from) * (p.total > 0 ? p.done / p.total : 0)),
          total: 100,
        });
      },
    });
    const report = await importFiles({
      paths: [dataDir],
      open: options.writerFor(building),
      format: 'quarry',
      onError: 'abort',
      onProgress: (p) =>
        onProgress({
          phase: p.phase === 'finish' ? 'indexing' : 'importing',
          done: 50 + Math.round(48 * (p.total > 0 ? p.done / p.total : 0)),
          total: 100,
        }),
    });
    renameSync(building, options.dbPath);
    onProgress({ phase: 'done', done: 100, total: 100 });
    return { manifest, report };
  } finally {
    for (const suffix of ['', '-wal', '-shm', '-journal']) rmSync(building + suffix, { force: true });
    rmSync(work, { recursive: true, force: true });
  }
}
