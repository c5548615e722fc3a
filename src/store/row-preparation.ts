/**
 * How the importer's reading thread prepares records for the database they go to. A
 * `RecordTarget` names its preparation; the reading thread (src/data/import/read-worker.ts)
 * looks it up here, so per-record work of a writer runs beside the thread that writes.
 *
 * - `native`: the records as they are (the PostgreSQL writer turns them into rows itself).
 * - `sqlite`: the rows the SQLite writer binds (`store/sqlite/prepare-rows.ts`).
 */
import type { NativeKind, NativeRecord } from '../model/native-records.ts';
import { prepareSqliteRows } from './sqlite/prepare-rows.ts';

export const ROW_PREPARATIONS = {
  native: (_kind: NativeKind, record: NativeRecord): NativeRecord => record,
  sqlite: prepareSqliteRows,
} as const;

export type RowPreparation = keyof typeof ROW_PREPARATIONS;

/** What a preparation makes of one record. */
export type PreparedRecord<P extends RowPreparation> = ReturnType<(typeof ROW_PREPARATIONS)[P]>;
