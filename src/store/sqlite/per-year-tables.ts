/**
 * The per-year pre-aggregates in SQLite (`model/storage.ts`, `PerYearTablesSpec`): their
 * DDL, and their rebuild by `finish()` and by the migration that adds them. The citation
 * tables come from the same pass over the references as `times_cited` (`refreshCitations`).
 */
import type { Database } from 'better-sqlite3';
import {
  ownerKey,
  postingLinks,
  type ColumnSpec,
  type PerYearTablesSpec,
  type RecordKind,
} from '../../model/storage.ts';
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
import { batchedInsert } from './batched-insert.ts';
import { forEachPosting, heldListsByRecord, postingsStale } from './posting-lists.ts';

const sqlType = (c: ColumnSpec): string => `${c.name} ${c.type === 'any' ? '' : c.type.toUpperCase()}`.trim();

/** The DDL of one source's per-year tables. */
export function perYearTablesOf(owner: RecordKind, perYear: PerYearTablesSpec): string[] {
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
  return [...perYearTablesOf('publications', CITATIONS_BY_YEAR), ...perYearTablesOf('grants', FUNDING_BY_YEAR)];
}

/**
 * The citation tables, and (given `recentSince`, the first year `recent_citations` counts)
 * `times_cited`/`recent_citations` of the publications whose records did not carry them, from
 * one pass over the references: counted from their posting lists where it can
 * (`countCitations`, or the count a caller made before), else grouped by SQLite
 * (`refreshCitationsGrouped`).
 * Returns which. Inside the caller's transaction. `budget`: the rows counted in memory at most
 * (default `COUNTED_ROWS`).
 */
export function refreshCitations(
  db: Database,
  {
    recentSince,
    budget,
    counted = countCitations(db, { budget }),
  }: {
    readonly recentSince?: number;
    readonly budget?: number | undefined;
    /**
     * Citations counted before (`countCitations`), for a caller that counted them while
     * another thread wrote; null where that counting declined (SQLite groups them).
     */
    readonly counted?: CountedCitations | null | undefined;
  } = {},
): 'counted' | 'grouped' {
  if (counted === undefined || counted === null) {
    refreshCitationsGrouped(db, recentSince);
    return 'grouped';
  }
  writeCitationTables(db, counted);
  if (recentSince !== undefined) fillMissingCounts(db, counted, recentSince);
  return 'counted';
}

/**
 * Rows of citations per (cited publication, citing year) that `countCitations` holds in
 * memory at most: 32M rows of 6 bytes (a year and a count), 192 MiB, beside 8 bytes a
 * publication and 4 a cited id. At 1M publications there are 4,979,759; past the budget the
 * citations are grouped by SQLite instead.
 */
const COUNTED_ROWS = 32 * 2 ** 20;

/**
 * Citations per (cited publication, citing year), as `countCitations` leaves them. A cited
 * publication's rows come from one posting list, so they sit together in the order the lists
 * were read: its `rowCount[pk]` rows start at `firstRow[pk]`, in year order.
 */
export interface CountedCitations {
  /** The largest publication key. */
  readonly largest: number;
  readonly firstRow: Uint32Array;
  readonly rowCount: Uint16Array;
  /** Per row, the citing year plus one (0: citing publications without a year). */
  readonly years: Uint16Array;
  readonly counts: Uint32Array;
}

/**
 * The citations counted in JavaScript from the references' posting lists (each cited key's
 * citing publications) and the citing publications' years. Each cited key is named by the held
 * publication it is first (one join of the cited ids to the publications' ids), so no row is
 * looked up by its text id. Through `temp.citing_years` (its 4,979,759 rows written, then
 * joined to `publications` by text id and sorted) the citation tables took 24.6 and 24.8 s at
 * 1M, and 12.6 and 12.9 s counted here (the same database, its tables emptied first as after a
 * bulk load, the same rows; 2026-11-27). Citations of ids the database does not hold count for
 * nothing.
 *
 * Reads only (it may run while another connection writes). Undefined when the lists are behind
 * and none are given, the references are not lists by record, a year or key does not fit the
 * counting arrays, or the rows exceed `budget`.
 */
export function countCitations(
  db: Database,
  {
    budget = COUNTED_ROWS,
    lists,
  }: {
    readonly budget?: number | undefined;
    /**
     * The references' posting lists (cited key, list), when they are not read from their
     * table: turned around in memory by `finish()` before they are written.
     */
    readonly lists?: Iterable<readonly [number, Uint8Array]>;
  } = {},
): CountedCitations | undefined {
  const link = postingLinks().find((l) => l.table === REFERENCES.table);
  if (link === undefined || heldListsByRecord(db, link) === undefined) return undefined;
  if (lists === undefined && postingsStale(db)) return undefined;
  const largest = db.prepare<[], number | null>('SELECT max(pk) FROM publications').pluck().get() ?? 0;
  if (largest > 0xffffffff) return undefined;
  // The citing year of each publication key, plus one: 0 for no year.
  const yearOf = new Uint16Array(largest + 1);
  for (const [pk, year] of db.prepare<[], [number, unknown]>('SELECT pk, year FROM publications').raw().iterate()) {
    if (year === null) continue;
    if (typeof year !== 'number' || !Number.isInteger(year) || year < 0 || year >= 0xffff) return undefined;
    yearOf[pk] = year + 1;
  }
  const { table, column } = REFERENCES.vocabulary;
  const largestKey = db.prepare<[], number | null>(`SELECT max(id) FROM ${table}`).pluck().get() ?? 0;
  if (largestKey > 0xffffffff) return undefined;
  // The held publication each cited key names (0: none held).
  const publicationOf = new Uint32Array(largestKey + 1);
  for (const [key, pk] of db
    .prepare<[], [number, number]>(`SELECT v.id, p.pk FROM ${table} v JOIN publications p ON p.id = v.${column}`)
    .raw()
    .iterate())
    publicationOf[key] = pk;

  const firstRow = new Uint32Array(largest + 1);
  const rowCount = new Uint16Array(largest + 1);
  let years = new Uint16Array(1 << 20);
  let counts = new Uint32Array(1 << 20);
  let length = 0;
  // Citations per citing year of the list being read, and which years it touched.
  const perYear = new Uint32Array(0x10000);
  const touched: number[] = [];
  const read =
    lists ??
    db
      .prepare<[], [number, Uint8Array]>(
        `SELECT ${REFERENCES.key}, ${link.postings.column} FROM ${link.postings.table}`,
      )
      .raw()
      .iterate();
  for (const [key, list] of read) {
    const cited = publicationOf[key] ?? 0;
    if (cited === 0) continue;
    forEachPosting(list, (citing) => {
      const year = yearOf[citing];
      if (year === undefined) return;
      const before = perYear[year] as number;
      if (before === 0) touched.push(year);
      perYear[year] = before + 1;
    });
    const needed = length + touched.length;
    if (needed > budget) return undefined;
    if (needed > years.length) {
      const size = Math.min(budget, Math.max(needed, years.length * 2));
      years = grown(years, new Uint16Array(size));
      counts = grown(counts, new Uint32Array(size));
    }
    // In year order, as the table's key has them.
    touched.sort((a, b) => a - b);
    firstRow[cited] = length;
    rowCount[cited] = touched.length;
    for (const year of touched) {
      years[length] = year;
      counts[length++] = perYear[year] as number;
      perYear[year] = 0;
    }
    touched.length = 0;
  }
  return { largest, firstRow, rowCount, years, counts };
}

/** `into` with the values of `from` at its start. */
function grown<T extends Uint16Array | Uint32Array>(from: T, into: T): T {
  into.set(from);
  return into;
}

/**
 * Rewrites the citation tables from counted citations and marks them fresh: the table by
 * record in key order, many rows a statement, the corpus table summed on the way.
 */
function writeCitationTables(db: Database, { largest, firstRow, rowCount, years, counts }: CountedCitations): void {
  for (const sql of clearSql(CITATIONS_BY_YEAR)) db.exec(sql);
  const save = batchedInsert(db, CITATIONS_BY_YEAR.byRecord.table, [ownerKey('publications'), 'year', 'citations']);
  const corpus = new Map<number, number>();
  for (let pk = 1; pk <= largest; pk++) {
    const from = firstRow[pk] as number;
    const to = from + (rowCount[pk] as number);
    for (let row = from; row < to; row++) {
      const year = years[row] as number;
      // A citing publication without a year counts in `times_cited` only.
      if (year === 0) continue;
      const n = counts[row] as number;
      save.add(pk, year - 1, n);
      corpus.set(year - 1, (corpus.get(year - 1) ?? 0) + n);
    }
  }
  save.flush();
  const saveCorpus = db.prepare<[number, number]>(
    `INSERT INTO ${CITATIONS_BY_YEAR.corpus.table} (year, citations) VALUES (?, ?)`,
  );
  for (const [year, n] of [...corpus].sort((a, b) => a[0] - b[0])) saveCorpus.run(year, n);
  fillPagesOf(db, CITATIONS_BY_YEAR.byRecord.table);
  db.exec(markFreshSql(CITATIONS_BY_YEAR));
}

/** `times_cited` and `recent_citations` (from `since` on) where records left them empty, from counted citations. */
function fillMissingCounts(db: Database, { firstRow, rowCount, years, counts }: CountedCitations, since: number): void {
  const missing = db
    .prepare<[], number>('SELECT pk FROM publications WHERE times_cited IS NULL OR recent_citations IS NULL')
    .pluck()
    .all();
  const setCounts = db.prepare<[number, number, number]>(
    'UPDATE publications SET times_cited = coalesce(times_cited, ?), recent_citations = coalesce(recent_citations, ?) WHERE pk = ?',
  );
  for (const pk of missing) {
    let all = 0;
    let recent = 0;
    const from = firstRow[pk] as number;
    for (let row = from; row < from + (rowCount[pk] as number); row++) {
      const n = counts[row] as number;
      all += n;
      // As the grouped pass counts them: a citing publication without a year as year 0.
      const code = years[row] as number;
      if ((code === 0 ? 0 : code - 1) >= since) recent += n;
    }
    setCounts.run(all, recent, pk);
  }
}

/** The temporary table of citations per (cited id, citing year) of the grouped pass. */
const CITING_YEARS = 'temp.citing_years';

/**
 * What `refreshCitations` does, grouped by SQLite from the references' rows into
 * `temp.citing_years`, which is then joined to the publications by id: where the citations
 * cannot be counted (lists behind, a migration on an older layout, more rows than the budget).
 */
export function refreshCitationsGrouped(db: Database, recentSince?: number): void {
  db.exec(`DROP TABLE IF EXISTS ${CITING_YEARS}`);
  // The references hold vocabulary keys since records migration 12; the migration building
  // the per-year tables (4) may run on a database older than that.
  const columns = db.prepare(`SELECT name FROM pragma_table_info('${REFERENCES.table}')`).pluck().all();
  const select = columns.includes(REFERENCES.key) ? CITING_YEARS_SELECT : citingYearsSelect('first built');
  db.exec(`CREATE TEMP TABLE citing_years AS ${select}`);
  try {
    if (recentSince !== undefined) fillMissingCountsGrouped(db, recentSince);
    for (const sql of [...clearSql(CITATIONS_BY_YEAR), ...citationsFillSql(CITING_YEARS)]) db.exec(sql);
    fillPagesOf(db, CITATIONS_BY_YEAR.byRecord.table);
    db.exec(markFreshSql(CITATIONS_BY_YEAR));
  } finally {
    db.exec(`DROP TABLE IF EXISTS ${CITING_YEARS}`);
  }
}

/**
 * `times_cited` and `recent_citations` for publications whose records do not carry them:
 * the held publications citing them (spec/data-model.md), recent ones from `since` on;
 * summed from `temp.citing_years`.
 */
function fillMissingCountsGrouped(db: Database, since: number): void {
  const missing = db
    .prepare('SELECT 1 FROM publications WHERE times_cited IS NULL OR recent_citations IS NULL LIMIT 1')
    .get();
  if (missing === undefined) return;
  db.exec('DROP TABLE IF EXISTS temp.cite_counts');
  db.exec(
    'CREATE TEMP TABLE cite_counts (id TEXT PRIMARY KEY, n INTEGER NOT NULL, recent INTEGER NOT NULL) WITHOUT ROWID',
  );
  db.prepare(
    `INSERT INTO temp.cite_counts (id, n, recent)
     SELECT id, SUM(n), SUM(CASE WHEN coalesce(year, 0) >= ? THEN n ELSE 0 END) FROM ${CITING_YEARS} GROUP BY id`,
  ).run(since);
  db.exec(`UPDATE publications SET
      times_cited = coalesce(times_cited, (SELECT n FROM temp.cite_counts WHERE id = publications.id), 0),
      recent_citations = coalesce(recent_citations, (SELECT recent FROM temp.cite_counts WHERE id = publications.id), 0)
    WHERE times_cited IS NULL OR recent_citations IS NULL`);
  db.exec('DROP TABLE temp.cite_counts');
}

/** Rewrites the funding tables and marks them fresh (inside the caller's transaction). */
export function refreshFundingByYear(db: Database): void {
  for (const sql of [...clearSql(FUNDING_BY_YEAR), ...fundingFillSql()]) db.exec(sql);
  fillPagesOf(db, FUNDING_BY_YEAR.byRecord.table);
  db.exec(markFreshSql(FUNDING_BY_YEAR));
}

/** Builds every per-year table from the records held now (the migration, for a database loaded before them). */
export function rebuildPerYearTables(db: Database): void {
  refreshCitations(db);
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
