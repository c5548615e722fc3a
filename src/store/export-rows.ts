/**
 * The `export_jobs` table's rows, the same columns on SQLite and PostgreSQL: a job to its
 * row's values, a row back to a job, and a progress change to a SET clause.
 */
import type { ExportJob, ExportProgress, ExportState } from './exports.ts';

/** A row of `export_jobs` as either engine returns it (PostgreSQL's BIGINT columns come as text). */
export interface ExportRow {
  id: string;
  account_id: number | string;
  query: string;
  dsl_version: number;
  sources: string | null;
  format: string;
  state: string;
  records: number | string;
  total: number | string | null;
  last_key: string | null;
  bytes: number | string;
  columns: string | null;
  epoch: string | null;
  created_at: number | string;
  started_at: number | string | null;
  finished_at: number | string | null;
  error: string | null;
}

/** The column each progress field is kept in, and how its value is stored. */
const PROGRESS_COLUMNS: {
  readonly [K in keyof Required<ExportProgress>]: readonly [string, (v: ExportProgress[K]) => unknown];
} = {
  state: ['state', (v) => v],
  records: ['records', (v) => v],
  total: ['total', (v) => v],
  lastKey: ['last_key', (v) => v],
  bytes: ['bytes', (v) => v],
  columns: ['columns', (v) => (v === null || v === undefined ? null : JSON.stringify(v))],
  epoch: ['epoch', (v) => v],
  startedAt: ['started_at', (v) => v],
  finishedAt: ['finished_at', (v) => v],
  error: ['error', (v) => v],
};

/** The SET clause and its values for a progress change (shared with PostgreSQL's placeholders by `placeholder`). */
export function progressAssignments(
  change: ExportProgress,
  placeholder: (index: number) => string,
): { sets: string[]; values: unknown[] } {
  const sets: string[] = [];
  const values: unknown[] = [];
  for (const key of Object.keys(change) as Array<keyof ExportProgress>) {
    const entry = PROGRESS_COLUMNS[key] as readonly [string, (v: unknown) => unknown];
    values.push(entry[1](change[key]));
    sets.push(`${entry[0]} = ${placeholder(values.length)}`);
  }
  return { sets, values };
}

/** A stored row as a job (both engines' rows have these columns). */
export function jobOfRow(row: ExportRow): ExportJob {
  return {
    id: row.id,
    accountId: Number(row.account_id),
    query: row.query,
    dslVersion: Number(row.dsl_version) === 1 ? 1 : 2,
    sources: row.sources === null ? null : (JSON.parse(row.sources) as string[]),
    format: row.format === 'csv' ? 'csv' : 'jsonl',
    state: row.state as ExportState,
    records: Number(row.records),
    total: row.total === null ? null : Number(row.total),
    lastKey: row.last_key,
    bytes: Number(row.bytes),
    columns: row.columns === null ? null : (JSON.parse(row.columns) as string[]),
    epoch: row.epoch,
    createdAt: Number(row.created_at),
    startedAt: row.started_at === null ? null : Number(row.started_at),
    finishedAt: row.finished_at === null ? null : Number(row.finished_at),
    error: row.error,
  };
}

/** A job's values in the table's column order (both engines insert them so). */
export function rowValues(job: ExportJob): unknown[] {
  return [
    job.id,
    job.accountId,
    job.query,
    job.dslVersion,
    job.sources === null ? null : JSON.stringify(job.sources),
    job.format,
    job.state,
    job.records,
    job.total,
    job.lastKey,
    job.bytes,
    job.columns === null ? null : JSON.stringify(job.columns),
    job.epoch,
    job.createdAt,
    job.startedAt,
    job.finishedAt,
    job.error,
  ];
}

export const INSERT_COLUMNS =
  'id, account_id, query, dsl_version, sources, format, state, records, total, last_key, bytes, columns, epoch, created_at, started_at, finished_at, error';
