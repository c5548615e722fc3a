/**
 * The narrow side tables of the sources (`model/storage.ts`, `NarrowTableSpec`): their DDL,
 * and how the store fills them from the source rows and link tables, for one record (after
 * an upsert) or for all (by `finish()`, after derived values such as `times_cited` changed).
 */
import type { Database } from 'better-sqlite3';
import {
  LINK_TABLES,
  SOURCE_TABLES,
  type LinkTableSpec,
  type NarrowTableSpec,
  type RecordKind,
} from '../../model/storage.ts';
import { recordRowCountSql } from './posting-lists.ts';
import { staleNote } from './stale-note.ts';

/** The sources that have a narrow table, with it. */
export function narrowTables(): ReadonlyArray<{ kind: RecordKind; narrow: NarrowTableSpec }> {
  return Object.values(SOURCE_TABLES).flatMap((s) =>
    s.narrow === undefined ? [] : [{ kind: s.kind, narrow: s.narrow }],
  );
}

function columnType(kind: RecordKind, column: string): string {
  if (column === 'id') return 'TEXT';
  const type = SOURCE_TABLES[kind].columns.find((c) => c.name === column)?.type;
  if (type === undefined)
    throw new Error(`narrow table of ${kind}: no column ${column} in ${SOURCE_TABLES[kind].table}`);
  return type === 'any' ? '' : type.toUpperCase();
}

/** `CREATE TABLE publications_narrow (pk INTEGER PRIMARY KEY, id TEXT, year INTEGER, ..., n_researchers INTEGER NOT NULL DEFAULT 0, ...)`. */
export function narrowTableSql(kind: RecordKind, narrow: NarrowTableSpec): string {
  const cols = [
    'pk INTEGER PRIMARY KEY',
    ...narrow.columns.map((c) => `${c} ${columnType(kind, c)}`.trim()),
    ...Object.values(narrow.counts).map((c) => `${c} INTEGER NOT NULL DEFAULT 0`),
  ];
  return `CREATE TABLE IF NOT EXISTS ${narrow.table} (\n  ${cols.join(',\n  ')}\n)`;
}

/** The link table holding a counted field (a table that holds that one field). */
function countedLink(kind: RecordKind, field: string): LinkTableSpec {
  const link = LINK_TABLES.find((l) => l.owner === kind && 'field' in l.holds && l.holds.field === field);
  if (link === undefined) throw new Error(`narrow table of ${kind}: no link table holds ${field}`);
  return link;
}

/**
 * `INSERT OR REPLACE INTO <narrow> SELECT s.pk, s.<columns>, (SELECT count(*) FROM <link> l WHERE l.<owner>_pk = s.pk), ... FROM <source> s`
 * then `where` (e.g. `WHERE s.pk = ?`). Each count is a range of the link table's primary key,
 * or the count of the record's list for a table kept as lists by record.
 */
function fillSql(db: Database, kind: RecordKind, narrow: NarrowTableSpec, where: string): string {
  const counts = Object.entries(narrow.counts).map(([field]) =>
    recordRowCountSql(db, countedLink(kind, field), 's.pk'),
  );
  const columns = ['pk', ...narrow.columns, ...Object.values(narrow.counts)];
  const values = ['s.pk', ...narrow.columns.map((c) => `s.${c}`), ...counts];
  return `INSERT OR REPLACE INTO ${narrow.table} (${columns.join(', ')}) SELECT ${values.join(', ')} FROM ${SOURCE_TABLES[kind].table} s ${where}`;
}

/** Writes one record's narrow row from its source row and link rows; undefined for a source without one. */
export function narrowRowWriter(db: Database, kind: RecordKind): ((pk: number) => void) | undefined {
  const narrow = SOURCE_TABLES[kind].narrow;
  if (narrow === undefined) return undefined;
  const statement = db.prepare<[number]>(fillSql(db, kind, narrow, 'WHERE s.pk = ?'));
  return (pk) => {
    statement.run(pk);
  };
}

/**
 * Rewrites every narrow table (of the sources of `kinds`, where given: a migration pinned to
 * the sources it knew) from its source (inside the caller's transaction). Its indexes are
 * dropped first and built again after, one sort each instead of maintaining them row by row.
 */
export function refreshNarrowTables(
  db: Database,
  indexes: ReadonlyArray<{ name: string; table: string; sql: string }>,
  { kinds }: { readonly kinds?: ReadonlySet<RecordKind> } = {},
): void {
  for (const { narrow, kind } of narrowTables().filter((n) => kinds === undefined || kinds.has(n.kind))) {
    const own = indexes.filter((i) => i.table === narrow.table);
    for (const index of own) db.exec(`DROP INDEX IF EXISTS ${index.name}`);
    db.exec(`DELETE FROM ${narrow.table}`);
    db.exec(fillSql(db, kind, narrow, 'ORDER BY s.pk'));
    for (const index of own) db.exec(index.sql);
  }
}

/** Set while a bulk load leaves the narrow rows to `finish()`, which rewrites them all in one pass. */
const STALE = staleNote('narrow_rows_stale');

/** Notes that the narrow rows are behind the source rows (a bulk load does not write them record by record). */
export const markNarrowRowsStale = (db: Database): void => STALE.mark(db);

/** Clears the note once every narrow row has been rewritten. */
export const markNarrowRowsFresh = (db: Database): void => STALE.clear(db);

export const narrowRowsStale = (db: Database): boolean => STALE.isSet(db);
