/**
 * Facet results: the matching records grouped by the values of one field (link tables for
 * entity and list fields, a column for scalar fields), `count` and the asked indicators
 * per group, ordered by the sort key, best first; then one lookup of the display fields for
 * the rows kept.
 */
import type { FacetOutput } from './plan.ts';
import { accessField, SOURCE_ALIAS } from './access.ts';
import { indicatorSql } from './aggregates.ts';
import type { Dialect } from './dialect.ts';
import { displayColumns } from './display.ts';
import type { StorageLayout, SourceLayout } from './layout.ts';
import { concat, frag, ident, type Sql } from './sql.ts';

export interface CompiledFacet {
  readonly kind: 'facet';
  readonly output: FacetOutput;
  /** Columns `id`, `count`, then one per indicator (named as the indicator). */
  readonly statement: Sql;
  /** Entity display lookup; ends in `IN `, the engine appends the ids kept. */
  readonly display?: { readonly sqlPrefix: string };
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
): CompiledFacet {
  const display = displayLookup(dialect, layout, output);
  const link = source.links[output.field];
  const shortcut = link?.wholeSourceCount ?? source.entityColumns[output.field]?.wholeSourceCount;
  if (wholeSource && shortcut !== undefined && output.indicators.length === 0 && output.direction === 'desc') {
    // The store keeps per-entity counts of linked records: no grouping over the whole source.
    const c = ident(shortcut.countColumn);
    const statement = frag(
      dialect.placeholders(
        `SELECT e.${ident(shortcut.idColumn)} AS id, e.${c} AS count FROM ${ident(shortcut.table)} e WHERE e.${c} > 0 ORDER BY e.${c} DESC, id ASC LIMIT ?`,
      ),
      [output.limit],
    );
    return display === undefined ? { kind: 'facet', output, statement } : { kind: 'facet', output, statement, display };
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
  if (access.kind === 'scalar') {
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
  return display === undefined ? { kind: 'facet', output, statement } : { kind: 'facet', output, statement, display };
}

function displayLookup(
  dialect: Dialect,
  layout: StorageLayout,
  output: FacetOutput,
): { sqlPrefix: string } | undefined {
  if (output.entity === undefined) return undefined;
  const display = layout.entities[output.entity];
  if (display === undefined) return undefined;
  const cols = displayColumns(dialect, display);
  return {
    sqlPrefix: `SELECT e.${ident(display.idColumn)} AS id${cols.length > 0 ? ', ' : ''}${cols.join(', ')} FROM ${ident(display.table)} e WHERE e.${ident(display.idColumn)} IN `,
  };
}
