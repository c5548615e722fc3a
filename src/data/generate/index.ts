/**
 * `generate()`: the deterministic synthetic dataset of spec/generator.md as JSONL shards
 * per entity plus `manifest.json` (seed, scale, generator version, counts, SHA-256 per shard,
 * validation report): the first four sources from one shared context, then the records of
 * every source in the generators' registry (`source-generators.ts`), beside each
 * publication or afterwards.
 *
 * @example
 *   const manifest = await generate({ publications: 1000, seed: 20240601, outDir: '/tmp/q1k' });
 *   manifest.counts.publications; // 1000
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import { QuarryError } from '../../errors/index.ts';
import type { SourceName } from '../../model/sources.ts';
import { setUpContext, type RunSettings } from './context-setup.ts';
import { makeGrant } from './grants.ts';
import { writePublicationsInThreads } from './publication-threads.ts';
import { makePublication, notePaperAuthors, pickAuthors, startPaper } from './publications.ts';
import { makeResearcher } from './researchers.ts';
import { DEFAULT_SEED } from './seed.ts';
import { ShardWriter, type ShardInfo } from './shard-writer.ts';
import { makeBesidePublication, SOURCE_GENERATORS } from './source-generators.ts';
import { noSourceTallies, sourceChecks, tallySourceRecord } from './source-tallies.ts';
import { VENDOR_DIR } from './reference-data.ts';
import { assertValid, tallyPaper, validate, type Tallies, type ValidationReport } from './validation.ts';
import { SCHEME_CATEGORIES } from './category-schemes.ts';

/** 1.1: the sources of the generators' registry (patents, datasets, clinical trials) beside the first four. */
export const GENERATOR_VERSION = '1.1.0';
export { DEFAULT_SEED };
const PER_SHARD = 100_000;
/** From this many publications, helper threads make them (below it, starting threads costs more than it saves). */
const THREADED_FROM = 50_000;

/** A progress report: the phase and how far it is. */
export interface GenerateProgress {
  readonly phase: string;
  readonly done: number;
  readonly total: number;
}

export interface GenerateOptions {
  readonly publications: number;
  readonly seed?: number;
  readonly outDir: string;
  /** The reference data folder (default: the repository's vendored `src/data/vendor/`). */
  readonly dataDir?: string;
  readonly onProgress?: (progress: GenerateProgress) => void;
  /** Fail the run when the validation report is out of tolerance (default true). */
  readonly enforceValidation?: boolean;
  /**
   * Threads that make the publications beside this one (`publication-threads.ts`); 0 makes
   * them here. Default: one per core (at most 4) from 50,000 publications, else 0. The output
   * is the same either way.
   */
  readonly threads?: number;
  /**
   * How many records a source's generator makes from the finished run instead of the number
   * its scale gives (patents, clinical trials; for datasets, those without a paper): to
   * build a database of a given size per source, as the benchmarks do. Records made beside
   * each publication (a paper's datasets) follow the publications whatever this says.
   */
  readonly sourceRecords?: Readonly<Partial<Record<SourceName, number>>>;
  /** Write gzip shards (`.jsonl.gz`, see `shard-writer.ts`) instead of plain JSONL (default false). */
  readonly gzip?: boolean;
}

/** What `manifest.json` holds. */
export interface Manifest {
  readonly generator: 'quarry';
  readonly generator_version: string;
  readonly seed: number;
  readonly publications: number;
  readonly counts: Readonly<Record<string, number>>;
  readonly shards: readonly ShardInfo[];
  readonly validation: ValidationReport;
}

const tick = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

/** Generates the dataset into `outDir` (created if missing) and returns its manifest. */
export async function generate(options: GenerateOptions): Promise<Manifest> {
  const publications = options.publications;
  if (!Number.isInteger(publications) || publications < 1 || publications > 99_999_999) {
    throw QuarryError.of('DATA_BAD_SCALE', { params: { value: String(publications) } });
  }
  const seed = options.seed ?? DEFAULT_SEED;
  if (!Number.isInteger(seed) || seed < 0 || seed > 0xffffffff)
    throw QuarryError.of('DATA_BAD_SEED', { params: { value: String(seed) } });
  const report = options.onProgress ?? ((): void => undefined);
  const dataDir = options.dataDir ?? VENDOR_DIR;
  mkdirSync(options.outDir, { recursive: true });
  const run: RunSettings = { publications, seed, dataDir };
  report({ phase: 'reading reference data', done: 0, total: 1 });
  const { ctx, yearOf, passes, authorSlots, citationLinks } = await setUpContext(run, undefined, async (done) => {
    report({ phase: 'citations', done, total: publications });
    await tick();
  });
  const { fields, orgs, journals, plan } = ctx;
  const R = ctx.people.researchers;

  const shards: ShardInfo[] = [];
  const counts: Record<string, number> = {};
  const writeAll = (kind: string, records: readonly object[]): void => {
    const w = new ShardWriter(options.outDir, kind, 250_000, options.gzip);
    for (const r of records) w.write(r);
    shards.push(...w.close());
    counts[kind] = w.total;
  };
  writeAll('categories', [...fields.categories, ...SCHEME_CATEGORIES]);
  writeAll('organizations', orgs.records);
  writeAll('source_titles', journals.records);

  // Each phase reports once as it starts, so a progress display (and the benchmark's phase
  // times) see it begin rather than a batch later.
  report({ phase: 'grants', done: 0, total: plan.grants });
  const grantsOut = new ShardWriter(options.outDir, 'grants', PER_SHARD, options.gzip);
  for (let g = 0; g < plan.grants; g++) {
    grantsOut.write(makeGrant(ctx, g));
    if (g % 5000 === 4999) {
      report({ phase: 'grants', done: g + 1, total: plan.grants });
      await tick();
    }
  }
  shards.push(...grantsOut.close());
  counts['grants'] = grantsOut.total;

  const tallies: Tallies = {
    publications,
    authorSlots,
    papersPerResearcher: [],
    oldPapers: 0,
    oldUncited: 0,
    funded: 0,
    citationLinks,
    organizationLinks: 0,
    openAccessByYear: new Map(),
  };
  // One writer per registered source, open from the publications (whose threads make some
  // sources' records beside each paper) to the source's own phase.
  const sourcesOut = Object.fromEntries(
    SOURCE_GENERATORS.map((g) => [g.kind, new ShardWriter(options.outDir, g.kind, PER_SHARD, options.gzip)]),
  );
  const sourceTallies = noSourceTallies(SOURCE_GENERATORS);
  const writeSourceRecord = (kind: string, record: object): void => {
    (sourcesOut[kind] as ShardWriter).write(record);
  };

  report({ phase: 'publications', done: 0, total: publications });
  const pubsOut = new ShardWriter(options.outDir, 'publications', PER_SHARD, options.gzip);
  const threads = options.threads ?? (publications >= THREADED_FROM ? Math.min(4, availableParallelism()) : 0);
  if (threads > 0) {
    const sinks = { publications: pubsOut, tallies, beside: sourcesOut, besideTallies: sourceTallies };
    await writePublicationsInThreads(ctx, yearOf, { run, passes }, sinks, threads, async (done) => {
      report({ phase: 'publications', done, total: publications });
      await tick();
    });
  } else {
    const cursor = { at: 0 };
    for (let i = 0; i < publications; i++) {
      const year = yearOf(i);
      const start = startPaper(ctx, i, year, pickAuthors(ctx, i, cursor));
      notePaperAuthors(ctx, year, start);
      const rec = makePublication(ctx, i, year, start);
      pubsOut.write(rec);
      tallyPaper(tallies, rec, year);
      makeBesidePublication(ctx, i, rec, (generator, made) => {
        writeSourceRecord(generator.kind, made);
        tallySourceRecord(sourceTallies, generator, made);
      });
      if (i % 2000 === 1999) {
        report({ phase: 'publications', done: i + 1, total: publications });
        await tick();
      }
    }
  }
  shards.push(...pubsOut.close());
  counts['publications'] = pubsOut.total;

  report({ phase: 'researchers', done: 0, total: R });
  const researchersOut = new ShardWriter(options.outDir, 'researchers', 250_000, options.gzip);
  for (let r = 0; r < R; r++) {
    const rec = makeResearcher(ctx, r);
    researchersOut.write(rec);
    tallies.papersPerResearcher[rec.total_publications] =
      (tallies.papersPerResearcher[rec.total_publications] ?? 0) + 1;
    if (r % 20_000 === 19_999) {
      report({ phase: 'researchers', done: r + 1, total: R });
      await tick();
    }
  }
  shards.push(...researchersOut.close());
  counts['researchers'] = researchersOut.total;
  for (let n = 0; n < tallies.papersPerResearcher.length; n++) tallies.papersPerResearcher[n] ??= 0;

  // The other sources' records made from the finished context, in import order.
  for (const generator of SOURCE_GENERATORS) {
    const later = generator.afterwards?.(ctx, options.sourceRecords?.[generator.kind]);
    if (later !== undefined) {
      report({ phase: generator.kind, done: 0, total: later.count });
      for (let k = 0; k < later.count; k++) {
        const record = later.make(k);
        writeSourceRecord(generator.kind, record);
        tallySourceRecord(sourceTallies, generator, record);
        if (k % 5000 === 4999) {
          report({ phase: generator.kind, done: k + 1, total: later.count });
          await tick();
        }
      }
    }
    const out = sourcesOut[generator.kind] as ShardWriter;
    shards.push(...out.close());
    counts[generator.kind] = out.total;
  }

  const validation = validate(
    tallies,
    sourceChecks(SOURCE_GENERATORS, sourceTallies, new Set(Object.keys(options.sourceRecords ?? {}))),
  );
  const manifest: Manifest = {
    generator: 'quarry',
    generator_version: GENERATOR_VERSION,
    seed,
    publications,
    counts,
    shards,
    validation,
  };
  writeFileSync(join(options.outDir, 'manifest.json'), JSON.stringify(manifest, null, 2) + '\n');
  report({ phase: 'done', done: 1, total: 1 });
  if (options.enforceValidation !== false) assertValid(validation);
  return manifest;
}

export { assertValid, validate } from './validation.ts';
export type { ValidationReport } from './validation.ts';
