/**
 * What a source's generator is (`src/sources/<name>/generate.ts`, given in the source's
 * `data.ts` and listed in `src/data/sources.ts`), for `source-generators.ts`, which reads them.
 *
 * Publications, grants, researchers and organizations are one run over a shared context
 * (`context-setup.ts`); these sources come after it, in two ways:
 * - beside each publication (`ofPublication`): records made from the publication record as
 *   it is made, in whatever thread makes it (a dataset deposited with its paper);
 * - afterwards (`afterwards`): records made once the first four kinds are written, each
 *   from its own index, reading the run's context (a patent citing the run's papers).
 * Either way every draw is keyed by the record's index (`prng.ts`), so the output is the
 * same with or without publication threads.
 */
import type { PublicationRecord } from '../../model/native-records.ts';
import type { SourceName } from '../../model/sources.ts';
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

/** A source's generator as its `data.ts` gives it (the kind is the source's). */
export type RecordsGenerator<R extends object = object> = Omit<SourceGenerator<R>, 'kind'>;

/** A source's generator for its `data.ts`, its record type forgotten (each one's functions see only its own records). */
export function recordsGenerator<R extends object>(generator: RecordsGenerator<R>): RecordsGenerator {
  return generator as unknown as RecordsGenerator;
}
