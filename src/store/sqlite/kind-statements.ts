/**
 * The statements the record store's writer prepares for one kind of record (once per handle,
 * on first use): its source row, the columns kept apart, its link rows (or lists by record),
 * its full-text row, and the derived rows kept up to date record by record.
 */
import type { Database, Statement } from 'better-sqlite3';
import {
  FULLTEXT_TABLES,
  fullTextTables,
  LINK_TABLES,
  SOURCE_TABLES,
  ownerKey,
  postingLinks,
  type LinkTableSpec,
  type RecordKind,
} from '../../model/storage.ts';
import type { SqlValue } from '../rows.ts';
import { narrowRowWriter } from './narrow-tables.ts';
import type { StoredValue } from './packed-rows.ts';
import { perYearStaleMarker } from './per-year-tables.ts';
import { PostingListWriter } from './posting-lists.ts';
import type { VocabularyIds, WriterVocabularies } from './vocabulary-ids.ts';

export interface KindStatements {
  readonly find: Statement<[string], { pk: number }>;
  readonly insert: Statement<StoredValue[]>;
  readonly update: Statement<StoredValue[]>;
  readonly deleteLinks: readonly Statement<[number]>[];
  /** Per link table: its insert (`LinkInsert`). */
  readonly insertLinks: ReadonlyMap<string, LinkInsert>;
  /** Per full-text table of the kind (its own, then the columns kept apart): the delete by rowid. */
  readonly deleteText?: readonly Statement<[number]>[];
  /** Per full-text table, the insert of a record's texts of its columns (`count` of them). */
  readonly insertText?: readonly { readonly statement: Statement<SqlValue[]>; readonly count: number }[];
  /** Where the values of the row's own columns sit in the record's columns (the others are kept apart). */
  readonly rowColumns: readonly number[];
  /** The columns kept in a table of their own (`SourceTableSpec.keptApart`), each with where its value sits. */
  readonly apart: readonly {
    readonly at: number;
    readonly save: Statement<[number, StoredValue]>;
    readonly remove: Statement<[number]>;
  }[];
  /** Rewrites the record's row of the source's narrow table (after its links are in). */
  readonly writeNarrow?: (pk: number) => void;
  /** Marks the source's per-year tables stale (once per write transaction of its records). */
  readonly markPerYearStale?: () => void;
  /** The posting lists of the kind's link tables (none during a bulk load: `finish()` rebuilds them). */
  readonly postings: readonly PostingListWriter[];
}

/** A link table's insert (bound: the pk, the carried owner values, the rows as JSON) and where those values sit in the record's columns. */
export interface LinkInsert {
  readonly statement: Statement<StoredValue[]>;
  readonly ownerValues: readonly number[];
  /**
   * For an interned link table: the rows as JSON with each text (at `textAt` of a row, or
   * the row itself for one column) replaced by its vocabulary id, as the statement takes them.
   */
  readonly interned?: { readonly ids: VocabularyIds; readonly textAt: number; readonly width: number };
  /** The statement writes the record's list by record (`LinkTableSpec.listed`): bound the pk and the list. */
  readonly listed?: true;
}

/**
 * Prepares the statements of `kind`. A bulk load (`bulk`) leaves the narrow rows and the
 * posting lists to `finish()`, so it gets no writer of either.
 */
export function prepareKindStatements(
  db: Database,
  kind: RecordKind,
  { bulk, vocabularies }: { readonly bulk: boolean; readonly vocabularies: WriterVocabularies },
): KindStatements {
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
  return {
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
    insertLinks: new Map(links.map((l) => [l.table, prepareLinkInsert(db, l, { cols, vocabularies })])),
    ...(text === undefined
      ? {}
      : {
          deleteText: fullTextTables(text).map((f) => db.prepare<[number]>(`DELETE FROM ${f.table} WHERE rowid = ?`)),
          insertText: fullTextTables(text).map((f) => ({
            statement: db.prepare<SqlValue[]>(
              `INSERT INTO ${f.table} (rowid, ${f.columns.join(', ')}) VALUES (?, ${f.columns.map(() => '?').join(', ')})`,
            ),
            count: f.columns.length,
          })),
        }),
  };
}

/** The insert of a record's rows of link table `l` (`cols`: the names of the record's columns). */
function prepareLinkInsert(
  db: Database,
  l: LinkTableSpec,
  { cols, vocabularies }: { readonly cols: readonly string[]; readonly vocabularies: WriterVocabularies },
): LinkInsert {
  const owner = ownerKey(l.owner);
  const names = [owner, ...l.key.map((c) => c.name), ...l.extra.map((c) => c.name)];
  // All rows of one record in one statement: the rows travel as one JSON array and
  // json_each unpacks them inside SQLite (`->>` keeps integers integers), which is
  // several times cheaper than one statement call per row.
  const width = names.length - 1;
  // Columns of the record copied onto every link row (LinkTableSpec.ownerColumns).
  const carried = l.ownerColumns ?? [];
  const ownerValues = carried.map((c) => cols.indexOf(c));
  const select = width === 1 ? 'j.value' : Array.from({ length: width }, (_, k) => `j.value ->> ${k}`).join(', ');
  // A table kept as lists by record (LinkTableSpec.listed): the record's values as one
  // list of vocabulary ids, so an interned table of one column and no carried columns.
  const listed = l.listed;
  if (listed !== undefined && (l.interned === undefined || width !== 1 || carried.length > 0))
    throw new Error(`link table ${l.table} is kept as lists by record but does not hold one vocabulary id a row`);
  const statement = db.prepare<StoredValue[]>(
    listed === undefined
      ? `INSERT OR IGNORE INTO ${l.table} (${[...names, ...carried].join(', ')}) SELECT ?, ${select}${carried.map(() => ', ?').join('')} FROM json_each(?) j`
      : `INSERT OR REPLACE INTO ${listed.table} (${owner}, ${listed.column}) VALUES (?, ?)`,
  );
  // The rows name the text (the last key column); the table holds its vocabulary id.
  const interned =
    l.interned === undefined ? undefined : { ids: vocabularies.of(l.interned), textAt: l.key.length - 1, width };
  return {
    statement,
    ownerValues,
    ...(interned === undefined ? {} : { interned }),
    ...(listed === undefined ? {} : { listed: true }),
  };
}
