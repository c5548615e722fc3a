// Grants' `raw_affiliations` search index (spec/schema-2026.md §3) on both engines: the
// investigators' affiliation strings as the funder gives them, or an affiliation's name where
// it gives no other (NIH ExPORTER names the organization only); not part of `full_data`. The
// answers of PostgreSQL, SQLite with facets from memory and SQLite with facets in SQL must be
// the ones named. Then a database written before the index existed (its table or vector
// column dropped) gets it filled from the records it holds by the records migration that
// makes it, on each engine.
import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import pg from 'pg';
import { exporterToGrant } from '../../../src/data/import/formats/nih.ts';
import { createPostgresEngine } from '../../../src/engine/backends/postgres/engine.ts';
import { SqliteQueryContext } from '../../../src/engine/backends/sqlite/query-context.ts';
import { prepareQuery } from '../../../src/engine/run-query.ts';
import type { QueryEngine } from '../../../src/engine/types.ts';
import { rawAffiliationsText } from '../../../src/sources/grants/model.ts';
import { listMigrations } from '../../../src/store/postgres/migrate.ts';
import { openRecordStore, RECORD_MIGRATIONS } from '../../../src/store/sqlite/records-store.ts';
import { createTestPgDatabase, writePgRecords, type TestPgDatabase } from '../../fixtures/pg-db.ts';

type Obj = Record<string, unknown>;

/** An NIH ExPORTER project row, as the published files spell the columns. */
const EXPORTER_ROW = {
  APPLICATION_ID: '10123456',
  FULL_PROJECT_NUM: '5R01AI130470-05',
  CORE_PROJECT_NUM: 'R01AI130470',
  FY: '2021',
  PROJECT_TITLE: 'Host factors of dengue virus replication',
  PI_NAMEs: 'DOE, JANE A (contact); SMITH, JOHN;',
  ORG_NAME: 'UNIVERSITY OF TEXAS MED BR GALVESTON',
  TOTAL_COST: '396250',
  PROJECT_START: '04/01/2017',
  PROJECT_END: '03/31/2022',
};

const GRANTS = [
  // As the NIH importer makes it: each PI affiliated by the organization's name alone.
  exporterToGrant(EXPORTER_ROW),
  {
    id: 'grant.2',
    title: 'Coastal erosion models',
    start_date: '2019-01-01',
    investigators: [
      {
        first_name: 'Ana',
        last_name: 'Souza',
        role: 'PI',
        // As the generator and hosted answers give it: the printed string beside the name.
        affiliations: [
          {
            id: 'grid.11899.38',
            name: 'University of São Paulo',
            raw_affiliation: 'Instituto Oceanográfico, Universidade de São Paulo, Brazil',
          },
        ],
      },
    ],
  },
  {
    id: 'grant.3',
    // "Galveston" and "oceanografico" only in the title: found by full_data, not by the index.
    title: 'Galveston bay: an oceanografico survey',
    start_date: '2020-01-01',
    investigators: [{ first_name: 'Lee', last_name: 'Park', role: 'PI', affiliations: [] }],
  },
];

type Run = (query: string) => Promise<Obj>;

const idsOf = (answer: Obj): string[] => ((answer['grants'] ?? []) as Obj[]).map((g) => String(g['id'])).sort();

test('the index text: printed strings, else the names, each once', () => {
  assert.equal(
    rawAffiliationsText(GRANTS[0] as Obj),
    'UNIVERSITY OF TEXAS MED BR GALVESTON',
    'two PIs of one organization name it once',
  );
  assert.equal(rawAffiliationsText(GRANTS[1] as Obj), 'Instituto Oceanográfico, Universidade de São Paulo, Brazil');
  assert.equal(rawAffiliationsText(GRANTS[2] as Obj), '');
});

function searchTests(run: () => Run): void {
  const ids = async (query: string) => idsOf(await run()(query));

  test('in raw_affiliations: the printed strings (diacritics folded), or the names as written', async () => {
    assert.deepEqual(await ids('search grants in raw_affiliations for "galveston" return grants[id]'), [
      'nih.5R01AI130470-05',
    ]);
    assert.deepEqual(await ids('search grants in raw_affiliations for "\\"Sao Paulo\\"" return grants[id]'), [
      'grant.2',
    ]);
    assert.deepEqual(await ids('search grants in raw_affiliations for "oceanografico" return grants[id]'), ['grant.2']);
    assert.deepEqual(await ids('search grants in raw_affiliations for "dengue" return grants[id]'), []);
  });

  test('the text is not in full_data', async () => {
    assert.deepEqual(await ids('search grants for "galveston" return grants[id]'), ['grant.3']);
    assert.deepEqual(await ids('search grants in full_data for "brazil" return grants[id]'), []);
  });

  test('with filters, facets, wildcards, relevance and counts', async () => {
    const answer = await run()(
      'search grants in raw_affiliations for "univ*" where start_year >= 2019 return grants[id + score] sort by relevance return start_year',
    );
    assert.deepEqual(idsOf(answer), ['grant.2']);
    assert.equal(typeof (answer['grants'] as Obj[])[0]?.['score'], 'number');
    assert.deepEqual(answer['start_year'], [{ id: 2019, count: 1 }]);
    assert.equal((answer['_stats'] as Obj)['total_count'], 1);
    const counted = await run()('search grants in raw_affiliations for "galveston OR brazil" return start_year');
    assert.equal((counted['_stats'] as Obj)['total_count'], 2);
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
  const path = join(mkdtempSync(join(tmpdir(), 'quarry-grant-affiliations-')), 'records.db');
  const store = openRecordStore(path, { mmapMb: 0, cacheMb: 16 });
  store.upsert('grants', GRANTS);
  store.finish({ optimize: false, analyze: false });
  store.close();
  return path;
}

describe('grants raw_affiliations search: SQLite', () => {
  const store = openRecordStore(sqliteStore(), { mmapMb: 0, cacheMb: 16 });
  after(() => store.close());
  describe('facets from memory', () => searchTests(() => sqliteRun(new SqliteQueryContext(store.db))));
  describe('facets in SQL', () => searchTests(() => sqliteRun(new SqliteQueryContext(store.db, { columnar: false }))));

  test('a record written again, or removed, leaves no stale text in the index', async () => {
    const again = openRecordStore(sqliteStore(), { mmapMb: 0, cacheMb: 16 });
    try {
      again.upsert('grants', [
        { ...GRANTS[1], investigators: [{ first_name: 'Ana', last_name: 'Souza', role: 'PI', affiliations: [] }] },
      ]);
      again.remove('grants', ['nih.5R01AI130470-05']);
      const run = sqliteRun(new SqliteQueryContext(again.db));
      assert.deepEqual(idsOf(await run('search grants in raw_affiliations for "brazil" return grants[id]')), []);
      assert.deepEqual(idsOf(await run('search grants in raw_affiliations for "galveston" return grants[id]')), []);
    } finally {
      again.close();
    }
  });
});

describe('grants raw_affiliations search: PostgreSQL', { timeout: 120_000 }, () => {
  let db: TestPgDatabase;
  let engine: QueryEngine;
  before(async () => {
    db = await createTestPgDatabase('grantaffsearch');
    await writePgRecords(db.url, [['grants', GRANTS]]);
    engine = createPostgresEngine({ url: db.url });
  });
  after(async () => {
    await engine?.close();
    await db?.drop();
  });
  searchTests(() => async (q) => (await engine.run(q, { dslVersion: 2 })).result);
});

/** The migration that makes the index, found by its name (the integrator may renumber it). */
const FILL_MIGRATION = /^grants.? the raw.affiliations full.text index$/;

describe('the migration fills the index from the records held', { timeout: 120_000 }, () => {
  test('SQLite: its frozen statements, on a database written before it, twice', async () => {
    const migration = RECORD_MIGRATIONS.find((m) => FILL_MIGRATION.test(m.name));
    assert.ok(migration, 'the records migration of the index');
    const store = openRecordStore(sqliteStore(), { mmapMb: 0, cacheMb: 16 });
    const count = () => store.db.prepare<[], { n: number }>('SELECT count(*) AS n FROM grants_fts_apart').get()?.n;
    try {
      // As the database was before it: no table of the column kept apart. A database that
      // held the records before runs the file's statements (it has no upgrade step).
      store.db.exec('DROP TABLE grants_fts_apart_vocab; DROP TABLE grants_fts_apart');
      assert.equal(migration.upgrade, undefined);
      migration.functions?.(store.db);
      store.db.exec(migration.sql());
      assert.equal(count(), GRANTS.length);
      await expectFilled(sqliteRun(new SqliteQueryContext(store.db)));
      // Run again (a database that holds the table already), it adds nothing twice.
      store.db.exec(migration.sql());
      assert.equal(count(), GRANTS.length);
      await expectFilled(sqliteRun(new SqliteQueryContext(store.db)));
    } finally {
      store.close();
    }
  });

  test('PostgreSQL: its code, on a database written before it, twice', async () => {
    const migration = listMigrations({ sets: ['records'] })
      .get('records')
      ?.find((m) => FILL_MIGRATION.test(m.name));
    assert.ok(migration, 'the records migration of the index');
    const db = await createTestPgDatabase('grantafffill');
    try {
      await writePgRecords(db.url, [['grants', GRANTS]]);
      const pool = new pg.Pool({ connectionString: db.url });
      const client = await pool.connect();
      try {
        await client.query('ALTER TABLE grants DROP COLUMN fts_raw_affiliations');
        for (let k = 0; k < 2; k++) {
          if (typeof migration.up === 'function') await migration.up(client);
          else for (const statement of migration.up) await client.query(statement);
        }
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

/** The answers the index gives once filled, as the writer would have filled it. */
async function expectFilled(run: Run): Promise<void> {
  const ids = async (query: string) => idsOf(await run(query));
  assert.deepEqual(await ids('search grants in raw_affiliations for "galveston" return grants[id]'), [
    'nih.5R01AI130470-05',
  ]);
  assert.deepEqual(await ids('search grants in raw_affiliations for "\\"Sao Paulo\\"" return grants[id]'), ['grant.2']);
  assert.deepEqual(await ids('search grants in raw_affiliations for "oceanografico" return grants[id]'), ['grant.2']);
}
