/**
 * The generators of the sources beyond the first four: one entry per source, which
 * `generate()` (`index.ts`) and the publication threads (`publication-worker.ts`) read, so a
 * source with a generator in `src/sources/<name>/generate.ts` is wired by one line here.
 *
 * Publications, grants, researchers and organizations are one run over a shared context
 * (`context-setup.ts`); these sources come after it, in two ways:
 * - beside each publication (`ofPublication`): records made from the publication record as
 *   it is made, in whatever thread makes it (a dataset deposited with its paper);
 * - afterwards (`afterwards`): records made once the first four kinds are written, each
 *   from its own index, reading the run's context (a patent citing the run's papers).
 * Either way every draw is keyed by the record's index (`prng.ts`), so the output is the
 * same with or without publication threads. An import writes the kinds in `NATIVE_KINDS`
 * order whatever order the shards were made in.
 */
import type { PublicationRecord } from '../../model/native-records.ts';
import { NATIVE_KINDS, type SourceName } from '../../model/sources.ts';
import { makeClinicalTrial, planClinicalTrials } from '../../sources/clinical_trials/generate.ts';
import type { ClinicalTrialRecord } from '../../sources/clinical_trials/native.ts';
import {
  datasetsOfPublication,
  makeStandaloneDataset,
  standaloneDatasetCount,
} from '../../sources/datasets/generate.ts';
import type { DatasetRecord } from '../../sources/datasets/native.ts';
import { makePatent, planPatents } from '../../sources/patents/generate.ts';
import type { PatentRecord } from '../../sources/patents/native.ts';
import type { Context } from './context.ts';

/**
 * A share of a source's records that its generator states (as `generate.ts` documents), for
 * the validation report: the run fails when the share strays further from `target` than
 * `tolerance` plus the sampling error of the records made.
 */
export interface RecordShare<R extends object = object> {
  /** The check's name in the validation report: `<kind>_..._share`. */
  readonly name: string;
  readonly has: (record: R) => boolean;
  readonly target: number;
  readonly tolerance: number;
  /**
   * The share follows from how many records the generator makes for the run's scale (a
   * paper's datasets against those without one), so it is not judged when the run asks the
   * source for another number (`GenerateOptions.sourceRecords`).
   */
  readonly atRunScale?: true;
}

/** The records made once the first four kinds are written: how many, and record k of them. */
export interface LaterRecords<R extends object = object> {
  readonly count: number;
  readonly make: (k: number) => R;
}

export interface SourceGenerator<R extends object = object> {
  readonly kind: SourceName;
  /**
   * The records made beside publication i. Runs in the thread that makes the publication,
   * whose context has the per-paper arrays, the text model and the reference data but not
   * what the main thread changes while papers are made (the order of the authorship pool,
   * the researcher statistics): it may read only the former.
   */
  readonly ofPublication?: (ctx: Context, i: number, publication: PublicationRecord) => readonly R[];
  /**
   * The records made afterwards, on the main thread, from the run's context as the first
   * four kinds left it: the generator's own number for the run's scale, or `count` when the
   * run asks for another (`GenerateOptions.sourceRecords`).
   */
  readonly afterwards?: (ctx: Context, count?: number) => LaterRecords<R>;
  /** Shares the validation report checks. */
  readonly shares?: readonly RecordShare<R>[];
}

/** An entry of the registry, its record type forgotten (each entry's functions see only its own records). */
function entry<R extends object>(generator: SourceGenerator<R>): SourceGenerator {
  return generator as unknown as SourceGenerator;
}

const GENERATORS: readonly SourceGenerator[] = [
  entry<PatentRecord>({
    kind: 'patents',
    afterwards: (ctx, count) => {
      const run = planPatents(ctx, count);
      return { count: run.patents, make: (k) => makePatent(ctx, run, k) };
    },
    shares: [
      { name: 'patents_us_share', has: (p) => p.jurisdiction === 'US', target: 0.45, tolerance: 0.04 },
      // 25% of the patents filed since the first publication year; a few were filed before.
      {
        name: 'patents_citing_papers_share',
        has: (p) => p.publication_ids !== undefined,
        target: 0.245,
        tolerance: 0.03,
      },
    ],
  }),
  entry<DatasetRecord>({
    kind: 'datasets',
    ofPublication: datasetsOfPublication,
    afterwards: (ctx, count) => ({
      count: count ?? standaloneDatasetCount(ctx.plan.publications),
      make: (k) => makeStandaloneDataset(ctx, k),
    }),
    shares: [
      {
        name: 'datasets_with_paper_share',
        has: (d) => d.associated_publication_id !== undefined,
        target: 0.3,
        tolerance: 0.05,
        atRunScale: true,
      },
    ],
  }),
  entry<ClinicalTrialRecord>({
    kind: 'clinical_trials',
    afterwards: (ctx, count) => {
      const plan = planClinicalTrials(ctx, count);
      return { count: plan.count, make: (t) => makeClinicalTrial(ctx, plan, t) };
    },
    shares: [
      {
        name: 'trials_interventional_share',
        has: (t) => t.study_type === 'INTERVENTIONAL',
        target: 0.76,
        tolerance: 0.04,
      },
      // 30% draw publications; a few find none of a biomedical field in their years.
      {
        name: 'trials_citing_papers_share',
        has: (t) => t.publication_ids !== undefined,
        target: 0.3,
        tolerance: 0.05,
      },
    ],
  }),
];

/** The registered generators, in the order an import writes their kinds (`NATIVE_KINDS`). */
export const SOURCE_GENERATORS: readonly SourceGenerator[] = [...GENERATORS].sort(
  (a, b) => NATIVE_KINDS.indexOf(a.kind) - NATIVE_KINDS.indexOf(b.kind),
);

/** The generators that make records beside each publication. */
const BESIDE_PUBLICATIONS = SOURCE_GENERATORS.filter((g) => g.ofPublication !== undefined);

/**
 * Makes every generator's records beside publication i (record `publication`) and hands
 * each to `take`, in registry order and then each generator's order: the order a run writes
 * them in, whichever thread made them.
 */
export function makeBesidePublication(
  ctx: Context,
  i: number,
  publication: PublicationRecord,
  take: (generator: SourceGenerator, record: object) => void,
): void {
  for (const generator of BESIDE_PUBLICATIONS)
    for (const record of generator.ofPublication?.(ctx, i, publication) ?? []) take(generator, record);
}
