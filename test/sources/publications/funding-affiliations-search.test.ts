// Publications' `funding` and `raw_affiliations` search indexes (spec/schema-2026.md §3) on
// both engines: `funding` searches the funding section and the funders' names, and
// `raw_affiliations` the authors' affiliation strings as printed; neither is part of
// `full_data`. The answers of PostgreSQL, SQLite with facets from memory and SQLite with
// facets in SQL must be the ones named. Then a database written before the indexes existed
// (their table or vector columns dropped) gets them filled from the records it holds by the
// records migration that makes them, on each engine.
import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import pg from 'pg';
import { createPostgresEngine } from '../../../src/engine/backends/postgres/engine.ts';
import { SqliteQueryContext } from '../../../src/engine/backends/sqlite/query-context.ts';
import { prepareQuery } from '../../../src/engine/run-query.ts';
import type { QueryEngine } from '../../../src/engine/types.ts';
import { listMigrations } from '../../../src/store/postgres/migrate.ts';
import { openRecordStore, RECORD_MIGRATIONS } from '../../../src/store/sqlite/records-store.ts';
import { createTestPgDatabase, writePgRecords, type TestPgDatabase } from '../../fixtures/pg-db.ts';

type Obj = Record<string, unknown>;

const ORGANIZATIONS = [
  { id: 'grid.52788.30', name: 'Wellcome Trust', country_code: 'GB', country_name: 'United Kingdom' },
  { id: 'grid.431093.c', name: 'National Science Foundation', country_code: 'US', country_name: 'United States' },
];

const PUBLICATIONS = [
  {
    id: 'pub.1',
    title: 'Malaria vectors in the Sahel',
    type: 'article',
    year: 2020,
    funding_section: 'Funding: this research was funded by the Wellcome Trust (grant 203135/Z/16/Z).',
    funders: [{ id: 'grid.52788.30', name: 'Wellcome Trust' }],
    authors: [
      {
        first_name: 'Ada',
        last_name: 'Lovelace',
        affiliations: [{ id: 'grid.1', name: 'Saarland University' }],
        raw_affiliation: ['Department of Physics, Universität des Saarlandes, Saarbrücken, Germany'],
      },
    ],
  },
  {
    id: 'pub.2',
    title: 'Graphene at room temperature',
    type: 'article',
    year: 2021,
    // Funded, without a funding section: the funders' names are what `funding` searches.
    funders: [{ id: 'grid.431093.c', name: 'National Science Foundation' }],
    authors: [
      {
        first_name: 'Bo',
        last_name: 'Li',
        // No printed strings: the affiliation's name as written.
        affiliations: [{ name: 'Peking University, Beijing' }],
      },
    ],
  },
  {
    id: 'pub.3',
    // "Wellcome" and "Beijing" only in the title: found by full_data, not by the new indexes.
    title: 'A Wellcome view from Beijing',
    type: 'article',
    year: 2021,
    authors: [
      {
        first_name: 'Carl',
        last_name: 'Bender',
        affiliations: [
          { name: 'Washington University', raw_affiliation: 'Dept. of Physics, Washington University, St. Louis, MO' },
        ],
      },
    ],
  },
];

type Run = (query: string) => Promise<Obj>;

const idsOf = (answer: Obj, key = 'publications'): string[] =>
  ((answer[key] ?? []) as Obj[]).map((p) => String(p.id)).sort();

function searchTests(run: () => Run): void {
  const ids = async (query: string) => idsOf(await run()(query));

  test('in funding: the funding section, and the funders named where there is none', async () => {
    assert.deepEqual(await ids('search publications in funding for "wellcome" return publications[id]'), ['pub.1']);
    assert.deepEqual(await ids('search publications in funding for "203135" return publications[id]'), ['pub.1']);
    assert.deepEqual(
      await ids('search publications in funding for "\\"National Science Foundation\\"" return publications[id]'),
      ['pub.2'],
    );
    assert.deepEqual(await ids('search publications in funding for "graphene" return publications[id]'), []);
  });

  test('in raw_affiliations: the printed strings (diacritics folded), or the names as written', async () => {
    assert.deepEqual(await ids('search publications in raw_affiliations for "Saarbrucken" return publications[id]'), [
      'pub.1',
    ]);
    assert.deepEqual(
      await ids(
        'search publications in raw_affiliations for "\\"Universität des Saarlandes\\"" return publications[id]',
      ),
      ['pub.1'],
    );
    assert.deepEqual(await ids('search publications in raw_affiliations for "beijing" return publications[id]'), [
      'pub.2',
    ]);
    assert.deepEqual(await ids('search publications in raw_affiliations for "physics" return publications[id]'), [
      'pub.1',
      'pub.3',
    ]);
    assert.deepEqual(await ids('search publications in raw_affiliations for "malaria" return publications[id]'), []);
  });

  test('neither text is in full_data', async () => {
    assert.deepEqual(await ids('search publications for "wellcome" return publications[id]'), ['pub.3']);
    assert.deepEqual(await ids('search publications in full_data for "saarbrucken" return publications[id]'), []);
  });

  test('with filters, facets, wildcards, relevance and counts', async () => {
    const answer = await run()(
      'search publications in raw_affiliations for "phys*" where year = 2021 return publications[id + score] sort by relevance return year',
    );
    assert.deepEqual(idsOf(answer), ['pub.3']);
    assert.equal(typeof (answer.publications as Obj[])[0]?.score, 'number');
    assert.deepEqual(answer.year, [{ id: 2021, count: 1 }]);
    assert.equal((answer._stats as Obj).total_count, 1);
    const counted = await run()('search publications in funding for "wellcome OR foundation" return year');
    assert.equal((counted._stats as Obj).total_count, 2);
  });
}

function sqliteRun(ctx: SqliteQueryContext): Run {
  return (query) => {
    const prepared = prepareQuery(query, { dslVersion: 2 });
    return Promise.resolve(
      prepared.kind === 'plan' ? ctx.execute(prepared.plan) : prepared.kind === 'answer' ? prepared.result : {},
    );
  };
}

function sqliteStore(): string {
  const path = join(mkdtempSync(join(tmpdir(), 'quarry-funding-search-')), 'records.db');
  const store = openRecordStore(path, { mmapMb: 0, cacheMb: 16 });
  store.upsert('organizations', ORGANIZATIONS);
  store.upsert('publications', PUBLICATIONS);
  store.finish({ optimize: false, analyze: false });
  store.close();
  return path;
}

describe('funding and raw_affiliations search: SQLite', () => {
  const store = openRecordStore(sqliteStore(), { mmapMb: 0, cacheMb: 16 });
  after(() => store.close());
  describe('facets from memory', () => searchTests(() => sqliteRun(new SqliteQueryContext(store.db))));
  describe('facets in SQL', () => searchTests(() => sqliteRun(new SqliteQueryContext(store.db, { columnar: false }))));

  test('a record written again, or removed, leaves no stale text in the indexes', async () => {
    const again = openRecordStore(sqliteStore(), { mmapMb: 0, cacheMb: 16 });
    try {
      again.upsert('publications', [
        { ...PUBLICATIONS[0], funding_section: 'Funded by the Leverhulme Trust.', funders: [] },
      ]);
      again.remove('publications', ['pub.2']);
      const run = sqliteRun(new SqliteQueryContext(again.db));
      assert.deepEqual(idsOf(await run('search publications in funding for "wellcome" return publications[id]')), []);
      assert.deepEqual(idsOf(await run('search publications in funding for "leverhulme" return publications[id]')), [
        'pub.1',
      ]);
      assert.deepEqual(
        idsOf(await run('search publications in raw_affiliations for "beijing" return publications[id]')),
        [],
      );
    } finally {
      again.close();
    }
  });
});

describe('funding and raw_affiliations search: PostgreSQL', { timeout: 120_000 }, () => {
  let db: TestPgDatabase;
  let engine: QueryEngine;
  before(async () => {
    db = await createTestPgDatabase('fundingsearch');
    await writePgRecords(db.url, [
      ['organizations', ORGANIZATIONS],
      ['publications', PUBLICATIONS],
    ]);
    engine = createPostgresEngine({ url: db.url });
  });
  after(async () => {
    await engine?.close();
    await db?.drop();
  });
  searchTests(() => async (q) => (await engine.run(q, { dslVersion: 2 })).result);
});

/** The migration that makes the indexes, found by its name (the integrator may renumber it). */
const FILL_MIGRATION = /funding and raw.affiliations full.text/;

describe('the migration fills the indexes from the records held', { timeout: 120_000 }, () => {
  test('SQLite: its frozen statements, on a database written before it', async () => {
    const migration = RECORD_MIGRATIONS.find((m) => FILL_MIGRATION.test(m.name));
    assert.ok(migration, 'the records migration of the two indexes');
    const store = openRecordStore(sqliteStore(), { mmapMb: 0, cacheMb: 16 });
    try {
      // As the database was before it: no table of the columns kept apart. A database that
      // held the records before runs the file's statements (it has no upgrade step).
      store.db.exec('DROP TABLE publications_fts_apart_vocab; DROP TABLE publications_fts_apart');
      assert.equal(migration.upgrade, undefined);
      migration.functions?.(store.db);
      store.db.exec(migration.sql());
      const held = store.db.prepare<[], { n: number }>('SELECT count(*) AS n FROM publications_fts_apart').get()?.n;
      assert.equal(held, PUBLICATIONS.length);
      await expectFilled(sqliteRun(new SqliteQueryContext(store.db)));
      // Run again (a database that holds the table already), it adds nothing twice.
      store.db.exec(migration.sql());
      const again = store.db.prepare<[], { n: number }>('SELECT count(*) AS n FROM publications_fts_apart').get()?.n;
      assert.equal(again, PUBLICATIONS.length);
      await expectFilled(sqliteRun(new SqliteQueryContext(store.db)));
    } finally {
      store.close();
    }
  });

  test('PostgreSQL: its code, on a database written before it', async () => {
    const migration = listMigrations({ sets: ['records'] })
      .get('records')
      ?.find((m) => FILL_MIGRATION.test(m.name));
    assert.ok(migration, 'the records migration of the two indexes');
    const db = await createTestPgDatabase('fundingfill');
    try {
      await writePgRecords(db.url, [
        ['organizations', ORGANIZATIONS],
        ['publications', PUBLICATIONS],
      ]);
      const pool = new pg.Pool({ connectionString: db.url });
      const client = await pool.connect();
      try {
        await client.query('ALTER TABLE publications DROP COLUMN fts_funding, DROP COLUMN fts_raw_affiliations');
        if (typeof migration.up === 'function') await migration.up(client);
        else for (const statement of migration.up) await client.query(statement);
      } finally {
        client.release();
        await pool.end();
      }
      const engine = createPostgresEngine({ url: db.url });
      try {
        await expectFilled(async (q) => (await engine.run(q, { dslVersion: 2 })).result);
      } finally {
        await engine.close();
      }
    } finally {
      await db.drop();
    }
  });
});

/** The answers the indexes give once filled, as the writer would have filled them. */
async function expectFilled(run: Run): Promise<void> {
  const ids = async (query: string) => idsOf(await run(query));
  assert.deepEqual(await ids('search publications in funding for "wellcome" return publications[id]'), ['pub.1']);
  assert.deepEqual(
    await ids('search publications in funding for "\\"National Science Foundation\\"" return publications[id]'),
    ['pub.2'],
  );
  assert.deepEqual(await ids('search publications in raw_affiliations for "Saarbrucken" return publications[id]'), [
    'pub.1',
  ]);
  assert.deepEqual(await ids('search publications in raw_affiliations for "beijing" return publications[id]'), [
    'pub.2',
  ]);
  assert.deepEqual(await ids('search publications in raw_affiliations for "physics" return publications[id]'), [
    'pub.1',
    'pub.3',
  ]);
}
