/**
 * Runs the reading half of an import (read-inputs.ts) and hands its events, in order, to the
 * importer's writing half: in a worker thread beside the writer (read-worker.ts), so parsing
 * and preparing records takes the second core while the writer only binds and steps
 * statements, or in this thread for a small import, where starting a thread costs more than
 * it saves.
 *
 * The writer grants the reader room for `READ_AHEAD_BATCHES` batches beyond the one it is
 * writing: memory stays bounded by a few batches whatever the size of the input.
 */
import { availableParallelism } from 'node:os';
import { MessageChannel } from 'node:worker_threads';
import { Piscina } from 'piscina';
import { QuarryError } from '../../errors/index.ts';
import type { PreparedRecord, RowPreparation } from '../../store/row-preparation.ts';
import { workerExecArgv, workerModule } from '../../worker-module.ts';
import { readInputs, type ReadEvent, type ReadPlan } from './read-inputs.ts';
import { READER_YOUNG_GENERATION_MB, type ReaderMessage, type ReadTask } from './read-thread-contract.ts';

/** Batches the reader may have handed over that the writer has not yet written. */
export const READ_AHEAD_BATCHES = 2;

/**
 * Helper threads for a machine of `cores`: the cores the writer and the reading thread leave,
 * at most 3. A helper pays only on a core of its own: it takes a share of the mapping, but the
 * reading thread still reads every line, hands the helper its share and takes back and passes
 * on what it made, each a copy between threads. Measured on 2 cores, 100k generated
 * publications (299,067 records), load only, alternating (2026-11-27): with one helper 18.7
 * and 20.5 s, 36.5 and 39.6 s of CPU, peak 1,173 and 1,189 MiB; without 17.6 and 17.5 s, 32.9
 * and 32.8 s, 906 and 896 MiB.
 */
export function helpersFor(cores: number): number {
  return Math.max(0, Math.min(3, cores - 2));
}

/** The reading stopped on something unexpected, at `file`:`line`; the importer reports it with its own code. */
export class ReadingFailed extends Error {
  constructor(
    readonly file: string,
    readonly line: number,
    readonly reason: string,
    options?: { cause?: unknown },
  ) {
    super(`reading ${file}:${line} failed: ${reason}`, options);
  }
}

export interface ReadingOptions {
  readonly inWorker: boolean;
  /**
   * Threads beside the reading thread that map and prepare records of formats whose records
   * stand alone (default: `helpersFor` the machine's cores).
   */
  readonly helpers?: number;
  /** Called as each message of the reading thread arrives, before it waits its turn (for tests and tools). */
  readonly onArrival?: (message: ReaderMessage) => void;
}

/**
 * Reads the plan and awaits `handle` for each event in order; returns when everything is
 * read. Errors thrown by `handle` come out as they are (the reading stops); coded errors of
 * the reading too; anything else comes out as `ReadingFailed`.
 */
export async function runReading<P extends RowPreparation>(
  plan: ReadPlan & { readonly preparation: P },
  handle: (event: ReadEvent<PreparedRecord<P>>) => Promise<void>,
  options: ReadingOptions,
): Promise<void> {
  if (options.inWorker) return readInWorker(plan, handle as (event: ReadEvent<unknown>) => Promise<void>, options);
  const where = { file: '', line: 0 };
  let handled: { error: unknown } | undefined;
  try {
    await readInputs(
      plan,
      async (event) => {
        try {
          await handle(event);
        } catch (error) {
          handled = { error };
          throw error;
        }
      },
      where,
    );
  } catch (error) {
    if (handled !== undefined || error instanceof QuarryError) throw error;
    throw new ReadingFailed(where.file, where.line, error instanceof Error ? error.message : String(error), {
      cause: error,
    });
  }
}

async function readInWorker(
  plan: ReadPlan,
  handle: (event: ReadEvent<unknown>) => Promise<void>,
  options: ReadingOptions,
): Promise<void> {
  const filename = workerModule('read-worker', import.meta.url);
  const pool = new Piscina({
    filename: filename.href,
    minThreads: 1,
    maxThreads: 1,
    idleTimeout: Number.POSITIVE_INFINITY,
    execArgv: workerExecArgv(filename),
    resourceLimits: { maxYoungGenerationSizeMb: READER_YOUNG_GENERATION_MB },
  });
  const channel = new MessageChannel();
  const inbox: ReaderMessage[] = [];
  let wake: (() => void) | undefined;
  const deliver = (message: ReaderMessage): void => {
    options.onArrival?.(message);
    inbox.push(message);
    wake?.();
    wake = undefined;
  };
  // Where the reader was, for a thread that dies without saying so.
  let last = { file: '', line: 0 };
  channel.port1.on('message', deliver);
  const helpers = options.helpers ?? helpersFor(availableParallelism());
  const task: ReadTask = { plan, window: READ_AHEAD_BATCHES, port: channel.port2, helpers };
  // The task ends after its last message; a thread that dies or a module that fails to load
  // rejects it instead.
  pool.run(task, { transferList: [channel.port2] }).then(
    () => undefined,
    (error: unknown) =>
      deliver({
        type: 'failed',
        ...last,
        reason: `the reading thread failed: ${error instanceof Error ? error.message : String(error)}`,
      }),
  );
  try {
    for (;;) {
      while (inbox.length === 0) await new Promise<void>((resolve) => (wake = resolve));
      const message = inbox.shift() as ReaderMessage;
      switch (message.type) {
        case 'end':
          return;
        case 'error':
          throw new QuarryError(message.problems);
        case 'failed':
          throw new ReadingFailed(message.file, message.line, message.reason);
        case 'progress':
          last = { file: message.file, line: last.line };
          await handle(message);
          break;
        case 'batch':
          await handle(message);
          channel.port1.postMessage('credit');
          break;
        case 'problem':
        case 'file':
        case 'stop':
          await handle(message);
      }
    }
  } finally {
    channel.port1.close();
    await pool.destroy();
  }
}
