/**
 * Facet results: the matching records grouped by the values of one field (link tables for
 * entity and list fields, a column for scalar fields), `count` and the asked indicators
 * per group, ordered by the sort key, best first; then one lookup of the display fields for
 * the rows kept.
 */
import type { FacetOutput } from './plan.ts';
import { accessField, SOURCE_ALIAS, throughListJoin, throughValue } from './access.ts';
import { indicatorAggregation, indicatorSql } from './aggregates.ts';
import type { ColumnCondition } from './column-conditions.ts';
import type { Dialect } from './dialect.ts';
import { displayColumns } from './display.ts';
import type { StorageLayout, SourceLayout } from './layout.ts';
import { recordReads, type HydrateStep } from './records.ts';
import { concat, frag, ident, type Sql } from './sql.ts';

export interface CompiledFacet {
  readonly kind: 'facet';
  readonly output: FacetOutput;
  /** Columns `id`, `count`, then one per indicator (named as the indicator). */
  readonly statement: Sql;
  /** Entity display lookup; ends in `IN `, the engine appends the ids kept. */
  readonly display?: { readonly sqlPrefix: string };
  /**
   * For a field list over an entity that is a source: its records by id (`__key`, `__id`,
   * `__doc` and columns; ends in `IN `, the engine appends the ids kept), then the hydrate
   * steps of its entity fields by the records' keys.
   */
  readonly records?: { readonly sqlPrefix: string; readonly hydrate: readonly HydrateStep[] };
  /**
   * The same facet for an engine that holds the link field and the indicator fields in
   * memory (`engine/columnar/`): the matching keys, where the values come from, and how
   * each indicator summarises its column. Absent where the facet reads anything else.
   */
  readonly columnar?: ColumnarFacetPlan;
}

export interface ColumnarFacetPlan {
  /** `SELECT s.<key> FROM <table> s WHERE <the facet's condition>`; absent when every record matches. */
  readonly keys?: Sql;
  /** The same condition as tests of number columns of `columns.table`, when it is only that (`column-conditions.ts`). */
  readonly conditions?: readonly ColumnCondition[];
  /** The link rows: `(recordColumn, valueColumn)` of `table`, only those with `discriminator` when given. */
  readonly link: {
    readonly table: string;
    readonly recordColumn: string;
    readonly valueColumn: string;
    readonly discriminator?: { readonly column: string; readonly value: string };
    /** The entity table of the values, if any: its size bounds how many distinct values there are. */
    readonly entityTable?: string;
    /**
     * The values are read through the entities the link rows name (`LinkLayout.through`):
     * `value` on their row, aliased `t`, joined by `table.idColumn = valueColumn`.
     */
    readonly through?: {
      readonly table: string;
      readonly idColumn: string;
      readonly value: string;
      /** Joins after the entity row's own, aliased from `t` (`throughListJoin`): '' unless the value is a list of the entity. */
      readonly join: string;
    };
  };
  /** The table (and its key column) that holds the indicator columns, one row per record. */
  readonly columns: { readonly table: string; readonly key: string };
  readonly measures: ReadonlyArray<{
    readonly name: string;
    readonly column: string;
    readonly integer: boolean;
    readonly aggregation: 'sum' | 'avg' | 'median' | 'geometric_mean';
  }>;
}

const s = SOURCE_ALIAS;

/**
 * @example compileFacet(layout, pubs, yearFacet, whereSql)
 *   // SELECT s."year" AS id, count(*) AS count FROM "publications" s
 *   //   WHERE (...) AND s."year" IS NOT NULL GROUP BY 1 ORDER BY count DESC, id ASC LIMIT ?
 */
export function compileFacet(
  dialect: Dialect,
  layout: StorageLayout,
  source: SourceLayout,
  output: FacetOutput,
  where: Sql,
  wholeSource: boolean,
  matches: { readonly matchingKeys?: Sql; readonly conditions?: readonly ColumnCondition[] } = {},
): CompiledFacet {
  const records = recordsLookup(dialect, layout, output);
  const display = records === undefined ? displayLookup(dialect, layout, source, output) : undefined;
  const facet = (statement: Sql): CompiledFacet => ({
    kind: 'facet',
    output,
    statement,
    ...(display === undefined ? {} : { display }),
    ...(records === undefined ? {} : { records }),
  });
  const link = source.links[output.field] ?? source.idLinks?.[output.field];
  // The store keeps a count per value of this column (`year`), or per entity of linked
  // records (researchers' `n_publications`): a whole-source count facet reads it instead of
  // passing over the source.
  const counted = source.valueCounts?.[output.field];
  const perEntity = link?.wholeSourceCount ?? source.entityColumns[output.field]?.wholeSourceCount;
  const stored =
    counted !== undefined
      ? { table: counted.table, alias: 'c', id: counted.valueColumn, count: counted.countColumn }
      : perEntity !== undefined
        ? { table: perEntity.table, alias: 'e', id: perEntity.idColumn, count: perEntity.countColumn }
        : undefined;
  if (wholeSource && stored !== undefined && output.indicators.length === 0 && output.direction === 'desc') {
    const { alias: a } = stored;
    const n = `${a}.${ident(stored.count)}`;
    const statement = frag(
      dialect.placeholders(
        `SELECT ${a}.${ident(stored.id)} AS id, ${n} AS count FROM ${ident(stored.table)} ${a} WHERE ${n} > 0 ORDER BY ${n} DESC, id ASC LIMIT ?`,
      ),
      [output.limit],
    );
    return facet(statement);
  }
  const access = accessField(dialect, source, {
    name: output.field,
    type: output.valueType,
    multi: output.multi,
    ...(output.entity === undefined ? {} : { entity: output.entity }),
  });
  const indicators = output.indicators
    .filter((i) => i !== 'count')
    .map((i) => `${indicatorSql(dialect, source, i)} AS ${ident(i)}`);
  const selectRest = indicators.length > 0 ? `, ${indicators.join(', ')}` : '';
  const dir = output.direction === 'asc' ? 'ASC' : 'DESC';
  const sortKey = output.sortBy === 'count' ? `count ${dir}` : `${ident(output.sortBy)} ${dir} NULLS LAST, count DESC`;
  const tail = ` GROUP BY 1 ORDER BY ${sortKey}, id ASC LIMIT ?`;
  let statement: Sql;
  if (access.kind === 'multi' && access.repeats === true) {
    // The rows may repeat a record's value (two organizations in one country): each record
    // counts once per value, so the distinct (record, value) pairs are grouped, and the
    // indicators read the record of each pair.
    const pairs = concat(
      // `access.from` is a join itself: the correlation goes in WHERE (SQLite has no `a JOIN b JOIN c ON .. ON ..`).
      `SELECT DISTINCT ${s}.${ident(source.key)} AS k, ${access.value} AS v FROM ${ident(source.table)} ${s}, ${access.from} WHERE ${access.correlate} AND (`,
      where,
      ')',
    );
    const records = indicators.length > 0 ? ` JOIN ${ident(source.table)} ${s} ON ${s}.${ident(source.key)} = d.k` : '';
    statement = concat(`SELECT d.v AS id, count(*) AS count${selectRest} FROM (`, pairs, `) d${records}${tail}`);
  } else if (access.kind === 'scalar') {
    statement = concat(
      `SELECT ${access.expr} AS id, count(*) AS count${selectRest} FROM ${ident(source.table)} ${s} WHERE `,
      where,
      ` AND ${dialect.isPresent(access.expr)}${tail}`,
    );
  } else {
    statement = concat(
      `SELECT ${access.value} AS id, count(*) AS count${selectRest} FROM ${ident(source.table)} ${s} JOIN ${access.from} ON ${access.correlate} WHERE `,
      where,
      ` AND ${access.value} IS NOT NULL${tail}`,
    );
  }
  statement = { text: dialect.placeholders(statement.text), params: [...statement.params, output.limit] };
  const columnar =
    link === undefined ? undefined : columnarPlan(dialect, source, link, output, where, wholeSource, matches);
  return { ...facet(statement), ...(columnar === undefined ? {} : { columnar }) };
}

/** The facet as an in-memory engine reads it, when every indicator's field is a column of `source`. */
function columnarPlan(
  dialect: Dialect,
  source: SourceLayout,
  link: NonNullable<SourceLayout['links'][string]>,
  output: FacetOutput,
  where: Sql,
  wholeSource: boolean,
  matches: { readonly matchingKeys?: Sql; readonly conditions?: readonly ColumnCondition[] },
): ColumnarFacetPlan | undefined {
  const measures: Array<ColumnarFacetPlan['measures'][number]> = [];
  for (const indicator of output.indicators) {
    if (indicator === 'count') continue;
    const { field, integer, aggregation } = indicatorAggregation(indicator);
    const column = source.columns[field];
    if (column === undefined) return undefined;
    measures.push({ name: indicator, column, integer, aggregation });
  }
  const keys = wholeSource
    ? undefined
    : (matches.matchingKeys ??
      concat(`SELECT ${s}.${ident(source.key)} AS k FROM ${ident(source.table)} ${s} WHERE `, where));
  return {
    ...(keys === undefined ? {} : { keys: { text: dialect.placeholders(keys.text), params: keys.params } }),
    ...(wholeSource || matches.conditions === undefined ? {} : { conditions: matches.conditions }),
    link: {
      table: link.table,
      recordColumn: link.recordColumn,
      valueColumn: link.valueColumn,
      ...(link.discriminator === undefined ? {} : { discriminator: link.discriminator }),
      ...(link.entity === undefined ? {} : { entityTable: link.entity.table }),
      ...(link.through === undefined
        ? {}
        : {
            through: {
              table: link.through.table,
              idColumn: link.through.idColumn,
              value: throughValue(link.through, 't'),
              join: throughListJoin(link.through, 't'),
            },
          }),
    },
    columns: { table: source.table, key: source.key },
    measures,
  };
}

function displayLookup(
  dialect: Dialect,
  layout: StorageLayout,
  source: SourceLayout,
  output: FacetOutput,
): { sqlPrefix: string } | undefined {
  if (output.entity === undefined) return undefined;
  const shown = layout.entities[output.entity];
  if (shown === undefined) return undefined;
  let display = shown;
  if (output.displayKeys !== undefined) {
    // A field list picks the entity's sub-fields that are columns of its table.
    const entity = (source.links[output.field] ?? source.entityColumns[output.field])?.entity;
    const columns = { ...shown.columns, ...entity?.columns };
    const keys = new Set(output.displayKeys);
    display = {
      ...shown,
      columns: Object.fromEntries(Object.entries(columns).filter(([key]) => key !== 'id' && keys.has(key))),
      lists: Object.fromEntries(Object.entries(shown.lists ?? {}).filter(([key]) => keys.has(key))),
    };
  }
  const cols = displayColumns(dialect, display);
  return {
    sqlPrefix: `SELECT e.${ident(display.idColumn)} AS id${cols.length > 0 ? ', ' : ''}${cols.join(', ')} FROM ${ident(display.table)} e WHERE e.${ident(display.idColumn)} IN `,
  };
}

/** The entity's records by id, for a field list over an entity that is a source. */
function recordsLookup(dialect: Dialect, layout: StorageLayout, output: FacetOutput): CompiledFacet['records'] {
  const wanted = output.entityRecords;
  if (wanted === undefined) return undefined;
  const source = layout.sources[wanted.source];
  if (source === undefined) throw new Error(`no storage layout for source ${wanted.source}`);
  const { selects, hydrate } = recordReads(dialect, layout, source, wanted.fields);
  return {
    sqlPrefix: `SELECT ${selects.join(', ')}, ${s}."id" AS __id FROM ${ident(source.table)} ${s} WHERE ${s}."id" IN `,
    hydrate,
  };
}
