// `research_org_names`, `research_org_country_names` and `research_org_state_names` are read
// through a record's research organizations (model/storage.ts, `readThrough`), not stored
// per record: each record's values are the distinct non-NULL ones of its organizations, in
// order, as the `<owner>_values` rows that held them were. Two organizations in one country
// give the country name once; an organization without a state gives no state name. Both
// engines answer the same, and the records migration (SQLite 10, PostgreSQL 8) deletes the
// rows a database written before it holds.
import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { createPostgresEngine } from '../../src/engine/backends/postgres/engine.ts';
import { runQuery } from '../../src/engine/backends/sqlite/query-context.ts';
import type { QueryEngine } from '../../src/engine/types.ts';
import { isQuarryError } from '../../src/errors/index.ts';
import { valueFieldCode } from '../../src/model/storage.ts';
import { openPgRecordWriter } from '../../src/store/postgres/records-writer.ts';
import { openRecordStore, upgradeRecordDatabase } from '../../src/store/sqlite/records-store.ts';
import { applyRecordMigrations, createTestPgDatabase, queryPg, type TestPgDatabase } from '../fixtures/pg-db.ts';

const ORGS = [
  { id: 'grid.1', name: 'Saarland University', country_code: 'DE', country_name: 'Germany', state_name: 'Saarland' },
  { id: 'grid.2', name: 'Berlin Institute', country_code: 'DE', country_name: 'Germany' },
  { id: 'grid.3', name: 'Andes Lab', country_code: 'CL', country_name: 'Chile', state_name: 'Biobío' },
];
const PUBLICATIONS = [
  { id: 'pub.1', title: 'Two German organizations', year: 2020, research_orgs: ['grid.2', 'grid.1'] },
  { id: 'pub.2', title: 'One Chilean organization', year: 2020, research_orgs: ['grid.3'] },
  { id: 'pub.3', title: 'No organization', year: 2020 },
];
// Grants have none of the three fields; their values tables held the rows all the same.
const GRANTS = [{ id: 'grant.1', title: 'Both countries', start_year: 2018, research_orgs: ['grid.3', 'grid.1'] }];

const READ_THROUGH = ['research_org_names', 'research_org_country_names', 'research_org_state_names'];
const STORED_CODES = READ_THROUGH.map(valueFieldCode);

/** Each query and the answer it must give (ids, or ids with the three lists). */
const CASES: [query: string, expected: unknown][] = [
  [
    `search publications return publications[id + ${READ_THROUGH.join(' + ')}]`,
    [
      {
        id: 'pub.1',
        research_org_names: ['Berlin Institute', 'Saarland University'],
        research_org_country_names: ['Germany'],
        research_org_state_names: ['Saarland'],
      },
      {
        id: 'pub.2',
        research_org_names: ['Andes Lab'],
        research_org_country_names: ['Chile'],
        research_org_state_names: ['Biobío'],
      },
      { id: 'pub.3' },
    ],
  ],
  ['search publications where research_org_country_names = "Germany" return publications[id]', ['pub.1']],
  ['search publications where research_org_country_names != "Germany" return publications[id]', ['pub.2', 'pub.3']],
  ['search publications where research_org_names = "Andes Lab" return publications[id]', ['pub.2']],
  ['search publications where research_org_names ~ "saarland university" return publications[id]', ['pub.1']],
  ['search publications where research_org_country_names is empty return publications[id]', ['pub.3']],
  ['search publications where research_org_country_names is not empty return publications[id]', ['pub.1', 'pub.2']],
  // Two organizations, one country: one value.
  ['search publications where count(research_org_country_names) = 1 return publications[id]', ['pub.1', 'pub.2']],
  ['search publications where count(research_org_names) >= 2 return publications[id]', ['pub.1']],
  ['search publications where year = 2020 and count(research_org_country_names) > 1 return publications[id]', []],
];

type Run = (query: string) => Promise<unknown>;

/** The records of an answer, by id, as ids alone when the query returns only the id. */
function shown(query: string, result: unknown): unknown {
  const records = ((result as Record<string, unknown>)['publications'] ?? []) as Record<string, unknown>[];
  const sorted = [...records].sort((a, b) => String(a.id).localeCompare(String(b.id)));
  return query.includes('[id]') ? sorted.map((r) => r.id) : sorted;
}

function answersTests(run: () => Run): void {
  for (const [query, expected] of CASES) {
    test(query, async () => {
      assert.deepEqual(shown(query, await run()(query)), expected);
    });
  }
}

describe('fields read through the research organizations: SQLite', () => {
  const path = join(mkdtempSync(join(tmpdir(), 'quarry-through-')), 'records.db');
  const store = openRecordStore(path, { mmapMb: 0, cacheMb: 16 });
  store.upsert('organizations', ORGS);
  store.upsert('publications', PUBLICATIONS);
  store.upsert('grants', GRANTS);
  store.finish({ optimize: false, analyze: false });
  after(() => store.close());

  test('finish() stores none of their values', () => {
    for (const table of ['publication_values', 'grant_values']) {
      const held = store.db
        .prepare(`SELECT count(*) FROM ${table} WHERE field IN (${STORED_CODES.map(() => '?').join(', ')})`)
        .pluck()
        .get(...STORED_CODES);
      assert.equal(held, 0, table);
    }
  });
  answersTests(() => (q) => Promise.resolve(runQuery(store.db, q, { dslVersion: 2 })));

  test('none of them is offered as a facet (the compiler counts no repeated values)', () => {
    for (const field of READ_THROUGH) {
      assert.throws(
        () => runQuery(store.db, `search publications return ${field}`, { dslVersion: 2 }),
        (error: unknown) => isQuarryError(error) && error.code === 'SCHEMA_NOT_A_FACET',
        field,
      );
    }
  });

  test('migration 10 deletes the rows a database written before it holds', () => {
    const old = join(mkdtempSync(join(tmpdir(), 'quarry-through-')), 'records.db');
    const writer = openRecordStore(old, { mmapMb: 0, cacheMb: 16 });
    writer.upsert('organizations', ORGS);
    writer.upsert('publications', PUBLICATIONS);
    writer.finish({ optimize: false, analyze: false });
    writer.db.exec(`INSERT INTO publication_values (publication_pk, field, value) VALUES
      (1, '${valueFieldCode('research_org_names')}', 'Saarland University'),
      (1, '${valueFieldCode('research_org_country_names')}', 'Germany'),
      (1, '${valueFieldCode('research_org_state_names')}', 'Saarland')`);
    writer.db.exec("DELETE FROM schema_migrations WHERE migration_set = 'records' AND version = 10");
    const stored = (): number =>
      writer.db
        .prepare("SELECT count(*) FROM publication_values WHERE field IN ('8', '11', '12')")
        .pluck()
        .get() as number;
    assert.equal(stored(), 3);
    writer.close();
    assert.deepEqual(upgradeRecordDatabase(old), [10]);
    const reopened = openRecordStore(old, { mmapMb: 0, cacheMb: 16 });
    try {
      assert.equal(
        reopened.db.prepare("SELECT count(*) FROM publication_values WHERE field IN ('8', '11', '12')").pluck().get(),
        0,
      );
      // Other values stay.
      assert.ok((reopened.db.prepare('SELECT count(*) FROM publication_values').pluck().get() as number) > 0);
    } finally {
      reopened.close();
    }
  });
});

describe('fields read through the research organizations: PostgreSQL', { timeout: 120_000 }, () => {
  let db: TestPgDatabase;
  let engine: QueryEngine;
  before(async () => {
    db = await createTestPgDatabase('through');
    const writer = await openPgRecordWriter(db.url);
    try {
      await writer.writeBatch('organizations', ORGS);
      await writer.writeBatch('publications', PUBLICATIONS);
      await writer.writeBatch('grants', GRANTS);
      await writer.finish();
    } finally {
      await writer.close();
    }
    engine = createPostgresEngine({ url: db.url });
  });
  after(async () => {
    await engine?.close();
    await db?.drop();
  });

  answersTests(() => async (q) => (await engine.run(q, { dslVersion: 2 })).result);

  test('finish() stores none of their values, and migration 8 deletes the rows of an older database', async () => {
    const held = async (): Promise<number> =>
      Number(
        (
          await queryPg<{ n: string }>(
            db.url,
            "SELECT count(*) AS n FROM publication_values WHERE field IN ('8', '11', '12')",
          )
        )[0]?.n,
      );
    assert.equal(await held(), 0);
    const pk = (await queryPg<{ pk: number }>(db.url, "SELECT pk FROM publications WHERE id = 'pub.1'"))[0]?.pk;
    await queryPg(
      db.url,
      `INSERT INTO publication_values (publication_pk, field, value) VALUES (${pk}, '12', 'Saarland University'), (${pk}, '8', 'Germany')`,
    );
    await queryPg(db.url, "DELETE FROM schema_migrations WHERE migration_set = 'records' AND version = 8");
    assert.equal(await held(), 2);
    assert.deepEqual(await applyRecordMigrations(db.url), ['records 8']);
    assert.equal(await held(), 0);
  });
});
