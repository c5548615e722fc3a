/**
 * The narrow side tables in PostgreSQL (`model/storage.ts`, `NarrowTableSpec`), as SQLite
 * keeps them (`../sqlite/narrow-tables.ts`): the same `pk`, a copy of the columns facets,
 * aggregates and counts read, and per-record link counts. The writer rewrites a batch's rows
 * after its links are in; `finish()` rewrites them all after the derived values changed.
 */
import { LINK_TABLES, SOURCE_TABLES, ownerKey, type NarrowTableSpec, type RecordKind } from '../../model/storage.ts';

/** The sources that have a narrow table, with it. */
export function pgNarrowTables(): ReadonlyArray<{ kind: RecordKind; narrow: NarrowTableSpec }> {
  return Object.values(SOURCE_TABLES).flatMap((s) =>
    s.narrow === undefined ? [] : [{ kind: s.kind, narrow: s.narrow }],
  );
}

/** A copied column's type, as the source table declares it (records-schema.ts). */
function columnType(kind: RecordKind, column: string): string {
  if (column === 'id') return 'text COLLATE "C"';
  const type = SOURCE_TABLES[kind].columns.find((c) => c.name === column)?.type;
  switch (type) {
    case undefined:
      throw new Error(`narrow table of ${kind}: no column ${column} in ${SOURCE_TABLES[kind].table}`);
    case 'text':
    case 'any':
      return 'text COLLATE "C"';
    case 'integer':
      return 'bigint';
    case 'real':
      return 'double precision';
  }
}

/** `CREATE TABLE publications_narrow (pk bigint PRIMARY KEY, id text, year bigint, ..., n_researchers bigint NOT NULL DEFAULT 0, ...)`. */
export function pgNarrowTableSql(kind: RecordKind, narrow: NarrowTableSpec): string {
  const cols = [
    'pk bigint PRIMARY KEY',
    ...narrow.columns.map((c) => `${c} ${columnType(kind, c)}`),
    ...Object.values(narrow.counts).map((c) => `${c} bigint NOT NULL DEFAULT 0`),
  ];
  return `CREATE TABLE IF NOT EXISTS ${narrow.table} (\n  ${cols.join(',\n  ')}\n)`;
}

/** The narrow tables' secondary indexes, each ending with `pk` (index-only scans for the joins on it). */
export const PG_NARROW_INDEXES: ReadonlyArray<{ readonly name: string; readonly sql: string }> =
  pgNarrowTables().flatMap(({ narrow }) =>
    narrow.indexes.map((cols) => {
      const name = `${narrow.table}_${cols.join('_')}`;
      return { name, sql: `CREATE INDEX IF NOT EXISTS ${name} ON ${narrow.table} (${[...cols, 'pk'].join(', ')})` };
    }),
  );

/** The link table holding a counted field. */
function countedLink(kind: RecordKind, field: string): string {
  const link = LINK_TABLES.find((l) => l.owner === kind && 'field' in l.holds && l.holds.field === field);
  if (link === undefined) throw new Error(`narrow table of ${kind}: no link table holds ${field}`);
  return link.table;
}

/**
 * `INSERT INTO <narrow> SELECT s.pk, s.<columns>, (SELECT count(*) FROM <link> l WHERE l.<owner>_pk = s.pk), ...
 * FROM <source> s <where> ON CONFLICT (pk) DO UPDATE ...`: the rows of the records `where` picks.
 */
export function pgNarrowFillSql(kind: RecordKind, narrow: NarrowTableSpec, where: string): string {
  const owner = ownerKey(kind);
  const counts = Object.keys(narrow.counts).map(
    (field) => `(SELECT count(*) FROM ${countedLink(kind, field)} l WHERE l.${owner} = s.pk)`,
  );
  const columns = ['pk', ...narrow.columns, ...Object.values(narrow.counts)];
  const values = ['s.pk', ...narrow.columns.map((c) => `s.${c}`), ...counts];
  return (
    `INSERT INTO ${narrow.table} (${columns.join(', ')}) SELECT ${values.join(', ')} FROM ${SOURCE_TABLES[kind].table} s ${where} ` +
    `ON CONFLICT (pk) DO UPDATE SET ${columns
      .filter((c) => c !== 'pk')
      .map((c) => `${c} = EXCLUDED.${c}`)
      .join(', ')}`
  );
}
