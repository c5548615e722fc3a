/**
 * The per-year functions: `citations_per_year(from, to)` (the citations the matching
 * publications received, per year of the citing held publication, through the references
 * link table) and `funding_per_year(from, to, "CURRENCY")` (the matching grants' funding
 * spread over their active years). Both answer rows `(year, value)`; the engine fills the
 * missing years with zeros.
 */
import { accessField, linkRowsByValue, SOURCE_ALIAS } from './access.ts';
import type { Dialect } from './dialect.ts';
import type { SourceLayout } from './layout.ts';
import type { CitationsPerYearOutput, FundingPerYearOutput, PerYearOutput } from './plan.ts';
import { concat, frag, ident, literal, type Sql } from './sql.ts';

export interface CompiledPerYear {
  readonly kind: 'per_year';
  readonly output: PerYearOutput;
  /**
   * Columns `year`, `value`; years without a value are absent (the engine adds zeros). The
   * direct SQL over the records and links: always right, the answer when `preAggregated`
   * is absent or not fresh.
   */
  readonly statement: Sql;
  /**
   * The same answer from the source's per-year tables (built by `finish()`), to run instead
   * of `statement` when `fresh` returns a row: those tables then match the records.
   */
  readonly preAggregated?: { readonly fresh: Sql; readonly statement: Sql };
}

const s = SOURCE_ALIAS;

/**
 * The matching publications are gathered once (a materialized set), then their citing
 * records are found through the references' reverse index: one index probe per match,
 * whatever the filter. (Asking `cited_id IN (matches)` for every reference instead made
 * SQLite probe the whole match list per reference: 40 s over 10k publications.)
 *
 * @example
 * WITH m AS MATERIALIZED (SELECT s."id" AS id FROM "publications" s WHERE ...)
 * SELECT c."year" AS year, count(*) AS value FROM m CROSS JOIN "cited_ids" v
 *   CROSS JOIN "publication_references" r CROSS JOIN "publications" c
 *   WHERE v."cited_id" = m.id AND r."cited_key" = v."id" AND c."pk" = r."publication_pk"
 *   AND c."year" BETWEEN ? AND ? GROUP BY 1 ORDER BY 1
 */
export function compileCitationsPerYear(
  dialect: Dialect,
  source: SourceLayout,
  output: CitationsPerYearOutput,
  where: Sql,
  wholeCorpus: boolean,
): CompiledPerYear {
  const refs = source.links.reference_ids;
  if (refs === undefined) throw new Error(`source table ${source.table} has no references`);
  const table = ident(source.table);
  // References held as a vocabulary's keys (`LinkLayout.through`): each match's id is looked
  // up there first, then the references naming its key.
  const through = refs.through;
  const cited =
    through === undefined
      ? { from: '', test: `r.${ident(refs.valueColumn)} = m.id` }
      : {
          from: ` CROSS JOIN ${ident(through.table)} v`,
          test: `v.${ident(through.columns[0] ?? '')} = m.id AND r.${ident(refs.valueColumn)} = v.${ident(through.idColumn)}`,
        };
  const statement = concat(
    `WITH m AS MATERIALIZED (SELECT ${s}."id" AS id FROM ${table} ${s} WHERE `,
    where,
    `) SELECT c."year" AS year, count(*) AS value FROM m${cited.from} CROSS JOIN ${linkRowsByValue(dialect, refs)} r CROSS JOIN ${table} c` +
      ` WHERE ${cited.test} AND c.${ident(source.key)} = r.${ident(refs.recordColumn)}` +
      ' AND c."year" BETWEEN ? AND ? GROUP BY 1 ORDER BY 1',
  );
  const perYear = source.perYear?.function === 'citations_per_year' ? source.perYear : undefined;
  const preAggregated =
    perYear === undefined
      ? undefined
      : wholeCorpus
        ? frag(
            `SELECT year, citations AS value FROM ${ident(perYear.corpus.table)} WHERE year BETWEEN ? AND ? ORDER BY 1`,
          )
        : concat(
            `WITH m AS MATERIALIZED (SELECT ${s}.${ident(source.key)} AS k FROM ${table} ${s} WHERE `,
            where,
            `) SELECT y.year AS year, sum(y.citations) AS value FROM m CROSS JOIN ${ident(perYear.byRecord.table)} y` +
              ` WHERE y.${ident(perYear.byRecord.recordColumn)} = m.k AND y.year BETWEEN ? AND ? GROUP BY 1 ORDER BY 1`,
          );
  return perYearStatements(dialect, output, statement, perYear?.fresh, preAggregated);
}

/** The compiled per-year output: the years appended to each statement's parameters. */
function perYearStatements(
  dialect: Dialect,
  output: PerYearOutput,
  statement: Sql,
  fresh: string | undefined,
  preAggregated: Sql | undefined,
): CompiledPerYear {
  const withYears = (sql: Sql): Sql => ({
    text: dialect.placeholders(sql.text),
    params: [...sql.params, output.from, output.to],
  });
  return {
    kind: 'per_year',
    output,
    statement: withYears(statement),
    ...(fresh === undefined || preAggregated === undefined
      ? {}
      : {
          preAggregated: {
            fresh: { text: `SELECT 1 AS fresh FROM "store_meta" WHERE "key" = ${literal(fresh)}`, params: [] },
            statement: withYears(preAggregated),
          },
        }),
  };
}

/**
 * Each matching grant with an amount in the currency gives `amount / years` to each of its
 * active years (or all of it to its start year when it lists no active year).
 *
 * @example
 * WITH m AS MATERIALIZED (SELECT s."pk" AS "pk", s."start_year" AS start_year, s."funding_usd" AS amount
 *     FROM "grants" s WHERE ... AND s."funding_usd" > 0),
 *   a AS (SELECT s."pk" AS pk, l."value" AS year FROM m s JOIN "grant_values" l ON l."grant_pk" = s."pk" AND ...
 *     UNION ALL SELECT s."pk", s.start_year FROM m s WHERE NOT EXISTS (...) AND s.start_year IS NOT NULL),
 *   n AS (SELECT pk, count(*) AS years FROM a GROUP BY pk)
 * SELECT a.year AS year, sum(m.amount / n.years) AS value FROM a JOIN n ON n.pk = a.pk JOIN m ON m."pk" = a.pk
 *   WHERE a.year BETWEEN ? AND ? GROUP BY 1 ORDER BY 1
 */
export function compileFundingPerYear(
  dialect: Dialect,
  source: SourceLayout,
  output: FundingPerYearOutput,
  where: Sql,
  wholeCorpus: boolean,
): CompiledPerYear {
  const amount = accessField(dialect, source, {
    name: `funding_${output.currency.toLowerCase()}`,
    type: 'float',
    multi: false,
  });
  const startYear = accessField(dialect, source, { name: 'start_year', type: 'integer', multi: false });
  const years = accessField(dialect, source, { name: 'active_year', type: 'integer', multi: true });
  if (amount.kind !== 'scalar' || startYear.kind !== 'scalar' || years.kind !== 'multi') {
    throw new Error(`grants funding or active years are not stored as expected in ${source.table}`);
  }
  // An amount kept in the document (a currency without a column) is text in PostgreSQL's
  // JSON access: read as a number, as SQLite's json_extract gives it.
  const amountExpr =
    source.columns[`funding_${output.currency.toLowerCase()}`] === undefined
      ? `CAST(${amount.expr} AS DOUBLE PRECISION)`
      : amount.expr;
  const key = ident(source.key);
  const table = ident(source.table);
  const statement = concat(
    `WITH m AS MATERIALIZED (SELECT ${s}.${key} AS ${key}, ${startYear.expr} AS start_year, ${amountExpr} AS amount FROM ${table} ${s} WHERE `,
    where,
    ` AND ${amountExpr} > 0),` +
      // Years are cast so both branches have one type (PostgreSQL keeps list values as text).
      ` a AS (SELECT ${s}.${key} AS pk, CAST(${years.value} AS INTEGER) AS year FROM m ${s} JOIN ${years.from} ON ${years.correlate}` +
      ` UNION ALL SELECT ${s}.${key}, CAST(${s}.start_year AS INTEGER) FROM m ${s} WHERE NOT EXISTS (SELECT 1 FROM ${years.from} WHERE ${years.correlate}) AND ${s}.start_year IS NOT NULL),` +
      ' n AS (SELECT pk, count(*) AS years FROM a GROUP BY pk)' +
      ` SELECT a.year AS year, sum(m.amount * 1.0 / n.years) AS value FROM a JOIN n ON n.pk = a.pk JOIN m ON m.${key} = a.pk` +
      ' WHERE a.year BETWEEN ? AND ? GROUP BY 1 ORDER BY 1',
  );
  const perYear = source.perYear?.function === 'funding_per_year' ? source.perYear : undefined;
  const preAggregated =
    perYear === undefined
      ? undefined
      : wholeCorpus && perYear.corpus.currencies.includes(output.currency)
        ? frag(
            `SELECT year, amount AS value FROM ${ident(perYear.corpus.table)}` +
              ` WHERE currency = ${literal(output.currency)} AND year BETWEEN ? AND ? ORDER BY 1`,
          )
        : // Each match's funded years with their count: the direct SQL's shares, without its links.
          concat(
            `WITH m AS MATERIALIZED (SELECT ${s}.${key} AS k, ${amountExpr} AS amount FROM ${table} ${s} WHERE `,
            where,
            ` AND ${amountExpr} > 0) SELECT f.year AS year, sum(m.amount * f.shares * 1.0 / f.years) AS value` +
              ` FROM m CROSS JOIN ${ident(perYear.byRecord.table)} f WHERE f.${ident(perYear.byRecord.recordColumn)} = m.k` +
              ' AND f.year BETWEEN ? AND ? GROUP BY 1 ORDER BY 1',
          );
  return perYearStatements(dialect, output, statement, perYear?.fresh, preAggregated);
}
