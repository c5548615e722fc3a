/**
 * Fair scheduling in front of any engine's executor. Queries are admitted per principal
 * (at most `maxPerPrincipal` running or waiting at once; past that ENGINE_PRINCIPAL_BUSY,
 * answered 429 with Retry-After; queries that name no principal are not capped), wait in
 * one of two lanes by their estimated cost, and within a lane take turns by principal
 * (round robin), so one caller's backlog never delays another caller's next query. Each
 * lane has slots of its own (the back end gives each its own workers), so a cheap query
 * waits for other cheap queries at most, never for a whole-corpus facet to finish, and
 * never for a worker that an expensive query left to be replaced.
 *
 * The scheduler knows nothing of SQL or workers: a back end hands `run()` a function that
 * starts the query (on a worker, a connection) and calls it when a slot is free.
 */
import { QuarryError } from '../errors/index.ts';
import type { CostClass } from './cost.ts';
import type { EngineLoad } from './types.ts';

export interface SchedulerOptions {
  /** Queries of each lane that run at once (the back end's workers or connections for it). */
  readonly slots: Readonly<Record<CostClass, number>>;
  /** Queries one principal may have running or waiting at once. */
  readonly maxPerPrincipal: number;
}

export interface Admission {
  /** Who sent the query (an account); queries without one share one turn and have no cap. */
  readonly principal?: string | undefined;
  readonly costClass: CostClass;
  /** Aborting while the query waits removes it from its lane. */
  readonly signal?: AbortSignal | undefined;
}

/** The shared turn of queries that name no principal (never an account id, which is a number). */
const ANONYMOUS = '';

interface Waiting {
  readonly start: () => void;
}

/** One lane: a FIFO queue per principal, served round robin. */
class Lane {
  readonly #queues = new Map<string, Waiting[]>();
  #size = 0;

  get size(): number {
    return this.#size;
  }

  push(principal: string, entry: Waiting): void {
    const queue = this.#queues.get(principal);
    if (queue) queue.push(entry);
    else this.#queues.set(principal, [entry]);
    this.#size += 1;
  }

  /** The first waiting query of the principal whose turn it is; that principal goes to the back. */
  shift(): Waiting | undefined {
    for (const [principal, queue] of this.#queues) {
      const entry = queue.shift();
      this.#queues.delete(principal);
      if (queue.length > 0) this.#queues.set(principal, queue); // re-inserted last: its turn is over
      if (entry) {
        this.#size -= 1;
        return entry;
      }
    }
    return undefined;
  }

  remove(principal: string, entry: Waiting): boolean {
    const queue = this.#queues.get(principal);
    const at = queue?.indexOf(entry) ?? -1;
    if (!queue || at < 0) return false;
    queue.splice(at, 1);
    if (queue.length === 0) this.#queues.delete(principal);
    this.#size -= 1;
    return true;
  }
}

export class FairScheduler {
  readonly #slots: Readonly<Record<CostClass, number>>;
  readonly #maxPerPrincipal: number;
  readonly #lanes: Readonly<Record<CostClass, Lane>> = { cheap: new Lane(), expensive: new Lane() };
  readonly #perPrincipal = new Map<string, number>();
  #running: Record<CostClass, number> = { cheap: 0, expensive: 0 };

  constructor(options: SchedulerOptions) {
    this.#slots = { cheap: Math.max(1, options.slots.cheap), expensive: Math.max(1, options.slots.expensive) };
    this.#maxPerPrincipal = Math.max(1, options.maxPerPrincipal);
  }

  /**
   * Runs `start` when the query's turn comes; resolves or rejects with it. Throws
   * ENGINE_PRINCIPAL_BUSY at once when the principal is at its cap, and ENGINE_CANCELLED
   * when the signal aborts while the query waits.
   *
   * @example const rows = await scheduler.run({ principal: '42', costClass: 'cheap' }, () => pool.run(task));
   */
  async run<T>(admission: Admission, start: () => Promise<T>): Promise<T> {
    const principal = admission.principal ?? ANONYMOUS;
    const held = this.#perPrincipal.get(principal) ?? 0;
    // Callers inside the process (command line, benchmarks) name no principal: no cap for them.
    if (held >= this.#maxPerPrincipal && principal !== ANONYMOUS) {
      throw QuarryError.of('ENGINE_PRINCIPAL_BUSY', { params: { running: held, retryAfter: 1 } });
    }
    this.#perPrincipal.set(principal, held + 1);
    const { costClass } = admission;
    try {
      await this.#turn(principal, costClass, admission.signal);
    } catch (error) {
      this.#release(principal);
      throw error;
    }
    try {
      return await start();
    } finally {
      this.#running[costClass] -= 1;
      this.#release(principal);
      this.#dispatch();
    }
  }

  /** Queued and running queries, for `/metrics`. */
  load(): EngineLoad {
    return {
      queued: this.#lanes.cheap.size + this.#lanes.expensive.size,
      active: this.#running.cheap + this.#running.expensive,
      workers: this.#slots.cheap + this.#slots.expensive,
    };
  }

  /** Resolves when the query may start (its slot is counted as taken). */
  #turn(principal: string, costClass: CostClass, signal: AbortSignal | undefined): Promise<void> {
    if (signal?.aborted) return Promise.reject(cancelled(signal.reason));
    const lane = this.#lanes[costClass];
    if (lane.size === 0 && this.#mayStart(costClass)) {
      this.#running[costClass] += 1;
      return Promise.resolve();
    }
    return new Promise<void>((resolve, reject) => {
      const onAbort = () => {
        if (lane.remove(principal, entry)) reject(cancelled(signal?.reason));
      };
      const entry: Waiting = {
        start: () => {
          signal?.removeEventListener('abort', onAbort);
          this.#running[costClass] += 1;
          resolve();
        },
      };
      signal?.addEventListener('abort', onAbort, { once: true });
      lane.push(principal, entry);
    });
  }

  #mayStart(costClass: CostClass): boolean {
    return this.#running[costClass] < this.#slots[costClass];
  }

  /** Fills free slots of both lanes. */
  #dispatch(): void {
    for (const costClass of ['cheap', 'expensive'] as const) {
      const lane = this.#lanes[costClass];
      while (lane.size > 0 && this.#mayStart(costClass)) lane.shift()?.start();
    }
  }

  #release(principal: string): void {
    const left = (this.#perPrincipal.get(principal) ?? 1) - 1;
    if (left === 0) this.#perPrincipal.delete(principal);
    else this.#perPrincipal.set(principal, left);
  }
}

function cancelled(reason: unknown): QuarryError {
  const text = reason instanceof Error ? reason.message : typeof reason === 'string' ? reason : 'the caller went away';
  return QuarryError.of('ENGINE_CANCELLED', { params: { reason: text } });
}
