/**
 * The pre-aggregates of the per-year functions (`PerYearTablesSpec` in `model/storage.ts`):
 * the statements that fill them from the records, in SQL both engines run as written. Each
 * engine creates the tables with its own types (`sqlite/per-year-tables.ts`,
 * `postgres/per-year-tables.ts`) and runs these inside one transaction with the freshness
 * row, so a reader sees the old tables and no row, or the new ones and the row.
 *
 * The values are exactly what the compiler's direct SQL (`compile/citations.ts`) computes:
 * citations per (cited publication, citing year) are the reference rows joined to the
 * citing publication's year; a grant's funded years are its active years, or its start year
 * when it lists none, cast to integers as the direct SQL casts them.
 */
import {
  CORPUS_CURRENCIES,
  LINK_TABLES,
  SOURCE_TABLES,
  ownerKey,
  valueFieldCode,
  valuesTable,
  type PerYearTablesSpec,
} from '../model/storage.ts';

const publications = SOURCE_TABLES.publications;
const grants = SOURCE_TABLES.grants;

function spec(kind: 'publications' | 'grants'): PerYearTablesSpec {
  const perYear = SOURCE_TABLES[kind].perYear;
  if (perYear === undefined) throw new Error(`no per-year tables for ${kind}`);
  return perYear;
}

/** The publications' and the grants' per-year tables. */
export const CITATIONS_BY_YEAR = spec('publications');
export const FUNDING_BY_YEAR = spec('grants');

/** The references' link table: interned into a vocabulary since records migration 12 (PostgreSQL 10). */
export const REFERENCES = referencesTable();

function referencesTable() {
  const link = LINK_TABLES.find(
    (l) => l.owner === 'publications' && 'field' in l.holds && l.holds.field === 'reference_ids',
  );
  const vocabulary = link?.interned;
  const key = link?.key[link.key.length - 1]?.name;
  if (link === undefined || vocabulary === undefined || key === undefined)
    throw new Error('the references are not a link table interned into a vocabulary');
  return { table: link.table, key, vocabulary };
}

/**
 * Citations per (cited id, citing year) over every reference row, into `table` (an engine's
 * temporary table, created by the caller from this SELECT): the one pass over the
 * references that both `times_cited`/`recent_citations` and the per-year tables are
 * derived from. A citing publication without a year gives a row with a NULL year.
 */
export const CITING_YEARS_SELECT = citingYearsSelect('interned');

/**
 * `CITING_YEARS_SELECT` over the references as they are now (`interned`: the cited ids'
 * vocabulary keys) or as version 1 made them (`first built`: the cited ids as text), for the
 * migrations that build the per-year tables on a database older than the interning.
 */
export function citingYearsSelect(form: 'interned' | 'first built'): string {
  const owner = ownerKey('publications');
  const cited = form === 'interned' ? REFERENCES.key : REFERENCES.vocabulary.replaced;
  // The citing publications outside, each one's references a range of the references'
  // primary key inside. SQLite takes CROSS JOIN as that order; without it, and without
  // statistics (a bulk load runs this before ANALYZE), it read the references by cited id
  // and looked each citing row up at random: 76–96 s instead of about 16 s at 1M.
  // PostgreSQL plans a CROSS JOIN with a WHERE as any join.
  const grouped =
    `SELECT r.${cited} AS id, c.year AS year, count(*) AS n FROM ${publications.table} c ` +
    `CROSS JOIN ${REFERENCES.table} r WHERE r.${owner} = c.pk GROUP BY r.${cited}, c.year`;
  if (form === 'first built') return grouped;
  // Grouped by the vocabulary key (an integer), then named.
  const { table, column } = REFERENCES.vocabulary;
  return `SELECT v.${column} AS id, y.year AS year, y.n AS n FROM (${grouped}) y JOIN ${table} v ON v.id = y.id`;
}

/** Fills the citation tables from the citing years in `citingYears` (columns id, year, n); they must be empty. */
export function citationsFillSql(citingYears: string): string[] {
  const byRecord = CITATIONS_BY_YEAR.byRecord.table;
  const owner = ownerKey('publications');
  return [
    // Only held publications: a reference to a publication outside the corpus is never a match.
    `INSERT INTO ${byRecord} (${owner}, year, citations) SELECT p.pk, y.year, y.n FROM ${citingYears} y ` +
      `JOIN ${publications.table} p ON p.id = y.id WHERE y.year IS NOT NULL ORDER BY p.pk, y.year`,
    `INSERT INTO ${CITATIONS_BY_YEAR.corpus.table} (year, citations) SELECT year, sum(citations) FROM ${byRecord} GROUP BY year`,
  ];
}

/** Fills the funding tables from the grants and their active years; they must be empty. */
export function fundingFillSql(): string[] {
  const values = valuesTable('grants');
  if (values === undefined) throw new Error('grants have no values table');
  const owner = ownerKey('grants');
  const byRecord = FUNDING_BY_YEAR.byRecord.table;
  const active = `l.${owner} = g.pk AND l.field = '${valueFieldCode('active_year')}'`;
  return [
    `INSERT INTO ${byRecord} (${owner}, year, shares, years) ` +
      `WITH a AS (SELECT l.${owner} AS pk, CAST(l.value AS INTEGER) AS year FROM ${values.table} l WHERE l.field = '${valueFieldCode('active_year')}' ` +
      `UNION ALL SELECT g.pk, CAST(g.start_year AS INTEGER) FROM ${grants.table} g ` +
      `WHERE g.start_year IS NOT NULL AND NOT EXISTS (SELECT 1 FROM ${values.table} l WHERE ${active})), ` +
      'n AS (SELECT pk, count(*) AS years FROM a GROUP BY pk) ' +
      'SELECT a.pk, a.year, count(*), n.years FROM a JOIN n ON n.pk = a.pk GROUP BY a.pk, a.year, n.years ORDER BY a.pk, a.year',
    ...CORPUS_CURRENCIES.map(
      ({ currency, column }) =>
        `INSERT INTO ${FUNDING_BY_YEAR.corpus.table} (currency, year, amount) ` +
        `SELECT '${currency}', f.year, sum(g.${column} * f.shares * 1.0 / f.years) FROM ${byRecord} f ` +
        `JOIN ${grants.table} g ON g.pk = f.${owner} WHERE g.${column} > 0 GROUP BY f.year`,
    ),
  ];
}

/** Empties a source's per-year tables and removes its freshness row. */
export function clearSql(perYear: PerYearTablesSpec): string[] {
  return [
    `DELETE FROM ${perYear.byRecord.table}`,
    `DELETE FROM ${perYear.corpus.table}`,
    `DELETE FROM store_meta WHERE key = '${perYear.fresh}'`,
  ];
}

/** Marks a source's per-year tables as matching its records (after they were filled). */
export function markFreshSql(perYear: PerYearTablesSpec): string {
  return (
    `INSERT INTO store_meta (key, value) VALUES ('${perYear.fresh}', CURRENT_TIMESTAMP) ` +
    'ON CONFLICT (key) DO UPDATE SET value = excluded.value'
  );
}

/** Marks a source's per-year tables as out of date (its records changed): the compiler falls back to the direct SQL. */
export function markStaleSql(perYear: PerYearTablesSpec): string {
  return `DELETE FROM store_meta WHERE key = '${perYear.fresh}'`;
}
