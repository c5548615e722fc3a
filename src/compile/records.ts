/**
 * A page of the searched source's records: ordering, paging, and which columns to read.
 * Fields with a column are selected as columns; entity fields kept in link tables are
 * filled by one follow-up statement per field for the whole page (`hydrate`); everything
 * else comes from the record's JSON document.
 */
import type { OrderPlan, RecordsOutput } from './plan.ts';
import { accessField, SOURCE_ALIAS, sourceColumn, throughListJoin, throughValue } from './access.ts';
import type { Dialect, FullTextMatch } from './dialect.ts';
import { displayColumns } from './display.ts';
import { JSON_COLUMN_PREFIX, type LinkLayout, type StorageLayout, type SourceLayout } from './layout.ts';
import { concat, frag, ident, literal, type Sql } from './sql.ts';

/** Reads one entity field for a page of records: append `(?, ?, ...)` of record keys. */
export interface HydrateStep {
  readonly field: string;
  /** Ends in `IN `; the engine appends the placeholder list and binds the page's keys. */
  readonly sqlPrefix: string;
  /**
   * After the key list: the values of each record in one order on every engine (by value,
   * which is also the order SQLite's link-table primary key stores them in).
   */
  readonly sqlSuffix: string;
  /** Prefix params (the link discriminator is a literal, so none today). */
  readonly params: readonly (string | number)[];
  /** True when the field is a list; false for one entity (`journal`). */
  readonly multi: boolean;
  /** Entity kind whose display fields the rows carry (`organizations`). */
  readonly entity?: string;
  /** The values are numbers the rows may hold as text (`LinkLayout.numeric`). */
  readonly numeric?: true;
}

export interface CompiledRecords {
  readonly kind: 'records';
  readonly output: RecordsOutput;
  /** Columns `__key`, `__doc` and one per column-backed field (named as the field). */
  readonly page: Sql;
  /**
   * The same page with one more column, `__total`: the number of records matching the
   * search, counted while the page is chosen. When the page has to look at every match
   * anyway (a sort no index gives, or relevance), this answers `total_count` without a
   * second pass over the filter. An empty page carries no count: run the count then.
   */
  readonly pageWithTotal: Sql;
  /**
   * When to use `pageWithTotal`: `always` for relevance under a filter (the page ranks every
   * match, and a separate count would pass over the filter again); `never` for relevance
   * alone (the full-text index counts its matches cheaply by itself); `if-sorting-every-row`
   * otherwise: only when SQLite's plan for `page` sorts every match anyway, since a page read
   * in index order stops after LIMIT rows, and counting beside it would read them all.
   */
  readonly totalFromPage: 'always' | 'never' | 'if-sorting-every-row';
  readonly hydrate: readonly HydrateStep[];
}

const s = SOURCE_ALIAS;

/**
 * @example
 * SELECT s."pk" AS __key, s."doc" AS __doc, s."id" AS "id", s."title" AS "title"
 *   FROM "publications" s WHERE (s."year" = ?) ORDER BY s."date" DESC, s."pk" DESC LIMIT ? OFFSET ?
 */
export function compileRecords(
  dialect: Dialect,
  layout: StorageLayout,
  source: SourceLayout,
  output: RecordsOutput,
  where: Sql | undefined,
  match: FullTextMatch | undefined,
  keys?: PageKeys,
): CompiledRecords {
  const { selects, hydrate } = recordReads(dialect, layout, source, output.fields);
  const score = output.fields.some((f) => f.field === SCORE) ? scoreStep(dialect, source, match) : undefined;
  if (score !== undefined) hydrate.push(score);
  if (output.order.by === 'relevance' && match?.kind === 'match' && source.fts !== undefined) {
    // The index ranks its matches (under the filter, if any); the records are read for the page only.
    const ranked = dialect.fullText.ranked(source, match, where);
    const join = ` FROM top JOIN ${ident(source.table)} ${s} ON ${s}.${ident(source.key)} = top.k ORDER BY top.score, ${s}."id" ASC`;
    const page = concat(
      'WITH top AS (',
      ranked,
      ` ORDER BY score, k LIMIT ? OFFSET ?) SELECT ${selects.join(', ')}`,
      join,
    );
    // The ranked matches are materialized first and counted as the page is cut from them
    // (SQLite's bm25() may not sit beside a window function).
    const withTotal = concat(
      'WITH ranked AS MATERIALIZED (',
      ranked,
      `), top AS (SELECT k, score, count(*) OVER () AS __total FROM ranked ORDER BY score, k LIMIT ? OFFSET ?) SELECT ${selects.join(', ')}, top.__total AS __total`,
      join,
    );
    const paging = [output.limit, output.skip];
    return {
      kind: 'records',
      output,
      page: { text: dialect.placeholders(page.text), params: [...page.params, ...paging] },
      pageWithTotal: { text: dialect.placeholders(withTotal.text), params: [...withTotal.params, ...paging] },
      totalFromPage: where === undefined ? 'never' : 'always',
      hydrate,
    };
  }
  if (keys !== undefined) {
    // Every field a column of the keys' table (or read by its own step): the page is read there alone.
    const lean = recordReads(dialect, layout, keys.source, output.fields);
    const compiled =
      !lean.readsDocument && lean.hydrate.length === hydrate.length - (score === undefined ? 0 : 1)
        ? compileRecords(dialect, layout, keys.source, output, keys.where, match)
        : keyedPage(dialect, source, output, selects, hydrate, keys);
    // Keys cut to the page's reach are not all the matches: the search's count counts them.
    return keys.cut === true ? { ...compiled, totalFromPage: 'never' } : compiled;
  }
  const from = frag(`${ident(source.table)} ${s}`);
  const fullWhere = where ?? frag(dialect.true);
  const order = orderBy(dialect, source, output.order);
  const page = concat(
    `SELECT ${selects.join(', ')} FROM `,
    from,
    ' WHERE ',
    fullWhere,
    ` ORDER BY ${order} LIMIT ? OFFSET ?`,
  );
  // The page's keys with the count of all matches, then the wide rows for those keys only.
  const key = `${s}.${ident(source.key)}`;
  const withTotal = concat(
    `WITH top AS (SELECT ${key} AS k, count(*) OVER () AS __total FROM `,
    from,
    ' WHERE ',
    fullWhere,
    ` ORDER BY ${order} LIMIT ? OFFSET ?) SELECT ${selects.join(', ')}, top.__total AS __total FROM top JOIN ${ident(source.table)} ${s} ON ${key} = top.k ORDER BY ${order}`,
  );
  return {
    kind: 'records',
    output,
    page: { text: dialect.placeholders(page.text), params: [...page.params, output.limit, output.skip] },
    pageWithTotal: {
      text: dialect.placeholders(withTotal.text),
      params: [...withTotal.params, output.limit, output.skip],
    },
    totalFromPage: 'if-sorting-every-row',
    hydrate,
  };
}

/**
 * Where a page's keys are chosen when not from the source table itself: another table with
 * the same keys (the narrow side table) that holds the filter's columns and the sort keys.
 */
export interface PageKeys {
  readonly source: SourceLayout;
  readonly where: Sql;
  /**
   * `where` keeps only the matches that can be on this page (`page-cut.ts`), not all of
   * them: the page is right, but a count beside it would not be.
   */
  readonly cut?: boolean;
}

/**
 * A page whose keys (and the count beside them) are chosen in `keys.source`, ordered and cut
 * there; the wide rows are read for the page's keys only.
 *
 * @example
 * WITH top AS (SELECT s."pk" AS k FROM "publications_narrow" s WHERE ... ORDER BY s."date" DESC, s."id" ASC LIMIT ? OFFSET ?)
 * SELECT s."pk" AS __key, s."doc" AS __doc, ... FROM top JOIN "publications" s ON s."pk" = top.k ORDER BY s."date" DESC, s."id" ASC
 */
function keyedPage(
  dialect: Dialect,
  source: SourceLayout,
  output: RecordsOutput,
  selects: readonly string[],
  hydrate: HydrateStep[],
  keys: PageKeys,
): CompiledRecords {
  const key = `${s}.${ident(keys.source.key)}`;
  const chosen = (extra: string): Sql =>
    concat(
      `SELECT ${key} AS k${extra} FROM ${ident(keys.source.table)} ${s} WHERE `,
      keys.where,
      ` ORDER BY ${orderBy(dialect, keys.source, output.order)} LIMIT ? OFFSET ?`,
    );
  const rows = (extra: string): string =>
    ` SELECT ${selects.join(', ')}${extra} FROM top JOIN ${ident(source.table)} ${s} ON ${s}.${ident(source.key)} = top.k ORDER BY ${orderBy(dialect, source, output.order)}`;
  const page = concat('WITH top AS (', chosen(''), ')', rows(''));
  const withTotal = concat(
    'WITH top AS (',
    chosen(', count(*) OVER () AS __total'),
    ')',
    rows(', top.__total AS __total'),
  );
  const paging = [output.limit, output.skip];
  return {
    kind: 'records',
    output,
    page: { text: dialect.placeholders(page.text), params: [...page.params, ...paging] },
    pageWithTotal: { text: dialect.placeholders(withTotal.text), params: [...withTotal.params, ...paging] },
    totalFromPage: 'if-sorting-every-row',
    hydrate,
  };
}

/**
 * How to read these fields of a source's records: the page's select list (`__key`, `__doc`
 * and the column-backed fields) and one hydrate step per entity field kept elsewhere.
 */
export function recordReads(
  dialect: Dialect,
  layout: StorageLayout,
  source: SourceLayout,
  fields: readonly { readonly field: string }[],
): { readonly selects: string[]; readonly hydrate: HydrateStep[]; readonly readsDocument: boolean } {
  const selects: string[] = [];
  const hydrate: HydrateStep[] = [];
  const read = new Set<string>();
  let readsDocument = false;
  for (const { field } of fields) {
    if (read.has(field)) continue;
    read.add(field);
    const column = source.columns[field];
    if (column !== undefined) {
      // Packed columns as stored: the engine unpacks them in the rows (`PackedText`).
      // A column of JSON text is named so that the engine parses it (`pageRecordsOfArrays`).
      const name = source.jsonColumns?.includes(column) === true ? JSON_COLUMN_PREFIX + field : field;
      selects.push(`${sourceColumn(dialect, source, s, column)} AS ${ident(name)}`);
      continue;
    }
    const step = hydrateStep(dialect, layout, source, field);
    if (step !== undefined) hydrate.push(step);
    // `score` is read from the full-text index by its own step (`scoreStep`).
    else if (field !== SCORE) readsDocument = true;
  }
  // The document only when some field lives there: unpacking and parsing it is most of the
  // cost of a page of ids, and a narrow table has none. It is read as stored and unpacked by
  // the engine as the row becomes a record (`pageRecords`): through an SQL function SQLite
  // would copy the inflated text into the row and back out again (~5 µs of a 3.5 KB document).
  const document = readsDocument ? `${s}.${ident(source.document)}` : 'NULL';
  return {
    selects: [`${s}.${ident(source.key)} AS __key`, `${document} AS __doc`, ...selects],
    hydrate,
    readsDocument,
  };
}

/**
 * The column of a single-entity hydrate step that is NULL when the entity the record names is
 * not held (`current_research_org` of a researcher whose organization was never imported).
 */
export const HELD = '__held';

/** The `score` field: the record's relevance to the full-text search (not stored). */
const SCORE = 'score';

/**
 * `score` for a page: the full-text index ranks the page's records against the search
 * (bm25 on SQLite, ts_rank on PostgreSQL), negated so that higher is more relevant, as the
 * hosted service's score. Without a positive full-text match a record has no score.
 *
 * @example SELECT r.k AS __key, -r.score AS id FROM (SELECT f.rowid AS k, bm25(f) AS score FROM f WHERE f MATCH ?) r WHERE r.k IN (...)
 */
function scoreStep(dialect: Dialect, source: SourceLayout, match: FullTextMatch | undefined): HydrateStep | undefined {
  if (match?.kind !== 'match' || source.fts === undefined) return undefined;
  const ranked = dialect.fullText.ranked(source, match, undefined);
  // The value column of a hydrate step is `id`, whatever it holds.
  const prefix = concat('SELECT r.k AS __key, -r.score AS id FROM (', ranked, ') r WHERE r.k IN ');
  return {
    field: SCORE,
    multi: false,
    params: prefix.params as (string | number)[],
    sqlPrefix: dialect.placeholders(prefix.text),
    sqlSuffix: '',
  };
}

/** Ties are broken by the public id, ascending, so pages are stable. */
function orderBy(dialect: Dialect, source: SourceLayout, order: OrderPlan): string {
  const tie = `${s}."id" ASC`;
  switch (order.by) {
    // Relevance without a positive match (only negations, or no full text): the default order.
    case 'relevance':
    case 'default':
      return [...source.defaultOrder.map((o) => dialect.sortTerm(`${s}.${ident(o.column)}`, o.direction)), tie].join(
        ', ',
      );
    case 'field': {
      const access = accessField(dialect, source, { name: order.field, type: 'string', multi: false });
      if (access.kind !== 'scalar') throw new Error(`cannot sort by multi-value field ${order.field}`);
      return `${dialect.sortTerm(access.expr, order.direction)}, ${tie}`;
    }
  }
}

/**
 * A field read through the link's entities or vocabulary: each record's distinct values, in
 * order, as the link or `<owner>_values` rows that held them were; with the display fields of
 * the entity they name, if any (`research_org_countries` shows each country's name). Through
 * a vocabulary (`concepts`) the rows are distinct already.
 */
function throughStep(
  dialect: Dialect,
  layout: StorageLayout,
  field: string,
  link: LinkLayout,
  through: NonNullable<LinkLayout['through']>,
): HydrateStep {
  const l = 'l';
  const entityKind = link.entityKind;
  const display = entityKind === undefined ? undefined : layout.entities[entityKind];
  const read = throughValue(through, 't');
  const cols = display === undefined ? [] : displayColumns(dialect, display);
  const named =
    display === undefined ? '' : ` LEFT JOIN ${ident(display.table)} e ON e.${ident(display.idColumn)} = ${read}`;
  return {
    field,
    multi: true,
    params: [],
    ...(entityKind === undefined || display === undefined ? {} : { entity: entityKind }),
    sqlPrefix:
      `SELECT ${through.vocabulary === true ? '' : 'DISTINCT '}${l}.${ident(link.recordColumn)} AS __key, ${read} AS id${cols.length > 0 ? ', ' : ''}${cols.join(', ')}` +
      ` FROM ${ident(link.table)} ${l} JOIN ${ident(through.table)} t ON t.${ident(through.idColumn)} = ${l}.${ident(link.valueColumn)}${throughListJoin(through, 't')}${named}` +
      ` WHERE ${read} IS NOT NULL AND ${l}.${ident(link.recordColumn)} IN `,
    sqlSuffix: ' ORDER BY 1, 2',
  };
}

/** Link-table entity fields and single entity columns are read per page, with display fields. */
function hydrateStep(
  dialect: Dialect,
  layout: StorageLayout,
  source: SourceLayout,
  field: string,
): HydrateStep | undefined {
  const link = source.links[field];
  if (link?.through !== undefined) return throughStep(dialect, layout, field, link, link.through);
  if (link !== undefined) {
    const l = 'l';
    const disc =
      link.discriminator === undefined
        ? ''
        : ` AND ${l}.${ident(link.discriminator.column)} = ${literal(link.discriminator.value)}`;
    const byValue = ` ORDER BY ${l}.${ident(link.recordColumn)}, ${l}.${ident(link.valueColumn)}`;
    const entityKind = link.entityKind;
    const display = entityKind === undefined ? undefined : layout.entities[entityKind];
    if (entityKind === undefined || display === undefined) {
      return {
        field,
        multi: true,
        params: [],
        ...(link.numeric === true ? { numeric: true } : {}),
        sqlPrefix: `SELECT ${l}.${ident(link.recordColumn)} AS __key, ${l}.${ident(link.valueColumn)} AS id FROM ${ident(link.table)} ${l} WHERE ${dialect.true}${disc} AND ${l}.${ident(link.recordColumn)} IN `,
        sqlSuffix: byValue,
      };
    }
    const cols = displayColumns(dialect, display);
    return {
      field,
      multi: true,
      params: [],
      entity: entityKind,
      sqlPrefix:
        `SELECT ${l}.${ident(link.recordColumn)} AS __key, ${l}.${ident(link.valueColumn)} AS id${cols.length > 0 ? ', ' : ''}${cols.join(', ')}` +
        ` FROM ${ident(link.table)} ${l} LEFT JOIN ${ident(display.table)} e ON e.${ident(display.idColumn)} = ${l}.${ident(link.valueColumn)}` +
        ` WHERE ${dialect.true}${disc} AND ${l}.${ident(link.recordColumn)} IN `,
      sqlSuffix: byValue,
    };
  }
  const single = source.entityColumns[field];
  if (single !== undefined) {
    const display = layout.entities[single.entityKind];
    if (display === undefined) return undefined;
    const cols = displayColumns(dialect, display);
    // Every record naming an entity gets a row: with the entity's display when it is held, and
    // `__held` NULL when it is not (the page then shows the id, see `applyHydrate`).
    const column = `${s}.${ident(single.column)}`;
    return {
      field,
      multi: false,
      params: [],
      entity: single.entityKind,
      sqlPrefix:
        `SELECT ${s}.${ident(source.key)} AS __key, ${column} AS id, e.${ident(display.idColumn)} AS ${HELD}${cols.length > 0 ? ', ' : ''}${cols.join(', ')}` +
        ` FROM ${ident(source.table)} ${s} LEFT JOIN ${ident(display.table)} e ON e.${ident(display.idColumn)} = ${column}` +
        ` WHERE ${column} IS NOT NULL AND ${s}.${ident(source.key)} IN `,
      sqlSuffix: '',
    };
  }
  return undefined;
}
