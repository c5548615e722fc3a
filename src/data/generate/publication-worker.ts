/**
 * A publication thread of the generator (`publication-threads.ts`): makes the records of a
 * range of papers from their identified authors, which the main thread picks in paper order,
 * and the records other sources make beside each paper (`source-generators.ts`), and answers
 * them as JSON lines with their tallies. The thread builds the run's context once, from the
 * settings and the first passes' arrays it is started with.
 */
import { workerData } from 'piscina';
import type { Context } from './context.ts';
import { setUpContext, type PaperPasses, type RunSettings } from './context-setup.ts';
import { makePublication, startPaper } from './publications.ts';
import { makeBesidePublication, SOURCE_GENERATORS } from './source-generators.ts';
import { noSourceTallies, tallySourceRecord, type SourceTallies } from './source-tallies.ts';
import { noPaperTallies, tallyPaper, type PaperTallies } from './validation.ts';

/** What every thread is started with (Piscina's `workerData`). */
export interface PublicationThreadSetup {
  readonly run: RunSettings;
  readonly passes: PaperPasses;
}

/** Papers [from, to), and the identified authors of each in turn (`ctx.authors[i]` slots a paper). */
export interface PublicationBatch {
  readonly from: number;
  readonly to: number;
  readonly who: Int32Array;
}

export interface PublicationLines {
  readonly lines: string[];
  readonly tallies: PaperTallies;
  /** The records made beside the papers as JSON lines, by source, in paper order. */
  readonly beside: Record<string, string[]>;
  readonly besideTallies: SourceTallies;
}

let context: Promise<{ ctx: Context; yearOf: (i: number) => number }> | undefined;

export default async function makePublications(batch: PublicationBatch): Promise<PublicationLines> {
  const setup = workerData as PublicationThreadSetup;
  context ??= setUpContext(setup.run, setup.passes);
  const { ctx, yearOf } = await context;
  const lines: string[] = [];
  const tallies = noPaperTallies();
  const beside: Record<string, string[]> = {};
  const besideTallies = noSourceTallies(SOURCE_GENERATORS);
  let at = 0;
  for (let i = batch.from; i < batch.to; i++) {
    const n = ctx.authors[i] as number;
    const who = Array.from(batch.who.subarray(at, at + n));
    at += n;
    const year = yearOf(i);
    const record = makePublication(ctx, i, year, startPaper(ctx, i, year, who));
    tallyPaper(tallies, record, year);
    lines.push(JSON.stringify(record));
    makeBesidePublication(ctx, i, record, (generator, made) => {
      (beside[generator.kind] ??= []).push(JSON.stringify(made));
      tallySourceRecord(besideTallies, generator, made);
    });
  }
  return { lines, tallies, beside, besideTallies };
}
