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
import { createPrivateFile } from './private-file.ts';
import {
  FULLTEXT_TABLES,
  LINK_TABLES,
  RECORD_KINDS,
  SOURCE_TABLES,
  ownerKey,
  postingLinks,
  type InternedValues,
  type RecordKind,
} from '../../model/storage.ts';
import type { SqlValue } from '../rows.ts';
import { prepareSqliteRows, type SqliteRows } from './prepare-rows.ts';
import type { StoredValue } from './packed-rows.ts';
import { advanceDataEpoch } from './data-epoch.ts';
import { deriveAll, setFullTextMerging, type FinishOptions, type FinishReport } from './derive.ts';
import { migrate } from './migrate.ts';
import {
  markNarrowRowsFresh,
  markNarrowRowsStale,
  narrowRowWriter,
  narrowRowsStale,
  refreshNarrowTables,
} from './narrow-tables.ts';
import { perYearStaleMarker } from './per-year-tables.ts';
import {
  listOfIds,
  PostingListWriter,
  markPostingsFresh,
  markPostingsStale,
  postingsStale,
  rebuildPostings,
  registerPostingFunctions,
} from './posting-lists.ts';
import { recordSchemaVersion } from './open.ts';
import { applyWriterPragmas, type ConnectionTuning } from './pragmas.ts';
import { RECORD_INDEXES, RECORD_MIGRATIONS } from './records-schema.ts';
import { checkShippedDictionaries, registerUnpackText } from './text-dictionaries.ts';
import { VocabularyIds } from './vocabulary-ids.ts';

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

interface KindStatements {
  readonly find: Database.Statement<[string], { pk: number }>;
  readonly insert: Database.Statement<StoredValue[]>;
  readonly update: Database.Statement<StoredValue[]>;
  readonly deleteLinks: readonly Database.Statement<[number]>[];
  /** Per link table: its insert (bound: the pk, the carried owner values, the rows as JSON) and where those values sit in the record's columns. */
  readonly insertLinks: ReadonlyMap<
    string,
    {
      readonly statement: Database.Statement<StoredValue[]>;
      readonly ownerValues: readonly number[];
      /**
       * For an interned link table: the rows as JSON with each text (at `textAt` of a row, or
       * the row itself for one column) replaced by its vocabulary id, as the statement takes them.
       */
      readonly interned?: { readonly ids: VocabularyIds; readonly textAt: number; readonly width: number };
      /** The statement writes the record's list by record (`LinkTableSpec.listed`): bound the pk and the list. */
      readonly listed?: true;
    }
  >;
  readonly deleteText?: Database.Statement<[number]>;
  readonly insertText?: Database.Statement<SqlValue[]>;
  /** Where the values of the row's own columns sit in the record's columns (the others are kept apart). */
  readonly rowColumns: readonly number[];
  /** The columns kept in a table of their own (`SourceTableSpec.keptApart`), each with where its value sits. */
  readonly apart: readonly {
    readonly at: number;
    readonly save: Database.Statement<[number, StoredValue]>;
    readonly remove: Database.Statement<[number]>;
  }[];
  /** Rewrites the record's row of the source's narrow table (after its links are in). */
  readonly writeNarrow?: (pk: number) => void;
  /** Marks the source's per-year tables stale (once per write transaction of its records). */
  readonly markPerYearStale?: () => void;
  /** The posting lists of the kind's link tables (none during a bulk load: `finish()` rebuilds them). */
  readonly postings: readonly PostingListWriter[];
}

const DEFAULT_BATCH = 5000;

/**
 * A link table's rows (`packLinkRows` JSON), each text (at `textAt` of a row) replaced by its
 * vocabulary id; a table of one column gives the ids themselves.
 */
function rowsWithIds(
  packed: string,
  { ids, textAt, width }: { readonly ids: VocabularyIds; readonly textAt: number; readonly width: number },
): unknown[] {
  const rows = JSON.parse(packed) as unknown[];
  // A row without text gets no id: the NOT NULL key column leaves it out (INSERT OR IGNORE).
  // A number a record named is kept as its text.
  const id = (text: unknown): number | null => {
    if (typeof text === 'number') return ids.idOf(String(text));
    return typeof text === 'string' && text !== '' ? ids.idOf(text) : null;
  };
  if (width === 1) return rows.map(id);
  return rows.map((row) => {
    const values = [...(row as unknown[])];
    values[textAt] = id(values[textAt]);
    return values;
  });
}

/** Opens (creating if needed) a record database for writing, migrated to the current layout. */
export function openRecordStore(dbPath: string, options: RecordStoreOptions = {}): RecordStore {
  createPrivateFile(dbPath);
  const db = new Database(dbPath);
  applyWriterPragmas(db, options);
  // Before the migrations: the references' view reads its lists through these, and a
  // migration may read the view (narrow rows, per-year tables).
  registerPostingFunctions(db);
  migrate(db, 'records', RECORD_MIGRATIONS);
  // Rows come packed with the shipped dictionaries (prepare-rows.ts): the file must hold them.
  checkShippedDictionaries(db);
  registerUnpackText(db);
  const bulk = options.bulk === true;
  let compactPending = bulk;
  /** Rewrites the narrow rows a bulk load left behind (before `finish()` did). */
  const catchUpNarrowRows = (): void => {
    if (!narrowRowsStale(db)) return;
    db.transaction(() => {
      refreshNarrowTables(db, RECORD_INDEXES);
      markNarrowRowsFresh(db);
    })();
  };
  /** Rebuilds the posting lists a bulk load left behind (before `finish()` did). */
  const catchUpPostings = (): void => {
    if (!postingsStale(db)) return;
    db.transaction(() => {
      rebuildPostings(db);
      markPostingsFresh(db);
    })();
  };
  /**
   * A bulk load writes neither narrow rows nor posting lists record by record: every write
   * transaction notes both as behind, for the next finish() (or close()) to rebuild. Noted
   * per write, not once at open: a finish() clears the notes, and writes after it are behind
   * again.
   */
  const noteBulkWrite = bulk
    ? (): void => {
        markNarrowRowsStale(db);
        markPostingsStale(db);
      }
    : undefined;
  if (bulk) {
    for (const index of RECORD_INDEXES) db.exec(`DROP INDEX IF EXISTS ${index.name}`);
    setFullTextMerging(db, false);
    noteBulkWrite?.();
  } else {
    // A bulk load that never reached finish() left indexes out, merging off, narrow rows and
    // posting lists behind: undo that.
    for (const index of RECORD_INDEXES) db.exec(index.sql);
    setFullTextMerging(db, true);
    catchUpNarrowRows();
    catchUpPostings();
  }
  const batchSize = Math.max(1, options.batchSize ?? DEFAULT_BATCH);
  const statements = new Map<RecordKind, KindStatements>();
  /** Per vocabulary table, the ids the writer has read or added (shared by its link tables). */
  const vocabularies = new Map<string, VocabularyIds>();
  const vocabularyIds = (vocabulary: InternedValues): VocabularyIds => {
    let ids = vocabularies.get(vocabulary.table);
    if (ids === undefined) vocabularies.set(vocabulary.table, (ids = new VocabularyIds(db, vocabulary)));
    return ids;
  };
  /**
   * Runs `fn` (a transaction, or a savepoint inside one); if it fails, the vocabulary ids it
   * added are gone from the database, so the writer forgets every id it remembers.
   */
  const forgettingOnFailure = <T>(fn: () => T): T => {
    try {
      return fn();
    } catch (error) {
      for (const ids of vocabularies.values()) ids.forget();
      throw error;
    }
  };
  // Entities named inside other records (a publication's journal and categories) are added
  // once per store handle; a record of their own, imported before or after, wins.
  const knownJournals = new Set<string>();
  const knownCategories = new Set<string>();
  const saveCategory = db.prepare<[string, string, string]>(
    'INSERT INTO categories (id, name, scheme) VALUES (?, ?, ?) ON CONFLICT(id) DO UPDATE SET name = coalesce(categories.name, excluded.name), scheme = coalesce(categories.scheme, excluded.scheme)',
  );
  const saveJournal = db.prepare<[string, string | null]>(
    'INSERT INTO journals (id, title) VALUES (?, ?) ON CONFLICT(id) DO UPDATE SET title = coalesce(journals.title, excluded.title)',
  );

  const statementsFor = (kind: RecordKind): KindStatements => {
    const cached = statements.get(kind);
    if (cached !== undefined) return cached;
    const spec = SOURCE_TABLES[kind];
    const cols = spec.columns.map((c) => c.name);
    const apartTables = spec.keptApart ?? {};
    const rowColumns = cols.flatMap((c, at) => (apartTables[c] === undefined ? [at] : []));
    const rowCols = rowColumns.map((at) => cols[at] as string);
    const links = LINK_TABLES.filter((l) => l.owner === kind);
    const text = FULLTEXT_TABLES.find((f) => f.owner === kind);
    const owner = ownerKey(kind);
    // A bulk load leaves the narrow rows to finish(), which rewrites every one of them.
    const writeNarrow = bulk ? undefined : narrowRowWriter(db, kind);
    const markPerYearStale = perYearStaleMarker(db, kind);
    const made: KindStatements = {
      postings: bulk
        ? []
        : postingLinks()
            .filter((l) => l.owner === kind)
            .map((l) => new PostingListWriter(db, l)),
      ...(writeNarrow === undefined ? {} : { writeNarrow }),
      ...(markPerYearStale === undefined ? {} : { markPerYearStale }),
      find: db.prepare(`SELECT pk FROM ${spec.table} WHERE id = ?`),
      insert: db.prepare<StoredValue[]>(
        `INSERT INTO ${spec.table} (id, ${rowCols.join(', ')}, doc) VALUES (?, ${rowCols.map(() => '?').join(', ')}, ?)`,
      ),
      update: db.prepare<StoredValue[]>(
        `UPDATE ${spec.table} SET ${rowCols.map((c) => `${c} = ?`).join(', ')}, doc = ? WHERE pk = ?`,
      ),
      rowColumns,
      apart: Object.entries(apartTables).map(([column, table]) => ({
        at: cols.indexOf(column),
        save: db.prepare<[number, StoredValue]>(
          `INSERT INTO ${table} (pk, ${column}) VALUES (?, ?) ON CONFLICT (pk) DO UPDATE SET ${column} = excluded.${column}`,
        ),
        remove: db.prepare<[number]>(`DELETE FROM ${table} WHERE pk = ?`),
      })),
      // A table kept as lists by record is a view: its rows go with the record's list.
      deleteLinks: links.map((l) => db.prepare(`DELETE FROM ${l.listed?.table ?? l.table} WHERE ${owner} = ?`)),
      insertLinks: new Map(
        links.map((l) => {
          const names = [owner, ...l.key.map((c) => c.name), ...l.extra.map((c) => c.name)];
          // All rows of one record in one statement: the rows travel as one JSON array and
          // json_each unpacks them inside SQLite (`->>` keeps integers integers), which is
          // several times cheaper than one statement call per row.
          const width = names.length - 1;
          // Columns of the record copied onto every link row (LinkTableSpec.ownerColumns).
          const carried = l.ownerColumns ?? [];
          const ownerValues = carried.map((c) => cols.indexOf(c));
          const select =
            width === 1 ? 'j.value' : Array.from({ length: width }, (_, k) => `j.value ->> ${k}`).join(', ');
          // A table kept as lists by record (LinkTableSpec.listed): the record's values as one
          // list of vocabulary ids, so an interned table of one column and no carried columns.
          const listed = l.listed;
          if (listed !== undefined && (l.interned === undefined || width !== 1 || carried.length > 0))
            throw new Error(
              `link table ${l.table} is kept as lists by record but does not hold one vocabulary id a row`,
            );
          const statement = db.prepare<StoredValue[]>(
            listed === undefined
              ? `INSERT OR IGNORE INTO ${l.table} (${[...names, ...carried].join(', ')}) SELECT ?, ${select}${carried.map(() => ', ?').join('')} FROM json_each(?) j`
              : `INSERT OR REPLACE INTO ${listed.table} (${owner}, ${listed.column}) VALUES (?, ?)`,
          );
          // The rows name the text (the last key column); the table holds its vocabulary id.
          const interned =
            l.interned === undefined ? undefined : { ids: vocabularyIds(l.interned), textAt: l.key.length - 1, width };
          return [
            l.table,
            {
              statement,
              ownerValues,
              ...(interned === undefined ? {} : { interned }),
              ...(listed === undefined ? {} : { listed: true }),
            },
          ];
        }),
      ),
      ...(text === undefined
        ? {}
        : {
            deleteText: db.prepare(`DELETE FROM ${text.table} WHERE rowid = ?`),
            insertText: db.prepare<SqlValue[]>(
              `INSERT INTO ${text.table} (rowid, ${text.columns.join(', ')}) VALUES (?, ${text.columns.map(() => '?').join(', ')})`,
            ),
          }),
    };
    statements.set(kind, made);
    return made;
  };

  /**
   * Writes a record's row and link rows; returns its pk and whether it existed before. The
   * full-text row is written later, by `writeText`, for the whole batch at once.
   */
  const writeOne = (kind: RecordKind, s: KindStatements, rows: SqliteRows): { pk: number; existed: boolean } => {
    const existing = s.find.get(rows.id);
    const own = s.apart.length === 0 ? rows.columns : s.rowColumns.map((at) => rows.columns[at] ?? null);
    let pk: number;
    if (existing === undefined) {
      pk = Number(s.insert.run(rows.id, ...own, rows.doc).lastInsertRowid);
    } else {
      pk = existing.pk;
      s.update.run(...own, rows.doc, pk);
      for (const postings of s.postings) postings.before(pk);
      for (const del of s.deleteLinks) del.run(pk);
    }
    for (const { at, save, remove } of s.apart) {
      const value = rows.columns[at] ?? null;
      if (value !== null) save.run(pk, value);
      // A new record has no row there yet: its pk was never held (or its row went with it).
      else if (existing !== undefined) remove.run(pk);
    }
    for (const [table, packed] of rows.links) {
      const insert = s.insertLinks.get(table);
      if (insert === undefined) throw new Error(`no link table ${table} for ${kind}`);
      const interned = insert.interned;
      if (insert.listed === true && interned !== undefined) {
        // One id a row (checked where the statement is made), encoded straight into the list.
        const list = listOfIds(rowsWithIds(packed, interned) as (number | null)[]);
        if (list !== undefined) insert.statement.run(pk, list);
        continue;
      }
      const carried = insert.ownerValues.map((k) => rows.columns[k] ?? null);
      insert.statement.run(
        pk,
        ...carried,
        interned === undefined ? packed : JSON.stringify(rowsWithIds(packed, interned)),
      );
    }
    for (const postings of s.postings) postings.after(pk);
    s.writeNarrow?.(pk);
    for (const [id, title] of rows.journals ?? []) {
      if (knownJournals.has(id)) continue;
      saveJournal.run(id, title);
      knownJournals.add(id);
    }
    for (const [id, name, scheme] of rows.categories ?? []) {
      if (knownCategories.has(id)) continue;
      saveCategory.run(id, name, scheme);
      knownCategories.add(id);
    }
    return { pk, existed: existing !== undefined };
  };

  const writeBatchOnce = db.transaction((kind: RecordKind, batch: readonly SqliteRows[]) => {
    const s = statementsFor(kind);
    // Full-text rows go in after every other row of the batch. FTS5 flushes its pending
    // in-memory index to a new segment whenever another statement opens a savepoint in the
    // transaction; interleaving would write one tiny segment per record (several times
    // slower, and a fragmented index).
    const texts = new Map<number, readonly string[]>();
    const replaced = new Set<number>();
    advanceDataEpoch(db);
    s.markPerYearStale?.();
    noteBulkWrite?.();
    for (const rows of batch) {
      const { pk, existed } = writeOne(kind, s, rows);
      if (existed && !texts.has(pk)) replaced.add(pk);
      if (rows.fullText !== undefined) texts.set(pk, rows.fullText);
    }
    for (const postings of s.postings) postings.flush();
    if (s.insertText === undefined || s.deleteText === undefined) return;
    for (const pk of replaced) s.deleteText.run(pk);
    for (const [pk, text] of texts) s.insertText.run(pk, ...text);
  });
  const writeBatch = (kind: RecordKind, batch: readonly SqliteRows[]): void =>
    forgettingOnFailure(() => {
      // Changes noted by a batch that failed before its flush are not in the database.
      for (const postings of statementsFor(kind).postings) postings.reset();
      writeBatchOnce(kind, batch);
    });
  const checkKind = (kind: RecordKind): void => {
    if (!RECORD_KINDS.includes(kind)) throw new Error(`unknown record kind ${String(kind)}`);
  };
  const prepare = (kind: RecordKind, records: readonly object[]): SqliteRows[] =>
    records.map((record) => prepareSqliteRows(kind, record));

  return {
    db,
    upsert(kind, records) {
      checkKind(kind);
      if (db.inTransaction) {
        writeBatch(kind, prepare(kind, records));
        return;
      }
      for (let start = 0; start < records.length; start += batchSize)
        writeBatch(kind, prepare(kind, records.slice(start, start + batchSize)));
    },
    upsertRows(kind, rows) {
      checkKind(kind);
      if (db.inTransaction) {
        writeBatch(kind, rows);
        return;
      }
      for (let start = 0; start < rows.length; start += batchSize)
        writeBatch(kind, rows.slice(start, start + batchSize));
    },
    remove(kind, ids) {
      const s = statementsFor(kind);
      const table = SOURCE_TABLES[kind].table;
      const deleteRow = db.prepare<[number]>(`DELETE FROM ${table} WHERE pk = ?`);
      const narrow = SOURCE_TABLES[kind].narrow;
      const deleteNarrow =
        narrow === undefined ? undefined : db.prepare<[number]>(`DELETE FROM ${narrow.table} WHERE pk = ?`);
      return db.transaction(() => {
        // Records go: results kept from before and the per-year tables no longer hold.
        advanceDataEpoch(db);
        s.markPerYearStale?.();
        noteBulkWrite?.();
        for (const postings of s.postings) postings.reset();
        let removed = 0;
        for (const id of ids) {
          const found = s.find.get(id);
          if (found === undefined) continue;
          for (const postings of s.postings) postings.before(found.pk);
          for (const del of s.deleteLinks) del.run(found.pk);
          for (const postings of s.postings) postings.removed(found.pk);
          s.deleteText?.run(found.pk);
          for (const { remove } of s.apart) remove.run(found.pk);
          // Its narrow row too: facets and counts read it.
          deleteNarrow?.run(found.pk);
          deleteRow.run(found.pk);
          removed++;
        }
        for (const postings of s.postings) postings.flush();
        return removed;
      })();
    },
    transaction<T>(fn: () => T): T {
      return forgettingOnFailure(() => db.transaction(fn)());
    },
    finish(finishOptions = {}) {
      // The first finish() after a bulk load rebuilds the B-trees the load filled row by row.
      const report = deriveAll(db, { compact: compactPending, ...finishOptions });
      compactPending = false;
      // deriveAll rewrote every narrow row.
      markNarrowRowsFresh(db);
      // Derived data changed too: results kept from before (counts, facets) are stale.
      advanceDataEpoch(db);
      return report;
    },
    counts() {
      const tables = [
        ...RECORD_KINDS.map((k) => SOURCE_TABLES[k].table),
        ...LINK_TABLES.map((l) => l.table),
        ...FULLTEXT_TABLES.map((f) => f.table),
        'countries',
        'cities',
        'states',
      ];
      const out: Record<string, number> = {};
      for (const table of tables)
        out[table] = db.prepare<[], number>(`SELECT COUNT(*) FROM ${table}`).pluck().get() ?? 0;
      return out;
    },
    close() {
      catchUpNarrowRows();
      catchUpPostings();
      db.close();
    },
  };
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
