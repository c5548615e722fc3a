/**
 * Writes the publications with helper threads: the main thread picks each paper's
 * identified authors in paper order (the Lotka pool is shared from paper to paper) and notes
 * them in the researcher statistics; the threads (`publication-worker.ts`) make the records
 * (the text, most of the cost), and those other sources make beside each paper, and answer
 * them as JSON lines; the main thread writes the lines in paper order. The output is byte
 * for byte what one thread writes.
 */
import { Piscina } from 'piscina';
import { workerExecArgv, workerModule } from '../../worker-module.ts';
import type { Context } from './context.ts';
import type { PublicationBatch, PublicationLines, PublicationThreadSetup } from './publication-worker.ts';
import { notePaperAuthors, pickAuthors, startPaper } from './publications.ts';
import type { ShardWriter } from './shard-writer.ts';
import { mergeSourceTallies, type SourceTallies } from './source-tallies.ts';
import { mergePaperTallies, type PaperTallies } from './validation.ts';

/** Papers per task: large enough that a task's messages cost little next to its text. */
const BATCH = 2000;

/** Where the publication phase's records and tallies go. */
export interface PublicationSinks {
  readonly publications: ShardWriter;
  readonly tallies: PaperTallies;
  /** The writer of each source that makes records beside the papers, by source name. */
  readonly beside: Readonly<Record<string, ShardWriter>>;
  readonly besideTallies: SourceTallies;
}

/**
 * Makes the run's papers in `threads` threads, each started with `setup`, and writes them
 * and the records made beside them to `out`, adding their tallies to its tallies; `onBatch`
 * hears how many papers are written after each batch.
 */
export async function writePublicationsInThreads(
  ctx: Context,
  yearOf: (i: number) => number,
  setup: PublicationThreadSetup,
  out: PublicationSinks,
  threads: number,
  onBatch: (done: number) => Promise<void>,
): Promise<void> {
  const filename = workerModule('publication-worker', import.meta.url);
  const publications = setup.run.publications;
  const pool = new Piscina<PublicationBatch, PublicationLines>({
    filename: filename.href,
    minThreads: threads,
    maxThreads: threads,
    idleTimeout: Number.POSITIVE_INFINITY,
    execArgv: workerExecArgv(filename),
    workerData: setup,
  });
  const cursor = { at: 0 };
  let next = 0;
  const submit = (): Promise<PublicationLines> => {
    const from = next;
    const to = Math.min(publications, from + BATCH);
    next = to;
    let slots = 0;
    for (let i = from; i < to; i++) slots += ctx.authors[i] as number;
    const who = new Int32Array(slots);
    let at = 0;
    for (let i = from; i < to; i++) {
      const year = yearOf(i);
      const start = startPaper(ctx, i, year, pickAuthors(ctx, i, cursor));
      notePaperAuthors(ctx, year, start);
      who.set(start.who, at);
      at += start.who.length;
    }
    return pool.run({ from, to, who }, { transferList: [who.buffer] });
  };
  // Two batches a thread in flight: each thread has the next one waiting when it finishes.
  const inFlight: Promise<PublicationLines>[] = [];
  try {
    while (next < publications && inFlight.length < threads * 2) inFlight.push(submit());
    while (inFlight.length > 0) {
      const answer = await (inFlight.shift() as Promise<PublicationLines>);
      if (next < publications) inFlight.push(submit());
      for (const line of answer.lines) out.publications.writeLine(line);
      for (const [kind, lines] of Object.entries(answer.beside)) {
        const writer = out.beside[kind];
        if (writer === undefined) throw new Error(`no writer for the ${kind} made beside publications`);
        for (const line of lines) writer.writeLine(line);
      }
      mergePaperTallies(out.tallies, answer.tallies);
      mergeSourceTallies(out.besideTallies, answer.besideTallies);
      await onBatch(out.publications.total);
    }
  } finally {
    // A failed batch leaves the others running: wait for them before closing the threads.
    await Promise.allSettled(inFlight);
    await pool.destroy();
  }
}
