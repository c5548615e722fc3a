/**
 * A pool of worker threads for synchronous database work (better-sqlite3 blocks its
 * thread). A query that runs too long, or whose caller goes away, is stopped by
 * terminating its worker (SQLite offers no interrupt through better-sqlite3); the pool then
 * starts a fresh worker, so one slow query never blocks the process or the other workers.
 */
import { Piscina } from 'piscina';
import { QuarryError } from '../errors/index.ts';
import { unpackReply, type WorkerReply } from './worker-reply.ts';

export interface WorkerPoolOptions {
  /** The worker module (see `workerModule`). Its default export handles one task and returns a `WorkerReply`. */
  readonly filename: URL;
  /** Threads kept running (default 2). */
  readonly workers?: number;
  /** Handed to every worker once (for example the database path). */
  readonly workerData?: unknown;
  /**
   * A cheap task sent once to each worker at start. A new worker spends about a second
   * loading its modules before it runs its first task; `run()` waits for these tasks before
   * it starts a query's clock, so that loading never counts against a query's time limit.
   */
  readonly warmUpTask?: unknown;
}

/**
 * The URL of the worker module `name` that sits beside the module at `base` (pass
 * `import.meta.url`): `./name.ts` when Quarry runs from its sources, `./name.js` when it runs
 * compiled, where scripts/build.mjs makes every `worker.ts` and `*-worker.ts` an entry of its own directly in
 * dist/, beside the chunk `base` then points to.
 *
 * @example new WorkerPool({ filename: workerModule('worker', import.meta.url) })
 */
export function workerModule(name: string, base: string): URL {
  return new URL(`./${name}${base.endsWith('.ts') ? '.ts' : '.js'}`, base);
}

/** Worker threads do not inherit tsx from the main thread: a TypeScript worker loads it itself. */
function workerExecArgv(filename: URL): string[] {
  const inherited = process.execArgv.filter((a) => a !== '--test');
  return filename.pathname.endsWith('.ts') ? [...inherited, '--import', 'tsx'] : inherited;
}

export interface RunOptions {
  readonly signal?: AbortSignal;
  /** Time limit in ms, counted from submission (waiting for a busy worker included, the pool's start-up not). */
  readonly timeoutMs?: number;
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
  #closed = false;

  constructor(options: WorkerPoolOptions) {
    const workers = Math.max(1, options.workers ?? 2);
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
        : Promise.all(Array.from({ length: workers }, () => this.#pool.run(warmUpTask))).then(
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
    await this.#warm;
    const controller = new AbortController();
    const timer =
      options.timeoutMs === undefined
        ? undefined
        : setTimeout(() => controller.abort(new Deadline(options.timeoutMs as number)), options.timeoutMs);
    const onAbort = (): void => controller.abort(options.signal?.reason);
    if (options.signal?.aborted === true) onAbort();
    else options.signal?.addEventListener('abort', onAbort, { once: true });
    try {
      const reply = (await this.#pool.run(task, { signal: controller.signal })) as WorkerReply<Result>;
      return unpackReply(reply);
    } catch (error) {
      if (controller.signal.aborted) throw abortError(controller.signal.reason);
      throw error;
    } finally {
      if (timer !== undefined) clearTimeout(timer);
      options.signal?.removeEventListener('abort', onAbort);
    }
  }

  /** Tasks waiting for a free worker. */
  queueDepth(): number {
    return this.#pool.queueSize;
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
