/**
 * `finish()`'s full-text merge (FTS5's `optimize`: every segment of each index merged into
 * one) on a second connection, in a worker thread, so that `finish()`'s thread can do work that
 * only reads while it runs (turning posting lists around, counting citations). The merge takes
 * the database's write lock; in WAL mode readers go on beside it. `wait()` blocks until the
 * merge has ended: `finish()` is synchronous, and the worker wakes it through shared memory,
 * not through the event loop.
 *
 * Where a second connection cannot help (an in-memory database, a journal other than WAL, an
 * open transaction on this connection), the merge runs on this connection, in `wait()`. If the
 * worker fails, or has not started by the time `wait()` has waited `startTimeoutMs` for it,
 * `wait()` merges here too and says why the worker could not.
 *
 * @example
 *   const merge = startFullTextMerge(db, { cacheKib: 4096 });
 *   const lists = listsTurnedAround(db, link); // reads beside the merge
 *   merge.wait();
 */
import type { Database } from 'better-sqlite3';
import { createRequire } from 'node:module';
import { MessageChannel, receiveMessageOnPort, Worker } from 'node:worker_threads';
import { FULLTEXT_TABLES, fullTextTables } from '../../model/storage.ts';
import { packageFile } from '../../package-root.ts';

/**
 * The word in shared memory. It starts `MERGE_PENDING`; the thread claims the merge
 * (`MERGE_RUNNING`) before it opens the database, or `wait()` gives up on it (`MERGE_ABANDONED`),
 * whichever comes first: each swaps the word only if it is still pending, so the merge never runs
 * twice at once. A claimed merge ends `MERGE_DONE` or `MERGE_FAILED`.
 */
const MERGE_PENDING = 0;
const MERGE_RUNNING = 1;
const MERGE_DONE = 2;
const MERGE_FAILED = 3;
const MERGE_ABANDONED = 4;

/**
 * How long `wait()` waits for the thread to start, at most. A thread starts in tens of
 * milliseconds; one that has not in this long will not (a thread loaded through module hooks
 * never started while this one waited), and the merge runs here instead of `finish()` waiting
 * for good. Once started, the thread always says how it ended, however long the merge takes.
 */
export const MERGE_START_TIMEOUT_MS = 20_000;

/**
 * The thread's code, CommonJS evaluated as it is. A worker started from a module file loads it
 * through the process's module hooks (tsx, where Quarry runs from its sources), and such a
 * worker never started while this thread waited for it. It needs nothing but better-sqlite3,
 * whose path it is given, and says how it ended before anything can fail unseen.
 */
const MERGE_THREAD = `
const { workerData } = require('node:worker_threads');
const { sqlite, file, statements, cacheKib, state, port } = workerData;
const flag = new Int32Array(state);
if (Atomics.compareExchange(flag, 0, ${MERGE_PENDING}, ${MERGE_RUNNING}) !== ${MERGE_PENDING}) {
  // The waiting thread gave up on this one and merged itself: leave the database alone.
  port.close();
} else try {
  Atomics.notify(flag, 0);
  const Database = require(sqlite);
  const db = new Database(file);
  try {
    // The writer committed before starting this thread; wait for its lock all the same.
    db.pragma('busy_timeout = 60000');
    db.pragma('cache_size = -' + cacheKib);
    db.transaction(() => {
      for (const sql of statements) db.exec(sql);
    }).immediate();
  } finally {
    db.close();
  }
  Atomics.store(flag, 0, ${MERGE_DONE});
} catch (error) {
  port.postMessage(error instanceof Error ? error.message : String(error));
  Atomics.store(flag, 0, ${MERGE_FAILED});
} finally {
  port.close();
  Atomics.notify(flag, 0);
}`;

/** Where the merge ran, and why not in the worker when it did not. */
export type MergeOutcome =
  { readonly on: 'worker' } | { readonly on: 'this connection'; readonly workerError?: string };

export interface FullTextMerge {
  /** Blocks until the merge has ended (merging on this connection if it has not run). */
  wait(): MergeOutcome;
}

/** The statements that merge every full-text index. */
function fullTextMergeSql(): string[] {
  return FULLTEXT_TABLES.flatMap(fullTextTables).map((f) => `INSERT INTO ${f.table} (${f.table}) VALUES ('optimize')`);
}

export function startFullTextMerge(
  db: Database,
  {
    cacheKib,
    startTimeoutMs = MERGE_START_TIMEOUT_MS,
  }: { readonly cacheKib: number; readonly startTimeoutMs?: number },
): FullTextMerge {
  const statements = fullTextMergeSql();
  const mergeHere = (workerError?: string): MergeOutcome => {
    db.transaction(() => {
      for (const sql of statements) db.exec(sql);
    })();
    return workerError === undefined ? { on: 'this connection' } : { on: 'this connection', workerError };
  };
  const journal = db.memory ? 'memory' : String(db.pragma('journal_mode', { simple: true }));
  if (journal !== 'wal' || db.inTransaction) return { wait: () => mergeHere() };

  const state = new SharedArrayBuffer(4);
  const flag = new Int32Array(state);
  const { port1, port2 } = new MessageChannel();
  const sqlite = createRequire(packageFile('package.json')).resolve('better-sqlite3');
  let worker: Worker;
  try {
    worker = new Worker(MERGE_THREAD, {
      eval: true,
      // Not the process's flags: they may load module hooks (above).
      execArgv: [],
      workerData: { sqlite, file: db.name, statements, cacheKib, state, port: port2 },
      transferList: [port2],
    });
  } catch (error) {
    port1.close();
    const reason = error instanceof Error ? error.message : String(error);
    return { wait: () => mergeHere(reason) };
  }
  // Its end is read from the shared state; the thread must not keep the process alive.
  worker.unref();
  worker.on('error', () => undefined);
  return {
    wait() {
      const giveUpAt = performance.now() + startTimeoutMs;
      for (let left = startTimeoutMs; Atomics.load(flag, 0) === MERGE_PENDING && left > 0;) {
        Atomics.wait(flag, 0, MERGE_PENDING, left);
        left = giveUpAt - performance.now();
      }
      if (Atomics.compareExchange(flag, 0, MERGE_PENDING, MERGE_ABANDONED) === MERGE_PENDING) {
        port1.close();
        void worker.terminate();
        return mergeHere(`the merge thread did not start within ${startTimeoutMs} ms`);
      }
      while (Atomics.load(flag, 0) === MERGE_RUNNING) Atomics.wait(flag, 0, MERGE_RUNNING);
      const failure = receiveMessageOnPort(port1)?.message as string | undefined;
      port1.close();
      if (Atomics.load(flag, 0) === MERGE_DONE) return { on: 'worker' };
      return mergeHere(failure ?? 'the merge thread ended without a word');
    },
  };
}
