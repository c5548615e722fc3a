/**
 * The SQLite tables of the record store (migration set `records`), generated from the
 * dialect-neutral layout in `../layout.ts`. `docs/storage.md` shows the resulting SQL and
 * why it is shaped this way.
 */
import {
  FTS_TOKENIZER,
  FULLTEXT_TABLES,
  LINK_TABLES,
  PLACE_TABLES,
  SOURCE_TABLES,
  carriedColumnLinks,
  FIRST_CARRIED_COLUMNS,
  internedCopy,
  internedTables,
  linkAsFirstBuilt,
  ownerKey,
  postingLinks,
  valueCountTables,
  type ColumnSpec,
  type ColumnType,
  type LinkTableSpec,
} from '../../model/storage.ts';
import type { Database } from 'better-sqlite3';
import type { Migration } from './migrate.ts';
import { narrowTableSql, narrowTables, refreshNarrowTables } from './narrow-tables.ts';
import { keepListsByRecord, rebuildPostings } from './posting-lists.ts';
import { perYearTablesSql, rebuildPerYearTables, refreshFundingByYear } from './per-year-tables.ts';
import { dropOrganizationPlaceValuesSql, recodeValueFieldsSql } from '../value-field-codes.ts';
import {
  SHIPPED_DICTIONARIES_V1,
  SHIPPED_DICTIONARIES_V2,
  SHIPPED_DICTIONARIES_V3,
  TEXT_DICTIONARIES_SQL,
  readShippedDictionaries,
  storeDictionaries,
} from './text-dictionaries.ts';

/** A secondary index, kept apart from the table DDL so bulk loads can drop and rebuild it. */
export interface IndexDefinition {
  readonly name: string;
  readonly table: string;
  readonly sql: string;
}

function sqlType(type: ColumnType): string {
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

function columnDef(c: ColumnSpec, notNull = false): string {
  return `${c.name} ${sqlType(c.type)}${notNull ? ' NOT NULL' : ''}`.replace(/\s+/g, ' ').trim();
}

function sourceTablesSql(): string[] {
  return Object.values(SOURCE_TABLES).map(
    (s) =>
      `CREATE TABLE ${s.table} (\n  pk INTEGER PRIMARY KEY,\n  id TEXT NOT NULL UNIQUE,\n` +
      s.columns.map((c) => `  ${columnDef(c)},\n`).join('') +
      // Every field of the record that has no column of its own, as the record holds it.
      `  doc TEXT NOT NULL DEFAULT '{}'\n)`,
  );
}

/** A link table's `CREATE TABLE`, in the form `l` describes. */
function linkTableSql(l: LinkTableSpec): string {
  const owner = ownerKey(l.owner);
  const key = [owner, ...l.key.map((c) => c.name)];
  const cols = [
    `${owner} INTEGER NOT NULL`,
    ...l.key.map((c) => columnDef(c, true)),
    ...l.extra.map((c) => columnDef(c)),
  ];
  return `CREATE TABLE ${l.table} (\n  ${cols.join(',\n  ')},\n  PRIMARY KEY (${key.join(', ')})\n) WITHOUT ROWID`;
}

/** The link tables as version 1 made them (before interning). */
function linkTablesSql(): string[] {
  return LINK_TABLES.map((l) => linkTableSql(linkAsFirstBuilt(l)));
}

function fullTextSql(): string[] {
  return FULLTEXT_TABLES.flatMap((f) => [
    // Contentless: the text lives in the source tables; FTS holds only the index, keyed by pk.
    `CREATE VIRTUAL TABLE ${f.table} USING fts5(${f.columns.join(', ')}, content='', contentless_delete=1, tokenize='${FTS_TOKENIZER}')`,
    // The vocabulary, for expanding wildcard patterns (`ital?`, `*est`) into real tokens.
    `CREATE VIRTUAL TABLE ${f.table}_vocab USING fts5vocab(${f.table}, 'row')`,
  ]);
}

const ENTITY_TABLES_SQL = [
  // Filled by finish() from the organizations: display names for place facets.
  ...Object.entries(PLACE_TABLES).map(
    ([table, columns]) =>
      `CREATE TABLE ${table} (id TEXT PRIMARY KEY, ${columns.map((c) => columnDef(c)).join(', ')}) WITHOUT ROWID`,
  ),
  // Facts about the loaded data (e.g. `finished_at`, `recent_since`).
  `CREATE TABLE store_meta (key TEXT PRIMARY KEY, value TEXT) WITHOUT ROWID`,
];

function sourceIndex(table: string, cols: readonly string[]): IndexDefinition {
  const name = `${table}_${cols.join('_')}`;
  return { name, table, sql: `CREATE INDEX IF NOT EXISTS ${name} ON ${table} (${cols.join(', ')})` };
}

/** A link table's reverse index, in the form `l` describes. */
function reverseIndex(l: LinkTableSpec): IndexDefinition {
  const name = `${l.table}_by_${l.reverse.join('_')}`;
  // In a WITHOUT ROWID table the primary key (owner pk first) is appended to every index
  // entry, so this index also covers "which owners have this target".
  return { name, table: l.table, sql: `CREATE INDEX IF NOT EXISTS ${name} ON ${l.table} (${l.reverse.join(', ')})` };
}

const SOURCE_INDEXES: readonly IndexDefinition[] = Object.values(SOURCE_TABLES).flatMap((s) =>
  s.indexes.map((cols) => sourceIndex(s.table, cols)),
);

/** The secondary indexes of version 1 (the layout's indexes and the link tables' reverse keys, before interning). */
const VERSION_1_INDEXES: readonly IndexDefinition[] = [
  ...SOURCE_INDEXES,
  ...LINK_TABLES.map((l) => reverseIndex(linkAsFirstBuilt(l))),
];

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

/** Version 3: the narrow side tables' indexes (facet group-bys over year, type, journal; grants' year and funder). */
const VERSION_3_INDEXES: readonly IndexDefinition[] = narrowTables().flatMap(({ narrow }) =>
  narrow.indexes.map((cols) => sourceIndex(narrow.table, cols)),
);

/**
 * Version 6: link tables that carry columns of their owner (`LinkTableSpec.ownerColumns`:
 * `publication_research_orgs.year`), and the index reading a value with them, so
 * `research_orgs.id in [...] and year in [A:B]` is a range of `(org_id, year)`. Pinned to
 * the column it shipped with; version 9 adds `date` and replaces the index.
 */
const VERSION_6_CARRIED = carriedColumnLinks(FIRST_CARRIED_COLUMNS);

/**
 * Version 9: the columns the layout carries today (`year, date` on `publication_research_orgs`)
 * and the index `(org_id, year, date)`, which also serves every test the version 6 index did
 * (its prefix), so that one is dropped: a page newest first under an organization filter
 * picks its candidates from the index before reading any record row.
 */
const CARRIED = carriedColumnLinks();

/** The index of a link table's carried columns, as SQLite builds it. */
function carriedIndex({ link, index }: ReturnType<typeof carriedColumnLinks>[number]): IndexDefinition {
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
  for (const index of RECORD_INDEXES.filter((i) => i.table === link.table))
    db.exec(`${index.sql}; ANALYZE ${index.name}`);
}

/**
 * Versions 11 and on: the link tables interned into `vocabularyTable` (`LinkTableSpec.interned`)
 * hold the id of their text in it: the vocabulary filled from the texts held, then each
 * table rebuilt with the ids.
 */
function internLinkTables(db: Database, vocabularyTable: string): void {
  for (const vocabulary of internedTables().filter((v) => v.table === vocabularyTable))
    db.exec(
      `CREATE TABLE IF NOT EXISTS ${vocabulary.table} (id INTEGER PRIMARY KEY, ${vocabulary.column} TEXT NOT NULL UNIQUE)`,
    );
  for (const link of LINK_TABLES) {
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
  for (const link of LINK_TABLES) {
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
  for (const source of Object.values(SOURCE_TABLES)) {
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

/** Version 8: the value-count tables (`SourceTableSpec.valueCounts`), for whole-source facets of a column. */
const VALUE_COUNT_TABLES_SQL = valueCountTables().map(
  ({ table, column }) =>
    `CREATE TABLE IF NOT EXISTS ${table} (${columnDef(column, true)} PRIMARY KEY, n INTEGER NOT NULL) WITHOUT ROWID`,
);

/** Rewrites every value-count table from its source (by `finish()`, inside its transaction). */
export function refreshValueCounts(db: Database): void {
  for (const { table, fill } of valueCountTables()) {
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
  rebuildPostings(db);
  for (const link of postingLinks()) {
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
  ...VERSION_3_INDEXES,
  ...CARRIED.map(carriedIndex),
];

/** The full DDL of version 1, for `docs/storage.md` and tests (later versions add to it). */
export function recordSchemaSql(): string[] {
  return [
    ...sourceTablesSql(),
    ...linkTablesSql(),
    ...fullTextSql(),
    ...ENTITY_TABLES_SQL,
    ...VERSION_1_INDEXES.map((i) => i.sql),
  ];
}

/** The record store's migrations (set `records`). Append new versions; never edit old ones. */
export const RECORD_MIGRATIONS: readonly Migration[] = [
  {
    version: 1,
    name: 'record tables, link tables, full-text indexes',
    up: (db) => {
      for (const statement of recordSchemaSql()) db.exec(statement);
    },
  },
  {
    version: 2,
    name: 'indexes for default-ordered pages under a year filter',
    up: (db) => {
      for (const index of VERSION_2_INDEXES) db.exec(index.sql);
    },
  },
  {
    version: 3,
    name: 'narrow side tables with per-record link counts, for facets, aggregates and count filters',
    up: (db) => {
      for (const { kind, narrow } of narrowTables()) db.exec(narrowTableSql(kind, narrow));
      // Filled from the records already held (their indexes are built after the rows).
      refreshNarrowTables(db, VERSION_3_INDEXES);
    },
  },
  {
    version: 4,
    name: 'per-year pre-aggregates of citations_per_year and funding_per_year',
    up: (db) => {
      for (const statement of perYearTablesSql()) db.exec(statement);
      // Built from the records already held and marked fresh, so a database loaded by an
      // older version answers from them at once (the next write marks them stale again).
      rebuildPerYearTables(db);
    },
  },
  {
    version: 5,
    name: 'preset dictionaries for packed text (doc, abstracts)',
    up: (db) => {
      db.exec(TEXT_DICTIONARIES_SQL);
      storeDictionaries(db, readShippedDictionaries(SHIPPED_DICTIONARIES_V1));
      // Rows already held stay text and read as they are (packed-text.ts: the storage class
      // tells the formats apart); rewriting them here would hold the write lock for minutes
      // at 1M records, and the file would not shrink without a VACUUM. Upserts pack.
    },
  },
  {
    version: 6,
    name: 'link tables carrying owner columns (publication_research_orgs.year), indexed with the value',
    up: (db) => addOwnerColumns(db, VERSION_6_CARRIED),
  },
  {
    version: 7,
    name: 'values tables keep a short code per field instead of its name',
    up: (db) => {
      for (const statement of recodeValueFieldsSql()) db.exec(statement);
      // Version 4 built the funding tables from the active years under their old name.
      refreshFundingByYear(db);
    },
  },
  {
    version: 8,
    name: 'value counts of columns, for whole-source facets (publication_year_counts)',
    up: (db) => {
      for (const statement of VALUE_COUNT_TABLES_SQL) db.exec(statement);
      // Filled from the records already held, as finish() would.
      refreshValueCounts(db);
    },
  },
  {
    version: 9,
    name: 'publication_research_orgs carries the date too, indexed (org_id, year, date), for pages cut from the index',
    up: (db) =>
      addOwnerColumns(
        db,
        CARRIED,
        VERSION_6_CARRIED.map(({ index }) => index.name),
      ),
  },
  {
    version: 10,
    name: 'the places and names of the research organizations and funders read through them, not stored per record',
    up: (db) => {
      // The pages the rows held become free pages, which later writes reuse; the file
      // shrinks only with a VACUUM (docs/storage.md).
      for (const statement of dropOrganizationPlaceValuesSql()) db.exec(statement);
    },
  },
  {
    version: 11,
    name: 'concept links hold the id of the concept name (concept_names), not the name',
    up: (db) => internLinkTables(db, 'concept_names'),
  },
  {
    version: 12,
    name: 'reference links hold the id of the cited id (cited_ids), not the id',
    up: (db) => internLinkTables(db, 'cited_ids'),
  },
  {
    version: 13,
    name: 'concept links drop the score nothing read (the document keeps concepts_scores)',
    up: dropLinkColumns,
  },
  {
    version: 14,
    name: 'preset dictionaries, second release: what documents hold now, packed at level 6',
    up: (db) => {
      storeDictionaries(db, readShippedDictionaries(SHIPPED_DICTIONARIES_V2));
      // As with version 5, values already held keep the dictionary they name; upserts pack
      // with the new ones.
    },
  },
  {
    version: 15,
    name: 'abstracts in tables of their own (publication_abstracts, grant_abstracts): shorter rows fill the pages better',
    up: keepColumnsApart,
  },
  {
    version: 16,
    name: 'posting lists instead of the reverse indexes of the references, the concepts and the researcher links (<link table>_postings)',
    up: keepPostingLists,
  },
  {
    version: 17,
    name: 'the references by record as one list per publication (publication_references_lists), read through a view',
    up: keepListsByRecord,
  },
  {
    version: 18,
    name: 'the concepts by record as one list per publication and per grant (publication_concepts_lists, grant_concepts_lists), read through views',
    // The same step as 17: it turns every table declared listed that is still a table.
    up: keepListsByRecord,
  },
  {
    version: 19,
    name: 'preset dictionaries, third release: zstd dictionaries, digested once per thread instead of hashed for every value',
    up: (db) => {
      storeDictionaries(db, readShippedDictionaries(SHIPPED_DICTIONARIES_V3));
      // As with 5 and 14, values already held keep the dictionary they name (and its codec);
      // upserts pack with the new ones.
    },
  },
];
