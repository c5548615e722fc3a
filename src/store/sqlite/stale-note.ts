/**
 * A note in `store_meta` that some derived rows are behind the records (the narrow rows, the
 * posting lists): a bulk load sets it instead of writing them record by record, and whoever
 * rebuilds them (`finish()`, or the next open that is not a bulk load) clears it.
 */
import type { Database } from 'better-sqlite3';

export interface StaleNote {
  mark(db: Database): void;
  clear(db: Database): void;
  isSet(db: Database): boolean;
}

/** The note stored under `key`. */
export function staleNote(key: string): StaleNote {
  return {
    mark: (db) => {
      db.prepare(`INSERT INTO store_meta (key, value) VALUES (?, '1') ON CONFLICT(key) DO NOTHING`).run(key);
    },
    clear: (db) => {
      db.prepare('DELETE FROM store_meta WHERE key = ?').run(key);
    },
    isSet: (db) => db.prepare('SELECT 1 FROM store_meta WHERE key = ?').get(key) !== undefined,
  };
}
