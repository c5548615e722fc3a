/**
 * The SQLite tables of the record store (migration set `records`): the builders of their DDL
 * from the storage layout (`model/storage.ts`), their secondary indexes (which bulk loads drop
 * and rebuild), and the migrations: frozen files (`migrations/records/`), with the steps
 * that upgrade a database made by an older Quarry. `docs/storage.md` shows the resulting SQL
 * and why it is shaped this way.
 */
import {
  LINK_TABLES,
  SOURCE_TABLES,
  carriedColumnLinks,
  FIRST_CARRIED_COLUMNS,
  internedCopy,
  ownerKey,
  postingLinks,
  valueCountTables,
  type ColumnSpec,
  type ColumnType,
  type InternedValues,
  type LinkTableSpec,
  type RecordKind,
} from '../../model/storage.ts';
import type { Database } from 'better-sqlite3';
import { frozenMigrations, recordMigrationDirs, type FileMigration } from './frozen-migrations.ts';
import { narrowTableSql, narrowTables, refreshNarrowTables } from './narrow-tables.ts';
import { keepListsByRecord, rebuildPostings, registerPostingFunctions } from './posting-lists.ts';
import { perYearTablesSql, rebuildPerYearTables, refreshFundingByYear } from './per-year-tables.ts';
import { dropOrganizationPlaceValuesSql, recodeValueFieldsSql } from '../value-field-codes.ts';
import {
  SHIPPED_DICTIONARIES_V1,
  SHIPPED_DICTIONARIES_V2,
  SHIPPED_DICTIONARIES_V3,
  TEXT_DICTIONARIES_SQL,
  readShippedDictionaries,
  registerUnpackText,
  storeDictionaries,
} from './text-dictionaries.ts';

/**
 * The record kinds of the layout when records migrations 1–19 were frozen. Their upgrade steps
 * (below) read the layout, as they always did, but only of these kinds: a source added later
 * never reaches them, and gets its tables from migrations of its own.
 */
export const LEGACY_RECORD_KINDS: ReadonlySet<RecordKind> = new Set<RecordKind>([
  'publications',
  'grants',
  'researchers',
  'organizations',
  // And `journals`, a table of no source then, with nothing those steps read (no narrow,
  // link or kept-apart table); it became source_titles' (records migration 24).
  'categories',
]);

const legacy = (kind: RecordKind): boolean => LEGACY_RECORD_KINDS.has(kind);
const legacyLinks = (): readonly LinkTableSpec[] => LINK_TABLES.filter((l) => legacy(l.owner));

/** A secondary index, kept apart from the table DDL so bulk loads can drop and rebuild it. */
export interface IndexDefinition {
  readonly name: string;
  readonly table: string;
  readonly sql: string;
}

export function sqlType(type: ColumnType): string {
  switch (type) {
    case 'text':
      return 'TEXT';
    case 'integer':
      return 'INTEGER';
    case 'real':
      return 'REAL';
    case 'any':
      // No declared type: no affinity, so 2019 stays an integer and "2019" stays text.
      return '';
  }
}

export function columnDef(c: ColumnSpec, notNull = false): string {
  return `${c.name} ${sqlType(c.type)}${notNull ? ' NOT NULL' : ''}`.replace(/\s+/g, ' ').trim();
}

/** A link table's `CREATE TABLE`, in the form `l` describes. */
export function linkTableSql(l: LinkTableSpec): string {
  const owner = ownerKey(l.owner);
  const key = [owner, ...l.key.map((c) => c.name)];
  const cols = [
    `${owner} INTEGER NOT NULL`,
    ...l.key.map((c) => columnDef(c, true)),
    ...l.extra.map((c) => columnDef(c)),
  ];
  return `CREATE TABLE ${l.table} (\n  ${cols.join(',\n  ')},\n  PRIMARY KEY (${key.join(', ')})\n) WITHOUT ROWID`;
}

export function sourceIndex(table: string, cols: readonly string[]): IndexDefinition {
  const name = `${table}_${cols.join('_')}`;
  return { name, table, sql: `CREATE INDEX IF NOT EXISTS ${name} ON ${table} (${cols.join(', ')})` };
}

/** A link table's reverse index, in the form `l` describes. */
export function reverseIndex(l: LinkTableSpec): IndexDefinition {
  const name = `${l.table}_by_${l.reverse.join('_')}`;
  // In a WITHOUT ROWID table the primary key (owner pk first) is appended to every index
  // entry, so this index also covers "which owners have this target".
  return { name, table: l.table, sql: `CREATE INDEX IF NOT EXISTS ${name} ON ${l.table} (${l.reverse.join(', ')})` };
}

const SOURCE_INDEXES: readonly IndexDefinition[] = Object.values(SOURCE_TABLES).flatMap((s) =>
  s.indexes.map((cols) => sourceIndex(s.table, cols)),
);

/**
 * Version 2: the default order is newest first with ties by id ascending (`date DESC, id
 * ASC`), which no ascending index can give. These indexes hold it under a year, so a page
 * of the export loop `where year = Y ... limit 1000 skip N` is read in order and stops,
 * instead of sorting every match of the year (at 1M publications, the page statement:
 * 7 ms instead of 146 ms for the first 1000 rows, 9 ms instead of 654 ms at skip 40,000).
 * Range filters still use the narrower year index and sort, as before.
 */
const VERSION_2_INDEXES: readonly IndexDefinition[] = [
  {
    table: SOURCE_TABLES.publications.table,
    name: 'publications_year_date_desc_id',
    sql: 'CREATE INDEX IF NOT EXISTS publications_year_date_desc_id ON publications (year, date DESC, id)',
  },
  {
    table: SOURCE_TABLES.grants.table,
    name: 'grants_start_year_start_date_desc_id',
    sql: 'CREATE INDEX IF NOT EXISTS grants_start_year_start_date_desc_id ON grants (start_year, start_date DESC, id)',
  },
];

/** The narrow side tables' indexes (facet group-bys over year, type, journal; grants' year and funder). */
const NARROW_INDEXES: readonly IndexDefinition[] = narrowTables().flatMap(({ narrow }) =>
  narrow.indexes.map((cols) => sourceIndex(narrow.table, cols)),
);

/** Version 3: the narrow tables and their indexes, of the kinds it knew. */
const VERSION_3_INDEXES: readonly IndexDefinition[] = narrowTables()
  .filter(({ kind }) => legacy(kind))
  .flatMap(({ narrow }) => narrow.indexes.map((cols) => sourceIndex(narrow.table, cols)));

/**
 * Version 6: link tables that carry columns of their owner (`LinkTableSpec.ownerColumns`:
 * `publication_research_orgs.year`), and the index reading a value with them, so
 * `research_orgs.id in [...] and year in [A:B]` is a range of `(org_id, year)`. Pinned to
 * the column it shipped with; version 9 adds `date` and replaces the index.
 */
const VERSION_6_CARRIED = carriedColumnLinks(FIRST_CARRIED_COLUMNS).filter(({ link }) => legacy(link.owner));

/** The columns the link tables carry, and their indexes. */
const CARRIED = carriedColumnLinks();

/**
 * Version 9: the columns the layout carries today (`year, date` on `publication_research_orgs`)
 * and the index `(org_id, year, date)`, which also serves every test the version 6 index did
 * (its prefix), so that one is dropped: a page newest first under an organization filter
 * picks its candidates from the index before reading any record row.
 */
const VERSION_9_CARRIED = CARRIED.filter(({ link }) => legacy(link.owner));

/** The index of a link table's carried columns, as SQLite builds it. */
export function carriedIndex({ link, index }: ReturnType<typeof carriedColumnLinks>[number]): IndexDefinition {
  return {
    name: index.name,
    table: link.table,
    sql: `CREATE INDEX IF NOT EXISTS ${index.name} ON ${link.table} (${index.columns.join(', ')})`,
  };
}

/**
 * Adds the carried columns a link table lacks, fills them from the owners' narrow rows (short
 * rows; the same values as the source's), builds their index and drops the ones it supersedes.
 */
function addOwnerColumns(
  db: Database,
  carried: ReturnType<typeof carriedColumnLinks>,
  superseded: readonly string[] = [],
): void {
  for (const { link, columns } of carried) {
    // Only the columns not there yet (SQLite has no ADD COLUMN IF NOT EXISTS), so running it again is harmless.
    const present = heldColumns(db, link.table);
    const added = columns.filter((c) => !present.has(c.name));
    if (added.length === 0) continue;
    for (const column of added) db.exec(`ALTER TABLE ${link.table} ADD COLUMN ${columnDef(column)}`);
    const narrow = SOURCE_TABLES[link.owner].narrow;
    const from =
      narrow !== undefined && added.every((c) => narrow.columns.includes(c.name))
        ? narrow.table
        : SOURCE_TABLES[link.owner].table;
    const names = added.map((c) => c.name);
    db.exec(
      `UPDATE ${link.table} SET (${names.join(', ')}) = (SELECT ${names.map((n) => `o.${n}`).join(', ')} FROM ${from} o WHERE o.pk = ${link.table}.${ownerKey(link.owner)})`,
    );
  }
  const kept = new Set(carried.map(({ index }) => index.name));
  for (const name of superseded.filter((n) => !kept.has(n))) db.exec(`DROP INDEX IF EXISTS ${name}`);
  // Statistics for the new index, so the planner weighs it as finish() would have.
  for (const index of carried.map(carriedIndex)) db.exec(`${index.sql}; ANALYZE ${index.name}`);
}

/** The column names of `table` as the file holds it now (a migration may find an older form). */
function heldColumns(db: Database, table: string): ReadonlySet<string> {
  return new Set(db.prepare(`SELECT name FROM pragma_table_info('${table}')`).pluck().all() as string[]);
}

/**
 * Rebuilds a link table in the form the layout has it now (SQLite cannot change a primary key
 * or drop a column without rewriting the rows): the new table filled by `copy` (an `INSERT`
 * into the table it names, reading the old rows in their primary-key order, so the pages are
 * as full as after an import), the old one dropped, the new one renamed and given the link
 * table's indexes.
 */
function rebuildLinkTable(db: Database, link: LinkTableSpec, copy: (fresh: string) => string): void {
  const fresh = `${link.table}_rebuilt`;
  db.exec(linkTableSql({ ...link, table: fresh }));
  db.exec(copy(fresh));
  db.exec(`DROP TABLE ${link.table}`);
  db.exec(`ALTER TABLE ${fresh} RENAME TO ${link.table}`);
  // Only the indexes of this (legacy) table.
  for (const index of RECORD_INDEXES.filter((i) => i.table === link.table))
    db.exec(`${index.sql}; ANALYZE ${index.name}`);
}

/**
 * Versions 11 and on: the link tables interned into `vocabularyTable` (`LinkTableSpec.interned`)
 * hold the id of their text in it: the vocabulary filled from the texts held, then each
 * table rebuilt with the ids.
 */
function internLinkTables(db: Database, vocabularyTable: string): void {
  const vocabularies = new Map<string, InternedValues>();
  for (const link of legacyLinks())
    if (link.interned?.table === vocabularyTable) vocabularies.set(link.interned.table, link.interned);
  for (const vocabulary of vocabularies.values()) db.exec(vocabularyTableSql(vocabulary));
  for (const link of legacyLinks()) {
    const vocabulary = link.interned;
    if (vocabulary?.table !== vocabularyTable) continue;
    // Already holding ids (a database upgraded again after its migration rows were rolled back).
    if (!heldColumns(db, link.table).has(vocabulary.replaced)) continue;
    db.exec(
      `INSERT OR IGNORE INTO ${vocabulary.table} (${vocabulary.column}) SELECT DISTINCT ${vocabulary.replaced} FROM ${link.table} ORDER BY 1`,
    );
    const { columns, values } = internedCopy(link);
    // The old rows outside (CROSS JOIN keeps them there), read in their primary-key order: the
    // new rows arrive grouped by owner, as they are kept, instead of by text.
    rebuildLinkTable(
      db,
      link,
      (fresh) =>
        `INSERT INTO ${fresh} (${columns.join(', ')}) SELECT ${values.join(', ')} FROM ${link.table} l CROSS JOIN ${vocabulary.table} v ON v.${vocabulary.column} = l.${vocabulary.replaced}`,
    );
  }
}

/**
 * Version 13: the columns the layout dropped from link tables (`LinkTableSpec.dropped`: the
 * concept links' `score`). A table still holding one is rebuilt without it, so its pages are
 * as full as after an import (`ALTER TABLE ... DROP COLUMN` rewrites each row in place and
 * leaves the freed bytes inside the pages).
 */
function dropLinkColumns(db: Database): void {
  for (const link of legacyLinks()) {
    if (link.dropped === undefined) continue;
    const held = heldColumns(db, link.table);
    if (!link.dropped.some((c) => held.has(c.name))) continue;
    const key = [ownerKey(link.owner), ...link.key.map((c) => c.name)];
    const columns = [...key, ...link.extra.map((c) => c.name)].join(', ');
    rebuildLinkTable(
      db,
      link,
      (fresh) => `INSERT INTO ${fresh} (${columns}) SELECT ${columns} FROM ${link.table} ORDER BY ${key.join(', ')}`,
    );
  }
}

/**
 * Version 15: the columns kept in a table of their own (`SourceTableSpec.keptApart`: the
 * abstracts), `(pk INTEGER PRIMARY KEY, <column>)` with a row for each record that has a
 * value. A database holding them in the source row has them copied over in key order and
 * the column dropped; `DROP COLUMN` rewrites each row in place, so the bytes it frees stay
 * inside the source table's pages (later writes use them; `VACUUM` gives them back).
 */
function keepColumnsApart(db: Database): void {
  for (const source of Object.values(SOURCE_TABLES).filter((s) => legacy(s.kind))) {
    for (const [column, table] of Object.entries(source.keptApart ?? {})) {
      const type = source.columns.find((c) => c.name === column)?.type ?? 'text';
      db.exec(
        `CREATE TABLE IF NOT EXISTS ${table} (pk INTEGER PRIMARY KEY, ${columnDef({ name: column, type }, true)})`,
      );
      if (!heldColumns(db, source.table).has(column)) continue;
      db.exec(
        `INSERT OR REPLACE INTO ${table} (pk, ${column}) SELECT pk, ${column} FROM ${source.table} WHERE ${column} IS NOT NULL ORDER BY pk`,
      );
      db.exec(`ALTER TABLE ${source.table} DROP COLUMN ${column}`);
    }
  }
}

/** A value-count table's `CREATE TABLE`. */
export function valueCountTableSql({ table, column }: { table: string; column: ColumnSpec }): string {
  return `CREATE TABLE IF NOT EXISTS ${table} (${columnDef(column, true)} PRIMARY KEY, n INTEGER NOT NULL) WITHOUT ROWID`;
}

/** The value-count tables of the sources of `kinds` (every source without it). */
function valueCountTablesOf(kinds?: ReadonlySet<RecordKind>): ReturnType<typeof valueCountTables> {
  const tables = new Set(
    Object.values(SOURCE_TABLES)
      .filter((s) => kinds === undefined || kinds.has(s.kind))
      .flatMap((s) => Object.values(s.valueCounts ?? {})),
  );
  return valueCountTables().filter(({ table }) => tables.has(table));
}

/** Version 8: the value-count tables (`SourceTableSpec.valueCounts`), for whole-source facets of a column. */
const VALUE_COUNT_TABLES_SQL = valueCountTablesOf(LEGACY_RECORD_KINDS).map(valueCountTableSql);

/**
 * Rewrites every value-count table (of the sources of `kinds`, where given) from its source
 * (by `finish()`, inside its transaction).
 */
export function refreshValueCounts(db: Database, { kinds }: { readonly kinds?: ReadonlySet<RecordKind> } = {}): void {
  for (const { table, fill } of valueCountTablesOf(kinds)) {
    db.exec(`DELETE FROM ${table}`);
    db.exec(fill);
  }
}

/**
 * Version 16: the reverse side of the link tables that have posting lists
 * (`LinkTableSpec.postings`: the references, the concepts, the researcher links), built from the link rows, and their reverse
 * index dropped. Its pages go to the free list, which later writes reuse.
 */
function keepPostingLists(db: Database): void {
  rebuildPostings(db, { kinds: LEGACY_RECORD_KINDS });
  for (const link of postingLinks().filter((l) => legacy(l.owner))) {
    db.exec(`DROP INDEX IF EXISTS ${reverseIndex(link).name}`);
    // Statistics for the new table, as finish() would have gathered.
    db.exec(`ANALYZE ${link.postings.table}`);
  }
}

/** Every secondary index of the record tables, in creation order (bulk loads drop and rebuild them). */
export const RECORD_INDEXES: readonly IndexDefinition[] = [
  ...SOURCE_INDEXES,
  // A table with posting lists has them instead of a reverse index.
  ...LINK_TABLES.filter((l) => l.postings === undefined).map(reverseIndex),
  ...VERSION_2_INDEXES,
  ...NARROW_INDEXES,
  ...CARRIED.map(carriedIndex),
];

/** A vocabulary table's `CREATE TABLE` (`LinkTableSpec.interned`). */
export function vocabularyTableSql(vocabulary: InternedValues): string {
  return `CREATE TABLE IF NOT EXISTS ${vocabulary.table} (id INTEGER PRIMARY KEY, ${vocabulary.column} TEXT NOT NULL UNIQUE)`;
}

/**
 * The steps of records migrations 2–19 for a database that held the records at an older
 * version (a new one runs the frozen files): they transform the rows it holds.
 */
const LEGACY_UPGRADES: Readonly<Record<number, (db: Database) => void>> = {
  2: (db) => {
    for (const index of VERSION_2_INDEXES) db.exec(index.sql);
  },
  3: (db) => {
    for (const { kind, narrow } of narrowTables().filter((n) => legacy(n.kind))) db.exec(narrowTableSql(kind, narrow));
    // Filled from the records already held (their indexes are built after the rows).
    refreshNarrowTables(db, VERSION_3_INDEXES, { kinds: LEGACY_RECORD_KINDS });
  },
  4: (db) => {
    for (const statement of perYearTablesSql()) db.exec(statement);
    // Built from the records already held and marked fresh, so a database loaded by an
    // older version answers from them at once (the next write marks them stale again).
    rebuildPerYearTables(db);
  },
  5: (db) => {
    db.exec(TEXT_DICTIONARIES_SQL);
    storeDictionaries(db, readShippedDictionaries(SHIPPED_DICTIONARIES_V1));
    // Rows already held stay text and read as they are (packed-text.ts: the storage class
    // tells the formats apart); rewriting them here would hold the write lock for minutes
    // at 1M records, and the file would not shrink without a VACUUM. Upserts pack.
  },
  6: (db) => addOwnerColumns(db, VERSION_6_CARRIED),
  7: (db) => {
    for (const statement of recodeValueFieldsSql({ kinds: LEGACY_RECORD_KINDS })) db.exec(statement);
    // Version 4 built the funding tables from the active years under their old name.
    refreshFundingByYear(db);
  },
  8: (db) => {
    for (const statement of VALUE_COUNT_TABLES_SQL) db.exec(statement);
    // Filled from the records already held, as finish() would.
    refreshValueCounts(db, { kinds: LEGACY_RECORD_KINDS });
  },
  9: (db) =>
    addOwnerColumns(
      db,
      VERSION_9_CARRIED,
      VERSION_6_CARRIED.map(({ index }) => index.name),
    ),
  10: (db) => {
    // The pages the rows held become free pages, which later writes reuse; the file
    // shrinks only with a VACUUM (docs/storage.md).
    for (const statement of dropOrganizationPlaceValuesSql()) db.exec(statement);
  },
  11: (db) => internLinkTables(db, 'concept_names'),
  12: (db) => internLinkTables(db, 'cited_ids'),
  13: dropLinkColumns,
  14: (db) => {
    storeDictionaries(db, readShippedDictionaries(SHIPPED_DICTIONARIES_V2));
    // As with version 5, values already held keep the dictionary they name; upserts pack
    // with the new ones.
  },
  15: keepColumnsApart,
  16: keepPostingLists,
  17: (db) => keepListsByRecord(db, { kinds: LEGACY_RECORD_KINDS }),
  // The same step as 17: it turns every table declared listed that is still a table.
  18: (db) => keepListsByRecord(db, { kinds: LEGACY_RECORD_KINDS }),
  19: (db) => {
    storeDictionaries(db, readShippedDictionaries(SHIPPED_DICTIONARIES_V3));
    // As with 5 and 14, values already held keep the dictionary they name (and its codec);
    // upserts pack with the new ones.
  },
  // The file's statements, each column only when absent: SQLite has no ADD COLUMN IF NOT
  // EXISTS, and a database brought back to an older version keeps the columns it had.
  30: (db) => {
    const held = heldColumns(db, 'organizations');
    for (const column of ['ultimate_parent_id', 'hierarchy_details'])
      if (!held.has(column)) db.exec(`ALTER TABLE organizations ADD COLUMN ${column} TEXT`);
    db.exec('CREATE INDEX IF NOT EXISTS organizations_ultimate_parent_id ON organizations (ultimate_parent_id)');
  },
};

/**
 * The record store's migrations (set `records`): the frozen files of `migrations/records/`
 * and of the source folders (`src/sources/<name>/migrations/sqlite/`), with the upgrade steps
 * above for 2–19 and 30. Add a version as a new file (and an upgrade step only where rows held must
 * be transformed); never edit an old one.
 * Every one may call the posting lists' functions (16–18 do: the lists and their views) and,
 * once the text dictionaries are held (5), `unpack_text` (26 reads the documents held).
 */
export const RECORD_MIGRATIONS: readonly FileMigration[] = frozenMigrations(recordMigrationDirs(), {
  upgrades: LEGACY_UPGRADES,
  functions: (db) => {
    registerPostingFunctions(db);
    registerUnpackText(db);
  },
});
