/**
 * The hooks a SQL dialect gives the one base compiler (in the manner of Kysely's dialects):
 * everything that differs between SQLite and PostgreSQL below the plan, and nothing else.
 * The base compiler (`compile-search.ts` and the files it calls) writes the statements'
 * shapes (filters, pages, facets, aggregates, citations); a dialect only renders the pieces
 * named here. `sqlite/` and `postgres/` each hold one implementation and its helpers.
 *
 * The compiler writes `?` for every bound value while it assembles fragments; the dialect
 * numbers them at the end (`placeholders`), so fragments compose in any order.
 */
import type { FullTextPlan } from './plan.ts';
import type { SourceLayout } from './layout.ts';
import type { Sql } from './sql.ts';

/** Rows of a JSON list (or tree) of the record document, for a correlated sub-select. */
export interface JsonRows {
  /** The `FROM` item, e.g. `json_each(s."doc", '$.issn') j`. */
  readonly from: string;
  /** The condition tying the rows to the record (may be the dialect's `TRUE`). */
  readonly correlate: string;
  /** One row's value, as text or number. */
  readonly value: string;
}

/**
 * What a full-text search asks of the index: records matching `query`, every record except
 * those, none, or all. `query` is the dialect's query text, bound as one parameter (built
 * by the dialect's one escaping function, never pasted). `column` is where the dialect
 * searches when one table holds several indexes (PostgreSQL's vector columns).
 */
/**
 * What a full-text search keeps. `column` (PostgreSQL) is the vector column, in the row of
 * `table`: a condition on another table of the source (its narrow side table) reaches it by key.
 */
export type FullTextMatch =
  | { readonly kind: 'match'; readonly query: string; readonly column?: string; readonly table?: string }
  | { readonly kind: 'except'; readonly query: string; readonly column?: string; readonly table?: string }
  | { readonly kind: 'none' }
  | { readonly kind: 'all' };

export interface FullTextOptions {
  /**
   * Expands a wildcard pattern (`ital?`, `te*t`) into the indexed words it matches, from the
   * index vocabulary the engine holds; `vocabulary` names it (from the dialect), `glob` is
   * the pattern in GLOB form (`?` one character, `*` any).
   */
  readonly expandPattern: (vocabulary: string, glob: string) => readonly string[];
}

/** Full text: the dialect's index, query language and ranking. */
export interface FullTextDialect {
  /** The search of `plan` as a query for the source's index (through the one escaping function). */
  match(source: SourceLayout, plan: FullTextPlan, options: FullTextOptions): FullTextMatch;
  /** A condition on the record `s` keeping the rows the match allows. */
  restriction(source: SourceLayout, match: FullTextMatch): Sql;
  /**
   * `SELECT <key> AS k, <score> AS score FROM ... WHERE <matches>`, optionally restricted to
   * records satisfying `filter` (a condition on `s`): the ranked matches, best first when
   * ordered by `score, k` ascending.
   */
  ranked(source: SourceLayout, match: FullTextMatch & { kind: 'match' }, filter: Sql | undefined): Sql;
  /** A cheaper count of the matches than counting records, when the index can give one; else undefined. */
  countMatches(source: SourceLayout, match: FullTextMatch & { kind: 'match' }): Sql | undefined;
  /** The matching record keys (one column, `k`) read from the index alone, when it can give them; else undefined. */
  matchingKeys(source: SourceLayout, match: FullTextMatch & { kind: 'match' }): Sql | undefined;
}

export interface Dialect {
  readonly name: 'sqlite' | 'postgres';
  /** Boolean constants as conditions (`1`/`0` in SQLite, `TRUE`/`FALSE` in PostgreSQL). */
  readonly true: string;
  readonly false: string;
  /** Numbers the compiler's `?` marks as the driver wants them (`$1, $2, ...`), outside string literals. */
  placeholders(text: string): string;
  /** The n-th (1-based) placeholder, for lists the engine appends to a statement. */
  placeholder(n: number): string;
  /** A field of the record document, one value: `doc.field`, or `doc.field.sub` of an object (a plain value is its own `id`). */
  jsonValue(doc: string, field: string, sub: string | undefined): string;
  /** The elements of a list in the document; each one's id (objects) or itself, or its `sub`. */
  jsonElements(doc: string, field: string, sub: string | undefined): JsonRows;
  /** Every scalar leaf under a structured field (authors, concepts), at any depth. */
  jsonLeaves(doc: string, field: string): JsonRows;
  /**
   * The text of a column the store may keep packed (the record document, a source's
   * `packed` columns): SQLite's `CAST(unpack_utf8(expr) AS TEXT)` (store/sqlite/packed-text.ts), the column
   * itself on PostgreSQL.
   */
  storedText(expr: string): string;
  /**
   * Whether the store keeps a source's `apart` columns in their own tables (SQLite: a row
   * of about 1.1 KB wastes more of each page than two shorter ones) or in the row
   * (PostgreSQL).
   */
  readonly columnsApart: boolean;
  /**
   * The link rows `(value, record)` of a table whose reverse side the store keeps as posting
   * lists (`LinkLayout.postings`), as a `FROM` item to alias: SQLite's lists read as rows
   * (`store/sqlite/posting-lists.ts`). Absent when the store keeps a reverse index instead
   * (PostgreSQL): the link table itself is read.
   */
  postingRows?(postings: { table: string; column: string }, valueColumn: string, recordColumn: string): string;
  /**
   * The keys of the records `where` selects, found once for a whole search: `prelude` (run
   * first, in order, on the connection that runs the search's other statements) keeps them,
   * and `where` (on the source aliased `s`) reads them. For a filter that unpacks the record
   * document (SQLite: a TEMP table); absent when the dialect reads documents as they are.
   */
  readonly matchKeys?: (source: SourceLayout, where: Sql) => { readonly prelude: readonly Sql[]; readonly where: Sql };
  /** An aggregate gathering `expr` over a group into a JSON array, as text. */
  jsonArrayAgg(expr: string): string;
  /** Has no value: NULL, or an empty string. */
  isBlank(expr: string): string;
  /** Has a value (the negation of `isBlank`, two-valued). */
  isPresent(expr: string): string;
  /** `expr` contains the bound word (`?`, already `%`-wrapped and escaped with `\`), ignoring case. */
  containsText(expr: string): string;
  /** An ORDER BY term that puts NULLs last in either direction. */
  sortTerm(expr: string, direction: 'asc' | 'desc'): string;
  /** The median of the non-null values of `expr` over a group. */
  median(expr: string): string;
  readonly fullText: FullTextDialect;
}

/** Renders a fragment's text in the dialect (numbered placeholders), keeping its parameters. */
export function render(dialect: Dialect, sql: Sql): Sql {
  return { text: dialect.placeholders(sql.text), params: sql.params };
}

/**
 * Replaces each `?` outside single-quoted string literals by `mark(n)` (n from `start + 1`).
 *
 * @example numberPlaceholders("a = ? AND b = '?' AND c IN (?)", (n) => `$${n}`) // "a = $1 AND b = '?' AND c IN ($2)"
 */
export function numberPlaceholders(text: string, mark: (n: number) => string, start = 0): string {
  let out = '';
  let n = start;
  let quoted = false;
  for (const ch of text) {
    if (ch === "'") quoted = !quoted;
    if (ch === '?' && !quoted) out += mark(++n);
    else out += ch;
  }
  return out;
}
