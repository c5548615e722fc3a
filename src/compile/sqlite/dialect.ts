/**
 * SQLite's hooks for the base compiler (`../dialect.ts`): JSON1 functions over the record
 * document (read through `unpack_utf8`, registered on every connection, since the store
 * keeps documents packed: store/sqlite/packed-text.ts), the built-in `median` aggregate, FTS5 for full text (`fulltext.ts`, escaping in
 * `fts5.ts`). Placeholders stay `?`.
 */
import type { Dialect } from '../dialect.ts';
import { concat, frag, ident } from '../sql.ts';
import { sqliteFullText } from './fulltext.ts';

/** A JSON path for json_extract/json_each, built from schema names only: `'$.journal.id'`. */
export function jsonPath(...names: readonly string[]): string {
  for (const n of names) ident(n);
  return `'$.${names.join('.')}'`;
}

/** The TEMP table holding the keys of a search's matches (`matchKeys`). */
const MATCH_KEYS = 'search_matches';

export const sqliteDialect: Dialect = {
  name: 'sqlite',
  true: '1',
  false: '0',
  placeholders: (text) => text,
  placeholder: () => '?',
  // The inflated UTF-8 bytes, read as text (store/sqlite/text-dictionaries.ts: unpack_utf8).
  storedText: (expr) => `CAST(unpack_utf8(${expr}) AS TEXT)`,
  columnsApart: true,
  // One list a value, its keys as rows (store/sqlite/posting-lists.ts: postings_json). SQLite
  // flattens the subquery, so a test of the value is a lookup of the list's row.
  postingRows: (postings, valueColumn, recordColumn) =>
    `(SELECT p.${ident(valueColumn)} AS ${ident(valueColumn)}, j.value AS ${ident(recordColumn)}` +
    ` FROM ${ident(postings.table)} p, json_each(postings_json(p.${ident(postings.column)})) j)`,
  jsonValue(doc, field, sub) {
    if (sub === undefined) return `json_extract(${doc}, ${jsonPath(field)})`;
    return `CASE json_type(${doc}, ${jsonPath(field)}) WHEN 'object' THEN json_extract(${doc}, ${jsonPath(field, sub)}) ELSE ${
      sub === 'id' ? `json_extract(${doc}, ${jsonPath(field)})` : 'NULL'
    } END`;
  },
  jsonElements(doc, field, sub) {
    const value =
      sub === undefined
        ? `CASE j.type WHEN 'object' THEN coalesce(json_extract(j.value, '$.id'), j.value) ELSE j.value END`
        : `CASE j.type WHEN 'object' THEN json_extract(j.value, ${jsonPath(sub)}) ELSE ${sub === 'id' ? 'j.value' : 'NULL'} END`;
    return { from: `json_each(${doc}, ${jsonPath(field)}) j`, correlate: '1', value };
  },
  jsonLeaves(doc, field) {
    return { from: `json_tree(${doc}, ${jsonPath(field)}) j`, correlate: 'j.atom IS NOT NULL', value: 'j.atom' };
  },
  matchKeys(source, where) {
    // A TEMP table works on read-only connections too; each connection has its own, and runs
    // one search at a time.
    const key = `s.${ident(source.key)}`;
    return {
      prelude: [
        frag(`CREATE TEMP TABLE IF NOT EXISTS ${MATCH_KEYS} (k INTEGER PRIMARY KEY)`),
        frag(`DELETE FROM temp.${MATCH_KEYS}`),
        concat(`INSERT INTO temp.${MATCH_KEYS} SELECT ${key} FROM ${ident(source.table)} s WHERE `, where),
      ],
      where: frag(`${key} IN (SELECT k FROM temp.${MATCH_KEYS})`),
    };
  },
  jsonArrayAgg: (expr) => `json_group_array(${expr})`,
  isBlank: (expr) => `(${expr} IS NULL OR ${expr} = '')`,
  isPresent: (expr) => `(${expr} IS NOT NULL AND ${expr} != '')`,
  // LIKE ignores ASCII case in SQLite.
  containsText: (expr) => `${expr} LIKE ? ESCAPE '\\'`,
  // SQLite sorts NULL lowest: last when descending already, pushed last when ascending.
  sortTerm: (expr, direction) => (direction === 'asc' ? `${expr} ASC NULLS LAST` : `${expr} DESC`),
  // SQLite's own percentile extension (built into better-sqlite3's SQLite, ENABLE_PERCENTILE):
  // the median of the non-null values, the mean of the middle two for an even count. In C it
  // is 3-10x faster than an aggregate written in JavaScript, which copied every value across.
  median: (expr) => `median(${expr})`,
  fullText: sqliteFullText,
};
