/**
 * Running a statement function (`extract_grants(...)`) on an engine: the FunctionContext it
 * reads the data through, under the caller's time limit, AbortSignal and subscription.
 * Both engines use this; what differs between them is only how one query runs (`host.run`,
 * the engine itself) and how the data's epoch is read.
 *
 * - `query(text)` runs a version-2 query through the same engine, with the caller's
 *   permissions, the time left of the caller's limit and the same AbortSignal.
 * - `readAll(source, fields)` pages through every record of a source by id (keyset paging:
 *   `where id > "<last id>" ... sort by id asc limit 1000`), so it is not bound by the
 *   50,000-record paging window; each page is one query of the engine (SQLite runs it in
 *   its worker threads behind the fair scheduler, PostgreSQL on a pooled connection).
 * - `derived(key, build)` keeps what `build` makes per engine (so per process) under `key`,
 *   for one data epoch: an import that changes the data changes the epoch, and the next
 *   call builds it again. A build that fails is forgotten. A build is the deployment's work,
 *   not the caller's: its reads run under their own limit (`DERIVED_BUILD_LIMIT_MS`), so when
 *   the caller's time limit ends first the caller gets its timeout while the build goes on,
 *   and a later call finds the value ready (an index over a million grants takes longer than
 *   one query may).
 *
 * The pages of `readAll` are separate queries: when an import commits while a function
 * reads, later pages see the new data. A derived value built then is kept under the epoch
 * read before its build, so the next call after the import builds it again.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import type { FunctionContext, PreparedFunction } from '../functions/types.ts';
import { QuarryError } from '../errors/index.ts';
import type { SourceName } from '../model/sources.ts';
import type { QueryOptions, QueryOutcome, QueryResult } from './types.ts';

/** Records per `readAll` batch: the largest page a query may ask for. */
export const READ_ALL_BATCH = 1000;

/** What a function runs on: the engine's own `run`, and its data epoch. */
export interface FunctionHost {
  run(text: string, options: QueryOptions): Promise<QueryOutcome>;
  /** Changes whenever an import changes the records. */
  dataEpoch(): string | Promise<string>;
  /** The engine's default time limit, when the caller gives none. */
  readonly defaultTimeoutMs: number;
}

/** The time limit of one derived value's build, whoever's call started it. */
export const DERIVED_BUILD_LIMIT_MS = 10 * 60_000;

/** Set while a derived value is built: the reads it makes run under the build's limit. */
interface BuildScope {
  readonly signal: AbortSignal;
  readonly deadline: number;
  readonly limitMs: number;
}

const building = new AsyncLocalStorage<BuildScope>();

/** The per-engine store of derived values (`FunctionContext.derived`). */
export class DerivedValues {
  private readonly values = new Map<string, { readonly epoch: string; readonly value: Promise<unknown> }>();
  /** Stops the builds under way when the engine closes. */
  private closing = new AbortController();

  constructor(private readonly buildLimitMs = DERIVED_BUILD_LIMIT_MS) {}

  /** The value under `key` for `epoch`, built (once, in its own scope) when there is none. */
  get<T>(key: string, epoch: string, build: () => Promise<T>): Promise<T> {
    const held = this.values.get(key);
    if (held !== undefined && held.epoch === epoch) return held.value as Promise<T>;
    const limit = new AbortController();
    const timer = setTimeout(() => limit.abort(new Error('build time limit')), this.buildLimitMs);
    timer.unref();
    const scope: BuildScope = {
      signal: AbortSignal.any([limit.signal, this.closing.signal]),
      deadline: performance.now() + this.buildLimitMs,
      limitMs: this.buildLimitMs,
    };
    const value = building.run(scope, build).finally(() => clearTimeout(timer));
    this.values.set(key, { epoch, value });
    value.catch(() => {
      if (this.values.get(key)?.value === value) this.values.delete(key);
    });
    return value;
  }

  clear(): void {
    this.closing.abort(new Error('the engine is closing'));
    this.closing = new AbortController();
    this.values.clear();
  }
}

/** `value`, or the caller's stop when its signal fires first (the value is not given up). */
function untilStopped<T>(value: Promise<T>, signal: AbortSignal, stopped: () => QuarryError): Promise<T> {
  if (signal.aborted) return Promise.reject(stopped());
  return new Promise<T>((resolve, reject) => {
    const onAbort = (): void => reject(stopped());
    signal.addEventListener('abort', onAbort, { once: true });
    value.then(
      (v) => {
        signal.removeEventListener('abort', onAbort);
        resolve(v);
      },
      (error: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(error instanceof Error ? error : new Error(String(error)));
      },
    );
  });
}

/** A string literal of the query language holding `value`. */
function literal(value: string): string {
  return `"${value.replaceAll('\\', '\\\\').replaceAll('"', '\\"')}"`;
}

/**
 * Runs a prepared statement function under the caller's options: one time limit for the
 * whole function (its queries share what is left of it), cancelled with the caller's signal.
 *
 * @example await runFunction(prepared, { dslVersion: 2, timeoutMs: 5000 }, host, derived) // { grant_id: 'grant.1' }
 */
export async function runFunction(
  prepared: PreparedFunction,
  options: QueryOptions,
  host: FunctionHost,
  derived: DerivedValues,
): Promise<QueryResult> {
  const limitMs = options.timeoutMs ?? host.defaultTimeoutMs;
  const deadline = performance.now() + limitMs;
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(new Error('time limit')), limitMs);
  const onAbort = (): void => controller.abort(options.signal?.reason);
  if (options.signal?.aborted === true) onAbort();
  else options.signal?.addEventListener('abort', onAbort, { once: true });
  const stopped = (): QuarryError => {
    if (options.signal?.aborted === true) {
      const reason = options.signal.reason as unknown;
      return QuarryError.of('ENGINE_CANCELLED', {
        params: { reason: reason instanceof Error ? reason.message : 'the caller went away' },
      });
    }
    return QuarryError.of('ENGINE_TIMEOUT', { params: { limitMs } });
  };
  const query = async (text: string): Promise<QueryResult> => {
    // Inside a derived value's build, the build's limit and signal rule, and its queries take
    // the shared turn rather than the caller's.
    const scope = building.getStore();
    const signal = scope?.signal ?? controller.signal;
    const left = (scope?.deadline ?? deadline) - performance.now();
    const halt = (): QuarryError =>
      scope === undefined ? stopped() : QuarryError.of('ENGINE_TIMEOUT', { params: { limitMs: scope.limitMs } });
    if (signal.aborted || left <= 0) throw halt();
    try {
      const outcome = await host.run(text, {
        dslVersion: 2,
        timeoutMs: Math.max(1, Math.floor(left)),
        signal,
        ...(options.permissions === undefined ? {} : { permissions: options.permissions }),
        ...(options.principal === undefined || scope !== undefined ? {} : { principal: options.principal }),
      });
      return outcome.result;
    } catch (error) {
      // A query cut short by the function's own limit reports the function's limit.
      if (signal.aborted) throw halt();
      throw error;
    }
  };
  async function* readAll(
    source: SourceName,
    fields: readonly string[],
  ): AsyncIterable<readonly Record<string, unknown>[]> {
    if (!prepared.reads.includes(source)) {
      throw new Error(`${prepared.name} reads ${source}, which it does not declare in reads`);
    }
    const wanted = [...new Set(['id', ...fields])].join(' + ');
    let after: string | undefined;
    for (;;) {
      const where = after === undefined ? '' : ` where id > ${literal(after)}`;
      const result = await query(
        `search ${source}${where} return ${source}[${wanted}] sort by id asc limit ${READ_ALL_BATCH}`,
      );
      const records = (result[source] ?? []) as Record<string, unknown>[];
      if (records.length > 0) yield records;
      if (records.length < READ_ALL_BATCH) return;
      const last = records[records.length - 1]?.['id'];
      if (typeof last !== 'string') return;
      after = last;
    }
  }
  const context: FunctionContext = {
    query,
    readAll,
    derived: async <T>(key: string, build: () => Promise<T>): Promise<T> =>
      untilStopped(
        derived.get(`${prepared.name}\u0000${key}`, await host.dataEpoch(), build),
        controller.signal,
        stopped,
      ),
    signal: controller.signal,
    dslVersion: 2,
  };
  try {
    if (controller.signal.aborted) throw stopped();
    return await prepared.run(context);
  } catch (error) {
    if (controller.signal.aborted && !(error instanceof QuarryError)) throw stopped();
    throw error;
  } finally {
    clearTimeout(timer);
    options.signal?.removeEventListener('abort', onAbort);
  }
}
