/**
 * Bulk exports (docs/exports.md): a job per submission, run in the background through the
 * same engine path as queries (entitlements, per-chunk time limit, the fair scheduler's
 * expensive lane under a principal of its own), written chunk by chunk to a gzip file that
 * gets its final name only when complete, resumed after a restart from the last chunk its
 * row records, and deleted once its retention period has passed.
 *
 * Consistency: a job reads one import epoch. The epoch is noted when the job starts and
 * read again after every chunk; a change (an import finished meanwhile) fails the job with
 * a reason that says to submit it again, rather than mixing two versions of the data.
 */
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { columnsOf, csvLine, csvRows, jsonLines } from '../client/output.ts';
import { prepareQuery } from '../engine/run-query.ts';
import type { QueryEngine } from '../engine/types.ts';
import { QuarryError } from '../errors/index.ts';
import type { Clock } from '../identity/clock.ts';
import type { ExportFileFormat, ExportJob, ExportJobStore } from '../store/exports.ts';
import { chunkText, exportPlan, NotExportable, RECORD_KEY } from './chunk-query.ts';
import { ExportFile } from './export-file.ts';

export interface ExportLog {
  info(details: object, message: string): void;
  warn(details: object, message: string): void;
}

export interface ExportServiceOptions {
  readonly store: ExportJobStore;
  readonly engine: QueryEngine;
  /** Where the files are written. */
  readonly dir: string;
  readonly clock: Clock;
  /** Records per chunk (one engine query each). */
  readonly chunkRecords: number;
  /** Jobs this instance runs at once. */
  readonly maxRunning: number;
  /** Jobs one account may have queued or running. */
  readonly maxPerAccount: number;
  /** How long a finished job and its file are kept. */
  readonly retentionMs: number;
  /** Each chunk's time limit. */
  readonly timeoutMs: number;
}

export interface ExportSubmission {
  readonly accountId: number;
  readonly text: string;
  readonly format: ExportFileFormat;
  /** The sources the account may read (null: all). */
  readonly sources: readonly string[] | null;
}

/** Why a job stopped short, in words for its owner. */
class ExportFailure extends Error {}

/** Abort reasons: the service is closing (the job waits for the next start), or the owner cancelled it. */
const SHUTDOWN = 'the service is shutting down';
const CANCELLED = 'cancelled by its owner';

/** Seconds a refused submission is asked to wait. */
export const EXPORT_RETRY_AFTER_SECONDS = 30;

/** A job id: 128 random bits in hex. */
export const EXPORT_ID_PATTERN = /^[0-9a-f]{32}$/;

export class ExportService {
  readonly #options: ExportServiceOptions;
  readonly #running = new Map<string, AbortController>();
  readonly #tasks = new Set<Promise<void>>();
  #pumping = false;
  #pumpAgain = false;
  #closed = false;
  #sweeper: NodeJS.Timeout | undefined;
  #log: ExportLog = { info: () => undefined, warn: () => undefined };

  constructor(options: ExportServiceOptions) {
    this.#options = options;
  }

  /**
   * Takes up the jobs a stopped process left: one left running resumes from its last
   * recorded chunk when its part file is there (else it fails, saying so); queued ones start.
   * Then removes what is past retention, and keeps doing so.
   */
  async start(log?: ExportLog): Promise<void> {
    if (log !== undefined) this.#log = log;
    const { store } = this.#options;
    for (const job of await store.inStates(['running'])) {
      const file = new ExportFile(this.#options.dir, job.id, job.format);
      if (job.bytes === 0 || file.open(job.bytes)) {
        await store.update(job.id, { state: 'queued' }, ['running']);
        this.#log.info({ export: job.id, records: job.records }, 'resuming an export the previous run left unfinished');
      } else {
        await this.#fail(job, 'the service stopped during the export and its partial file is gone; submit it again');
      }
    }
    await this.sweep();
    const every = Math.max(1000, Math.min(this.#options.retentionMs / 4, 15 * 60_000));
    this.#sweeper = setInterval(() => {
      this.sweep().catch((error: unknown) => this.#log.warn({ err: error }, 'removing expired exports failed'));
    }, every);
    this.#sweeper.unref();
    this.#pump();
  }

  /**
   * Checks the query (as a query would be checked, with the account's entitlements, and that
   * it can be cut into chunks), enforces the per-account cap, and queues the job.
   */
  async submit(submission: ExportSubmission): Promise<ExportJob> {
    const { store, clock, maxPerAccount } = this.#options;
    // Mistakes are reported now, positioned in the submitted text.
    prepareQuery(submission.text, {
      dslVersion: 2,
      ...(submission.sources === null ? {} : { permissions: { sources: submission.sources } }),
    });
    try {
      exportPlan(submission.text);
    } catch (error) {
      if (error instanceof NotExportable)
        throw QuarryError.of('SERVICE_EXPORT_NOT_EXPORTABLE', { params: { reason: error.message } });
      throw error;
    }
    const active = await store.activeCount(submission.accountId);
    if (active >= maxPerAccount)
      throw QuarryError.of('SERVICE_EXPORT_LIMIT', { params: { active, retryAfter: EXPORT_RETRY_AFTER_SECONDS } });
    const job: ExportJob = {
      id: randomBytes(16).toString('hex'),
      accountId: submission.accountId,
      query: submission.text,
      dslVersion: 2,
      sources: submission.sources,
      format: submission.format,
      state: 'queued',
      records: 0,
      total: null,
      lastKey: null,
      bytes: 0,
      columns: null,
      epoch: null,
      createdAt: clock.now(),
      startedAt: null,
      finishedAt: null,
      error: null,
    };
    await store.insert(job);
    this.#pump();
    return job;
  }

  /** The account's job, or undefined (unknown and another account's look the same). */
  async find(id: string, accountId: number): Promise<ExportJob | undefined> {
    if (!EXPORT_ID_PATTERN.test(id)) return undefined;
    const job = await this.#options.store.get(id);
    return job?.accountId === accountId && job.state !== 'cancelled' ? job : undefined;
  }

  /** The complete file of a done job, or undefined. */
  fileOf(job: ExportJob): string | undefined {
    if (job.state !== 'done') return undefined;
    const { final } = new ExportFile(this.#options.dir, job.id, job.format);
    return existsSync(final) ? final : undefined;
  }

  /** Cancels (and forgets) the account's job, whatever its state; false when it has none by that id. */
  async cancel(id: string, accountId: number): Promise<boolean> {
    const { store, clock } = this.#options;
    const job = await this.find(id, accountId);
    if (job === undefined) return false;
    const changed = await store.update(id, { state: 'cancelled', finishedAt: clock.now(), error: CANCELLED }, [
      'queued',
      'running',
      'done',
      'failed',
    ]);
    if (!changed) return false;
    this.#running.get(id)?.abort(CANCELLED);
    new ExportFile(this.#options.dir, id, job.format).remove();
    await store.remove(id);
    return true;
  }

  /** Removes finished jobs (and their files) past the retention period. */
  async sweep(): Promise<number> {
    const { store, clock, retentionMs, dir } = this.#options;
    const expired = await store.finishedBefore(clock.now() - retentionMs);
    for (const job of expired) {
      new ExportFile(dir, job.id, job.format).remove();
      await store.remove(job.id);
    }
    return expired.length;
  }

  /** Resolves when no job is running (tests, benchmarks). */
  async idle(): Promise<void> {
    while (this.#tasks.size > 0 || this.#pumping) {
      await Promise.all([...this.#tasks]);
      await new Promise((resolve) => setImmediate(resolve));
    }
  }

  /** Stops taking jobs; running ones stop after their chunk in flight and resume at the next start. */
  async close(): Promise<void> {
    this.#closed = true;
    clearInterval(this.#sweeper);
    for (const controller of this.#running.values()) controller.abort(SHUTDOWN);
    await Promise.all([...this.#tasks]);
  }

  /** Starts queued jobs while this instance has room; a job's row is claimed first, so two instances never run one job. */
  #pump(): void {
    if (this.#closed) return;
    if (this.#pumping) {
      this.#pumpAgain = true;
      return;
    }
    this.#pumping = true;
    const { store, maxRunning, clock } = this.#options;
    const log = this.#log;
    const pump = async () => {
      do {
        this.#pumpAgain = false;
        while (!this.#closed && this.#running.size < maxRunning) {
          const next = (await store.inStates(['queued'])).find((job) => !this.#running.has(job.id));
          if (next === undefined) break;
          const started = next.startedAt ?? clock.now();
          if (!(await store.update(next.id, { state: 'running', startedAt: started }, ['queued']))) continue;
          const controller = new AbortController();
          this.#running.set(next.id, controller);
          const task = this.#run({ ...next, state: 'running', startedAt: started }, controller.signal).finally(() => {
            this.#running.delete(next.id);
            this.#tasks.delete(task);
            this.#pump();
          });
          this.#tasks.add(task);
        }
      } while (this.#pumpAgain && !this.#closed);
    };
    pump()
      .catch((error: unknown) => log.warn({ err: error }, 'starting queued exports failed'))
      .finally(() => {
        this.#pumping = false;
      });
  }

  async #run(job: ExportJob, signal: AbortSignal): Promise<void> {
    const { store } = this.#options;
    const log = this.#log;
    const file = new ExportFile(this.#options.dir, job.id, job.format);
    try {
      const finished = await this.#write(job, file, signal);
      if (finished) log.info({ export: job.id, records: finished.records }, 'export done');
    } catch (error) {
      if (signal.aborted && signal.reason === SHUTDOWN) {
        // Progress is kept: the next start cuts the part file back to the last chunk recorded.
        await store.update(job.id, { state: 'queued' }, ['running']);
        return;
      }
      if (signal.aborted) {
        file.remove();
        return;
      }
      const reason =
        error instanceof ExportFailure || error instanceof QuarryError
          ? error.message
          : 'an unexpected error stopped it (the server log has the details); submit it again';
      if (!(error instanceof ExportFailure)) log.warn({ err: error, export: job.id }, 'export failed');
      await this.#fail(job, reason);
    }
  }

  /**
   * Writes the job's chunks after its last recorded key; answers the finished job, or
   * undefined when it was cancelled meanwhile.
   */
  async #write(job: ExportJob, file: ExportFile, signal: AbortSignal): Promise<{ records: number } | undefined> {
    const { store, engine, clock, chunkRecords, timeoutMs } = this.#options;
    const epoch = await this.#epoch();
    if (job.epoch !== null && job.epoch !== epoch)
      throw new ExportFailure(
        'the records changed (an import) while the export was interrupted, so it would mix two versions of the data; submit it again',
      );
    if (!file.open(job.bytes))
      throw new ExportFailure('its partial file is gone (the export folder was cleared); submit it again');
    if (job.epoch === null && !(await store.update(job.id, { epoch }, ['running']))) return this.#dropped(file);
    const plan = exportPlan(job.query);
    let { records, lastKey, bytes, columns, total } = job;
    const permissions = job.sources === null ? {} : { permissions: { sources: job.sources } };
    for (;;) {
      const outcome = await engine.run(chunkText(plan, lastKey, chunkRecords), {
        dslVersion: job.dslVersion,
        ...permissions,
        signal,
        timeoutMs,
        // A principal of its own: the job takes turns with the account's own queries rather
        // than using up the account's cap of queries at once.
        principal: `export:${job.accountId}`,
        background: true,
        // Only the first chunk's total is reported (progress); later ones would count every match after them.
        countMatches: lastKey === null,
      });
      if ((await this.#epoch()) !== epoch)
        throw new ExportFailure(
          'the records changed (an import finished) during the export, so it would mix two versions of the data; submit it again',
        );
      const rows = (outcome.result[plan.recordsKey] ?? []) as Array<Record<string, unknown>>;
      if (lastKey === null)
        total = (outcome.result._stats as { total_count?: number } | undefined)?.total_count ?? null;
      if (rows.length === 0) break;
      const key = rows.at(-1)?.[RECORD_KEY];
      if (typeof key !== 'string') throw new ExportFailure('its records carry no id to continue after');
      let text: string;
      if (job.format === 'csv') {
        const header = columns === null;
        columns ??= columnsOf(rows);
        text = (header ? csvLine(columns) : '') + csvRows(rows, columns);
      } else text = jsonLines(rows);
      bytes += file.append(text);
      records += rows.length;
      lastKey = key;
      if (!(await store.update(job.id, { records, lastKey, bytes, columns, total }, ['running'])))
        return this.#dropped(file);
      if (rows.length < chunkRecords) break;
    }
    file.complete();
    if (!(await store.update(job.id, { state: 'done', finishedAt: clock.now(), records, bytes, total }, ['running'])))
      return this.#dropped(file);
    return { records };
  }

  /** The job's row left the running state under it (cancelled): its files go. */
  #dropped(file: ExportFile): undefined {
    file.remove();
    return undefined;
  }

  async #fail(job: ExportJob, reason: string): Promise<void> {
    const { store, clock, dir } = this.#options;
    new ExportFile(dir, job.id, job.format).remove();
    await store.update(job.id, { state: 'failed', finishedAt: clock.now(), error: reason }, ['running', 'queued']);
  }

  async #epoch(): Promise<string> {
    return (await this.#options.engine.dataEpoch?.()) ?? '';
  }
}
