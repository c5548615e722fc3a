/**
 * Posting lists by value, the reverse side of a link table (`LinkTableSpec.postings`): one row
 * per value holding the keys of the records that link to it. Their table, and the SQL that
 * reads a value's owners from them (or from the link table, where it keeps a reverse index).
 */
import { ownerKey, type LinkTableSpec, type PostingListsSpec } from '../../../model/storage.ts';
import { POSTINGS_COUNT_FUNCTION, POSTINGS_JSON_FUNCTION } from './sql-functions.ts';

/**
 * The `CREATE TABLE` of a link table's lists: keyed by the rowid for an integer value, a
 * `WITHOUT ROWID` table for a text one (the key is stored once, in the B-tree).
 */
export function postingsTableSql(link: LinkTableSpec & { readonly postings: PostingListsSpec }): string {
  const { table, column } = link.postings;
  const value = valueColumn(link);
  if (link.key[link.key.length - 1]?.type === 'integer')
    return `CREATE TABLE IF NOT EXISTS ${table} (${value} INTEGER PRIMARY KEY, ${column} BLOB NOT NULL)`;
  return `CREATE TABLE IF NOT EXISTS ${table} (${value} TEXT PRIMARY KEY, ${column} BLOB NOT NULL) WITHOUT ROWID`;
}

/** The column of a link table that holds the value its owner links to: the last of its key. */
export function valueColumn(link: LinkTableSpec): string {
  const column = link.key[link.key.length - 1]?.name;
  if (column === undefined) throw new Error(`link table ${link.table} has no key column`);
  return column;
}

/**
 * SQL for the number of a link table's owners linking to `value` (an SQL expression, such
 * as a column of the outer statement): one list's count where the table has lists, else a
 * count of the rows by its reverse index.
 *
 * @example ownerCountSql(publicationResearchers, 'researchers.id')
 *   // coalesce((SELECT postings_count(x.publication_pks) FROM publication_researchers_postings x WHERE x.researcher_id = researchers.id), 0)
 */
export function ownerCountSql(link: LinkTableSpec, value: string): string {
  if (link.postings === undefined)
    return `(SELECT COUNT(*) FROM ${link.table} x WHERE x.${valueColumn(link)} = ${value})`;
  return `coalesce((SELECT ${POSTINGS_COUNT_FUNCTION}(x.${link.postings.column}) FROM ${link.postings.table} x WHERE x.${valueColumn(link)} = ${value}), 0)`;
}

/**
 * The owners of a link table linking to `value`, as parts of a statement: `from` (items
 * aliased `x` and `j`), `owner` (the owner key's expression) and `where`.
 *
 * @example `SELECT MIN(p.year) FROM ${o.from} JOIN publications p ON p.pk = ${o.owner} WHERE ${o.where}`
 */
export function ownersOf(link: LinkTableSpec, value: string): { from: string; owner: string; where: string } {
  const where = `x.${valueColumn(link)} = ${value}`;
  if (link.postings === undefined) return { from: `${link.table} x`, owner: `x.${ownerKey(link.owner)}`, where };
  return {
    from: `${link.postings.table} x, json_each(${POSTINGS_JSON_FUNCTION}(x.${link.postings.column})) j`,
    owner: 'j.value',
    where,
  };
}
