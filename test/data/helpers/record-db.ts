/**
 * Throw-away record databases for import tests: a fresh file path per import under one
 * temporary folder (removed when the test file ends), and read-only queries on a file.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after } from 'node:test';
import Database from 'better-sqlite3';
import { registerUnpackText } from '../../../src/store/sqlite/text-dictionaries.ts';

export type Row = Record<string, unknown>;

/** A folder of this test file's own (removed when it ends) and a new database path in it per call. */
export function tempRecordDbs(label: string): { readonly work: string; readonly freshDb: () => string } {
  const work = mkdtempSync(join(tmpdir(), `quarry-${label}-`));
  after(() => rmSync(work, { recursive: true, force: true }));
  let dbs = 0;
  return { work, freshDb: () => join(work, `db-${++dbs}.db`) };
}

/** Rows of a read-only query; packed columns read as `unpack_text(doc)` (store/sqlite/packed-text.ts). */
export function query(db: string, sql: string, ...params: unknown[]): Row[] {
  const conn = new Database(db, { readonly: true });
  try {
    registerUnpackText(conn);
    return conn.prepare(sql).all(...params) as Row[];
  } finally {
    conn.close();
  }
}

export const one = (db: string, sql: string, ...params: unknown[]): Row | undefined => query(db, sql, ...params)[0];

export const count = (db: string, table: string): number =>
  one(db, `SELECT COUNT(*) AS n FROM ${table}`)!['n'] as number;
