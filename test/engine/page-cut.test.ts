// A page under a filter of organization link rows alone is cut on the link index before any
// record row is read (compile/page-cut.ts). The cut must never change a page: on hand-made
// records with shared dates (ties broken by id), missing dates and years (last in either
// direction), and records in both organizations of an `in` list (two link rows each), every
// page of every order, walked with several page sizes, equals the sort done here, with the
// right total, on SQLite and on PostgreSQL.
import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import type Database from 'better-sqlite3';
import { createPostgresEngine } from '../../src/engine/backends/postgres/engine.ts';
import { runQuery, SqliteQueryContext } from '../../src/engine/backends/sqlite/query-context.ts';
import { prepareQuery } from '../../src/engine/run-query.ts';
import type { QueryEngine, QueryResult } from '../../src/engine/types.ts';
import { openPgRecordWriter } from '../../src/store/postgres/records-writer.ts';
import { openReadOnly } from '../../src/store/sqlite/open.ts';
import { openRecordStore } from '../../src/store/sqlite/records-store.ts';
import { createTestPgDatabase, type TestPgDatabase } from '../fixtures/pg-db.ts';

interface Pub {
  readonly id: string;
  readonly year: number | null;
  readonly date: string | null;
  readonly orgs: readonly string[];
}

const ORGS = ['grid.1', 'grid.2', 'grid.3'];
const DATES = ['2019-01-05', '2019-06-30', '2020-02-01', '2020-02-01', '2020-11-11', '2021-03-15', '2021-12-31'];

/** 90 publications, deterministic: a fifth without a date (half of those without a year too). */
const PUBS: readonly Pub[] = Array.from({ length: 90 }, (_, i) => {
  const date = i % 5 === 0 ? null : (DATES[(i * 7) % DATES.length] as string);
  const year = date !== null ? Number(date.slice(0, 4)) : i % 10 === 0 ? null : 2019 + (i % 3);
  const orgs = ORGS.filter((_, k) => ((i * 13 + k * 5) % 7) % 3 !== 0);
  return { id: `pub.${String(1000 + ((i * 37) % 90)).padStart(4, '0')}`, year, date, orgs };
});

const record = (p: Pub) => ({
  id: p.id,
  title: `Title of ${p.id}`,
  year: p.year,
  date: p.date,
  authors: [{ first_name: 'Ana', last_name: 'Silva', affiliations: p.orgs.map((id) => ({ id })) }],
});

const ORG_RECORDS = ORGS.map((id) => ({ id, name: `Organization ${id}` }));

type Order = { readonly sort: string; readonly key: (p: Pub) => string | number | null; readonly desc: boolean };

const ORDERS: readonly Order[] = [
  { sort: '', key: (p) => p.date, desc: true },
  { sort: ' sort by date asc', key: (p) => p.date, desc: false },
  { sort: ' sort by year desc', key: (p) => p.year, desc: true },
];

const FILTERS: ReadonlyArray<{ readonly dsl: string; readonly keeps: (p: Pub) => boolean }> = [
  {
    dsl: 'research_orgs.id in ["grid.1", "grid.2"] and year in [2019:2020]',
    keeps: (p) => p.orgs.some((o) => o === 'grid.1' || o === 'grid.2') && p.year !== null && p.year <= 2020,
  },
  {
    // A value named twice is one range of the index, not two.
    dsl: 'research_orgs.id in ["grid.1", "grid.3", "grid.1"] and year = 2021',
    keeps: (p) => p.orgs.some((o) => o === 'grid.1' || o === 'grid.3') && p.year === 2021,
  },
  {
    dsl: 'research_orgs.id = "grid.2" and year in [2019:2021]',
    keeps: (p) => p.orgs.includes('grid.2') && p.year !== null && p.year >= 2019 && p.year <= 2021,
  },
  { dsl: 'research_orgs.id = "grid.3"', keeps: (p) => p.orgs.includes('grid.3') },
  {
    dsl: 'research_orgs.id in ["grid.1", "grid.2", "grid.3"]',
    keeps: (p) => p.orgs.length > 0,
  },
];

/** The order the service promises: the key in the direction asked, missing keys last, ties by id ascending. */
function sorted(pubs: readonly Pub[], order: Order): string[] {
  return [...pubs]
    .sort((a, b) => {
      const [x, y] = [order.key(a), order.key(b)];
      if (x !== y) {
        if (x === null) return 1;
        if (y === null) return -1;
        return (x < y ? -1 : 1) * (order.desc ? -1 : 1);
      }
      return a.id < b.id ? -1 : 1;
    })
    .map((p) => p.id);
}

const query = (filter: string, order: Order, limit: number, skip: number): string =>
  `search publications where ${filter} return publications[id+date+year]${order.sort} limit ${limit} skip ${skip}`;

/** Walks every page of every filter and order with several page sizes against the sort done here. */
async function walkPages(run: (text: string) => Promise<QueryResult>): Promise<number> {
  let pages = 0;
  for (const filter of FILTERS) {
    const kept = PUBS.filter(filter.keeps);
    for (const order of ORDERS) {
      const expected = sorted(kept, order);
      for (const limit of [1, 4, 11, 100]) {
        const paged: string[] = [];
        for (let skip = 0; skip < expected.length; skip += limit) {
          const result = await run(query(filter.dsl, order, limit, skip));
          const label = query(filter.dsl, order, limit, skip);
          assert.equal((result._stats as { total_count: number }).total_count, expected.length, `${label}: total`);
          paged.push(...(result.publications as Array<{ id: string }>).map((r) => r.id));
          pages++;
        }
        assert.deepEqual(paged, expected, `${filter.dsl}${order.sort}, pages of ${limit}`);
      }
    }
  }
  return pages;
}

describe('pages cut on the link index', { timeout: 120_000 }, () => {
  let db: Database.Database;
  let pgDb: TestPgDatabase;
  let pg: QueryEngine;
  before(async () => {
    assert.ok(PUBS.some((p) => p.date === null && p.year !== null) && PUBS.some((p) => p.year === null));
    assert.ok(
      PUBS.some((p) => p.orgs.length > 1),
      'some records have two link rows under an in list',
    );
    const path = join(mkdtempSync(join(tmpdir(), 'quarry-page-cut-')), 'records.db');
    const store = openRecordStore(path, { mmapMb: 0, cacheMb: 16 });
    store.upsert('organizations', ORG_RECORDS);
    store.upsert('publications', PUBS.map(record));
    store.finish({ optimize: false });
    store.close();
    db = openReadOnly(path);
    pgDb = await createTestPgDatabase('page_cut');
    const writer = await openPgRecordWriter(pgDb.url);
    try {
      await writer.writeBatch('organizations', ORG_RECORDS);
      await writer.writeBatch('publications', PUBS.map(record));
      await writer.finish();
    } finally {
      await writer.close();
    }
    pg = createPostgresEngine({ url: pgDb.url });
  });
  after(async () => {
    db?.close();
    await pg?.close();
    await pgDb?.drop();
  });

  test('the pages are cut: the bound is read from the link index, range by range where the years are listed', () => {
    const ctx = new SqliteQueryContext(db);
    const segmented: string[] = [];
    for (const filter of FILTERS)
      for (const order of ORDERS) {
        const prepared = prepareQuery(query(filter.dsl, order, 4, 8), { dslVersion: 2 });
        if (prepared.kind !== 'plan') throw new Error('expected a plan');
        const page = ctx.compile(prepared.plan).outputs[0];
        assert.ok(page?.kind === 'records' && page.page.text.includes('WITH cut AS'), `${filter.dsl}${order.sort}`);
        assert.equal(page.totalFromPage, 'never', 'a cut page cannot count the matches');
        const ranges = page.page.text.match(/ AS segment\d+/g)?.length ?? 0;
        if (ranges > 0) segmented.push(`${filter.dsl}: ${ranges}`);
      }
    // (value, year) ranges: 2 × 2, 2 × 1 (grid.1 named twice), 1 × 3; without a year, none.
    assert.deepEqual(
      [...new Set(segmented)],
      [
        'research_orgs.id in ["grid.1", "grid.2"] and year in [2019:2020]: 4',
        'research_orgs.id in ["grid.1", "grid.3", "grid.1"] and year = 2021: 2',
        'research_orgs.id = "grid.2" and year in [2019:2021]: 3',
      ],
    );
  });

  test('SQLite: every page equals the sort done here, with the total', async () => {
    const pages = await walkPages((text) => Promise.resolve(runQuery(db, text, { dslVersion: 2 })));
    assert.ok(pages > 100, `${pages} pages`);
  });

  test('PostgreSQL: every page equals the sort done here, with the total', async () => {
    const pages = await walkPages(async (text) => (await pg.run(text, { dslVersion: 2 })).result);
    assert.ok(pages > 100, `${pages} pages`);
  });
});
