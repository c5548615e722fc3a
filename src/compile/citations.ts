/**
 * `return citations_per_year(from, to)`: the citations the matching publications received,
 * per year of the citing (held) publication, through the references link table.
 */
import type { CitationsPerYearOutput } from './plan.ts';
import { SOURCE_ALIAS } from './access.ts';
import type { Dialect } from './dialect.ts';
import type { SourceLayout } from './layout.ts';
import { concat, ident, type Sql } from './sql.ts';

export interface CompiledCitations {
  readonly kind: 'citations_per_year';
  readonly output: CitationsPerYearOutput;
  /** Columns `year`, `count`; years without citations are absent (the engine adds zeros). */
  readonly statement: Sql;
}

/**
 * @example
 * SELECT c."year" AS year, count(*) AS count FROM "publication_references" r
 *   JOIN "publications" c ON c."pk" = r."publication_pk"
 *   WHERE r."cited_id" IN (SELECT s."id" FROM "publications" s WHERE ...) AND c."year" BETWEEN ? AND ?
 *   GROUP BY 1 ORDER BY 1
 */
export function compileCitationsPerYear(
  dialect: Dialect,
  source: SourceLayout,
  output: CitationsPerYearOutput,
  where: Sql,
): CompiledCitations {
  const refs = source.links.reference_ids;
  if (refs === undefined) throw new Error(`source table ${source.table} has no references`);
  const s = SOURCE_ALIAS;
  const statement = concat(
    `SELECT c."year" AS year, count(*) AS count FROM ${ident(refs.table)} r JOIN ${ident(source.table)} c ON c.${ident(source.key)} = r.${ident(refs.recordColumn)}` +
      ` WHERE r.${ident(refs.valueColumn)} IN (SELECT ${s}."id" FROM ${ident(source.table)} ${s} WHERE `,
    where,
    ') AND c."year" BETWEEN ? AND ? GROUP BY 1 ORDER BY 1',
  );
  return {
    kind: 'citations_per_year',
    output,
    statement: { text: dialect.placeholders(statement.text), params: [...statement.params, output.from, output.to] },
  };
}
