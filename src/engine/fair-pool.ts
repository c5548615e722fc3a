/**
 * A worker pool behind the fair scheduler: what a back end with worker threads runs its
 * queries through. The scheduler decides when a query may start (its lane by estimated
 * cost, its principal's turn and cap); the pool runs it on a worker under the time limit,
 * counted from when the worker starts it. Queue wait is reported from the moment the query
 * was handed in, so time spent in the scheduler's lanes and in the pool's queue both show.
 */
import { performance } from 'node:perf_hooks';
import type { CostClass } from './cost.ts';
import { WorkerPool, type WorkerPoolOptions } from './pool.ts';
import { FairScheduler } from './scheduler.ts';
import type { EngineLoad } from './types.ts';

export interface FairPoolOptions extends WorkerPoolOptions {
  /** Queries one principal may have running or waiting at once. */
  readonly maxPerPrincipal: number;
}

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
  readonly #pool: WorkerPool<Task, Result>;
  readonly #scheduler: FairScheduler;

  constructor(options: FairPoolOptions) {
    this.#pool = new WorkerPool<Task, Result>(options);
    // One slot per worker: the pool's own queue stays empty and the lanes decide the order.
    this.#scheduler = new FairScheduler({
      slots: Math.max(1, options.workers ?? 2),
      maxPerPrincipal: options.maxPerPrincipal,
    });
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
        this.#pool.run(task, {
          onStarted: () => (queueMs = performance.now() - handedIn),
          ...(options.timeoutMs === undefined ? {} : { timeoutMs: options.timeoutMs }),
          ...(options.signal === undefined ? {} : { signal: options.signal }),
        }),
    );
    return { result, queueMs };
  }

  /** A task outside the lanes and the caps (health checks). */
  direct(task: Task, timeoutMs: number): Promise<Result> {
    return this.#pool.run(task, { timeoutMs });
  }

  /** Queries waiting in a lane or for a worker, and queries running. */
  load(): EngineLoad {
    const lanes = this.#scheduler.load();
    const pool = this.#pool.load();
    return { queued: lanes.queued + pool.queued, active: pool.active, workers: pool.workers };
  }

  warm(): Promise<void> {
    return this.#pool.warm();
  }

  close(): Promise<void> {
    return this.#pool.close();
  }
}
