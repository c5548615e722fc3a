/**
 * The per-year pre-aggregates in PostgreSQL (`model/storage.ts`, `PerYearTablesSpec`), as
 * SQLite keeps them (`../sqlite/per-year-tables.ts`): their DDL and the statements that
 * rebuild them (the fill statements are shared, `../per-year-tables.ts`).
 */
import { ownerKey, type ColumnSpec, type PerYearTablesSpec, type RecordKind } from '../../model/storage.ts';
import {
  CITATIONS_BY_YEAR,
  CITING_YEARS_SELECT,
  FUNDING_BY_YEAR,
  citationsFillSql,
  clearSql,
  fundingFillSql,
  markFreshSql,
  markStaleSql,
} from '../per-year-tables.ts';

function columnDef(c: ColumnSpec): string {
  switch (c.type) {
    case 'integer':
      return `${c.name} bigint NOT NULL`;
    case 'real':
      return `${c.name} double precision NOT NULL`;
    case 'text':
    case 'any':
      return `${c.name} text COLLATE "C" NOT NULL`;
  }
}

/** The DDL of one source's per-year tables. */
export function pgPerYearTablesOf(owner: RecordKind, perYear: PerYearTablesSpec): string[] {
  const key = ownerKey(owner);
  const corpusKey = [...perYear.corpus.key.map((c) => c.name), 'year'];
  return [
    `CREATE TABLE IF NOT EXISTS ${perYear.byRecord.table} (${[`${key} bigint NOT NULL`, 'year bigint NOT NULL', ...perYear.byRecord.columns.map(columnDef)].join(', ')}, ` +
      `PRIMARY KEY (${key}, year))`,
    `CREATE TABLE IF NOT EXISTS ${perYear.corpus.table} (${[...perYear.corpus.key.map(columnDef), 'year bigint NOT NULL', ...perYear.corpus.columns.map(columnDef)].join(', ')}, ` +
      `PRIMARY KEY (${corpusKey.join(', ')}))`,
  ];
}

/** The temporary table of citations per (cited id, citing year), dropped at the end of its transaction. */
export const PG_CITING_YEARS = 'citing_years';

export const pgCreateCitingYearsSql = `CREATE TEMP TABLE ${PG_CITING_YEARS} ON COMMIT DROP AS ${CITING_YEARS_SELECT}`;

/** Rewrites the citation tables from the citing years and marks them fresh. */
export const pgRefreshCitationsSql = (): string[] => [
  ...clearSql(CITATIONS_BY_YEAR),
  ...citationsFillSql(PG_CITING_YEARS),
  markFreshSql(CITATIONS_BY_YEAR),
];

/** Rewrites the funding tables and marks them fresh. */
export const pgRefreshFundingSql = (): string[] => [
  ...clearSql(FUNDING_BY_YEAR),
  ...fundingFillSql(),
  markFreshSql(FUNDING_BY_YEAR),
];

/** The statement marking a kind's per-year tables stale, for each write transaction of that kind. */
export function pgPerYearStaleSql(kind: RecordKind): string | undefined {
  const perYear = kind === 'publications' ? CITATIONS_BY_YEAR : kind === 'grants' ? FUNDING_BY_YEAR : undefined;
  return perYear === undefined ? undefined : markStaleSql(perYear);
}
