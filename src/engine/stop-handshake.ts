/**
 * How the pool stops a task without terminating its worker inside a native call that does
 * not survive it. Node 20 aborts the whole process when a worker thread is terminated while
 * a synchronous zlib call is setting up its stream (node_zlib.cc: "close before init"), and
 * query workers inflate packed documents all the time. So each task carries two shared
 * flags: before terminating, the pool raises STOP and waits while INSIDE is up; the worker
 * raises INSIDE before each such call and, when STOP is already up, does not enter it and
 * fails the task instead (which also ends most stopped queries without a new worker).
 * Atomics are sequentially consistent, so once the pool has raised STOP and then seen INSIDE
 * down, the worker cannot enter another guarded call.
 */
import type { NativeCallGuard } from '../store/sqlite/packed-text.ts';

const STOP = 0;
const INSIDE = 1;

/** The flags of one task, shared between the pool and the worker running it. */
export function newStopFlags(): SharedArrayBuffer {
  return new SharedArrayBuffer(2 * Int32Array.BYTES_PER_ELEMENT);
}

/** Thrown in the worker by a guarded call after the pool asked the task to stop. */
export class TaskStopped extends Error {
  constructor() {
    super('the task was stopped');
  }
}

let current: Int32Array | undefined;

/** Runs one task in the worker with its flags as the ones `taskNativeGuard` reads. */
export function runWithStopFlags<R>(flags: SharedArrayBuffer | undefined, run: () => R): R {
  const previous = current;
  current = flags === undefined ? undefined : new Int32Array(flags);
  try {
    return run();
  } finally {
    current = previous;
  }
}

/** The guard a worker installs around its native calls (`setNativeCallGuard`); a no-op outside a task. */
export const taskNativeGuard: NativeCallGuard = {
  enter() {
    if (current === undefined) return;
    Atomics.store(current, INSIDE, 1);
    if (Atomics.load(current, STOP) === 1) {
      Atomics.store(current, INSIDE, 0);
      throw new TaskStopped();
    }
  },
  leave() {
    if (current !== undefined) Atomics.store(current, INSIDE, 0);
  },
};

/**
 * Pool side: raises STOP and resolves once the worker is outside any guarded call (at once
 * when it is not in one), or after `maxWaitMs` whatever happens, so a stop always ends.
 */
export async function stopAndWait(flags: SharedArrayBuffer, maxWaitMs = 2000): Promise<void> {
  const view = new Int32Array(flags);
  Atomics.store(view, STOP, 1);
  const until = performance.now() + maxWaitMs;
  while (Atomics.load(view, INSIDE) === 1 && performance.now() < until) {
    await new Promise((resolve) => setTimeout(resolve, 1));
  }
}
