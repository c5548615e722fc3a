/**
 * PostgreSQL's hooks for the base compiler (`../dialect.ts`): numbered placeholders, `json`
 * operators over the record document (kept as `json`, so records come back as written),
 * `percentile_cont` for medians, NULLs placed last explicitly (PostgreSQL sorts them high),
 * full text over `tsvector` columns (`fulltext.ts`, escaping in `tsquery.ts`).
 */
import { numberPlaceholders, type Dialect } from '../dialect.ts';
import { ident } from '../sql.ts';
import { postgresFullText } from './fulltext.ts';

/** A JSON key from the schema (an identifier, checked), as a string literal. */
function key(name: string): string {
  ident(name);
  return `'${name}'`;
}

export const postgresDialect: Dialect = {
  name: 'postgres',
  true: 'TRUE',
  false: 'FALSE',
  placeholders: (text) => numberPlaceholders(text, (n) => `$${n}`),
  placeholder: (n) => `$${n}`,
  // Stored plain: PostgreSQL compresses long values itself (TOAST).
  storedText: (expr) => expr,
  columnsApart: false,
  jsonValue(doc, field, sub) {
    if (sub === undefined) return `(${doc} ->> ${key(field)})`;
    const value = `${doc} -> ${key(field)}`;
    return `CASE json_typeof(${value}) WHEN 'object' THEN ${value} ->> ${key(sub)} ELSE ${
      sub === 'id' ? `(${doc} ->> ${key(field)})` : 'NULL'
    } END`;
  },
  jsonElements(doc, field, sub) {
    const value = `${doc} -> ${key(field)}`;
    // As SQLite's json_each: a list gives its elements, one plain value gives itself.
    const list = `CASE WHEN ${value} IS NULL THEN '[]'::json WHEN json_typeof(${value}) = 'array' THEN ${value} ELSE json_build_array(${value}) END`;
    const element =
      sub === undefined
        ? `CASE json_typeof(j.v) WHEN 'object' THEN coalesce(j.v ->> 'id', j.v::text) ELSE j.v #>> '{}' END`
        : `CASE json_typeof(j.v) WHEN 'object' THEN j.v ->> ${key(sub)} ELSE ${sub === 'id' ? `j.v #>> '{}'` : 'NULL'} END`;
    return { from: `json_array_elements(${list}) j(v)`, correlate: 'TRUE', value: element };
  },
  jsonLeaves(doc, field) {
    ident(field);
    return {
      // Silent: a record without the field has no leaves (strict mode would raise an error).
      from: `jsonb_path_query(${doc}::jsonb, 'strict $.${field}.**', '{}', true) j(v)`,
      correlate: `jsonb_typeof(j.v) NOT IN ('object', 'array', 'null')`,
      value: `(j.v #>> '{}')`,
    };
  },
  jsonArrayAgg: (expr) => `json_agg(${expr})::text`,
  isBlank: (expr) => `(${expr} IS NULL OR ${expr}::text = '')`,
  isPresent: (expr) => `(${expr} IS NOT NULL AND ${expr}::text != '')`,
  containsText: (expr) => `${expr}::text ILIKE ? ESCAPE '\\'`,
  sortTerm: (expr, direction) => (direction === 'asc' ? `${expr} ASC NULLS LAST` : `${expr} DESC NULLS LAST`),
  median: (expr) => `percentile_cont(0.5) WITHIN GROUP (ORDER BY ${expr})`,
  fullText: postgresFullText,
};
