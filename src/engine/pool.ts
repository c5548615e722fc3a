/**
 * A pool of worker threads for synchronous database work (better-sqlite3 blocks its
 * thread). A query that runs too long, or whose caller goes away, is stopped by
 * terminating its worker (SQLite offers no interrupt through better-sqlite3); the pool then
 * starts a fresh worker, so one slow query never blocks the process or the other workers.
 */
import { performance } from 'node:perf_hooks';
import { MessageChannel } from 'node:worker_threads';
import { Piscina } from 'piscina';
import { QuarryError } from '../errors/index.ts';
import { workerExecArgv } from '../worker-module.ts';
import type { TaskEnvelope } from './pool-task.ts';
import { newStopFlags, stopAndWait } from './stop-handshake.ts';
import { unpackReply, type WorkerReply } from './worker-reply.ts';

export { workerModule } from '../worker-module.ts';

export interface WorkerPoolOptions {
  /**
   * The worker module (see `workerModule`). Its default export is `poolTask(handle)`, where
   * `handle` takes one task and returns a `WorkerReply`.
   */
  readonly filename: URL;
  /** Threads kept running (default 2). */
  readonly workers?: number;
  /** Handed to every worker once (for example the database path). */
  readonly workerData?: unknown;
  /**
   * A cheap task sent once to each worker at start, so each loads its modules (about a
   * second through tsx) before the first query needs it.
   */
  readonly warmUpTask?: unknown;
}

export interface RunOptions {
  readonly signal?: AbortSignal;
  /**
   * Time limit in ms, counted from the moment a worker starts the task: waiting for a busy
   * worker, and a new worker's start-up after another task was stopped, never count.
   */
  readonly timeoutMs?: number;
  /** Called when a worker starts the task, with the milliseconds it waited for one. */
  readonly onStarted?: (waitedMs: number) => void;
}

/** How busy the pool is, for `/metrics`. */
export interface PoolLoad {
  /** Tasks submitted that no worker has started yet. */
  readonly queued: number;
  /** Tasks a worker is running now. */
  readonly active: number;
  readonly workers: number;
}

/** Why a task was aborted; decides between a timeout and a cancellation error. */
class Deadline extends Error {
  constructor(readonly limitMs: number) {
    super(`deadline of ${limitMs} ms passed`);
  }
}

export class WorkerPool<Task, Result> {
  readonly #pool: Piscina;
  readonly #warm: Promise<void>;
  readonly #workers: number;
  #submitted = 0;
  #active = 0;
  #closed = false;

  constructor(options: WorkerPoolOptions) {
    const workers = Math.max(1, options.workers ?? 2);
    this.#workers = workers;
    this.#pool = new Piscina({
      filename: options.filename.href,
      minThreads: workers,
      maxThreads: workers,
      idleTimeout: Number.POSITIVE_INFINITY,
      execArgv: workerExecArgv(options.filename),
      workerData: options.workerData,
    });
    const warmUpTask = options.warmUpTask;
    // Piscina hands concurrent tasks to idle workers first, so each worker gets one of these.
    // A failure here (a broken worker module) shows again, coded, on the first real task.
    this.#warm =
      warmUpTask === undefined
        ? Promise.resolve()
        : Promise.all(Array.from({ length: workers }, () => this.run(warmUpTask as Task))).then(
            () => undefined,
            () => undefined,
          );
  }

  /** Resolves once every worker has loaded its modules (at once without a warm-up task). */
  warm(): Promise<void> {
    return this.#warm;
  }

  /**
   * Runs one task in a worker. Throws ENGINE_TIMEOUT when `timeoutMs` passes,
   * ENGINE_CANCELLED when `signal` aborts, and the worker's own QuarryError otherwise.
   */
  async run(task: Task, options: RunOptions = {}): Promise<Result> {
    if (this.#closed) throw QuarryError.of('ENGINE_CLOSED');
    const controller = new AbortController();
    const submittedAt = performance.now();
    let timer: NodeJS.Timeout | undefined;
    let started = false;
    let finished = false;
    // The start message and the reply travel on different ports, so under load the reply may
    // be read first: a start is then counted when the reply comes, and a late message ignored.
    // A stop first asks the worker to leave its guarded native calls (stop-handshake.ts), and
    // only then aborts the task, which terminates the worker if it is still running it.
    const stopFlags = newStopFlags();
    let stopping: { reason: unknown } | undefined;
    const stop = (reason: unknown): void => {
      if (stopping !== undefined) return;
      stopping = { reason };
      void stopAndWait(stopFlags).then(() => controller.abort(reason));
    };
    const markStarted = (): void => {
      if (started) return;
      started = true;
      options.onStarted?.(performance.now() - submittedAt);
      if (finished) return;
      this.#active += 1;
      const limit = options.timeoutMs;
      if (limit !== undefined) timer = setTimeout(() => stop(new Deadline(limit)), limit);
    };
    const channel = new MessageChannel();
    channel.port1.once('message', markStarted);
    const onAbort = (): void => stop(options.signal?.reason);
    // Not yet handed to a worker: abort at once.
    if (options.signal?.aborted === true) controller.abort(options.signal.reason);
    else options.signal?.addEventListener('abort', onAbort, { once: true });
    this.#submitted += 1;
    try {
      const envelope: TaskEnvelope<Task> = { task, started: channel.port2, stop: stopFlags };
      const reply = (await this.#pool.run(envelope, {
        signal: controller.signal,
        transferList: [channel.port2],
      })) as WorkerReply<Result>;
      markStarted();
      return unpackReply(reply);
    } catch (error) {
      // A worker that saw the stop fails its task itself (TaskStopped), before the abort.
      if (stopping !== undefined) throw abortError(stopping.reason);
      if (controller.signal.aborted) throw abortError(controller.signal.reason);
      throw error;
    } finally {
      this.#submitted -= 1;
      if (started) this.#active -= 1;
      finished = true;
      channel.port1.close();
      if (timer !== undefined) clearTimeout(timer);
      options.signal?.removeEventListener('abort', onAbort);
    }
  }

  /** Tasks waiting for a free worker. */
  queueDepth(): number {
    return this.#submitted - this.#active;
  }

  load(): PoolLoad {
    return { queued: this.#submitted - this.#active, active: this.#active, workers: this.#workers };
  }

  /** Waits for running tasks, then stops the workers. */
  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    await this.#pool.close();
  }
}

function abortError(reason: unknown): QuarryError {
  if (reason instanceof Deadline) return QuarryError.of('ENGINE_TIMEOUT', { params: { limitMs: reason.limitMs } });
  const text = reason instanceof Error ? reason.message : typeof reason === 'string' ? reason : 'the caller went away';
  return QuarryError.of('ENGINE_CANCELLED', { params: { reason: text } });
}
