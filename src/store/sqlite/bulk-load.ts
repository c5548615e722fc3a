/**
 * What a bulk load (`RecordStoreOptions.bulk`) changes in the record store's writer: the
 * secondary indexes are dropped and full-text merging is off until `finish()`, and neither
 * the narrow rows nor the posting lists are written record by record, so each write notes
 * them as behind. A write handle that is not a bulk load first undoes whatever a bulk load
 * that never reached `finish()` left.
 */
import type { Database } from 'better-sqlite3';
import { setFullTextMerging } from './derive.ts';
import { markNarrowRowsFresh, markNarrowRowsStale, narrowRowsStale, refreshNarrowTables } from './narrow-tables.ts';
import { markPostingsFresh, markPostingsStale, postingsStale, rebuildPostings } from './posting-lists.ts';
import { RECORD_INDEXES } from './records-schema.ts';

export interface BulkLoad {
  /** This handle loads in bulk: the narrow rows and posting lists are left to `finish()`. */
  readonly active: boolean;
  /**
   * Notes, in a write transaction of a bulk load, that the narrow rows and posting lists are
   * behind, for the next `finish()` (or `close()`) to rebuild; nothing otherwise. Noted per
   * write, not once at open: a `finish()` clears the notes, and writes after it are behind again.
   */
  noteWrite(): void;
  /** The next `finish()` is the first after a bulk load: it rebuilds the B-trees the load filled row by row. */
  readonly compactionPending: boolean;
  /** A `finish()` completed: the trees are rebuilt. */
  finished(): void;
  /** Rewrites the narrow rows and rebuilds the posting lists a bulk load left behind, if it did. */
  catchUp(): void;
}

/** Sets the database up for a write handle, a bulk load (`bulk`) or not. */
export function setUpBulkLoad(db: Database, bulk: boolean): BulkLoad {
  let compactionPending = bulk;
  const load: BulkLoad = {
    active: bulk,
    noteWrite: bulk
      ? () => {
          markNarrowRowsStale(db);
          markPostingsStale(db);
        }
      : () => undefined,
    get compactionPending() {
      return compactionPending;
    },
    finished: () => {
      compactionPending = false;
    },
    catchUp: () => {
      catchUpNarrowRows(db);
      catchUpPostings(db);
    },
  };
  if (bulk) {
    for (const index of RECORD_INDEXES) db.exec(`DROP INDEX IF EXISTS ${index.name}`);
    setFullTextMerging(db, false);
    load.noteWrite();
  } else {
    // A bulk load that never reached finish() left indexes out, merging off, narrow rows and
    // posting lists behind: undo that.
    for (const index of RECORD_INDEXES) db.exec(index.sql);
    setFullTextMerging(db, true);
    load.catchUp();
  }
  return load;
}

/** Rewrites the narrow rows a bulk load left behind (before `finish()` did). */
function catchUpNarrowRows(db: Database): void {
  if (!narrowRowsStale(db)) return;
  db.transaction(() => {
    refreshNarrowTables(db, RECORD_INDEXES);
    markNarrowRowsFresh(db);
  })();
}

/** Rebuilds the posting lists a bulk load left behind (before `finish()` did). */
function catchUpPostings(db: Database): void {
  if (!postingsStale(db)) return;
  db.transaction(() => {
    rebuildPostings(db);
    markPostingsFresh(db);
  })();
}
