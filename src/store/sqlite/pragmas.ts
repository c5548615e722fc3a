import type { Database } from 'better-sqlite3';

/** Connection tuning shared by the writer and the read-only query connections. */
export interface ConnectionTuning {
  /** Page cache per connection, in MiB (default 256). */
  readonly cacheMb?: number;
  /** Memory-mapped I/O window, in MiB (default 4096: the whole file for any realistic size). */
  readonly mmapMb?: number;
  /**
   * Where temporary B-trees (GROUP BY, ORDER BY, index builds) live: `file` (default) keeps
   * them in SQLite's cache up to its size and spills the rest to a temporary file, so a
   * large sort never grows memory without bound; `memory` keeps them all in RAM.
   */
  readonly tempStore?: 'file' | 'memory';
}

/**
 * Applies the pragmas every connection uses. `journal_mode = WAL` is persistent in the file
 * and set by the writer only; readers inherit it.
 */
export function applyConnectionPragmas(db: Database, tuning: ConnectionTuning = {}): void {
  const cacheMb = tuning.cacheMb ?? 256;
  const mmapMb = tuning.mmapMb ?? 4096;
  // Negative cache_size is KiB.
  db.pragma(`cache_size = -${Math.round(cacheMb * 1024)}`);
  db.pragma(`mmap_size = ${Math.round(mmapMb * 1024 * 1024)}`);
  db.pragma(`temp_store = ${tuning.tempStore === 'memory' ? 'MEMORY' : 'FILE'}`);
  db.pragma('busy_timeout = 5000');
}

/** Pragmas of the single writer: WAL so readers never block it, NORMAL sync (durable at checkpoints). */
export function applyWriterPragmas(db: Database, tuning: ConnectionTuning = {}): void {
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = NORMAL');
  db.pragma('foreign_keys = OFF');
  // Bulk loads write a lot between checkpoints; a larger auto-checkpoint keeps the WAL from
  // being copied back too often (it is still bounded).
  db.pragma('wal_autocheckpoint = 10000');
  applyConnectionPragmas(db, tuning);
}
