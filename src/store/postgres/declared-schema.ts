/**
 * The PostgreSQL record tables as the storage layout declares them today (`model/storage.ts`),
 * derived from it directly: what a database brought through every records migration must
 * hold. The migrations are frozen files (`migrations/records/`) and never read the layout,
 * so a layout change without a migration makes the two differ;
 * test/store/postgres-declared-schema.test.ts compares them. The statements are also a
 * starting point for a new migration's file.
 */
import { MERGES_TABLE_SQL } from '../source-title-merge.ts';
import { ORGANIZATION_LINK_TABLES_SQL } from '../organization-links.ts';
import {
  SOURCE_TABLES,
  LINK_TABLES,
  REVERSE_LINKS,
  internedTables,
  ownerColumnsOf,
  type LinkTableSpec,
} from '../../model/storage.ts';
import { reverseLinkViewSql } from '../reverse-links.ts';
import { pgNarrowTableSql, pgNarrowTables } from './narrow-tables.ts';
import { pgPerYearTablesOf } from './per-year-tables.ts';
import {
  PG_RECORD_INDEXES,
  columnDef,
  linkTableSql,
  namedEntityTablesSql,
  placeTablesSql,
  sourceTablesSql,
  valueCountTablesSql,
  vocabularyTableSql,
  vocabularyTablesSql,
} from './records-schema.ts';

/** A link table in its current form, with the owner's columns it carries after its own (the migration that added them appended them). */
function linkSql(link: LinkTableSpec): string {
  const carried = ownerColumnsOf(link)?.columns ?? [];
  return linkTableSql(link).replace(
    /,\n {2}PRIMARY KEY/,
    carried.map((c) => `,\n  ${columnDef(c)}`).join('') + ',\n  PRIMARY KEY',
  );
}

/** Every table and secondary index of the current layout (tsvector columns and their GIN indexes included). */
export function declaredPgRecordSchemaSql(): string[] {
  return [
    ...sourceTablesSql(),
    ...internedTables().map(vocabularyTableSql),
    ...LINK_TABLES.map(linkSql),
    ...REVERSE_LINKS.map(reverseLinkViewSql),
    ...placeTablesSql(),
    ...namedEntityTablesSql(),
    ...vocabularyTablesSql(),
    // Kept by finish() for the source titles several lists give (store/source-title-merge.ts).
    MERGES_TABLE_SQL.postgres,
    // Kept by the writers and finish() for the organizations records name by name (store/organization-links.ts).
    ...ORGANIZATION_LINK_TABLES_SQL.postgres,
    `CREATE TABLE store_meta (key text PRIMARY KEY, value text)`,
    ...pgNarrowTables().map(({ kind, narrow }) => pgNarrowTableSql(kind, narrow)),
    ...Object.values(SOURCE_TABLES).flatMap((s) =>
      s.perYear === undefined ? [] : pgPerYearTablesOf(s.kind, s.perYear),
    ),
    ...valueCountTablesSql(),
    ...PG_RECORD_INDEXES.map((i) => i.sql),
  ];
}
