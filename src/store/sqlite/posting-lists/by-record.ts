/**
 * Lists by record (`LinkTableSpec.listed`): a link table kept as one list per record of the
 * values it links to, read through a view under the link table's name. Their table and view,
 * the migration that made them, the lists of one record, and what a database holds.
 */
import type { Database } from 'better-sqlite3';
import {
  listedLinks,
  ownerKey,
  postingLinks,
  type LinkTableSpec,
  type PostingListsSpec,
  type RecordKind,
} from '../../../model/storage.ts';
import { valueColumn } from './by-value.ts';
import { encodePostings } from './encoding.ts';
import {
  POSTINGS_COUNT_FUNCTION,
  POSTINGS_JSON_FUNCTION,
  POSTINGS_OF_AGGREGATE,
  registerPostingFunctions,
} from './sql-functions.ts';

/**
 * The `CREATE TABLE` of a link table's lists by record (`LinkTableSpec.listed`) and the view
 * that reads them as the link table's rows, under its name: statements written for the table
 * read the view the same way (SQLite flattens it, so a record's rows are one lookup of its
 * list).
 */
export function listedTableSql(link: LinkTableSpec & { readonly listed: PostingListsSpec }): {
  table: string;
  view: string;
} {
  const owner = ownerKey(link.owner);
  const { table, column } = link.listed;
  return {
    table: `CREATE TABLE IF NOT EXISTS ${table} (${owner} INTEGER PRIMARY KEY, ${column} BLOB NOT NULL)`,
    view:
      `CREATE VIEW IF NOT EXISTS ${link.table} AS SELECT l.${owner} AS ${owner}, j.value AS ${valueColumn(link)} ` +
      `FROM ${table} l, json_each(${POSTINGS_JSON_FUNCTION}(l.${column})) j`,
  };
}

/**
 * Records migration 17: a link table kept as lists by record (`LinkTableSpec.listed`; of an
 * owner in `kinds`, where given) gets its lists from its rows (read in primary-key order, one
 * group a record) and becomes the view. A database that has the view already is left alone.
 */
export function keepListsByRecord(db: Database, { kinds }: { readonly kinds?: ReadonlySet<RecordKind> } = {}): void {
  registerPostingFunctions(db);
  for (const link of listedLinks().filter((l) => kinds === undefined || kinds.has(l.owner))) {
    if (schemaTypeOf(db, link.table) !== 'table') continue;
    const owner = ownerKey(link.owner);
    const { table, column } = link.listed;
    const sql = listedTableSql(link);
    db.exec(sql.table);
    db.exec(
      `INSERT INTO ${table} (${owner}, ${column}) SELECT ${owner}, ${POSTINGS_OF_AGGREGATE}(${valueColumn(link)}) ` +
        `FROM ${link.table} GROUP BY ${owner}`,
    );
    db.exec(`DROP TABLE ${link.table}`);
    db.exec(sql.view);
    db.exec(`ANALYZE ${table}`);
  }
}

/**
 * A record's values as its list by record (`LinkTableSpec.listed`): its vocabulary ids (NULL,
 * for a row without text, left out); undefined when it has none.
 */
export function listOfIds(ids: readonly (number | null)[]): Buffer | undefined {
  const values = ids.filter((v): v is number => v !== null);
  return values.length === 0 ? undefined : encodePostings(values);
}

/**
 * SQL for the number of rows a record has in a link table (`owner`: the record's key, an SQL
 * expression, such as `s.pk`): its list's count where the table is kept as lists by record,
 * where the view would expand the list as JSON to count it (the references of 1M
 * publications: 2.8 s instead of 6.7 s, the concepts 2.2 instead of 3.8, each with the scan of
 * the publications), else a range of the table's primary key.
 */
export function recordRowCountSql(db: Database, link: LinkTableSpec, owner: string): string {
  const key = ownerKey(link.owner);
  const listed = heldListsByRecord(db, link);
  if (listed === undefined) return `(SELECT count(*) FROM ${link.table} l WHERE l.${key} = ${owner})`;
  return `coalesce((SELECT ${POSTINGS_COUNT_FUNCTION}(l.${listed.column}) FROM ${listed.table} l WHERE l.${key} = ${owner}), 0)`;
}

/** What `name` is in the database's schema (`table`, `view`, `index`...), undefined when absent. */
function schemaTypeOf(db: Database, name: string): string | undefined {
  return db.prepare<[string], string>('SELECT type FROM sqlite_schema WHERE name = ?').pluck().get(name);
}

/**
 * A link table's lists by record, when the database keeps the table as them: declared
 * `listed` and made a view by migrations 17 and 18 (migrations before them, such as 16, which
 * first built the posting lists, see the table itself). Undefined otherwise.
 */
export function heldListsByRecord(db: Database, link: LinkTableSpec): PostingListsSpec | undefined {
  return link.listed !== undefined && schemaTypeOf(db, link.table) === 'view' ? link.listed : undefined;
}

/** The posting links whose link table this database keeps as lists by record (`heldListsByRecord`). */
export function postingLinksListedByRecord(
  db: Database,
): (LinkTableSpec & { readonly postings: PostingListsSpec; readonly listed: PostingListsSpec })[] {
  return postingLinks().flatMap((link) => {
    const listed = heldListsByRecord(db, link);
    return listed === undefined ? [] : [{ ...link, listed }];
  });
}
