/**
 * The record store's write path: a batch of records' rows written in one transaction (source
 * row, columns kept apart, link rows or lists by record, the entities they name, then the
 * batch's full-text rows), and records removed with every row of theirs.
 */
import type { Database } from 'better-sqlite3';
import type { SqlValue } from '../../model/record-values.ts';
import { declaredSource } from '../../model/sources.ts';
import { FULLTEXT_TABLES, SOURCE_TABLES, type RecordKind } from '../../model/storage.ts';
import type { BulkLoad } from './bulk-load.ts';
import { advanceDataEpoch } from './data-epoch.ts';
import { prepareKindStatements, type KindStatements } from './kind-statements.ts';
import { listOfIds } from './posting-lists.ts';
import type { SqliteRows } from './prepare-rows.ts';
import type { VocabularyIds, WriterVocabularies } from './vocabulary-ids.ts';
import { linkPendingNotes } from './organization-links.ts';

export interface RecordWrites {
  /**
   * Writes a batch of records of `kind`, inserted or replaced by id, in one transaction (a
   * savepoint inside the caller's).
   */
  writeBatch(kind: RecordKind, batch: readonly SqliteRows[]): void;
  /** Removes records by id (their link rows and full-text row too); returns how many existed. */
  remove(kind: RecordKind, ids: readonly string[]): number;
}

/** The write path of one store handle; its statements are prepared per kind on first use. */
export function recordWrites(
  db: Database,
  { bulkLoad, vocabularies }: { readonly bulkLoad: BulkLoad; readonly vocabularies: WriterVocabularies },
): RecordWrites {
  const statements = new Map<RecordKind, KindStatements>();
  const statementsFor = (kind: RecordKind): KindStatements => {
    let made = statements.get(kind);
    if (made === undefined)
      statements.set(kind, (made = prepareKindStatements(db, kind, { bulk: bulkLoad.active, vocabularies })));
    return made;
  };
  const named = namedEntities(db);
  // The records finish() links to the organizations they name by name (store/organization-links.ts).
  const noteLinkPending = linkPendingNotes(db);

  /**
   * Writes a record's row and link rows; returns its pk and whether it existed before. The
   * full-text row is written later, by `writeBatch`, for the whole batch at once.
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
    named.save(rows);
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
    bulkLoad.noteWrite();
    const written: number[] = [];
    for (const rows of batch) {
      const { pk, existed } = writeOne(kind, s, rows);
      if (existed && !texts.has(pk)) replaced.add(pk);
      if (rows.fullText !== undefined) texts.set(pk, rows.fullText);
      written.push(pk);
    }
    noteLinkPending(kind, written);
    for (const postings of s.postings) postings.flush();
    named.flushTexts();
    if (s.insertText === undefined || s.deleteText === undefined) return;
    for (const pk of replaced) for (const del of s.deleteText) del.run(pk);
    // The hook gives the texts of every full-text table of the kind, in table order.
    let start = 0;
    for (const { statement, count } of s.insertText) {
      for (const [pk, text] of texts) statement.run(pk, ...text.slice(start, start + count));
      start += count;
    }
  });

  return {
    writeBatch: (kind, batch) =>
      vocabularies.forgettingOnFailure(() => {
        // Changes noted by a batch that failed before its flush are not in the database.
        for (const postings of statementsFor(kind).postings) postings.reset();
        named.reset();
        writeBatchOnce(kind, batch);
      }),
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
        bulkLoad.noteWrite();
        for (const postings of s.postings) postings.reset();
        let removed = 0;
        for (const id of ids) {
          const found = s.find.get(id);
          if (found === undefined) continue;
          for (const postings of s.postings) postings.before(found.pk);
          for (const del of s.deleteLinks) del.run(found.pk);
          for (const postings of s.postings) postings.removed(found.pk);
          for (const del of s.deleteText ?? []) del.run(found.pk);
          for (const { remove } of s.apart) remove.run(found.pk);
          // Its narrow row too: facets and counts read it.
          deleteNarrow?.run(found.pk);
          deleteRow.run(found.pk);
          noteLinkPending(kind, [found.pk]);
          removed++;
        }
        for (const postings of s.postings) postings.flush();
        return removed;
      })();
    },
  };
}

/**
 * Entities named inside other records (a publication's journal and categories), added once
 * per store handle; a record of their own, imported before or after, wins. A journal named
 * so is a source title with its title alone, found by its title's words too: its full-text
 * row is written with the batch's (`flushTexts`), as a record's would be.
 */
function namedEntities(db: Database): {
  save(rows: SqliteRows): void;
  flushTexts(): void;
  reset(): void;
} {
  const knownJournals = new Set<string>();
  const titleText = (title: string): string[] => declaredSource('source_titles')?.rows.fullText?.({ title }) ?? [title];
  const titles = SOURCE_TABLES.source_titles.table;
  const titleFts = FULLTEXT_TABLES.find((f) => f.owner === 'source_titles');
  const insertTitleText =
    titleFts === undefined
      ? undefined
      : db.prepare<SqlValue[]>(
          `INSERT INTO ${titleFts.table} (rowid, ${titleFts.columns.join(', ')}) VALUES (?, ${titleFts.columns.map(() => '?').join(', ')})`,
        );
  let pendingTexts: [number, string[]][] = [];
  const knownCategories = new Set<string>();
  const saveCategory = db.prepare<[string, string, string]>(
    'INSERT INTO categories (id, name, scheme) VALUES (?, ?, ?) ON CONFLICT(id) DO UPDATE SET name = coalesce(categories.name, excluded.name), scheme = coalesce(categories.scheme, excluded.scheme)',
  );
  // A journal a record names by {id, title}: a row of source_titles with the title alone.
  const addJournal = db.prepare<[string, string | null]>(
    `INSERT INTO ${titles} (id, title) VALUES (?, ?) ON CONFLICT(id) DO NOTHING`,
  );
  const nameJournal = db.prepare<[string | null, string]>(
    `UPDATE ${titles} SET title = ? WHERE id = ? AND title IS NULL`,
  );
  return {
    save(rows) {
      for (const [id, title] of rows.journals ?? []) {
        if (knownJournals.has(id)) continue;
        const added = addJournal.run(id, title);
        if (added.changes === 1 && title !== null) pendingTexts.push([Number(added.lastInsertRowid), titleText(title)]);
        else if (added.changes === 0) nameJournal.run(title, id);
        knownJournals.add(id);
      }
      for (const [id, name, scheme] of rows.categories ?? []) {
        if (knownCategories.has(id)) continue;
        saveCategory.run(id, name, scheme);
        knownCategories.add(id);
      }
    },
    flushTexts() {
      if (insertTitleText !== undefined) for (const [pk, text] of pendingTexts) insertTitleText.run(pk, ...text);
      pendingTexts = [];
    },
    reset() {
      pendingTexts = [];
    },
  };
}

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
