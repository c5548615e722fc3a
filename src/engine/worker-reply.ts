import { QuarryError, type Problem } from '../errors/index.ts';

/**
 * What a worker sends back. A QuarryError does not survive the thread boundary as a class,
 * so its problems travel as plain data and are rebuilt on the calling thread; anything else
 * thrown in a worker is a bug and travels as a message for the log.
 */
export type WorkerReply<T> =
  | { readonly ok: true; readonly value: T }
  | { readonly ok: false; readonly problems: readonly Problem[] }
  | { readonly ok: false; readonly internal: string };

/** Runs `fn` inside a worker and packs its outcome for `postMessage`. */
export function replyOf<T>(fn: () => T): WorkerReply<T> {
  try {
    return { ok: true, value: fn() };
  } catch (error) {
    if (error instanceof QuarryError) return { ok: false, problems: error.problems };
    return { ok: false, internal: error instanceof Error ? (error.stack ?? error.message) : String(error) };
  }
}

/** Unpacks a reply on the calling thread: the value, or the rebuilt error. */
export function unpackReply<T>(reply: WorkerReply<T>): T {
  if (reply.ok) return reply.value;
  if ('problems' in reply) throw new QuarryError(reply.problems);
  throw new Error(`query worker failed: ${reply.internal}`);
}
