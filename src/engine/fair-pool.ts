/**
 * Worker pools behind the fair scheduler: what a back end with worker threads runs its
 * queries through. The scheduler decides when a query may start (its lane by estimated
 * cost, its principal's turn and cap); each lane has its own pool of workers, so an
 * expensive query never holds a worker a cheap one needs, and a worker replaced after a
 * stopped expensive query (SQLite cannot be interrupted; the thread is terminated) never
 * leaves cheap queries waiting for its start-up. The time limit counts from when a worker
 * starts the query. Queue wait is reported from the moment the query was handed in, so
 * time in the scheduler's lane and in the pool's queue both show.
 */
import { performance } from 'node:perf_hooks';
import type { CostClass } from './cost.ts';
import { WorkerPool, type WorkerPoolOptions } from './pool.ts';
import { FairScheduler } from './scheduler.ts';
import type { EngineLoad } from './types.ts';

export interface FairPoolOptions extends WorkerPoolOptions {
  /** Threads for expensive queries (default: one fewer than `workers`, the cheap lane's, at least one). */
  readonly expensiveWorkers?: number;
  /** Queries one principal may have running or waiting at once. */
  readonly maxPerPrincipal: number;
}

/** Threads of the expensive lane when not set: one fewer than the cheap lane's, at least one. */
export const expensiveWorkersFor = (workers: number): number => Math.max(1, workers - 1);

export interface FairRunOptions {
  readonly principal?: string | undefined;
  readonly costClass: CostClass;
  readonly signal?: AbortSignal | undefined;
  /** Counted from when a worker starts the query. */
  readonly timeoutMs?: number | undefined;
}

export interface FairRunResult<Result> {
  readonly result: Result;
  /** Milliseconds between `run()` and a worker starting the query. */
  readonly queueMs: number;
}

export class FairPool<Task, Result> {
  readonly #pools: Readonly<Record<CostClass, WorkerPool<Task, Result>>>;
  readonly #scheduler: FairScheduler;

  constructor(options: FairPoolOptions) {
    const cheap = Math.max(1, options.workers ?? 2);
    const expensive = Math.max(1, options.expensiveWorkers ?? expensiveWorkersFor(cheap));
    this.#pools = {
      cheap: new WorkerPool<Task, Result>({ ...options, workers: cheap }),
      expensive: new WorkerPool<Task, Result>({ ...options, workers: expensive }),
    };
    // One slot per worker: the pools' own queues stay empty and the lanes decide the order.
    this.#scheduler = new FairScheduler({ slots: { cheap, expensive }, maxPerPrincipal: options.maxPerPrincipal });
  }

  /**
   * @example const { result } = await pool.run(task, { principal: '42', costClass: 'cheap', timeoutMs: 30_000 });
   */
  async run(task: Task, options: FairRunOptions): Promise<FairRunResult<Result>> {
    const handedIn = performance.now();
    let queueMs = 0;
    const result = await this.#scheduler.run(
      { principal: options.principal, costClass: options.costClass, signal: options.signal },
      () =>
        this.#pools[options.costClass].run(task, {
          onStarted: () => (queueMs = performance.now() - handedIn),
          ...(options.timeoutMs === undefined ? {} : { timeoutMs: options.timeoutMs }),
          ...(options.signal === undefined ? {} : { signal: options.signal }),
        }),
    );
    return { result, queueMs };
  }

  /** A task outside the lanes and the caps (health checks), on the cheap lane's workers. */
  direct(task: Task, timeoutMs: number): Promise<Result> {
    return this.#pools.cheap.run(task, { timeoutMs });
  }

  /** Queries waiting in a lane or for a worker, and queries running, over both lanes. */
  load(): EngineLoad {
    const lanes = this.#scheduler.load();
    const pools = [this.#pools.cheap.load(), this.#pools.expensive.load()];
    return {
      queued: lanes.queued + pools.reduce((n, p) => n + p.queued, 0),
      active: pools.reduce((n, p) => n + p.active, 0),
      workers: pools.reduce((n, p) => n + p.workers, 0),
    };
  }

  async warm(): Promise<void> {
    await Promise.all([this.#pools.cheap.warm(), this.#pools.expensive.warm()]);
  }

  async close(): Promise<void> {
    await Promise.all([this.#pools.cheap.close(), this.#pools.expensive.close()]);
  }
}
