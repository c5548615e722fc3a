/**
 * The bulk-export jobs' storage contract (docs/exports.md): one row per job, with what the
 * runner needs to resume it after a restart (the last record key written and the length of
 * the partial file at that point). Asynchronous so a networked back end fits; the
 * composition root (`src/backends.ts`) picks SQLite or PostgreSQL.
 */

export type ExportState = 'queued' | 'running' | 'done' | 'failed' | 'cancelled';

export type ExportFileFormat = 'jsonl' | 'csv';

/** One export job as stored. Times are milliseconds since the epoch. */
export interface ExportJob {
  /** Unguessable (random, 128 bits): knowing another's id is as hard as guessing it. */
  readonly id: string;
  /** The account that submitted it; nobody else can see it. */
  readonly accountId: number;
  /** The query as submitted. */
  readonly query: string;
  readonly dslVersion: 1 | 2;
  /** The sources the account was entitled to when it submitted (null: all). */
  readonly sources: readonly string[] | null;
  readonly format: ExportFileFormat;
  readonly state: ExportState;
  /** Records written so far (all of them once done). */
  readonly records: number;
  /** The records the query matched when the job started, for progress; null until then. */
  readonly total: number | null;
  /** The record key (`id`) of the last record written; the next chunk starts after it. */
  readonly lastKey: string | null;
  /** The partial file's length after the last complete chunk; a resume cuts anything after it. */
  readonly bytes: number;
  /** CSV: the header's columns, fixed by the first chunk. */
  readonly columns: readonly string[] | null;
  /** The data's import epoch the export reads; null until the job starts. */
  readonly epoch: string | null;
  readonly createdAt: number;
  readonly startedAt: number | null;
  readonly finishedAt: number | null;
  /** Why it failed (for the owner: never a stack trace). */
  readonly error: string | null;
}

/** What a job's progress changes. */
export type ExportProgress = Partial<
  Pick<
    ExportJob,
    'state' | 'records' | 'total' | 'lastKey' | 'bytes' | 'columns' | 'epoch' | 'startedAt' | 'finishedAt' | 'error'
  >
>;

export interface ExportJobStore {
  insert(job: ExportJob): Promise<void>;
  /** The job, whoever owns it (the routes check the owner). */
  get(id: string): Promise<ExportJob | undefined>;
  /**
   * Applies `change` when the job is in one of `from` states (all states when absent);
   * answers whether it did, so a cancel and the runner cannot both decide a job's end.
   */
  update(id: string, change: ExportProgress, from?: readonly ExportState[]): Promise<boolean>;
  /** Jobs in one of `states`, oldest first. */
  inStates(states: readonly ExportState[]): Promise<ExportJob[]>;
  /** How many of the account's jobs are queued or running. */
  activeCount(accountId: number): Promise<number>;
  /** Jobs that finished (done, failed or cancelled) before `before`. */
  finishedBefore(before: number): Promise<ExportJob[]>;
  remove(id: string): Promise<void>;
  close(): Promise<void>;
}
