/**
 * The SQLite record tables as the storage layout declares them today (`model/storage.ts`),
 * derived from it directly: what a database brought through every records migration must
 * hold. The migrations are frozen files (`migrations/records/`) and never read the layout,
 * so a layout change without a migration makes the two differ; test/store/declared-schema.test.ts
 * compares them. The statements are also a starting point for a new migration's file.
 */
import { MERGES_TABLE_SQL } from '../source-title-merge.ts';
import { ORGANIZATION_LINK_TABLES_SQL } from '../organization-links.ts';
import {
  FTS_TOKENIZER,
  FULLTEXT_TABLES,
  fullTextTables,
  LINK_TABLES,
  PLACE_TABLES,
  REVERSE_LINKS,
  SOURCE_TABLES,
  internedTables,
  namedEntityTables,
  ownerColumnsOf,
  postingLinks,
  valueCountTables,
  type LinkTableSpec,
} from '../../model/storage.ts';
import { narrowTableSql, narrowTables } from './narrow-tables.ts';
import { perYearTablesOf } from './per-year-tables.ts';
import { listedTableSql, postingsTableSql } from './posting-lists.ts';
import { RECORD_INDEXES, columnDef, linkTableSql, valueCountTableSql, vocabularyTableSql } from './records-schema.ts';
import { TEXT_DICTIONARIES_SQL } from './text-dictionaries.ts';
import { reverseLinkViewSql } from '../reverse-links.ts';

/** The sources' tables, without the columns kept in tables of their own (`keptApart`). */
function sourceTablesSql(): string[] {
  return Object.values(SOURCE_TABLES).flatMap((s) => {
    const apart = Object.entries(s.keptApart ?? {});
    const kept = s.columns.filter((c) => !apart.some(([column]) => column === c.name));
    const appendedLater = kept.filter((c) => c.appended === true);
    return [
      `CREATE TABLE ${s.table} (\n  pk INTEGER PRIMARY KEY,\n  id TEXT NOT NULL UNIQUE,\n` +
        kept
          .filter((c) => c.appended !== true)
          .map((c) => `  ${columnDef(c)},\n`)
          .join('') +
        // Every field of the record that has no column of its own, as the record holds it.
        `  doc TEXT NOT NULL DEFAULT '{}'` +
        // Columns a migration added to the table later: `ADD COLUMN` put them after the document.
        appendedLater.map((c) => `,\n  ${columnDef(c)}`).join('') +
        '\n)',
      ...apart.map(([column, table]) => {
        const type = s.columns.find((c) => c.name === column)?.type ?? 'text';
        return `CREATE TABLE ${table} (pk INTEGER PRIMARY KEY, ${columnDef({ name: column, type }, true)})`;
      }),
    ];
  });
}

/**
 * A link table: its lists by record and the view reading them (`listed`), or the table, with
 * the owner's columns it carries after its own (the migration that added them appended them),
 * and its posting lists where it has them.
 */
function linkSql(link: LinkTableSpec): string[] {
  const postings = postingLinks().find((l) => l.table === link.table);
  const lists = postings === undefined ? [] : [postingsTableSql(postings)];
  if (link.listed !== undefined) {
    const { table, view } = listedTableSql({ ...link, listed: link.listed });
    return [table, view, ...lists];
  }
  const carried = ownerColumnsOf(link)?.columns ?? [];
  const sql = linkTableSql(link).replace(
    /,\n {2}PRIMARY KEY/,
    carried.map((c) => `,\n  ${columnDef(c)}`).join('') + ',\n  PRIMARY KEY',
  );
  return [sql, ...lists];
}

function fullTextSql(): string[] {
  return FULLTEXT_TABLES.flatMap(fullTextTables).flatMap((f) => [
    // Contentless: the text lives in the source tables; FTS holds only the index, keyed by pk.
    `CREATE VIRTUAL TABLE ${f.table} USING fts5(${f.columns.join(', ')}, content='', contentless_delete=1, tokenize='${FTS_TOKENIZER}')`,
    // The vocabulary, for expanding wildcard patterns (`ital?`, `*est`) into real tokens.
    `CREATE VIRTUAL TABLE ${f.table}_vocab USING fts5vocab(${f.table}, 'row')`,
  ]);
}

/** Every table, view, full-text table and secondary index of the current layout. */
export function declaredRecordSchemaSql(): string[] {
  return [
    ...sourceTablesSql(),
    ...internedTables().map(vocabularyTableSql),
    ...LINK_TABLES.flatMap(linkSql),
    ...REVERSE_LINKS.map(reverseLinkViewSql),
    ...fullTextSql(),
    // Filled by finish() from the organizations: display names for place facets.
    ...Object.entries(PLACE_TABLES).map(
      ([table, columns]) =>
        `CREATE TABLE ${table} (id TEXT PRIMARY KEY, ${columns.map((c) => columnDef(c)).join(', ')}) WITHOUT ROWID`,
    ),
    // Filled by finish() from the records naming them (the repositories of datasets).
    ...namedEntityTables().map(
      ({ table, columns }) =>
        `CREATE TABLE ${table} (id TEXT PRIMARY KEY, ${columns.map((c) => columnDef(c)).join(', ')}) WITHOUT ROWID`,
    ),
    // Kept by finish() for the source titles several lists give (store/source-title-merge.ts).
    MERGES_TABLE_SQL.sqlite,
    // Kept by the writers and finish() for the organizations records name by name (store/organization-links.ts).
    ...ORGANIZATION_LINK_TABLES_SQL.sqlite,
    // Facts about the loaded data (e.g. `finished_at`, `recent_since`).
    `CREATE TABLE store_meta (key TEXT PRIMARY KEY, value TEXT) WITHOUT ROWID`,
    ...narrowTables().map(({ kind, narrow }) => narrowTableSql(kind, narrow)),
    ...Object.values(SOURCE_TABLES).flatMap((s) => (s.perYear === undefined ? [] : perYearTablesOf(s.kind, s.perYear))),
    ...valueCountTables().map(valueCountTableSql),
    TEXT_DICTIONARIES_SQL,
    ...RECORD_INDEXES.map((i) => i.sql),
  ];
}
