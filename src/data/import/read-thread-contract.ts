/**
 * What the importer (read-pipeline.ts) and its reading thread (read-worker.ts) agree on: the
 * task the thread is given, the messages it posts back, and the heap the reading threads run
 * with. Both sides import this module and neither imports the other, so the thread's module
 * loads without the pipeline that starts it.
 */
import type { MessagePort } from 'node:worker_threads';
import type { Problem } from '../../errors/index.ts';
import type { ReadEvent, ReadPlan } from './read-inputs.ts';

/**
 * The young generation of the reading threads, larger than V8 sizes it by default. Parsing and
 * preparing records makes short-lived objects fast, and a small young generation promotes
 * many of them before they die. Measured on 60,000 publications and 228,000 other records,
 * three runs each, alternating (2026-11-27): 24.2-24.5 s and 39.9-40.4 s of CPU with the
 * default, 22.9-23.7 s and 37.1-38.9 s with 192 MiB, for 140-190 MiB more peak memory. The
 * writer's own young generation made no difference measured the same way.
 */
export const READER_YOUNG_GENERATION_MB = 192;

/** The one task of the reading thread: read the whole plan and post its events on `port`. */
export interface ReadTask {
  readonly plan: ReadPlan;
  /** Batches that may be posted before the first credit. */
  readonly window: number;
  readonly port: MessagePort;
  /** Helper threads that map and prepare records of pure formats beside this one (prepare-worker.ts). */
  readonly helpers: number;
}

/** What the reading thread posts: its events, then how it ended. */
export type ReaderMessage =
  | ReadEvent<unknown>
  | { readonly type: 'end' }
  /** A coded error from reading (an unreadable archive, a shard of no known kind). */
  | { readonly type: 'error'; readonly problems: readonly Problem[] }
  /** An unexpected error: a bug in a format reader, or the thread died. */
  | { readonly type: 'failed'; readonly file: string; readonly line: number; readonly reason: string };
