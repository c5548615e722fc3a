/**
 * The per-year pre-aggregates in SQLite (`model/storage.ts`, `PerYearTablesSpec`): their
 * DDL, and their rebuild by `finish()` and by the migration that adds them. The citation
 * tables come from the same pass over the references as `times_cited` (`derive.ts` passes
 * its temporary table of citing years in).
 */
import type { Database } from 'better-sqlite3';
import { ownerKey, type ColumnSpec, type PerYearTablesSpec, type RecordKind } from '../../model/storage.ts';
import {
  CITATIONS_BY_YEAR,
  CITING_YEARS_SELECT,
  REFERENCES,
  citingYearsSelect,
  FUNDING_BY_YEAR,
  citationsFillSql,
  clearSql,
  fundingFillSql,
  markFreshSql,
  markStaleSql,
} from '../per-year-tables.ts';
import { fillPagesOf } from './full-pages.ts';

const sqlType = (c: ColumnSpec): string => `${c.name} ${c.type === 'any' ? '' : c.type.toUpperCase()}`.trim();

function tablesSql(owner: RecordKind, perYear: PerYearTablesSpec): string[] {
  const key = ownerKey(owner);
  const corpusKey = [...perYear.corpus.key.map((c) => c.name), 'year'];
  return [
    `CREATE TABLE IF NOT EXISTS ${perYear.byRecord.table} (${[`${key} INTEGER NOT NULL`, 'year INTEGER NOT NULL', ...perYear.byRecord.columns.map((c) => `${sqlType(c)} NOT NULL`)].join(', ')}, ` +
      `PRIMARY KEY (${key}, year)) WITHOUT ROWID`,
    `CREATE TABLE IF NOT EXISTS ${perYear.corpus.table} (${[...perYear.corpus.key.map((c) => `${sqlType(c)} NOT NULL`), 'year INTEGER NOT NULL', ...perYear.corpus.columns.map((c) => `${sqlType(c)} NOT NULL`)].join(', ')}, ` +
      `PRIMARY KEY (${corpusKey.join(', ')})) WITHOUT ROWID`,
  ];
}

/** The DDL of every per-year table. */
export function perYearTablesSql(): string[] {
  return [...tablesSql('publications', CITATIONS_BY_YEAR), ...tablesSql('grants', FUNDING_BY_YEAR)];
}

/** The temporary table of citations per (cited id, citing year), built once per `finish()`. */
export const CITING_YEARS = 'temp.citing_years';

export function createCitingYears(db: Database): void {
  db.exec(`DROP TABLE IF EXISTS ${CITING_YEARS}`);
  // The references hold vocabulary keys since records migration 12; the migration building
  // the per-year tables (4) may run on a database older than that.
  const columns = db.prepare(`SELECT name FROM pragma_table_info('${REFERENCES.table}')`).pluck().all();
  const select = columns.includes(REFERENCES.key) ? CITING_YEARS_SELECT : citingYearsSelect('first built');
  db.exec(`CREATE TEMP TABLE citing_years AS ${select}`);
}

export function dropCitingYears(db: Database): void {
  db.exec(`DROP TABLE IF EXISTS ${CITING_YEARS}`);
}

/**
 * Rewrites the citation tables from `temp.citing_years` and marks them fresh (inside the
 * caller's transaction). The table by record is filled in key order, then its pages filled.
 */
export function refreshCitationsByYear(db: Database): void {
  for (const sql of [...clearSql(CITATIONS_BY_YEAR), ...citationsFillSql(CITING_YEARS)]) db.exec(sql);
  fillPagesOf(db, CITATIONS_BY_YEAR.byRecord.table);
  db.exec(markFreshSql(CITATIONS_BY_YEAR));
}

/** Rewrites the funding tables and marks them fresh (inside the caller's transaction). */
export function refreshFundingByYear(db: Database): void {
  for (const sql of [...clearSql(FUNDING_BY_YEAR), ...fundingFillSql()]) db.exec(sql);
  fillPagesOf(db, FUNDING_BY_YEAR.byRecord.table);
  db.exec(markFreshSql(FUNDING_BY_YEAR));
}

/** Builds every per-year table from the records held now (the migration, for a database loaded before them). */
export function rebuildPerYearTables(db: Database): void {
  createCitingYears(db);
  refreshCitationsByYear(db);
  dropCitingYears(db);
  refreshFundingByYear(db);
}

/** A function marking a kind's per-year tables stale, for the writer to call in each write transaction of that kind. */
export function perYearStaleMarker(db: Database, kind: RecordKind): (() => void) | undefined {
  const perYear = kind === 'publications' ? CITATIONS_BY_YEAR : kind === 'grants' ? FUNDING_BY_YEAR : undefined;
  if (perYear === undefined) return undefined;
  const statement = db.prepare(markStaleSql(perYear));
  return () => {
    statement.run();
  };
}
