/**
 * The record store's writer over SQLite: idempotent upserts of native records into the
 * layout of `../layout.ts`, then `finish()` for derived data and statistics.
 *
 * @example
 *   const store = openRecordStore('/tmp/demo.db');
 *   store.upsert('organizations', orgs);
 *   store.upsert('publications', pubs);   // again with the same ids: updated, never duplicated
 *   store.finish();
 *   store.close();
 */
import { existsSync } from 'node:fs';
import Database from 'better-sqlite3';
import {
  FULLTEXT_TABLES,
  LINK_TABLES,
  RECORD_KINDS,
  SOURCE_TABLES,
  fullTextTables,
  type RecordKind,
} from '../../model/storage.ts';
import { setUpBulkLoad, type BulkLoad } from './bulk-load.ts';
import { advanceDataEpoch } from './data-epoch.ts';
import { deriveAll, type FinishOptions, type FinishReport } from './derive.ts';
import { migrate } from './migrate.ts';
import { linkOrganizations } from './organization-links.ts';
import { markNarrowRowsFresh } from './narrow-tables.ts';
import { recordSchemaVersion } from './open.ts';
import { registerPostingFunctions } from './posting-lists.ts';
import { applyWriterPragmas, type ConnectionTuning } from './pragmas.ts';
import { prepareSqliteRows, type SqliteRows } from './prepare-rows.ts';
import { createPrivateFile } from './private-file.ts';
import { recordWrites } from './record-writes.ts';
import { RECORD_MIGRATIONS } from './records-schema.ts';
import { checkShippedDictionaries, registerUnpackText } from './text-dictionaries.ts';
import { WriterVocabularies } from './vocabulary-ids.ts';
import {
  HELD_MERGES_SQL,
  MERGES_TABLE,
  planTitleMerge,
  TITLE_COLUMNS_SQL,
  TITLE_VALUES_SQL,
  titlesFromRows,
  type HeldMerge,
  type SourceTitleRecord,
} from '../source-title-merge.ts';

export { RECORD_MIGRATIONS } from './records-schema.ts';
export type { FinishOptions, FinishReport } from './derive.ts';
export type { RecordKind } from '../../model/storage.ts';

export interface RecordStoreOptions extends ConnectionTuning {
  /**
   * Bulk load: drop the secondary indexes now and rebuild them in `finish()` (much faster
   * for a large first import), and leave the narrow rows to `finish()`, which rewrites them
   * all in one pass. Queries before `finish()` are slow, and those the narrow tables answer
   * incomplete. If the process dies before `finish()`, the next open that is not a bulk load
   * recreates the indexes and the narrow rows; `close()` without `finish()` writes the narrow rows.
   */
  readonly bulk?: boolean;
  /** Records per transaction when `upsert` is not called inside `transaction()` (default 5000). */
  readonly batchSize?: number;
}

export interface RecordStore {
  /**
   * Inserts or replaces records by id: the source row keeps its `pk`, its link rows and
   * full-text row are replaced. Records have the shapes of `../records.ts`
   * (`NativeRecordByKind[kind]`); the parameter stays loose so importers can pass parsed
   * JSON, and fields of other shapes (ids as `{id}` objects) are accepted too. Commits every `batchSize` records unless called inside
   * `transaction()`, so a failure loses at most the batch in flight.
   */
  upsert(kind: RecordKind, records: readonly object[]): void;
  /**
   * `upsert` of records already turned into rows by `prepareSqliteRows` (in another thread,
   * during an import): this thread only binds and steps the statements.
   */
  upsertRows(kind: RecordKind, rows: readonly SqliteRows[]): void;
  /** Removes records by id (their link rows and full-text row too); returns how many existed. */
  remove(kind: RecordKind, ids: readonly string[]): number;
  /** Runs `fn` in one transaction (nested calls become savepoints). */
  transaction<T>(fn: () => T): T;
  /** Derived data (citation counts, totals, place values), index rebuild, FTS merge, ANALYZE. */
  finish(options?: FinishOptions): FinishReport;
  /** Row counts of every source, link and full-text table. */
  counts(): Record<string, number>;
  close(): void;
  /** The underlying connection, for tests and tools. */
  readonly db: Database.Database;
}

const DEFAULT_BATCH = 5000;

/** Opens (creating if needed) a record database for writing, migrated to the current layout. */
export function openRecordStore(dbPath: string, options: RecordStoreOptions = {}): RecordStore {
  const db = openWriterConnection(dbPath, options);
  const bulkLoad = setUpBulkLoad(db, options.bulk === true);
  const vocabularies = new WriterVocabularies(db);
  const writes = recordWrites(db, { bulkLoad, vocabularies });
  const batchSize = Math.max(1, options.batchSize ?? DEFAULT_BATCH);
  /**
   * Writes `items` (turned into rows by `rowsOf`) a batch of `batchSize` a transaction, or all
   * of them in one batch inside the caller's transaction.
   */
  const writeInBatches = <T>(
    kind: RecordKind,
    items: readonly T[],
    rowsOf: (batch: readonly T[]) => readonly SqliteRows[],
  ): void => {
    if (!RECORD_KINDS.includes(kind)) throw new Error(`unknown record kind ${String(kind)}`);
    if (db.inTransaction) {
      writes.writeBatch(kind, rowsOf(items));
      return;
    }
    for (let start = 0; start < items.length; start += batchSize)
      writes.writeBatch(kind, rowsOf(items.slice(start, start + batchSize)));
  };
  return {
    db,
    upsert: (kind, records) =>
      writeInBatches(kind, records, (batch) => batch.map((record) => prepareSqliteRows(kind, record))),
    upsertRows: (kind, rows) => writeInBatches(kind, rows, (batch) => batch),
    remove: (kind, ids) => writes.remove(kind, ids),
    transaction: <T>(fn: () => T): T => vocabularies.forgettingOnFailure(() => db.transaction(fn)()),
    finish(finishOptions = {}) {
      // Before the derived data: the merged titles' totals and metrics are derived from them.
      const started = performance.now();
      vocabularies.forgettingOnFailure(() =>
        db.transaction(() =>
          mergeSourceTitles(
            db,
            (records) =>
              writes.writeBatch(
                'source_titles',
                records.map((r) => prepareSqliteRows('source_titles', r)),
              ),
            (ids) => writes.remove('source_titles', ids),
          ),
        )(),
      );
      finishOptions.onStep?.('source titles merged', Math.round(performance.now() - started));
      // Before the derived data too: the narrow counts and organizations' totals count the links.
      const linking = performance.now();
      const linked = db.transaction(() => linkOrganizations(db))();
      if (linked !== undefined)
        finishOptions.onStep?.(
          `organizations linked by name (${linked.links} links, ${linked.records} records${linked.all ? ', all' : ''})`,
          Math.round(performance.now() - linking),
        );
      return finishRecords(db, bulkLoad, finishOptions);
    },
    counts: () => countRows(db),
    close() {
      bulkLoad.catchUp();
      db.close();
    },
  };
}

/**
 * The writer's connection: the file made private, the writer's pragmas, migrated to the
 * current layout, with the SQL functions its statements and migrations use.
 */
function openWriterConnection(dbPath: string, tuning: ConnectionTuning): Database.Database {
  createPrivateFile(dbPath);
  const db = new Database(dbPath);
  applyWriterPragmas(db, tuning);
  // Before the migrations: the references' view reads its lists through these, and a
  // migration may read the view (narrow rows, per-year tables).
  registerPostingFunctions(db);
  migrate(db, 'records', RECORD_MIGRATIONS);
  // Rows come packed with the shipped dictionaries (prepare-rows.ts): the file must hold them.
  checkShippedDictionaries(db);
  registerUnpackText(db);
  return db;
}

/** The source titles that share an ISSN, merged (`store/source-title-merge.ts`). */
function mergeSourceTitles(
  db: Database.Database,
  upsert: (records: readonly SourceTitleRecord[]) => void,
  remove: (ids: readonly string[]) => void,
): void {
  const plan = planTitleMerge(
    titlesFromRows(
      db.prepare<[], Record<string, string | number | null>>(TITLE_COLUMNS_SQL).all(),
      db.prepare<[], { pk: number; field: string; value: string }>(TITLE_VALUES_SQL).all(),
    ),
    db.prepare<[], HeldMerge>(HELD_MERGES_SQL).all(),
  );
  if (plan.upserts.length > 0) upsert(plan.upserts);
  if (plan.removals.length > 0) remove(plan.removals);
  db.exec(`DELETE FROM ${MERGES_TABLE}`);
  const keep = db.prepare<[HeldMerge]>(
    `INSERT INTO ${MERGES_TABLE} (id, into_id, record, merged) VALUES (@id, @into_id, @record, @merged)`,
  );
  for (const merge of plan.merges) keep.run(merge);
}

/** `RecordStore.finish`: the derived data, statistics and indexes, after the writes. */
function finishRecords(db: Database.Database, bulkLoad: BulkLoad, options: FinishOptions): FinishReport {
  // The first finish() after a bulk load rebuilds the B-trees the load filled row by row.
  const report = deriveAll(db, { compact: bulkLoad.compactionPending, ...options });
  bulkLoad.finished();
  // deriveAll rewrote every narrow row.
  markNarrowRowsFresh(db);
  // Derived data changed too: results kept from before (counts, facets) are stale.
  advanceDataEpoch(db);
  return report;
}

/** `RecordStore.counts`: the rows of every source, link and full-text table, and the places. */
function countRows(db: Database.Database): Record<string, number> {
  const tables = [
    ...RECORD_KINDS.map((k) => SOURCE_TABLES[k].table),
    ...LINK_TABLES.map((l) => l.table),
    ...FULLTEXT_TABLES.flatMap(fullTextTables).map((f) => f.table),
    'countries',
    'cities',
    'states',
  ];
  const out: Record<string, number> = {};
  for (const table of tables) out[table] = db.prepare<[], number>(`SELECT COUNT(*) FROM ${table}`).pluck().get() ?? 0;
  return out;
}

/**
 * Brings a record database made by an older Quarry up to the current layout (the migrations
 * it has not seen, such as new indexes), so a service can start on it without an import.
 * A missing file, or one without record tables, is left alone for the engine to refuse.
 *
 * @returns the versions applied (empty when it was current)
 */
export function upgradeRecordDatabase(dbPath: string): number[] {
  if (!existsSync(dbPath)) return [];
  const db = new Database(dbPath, { fileMustExist: true });
  try {
    if (recordSchemaVersion(db) === 0) return [];
    registerPostingFunctions(db);
    return migrate(db, 'records', RECORD_MIGRATIONS);
  } finally {
    db.close();
  }
}
