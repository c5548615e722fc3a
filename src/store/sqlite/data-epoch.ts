/**
 * The data's epoch: a value in `store_meta` that every write transaction of the record store
 * replaces with a fresh random one, so "the records changed" is one indexed read. Result
 * caches key on it (`engine/result-cache.ts`); account writes, which share the file, leave
 * it alone (SQLite's own `data_version` would change with every login).
 */
import type Database from 'better-sqlite3';

const KEY = 'data_epoch';

/** Gives the data a new epoch; call inside the write transaction that changes records. */
export function advanceDataEpoch(db: Database.Database): void {
  db.prepare(
    `INSERT INTO store_meta (key, value) VALUES ('${KEY}', lower(hex(randomblob(8)))) ON CONFLICT(key) DO UPDATE SET value = excluded.value`,
  ).run();
}

/**
 * A reader of the epoch over an open connection: one prepared point read per call.
 * A database no writer of this version has touched yet reads as `''`.
 */
export function dataEpochReader(db: Database.Database): () => string {
  const read = db.prepare<[], string>(`SELECT value FROM store_meta WHERE key = '${KEY}'`).pluck();
  return () => read.get() ?? '';
}
