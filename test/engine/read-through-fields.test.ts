// The places and names of the organizations a publication or grant links are read through
// them (model/storage.ts, `readThrough`), not stored per record: each record's values are the
// distinct non-NULL ones of its organizations, in order, as the `<owner>_values` rows that
// held them were. Two organizations in one country give the country once, in lists, in
// count() filters and in facet counts and sums; an organization without a state gives no
// state. Both engines, and the SQLite engine with and without in-memory facets, answer the
// same, and the records migration (SQLite 10, PostgreSQL 8) deletes the rows a database
// written before it holds.
import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import type Database from 'better-sqlite3';
import { createPostgresEngine } from '../../src/engine/backends/postgres/engine.ts';
import { SqliteQueryContext } from '../../src/engine/backends/sqlite/query-context.ts';
import { prepareQuery } from '../../src/engine/run-query.ts';
import type { QueryEngine } from '../../src/engine/types.ts';
import { isQuarryError } from '../../src/errors/index.ts';
import { VALUE_FIELD_CODES } from '../../src/model/storage.ts';
import { openRecordStore, upgradeRecordDatabase } from '../../src/store/sqlite/records-store.ts';
import {
  applyRecordMigrations,
  createTestPgDatabase,
  queryPg,
  writePgRecords,
  type TestPgDatabase,
} from '../fixtures/pg-db.ts';
import { sqliteRecordVersionsFrom } from '../fixtures/record-versions.ts';

const ORGS = [
  {
    id: 'grid.1',
    name: 'Saarland University',
    country_code: 'DE',
    country_name: 'Germany',
    state_code: 'DE-SL',
    state_name: 'Saarland',
    city_id: '2842647',
    city_name: 'Saarbrücken',
  },
  // No state, and a city without an id: keyed by its name.
  { id: 'grid.2', name: 'Berlin Institute', country_code: 'DE', country_name: 'Germany', city_name: 'Berlin' },
  {
    id: 'grid.3',
    name: 'Andes Lab',
    country_code: 'CL',
    country_name: 'Chile',
    state_code: 'CL-BI',
    state_name: 'Biobío',
    city_id: '3893894',
    city_name: 'Concepción',
  },
  { id: 'grid.4', name: 'Wellcome Fund', country_code: 'GB', country_name: 'United Kingdom', city_name: 'London' },
];
const PUBLICATIONS = [
  {
    id: 'pub.1',
    title: 'Two German organizations',
    year: 2020,
    times_cited: 10,
    research_orgs: ['grid.2', 'grid.1'],
    funders: [{ id: 'grid.4', name: 'Wellcome Fund' }],
  },
  {
    id: 'pub.2',
    title: 'One Chilean organization',
    year: 2020,
    times_cited: 5,
    research_orgs: ['grid.3'],
    funders: [
      { id: 'grid.4', name: 'Wellcome Fund' },
      { id: 'grid.1', name: 'Saarland University' },
    ],
  },
  { id: 'pub.3', title: 'No organization', year: 2020, times_cited: 1 },
];
// Grants have the places, not the name lists.
const GRANTS = [
  { id: 'grant.1', title: 'Both countries', start_year: 2018, research_orgs: ['grid.3', 'grid.1', 'grid.2'] },
];

const NAMES = ['research_org_names', 'research_org_country_names', 'research_org_state_names'];
const PLACES = ['research_org_countries', 'research_org_cities', 'research_org_state_codes', 'funder_countries'];
/** Codes 7–13: the rows these fields had in `<owner>_values`. */
const STORED_CODES = [...NAMES, ...PLACES].map((f) => VALUE_FIELD_CODES[f] as string);

/** Each query and the answer it must give: ids, records with their lists (entity lists as ids), or facet rows. */
const CASES: [query: string, expected: unknown][] = [
  [
    `search publications return publications[id + ${NAMES.join(' + ')}]`,
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
  [
    `search publications return publications[id + ${PLACES.join(' + ')}]`,
    [
      {
        id: 'pub.1',
        research_org_countries: ['DE'],
        research_org_cities: ['2842647', 'Berlin'],
        research_org_state_codes: ['DE-SL'],
        funder_countries: ['GB'],
      },
      {
        id: 'pub.2',
        research_org_countries: ['CL'],
        research_org_cities: ['3893894'],
        research_org_state_codes: ['CL-BI'],
        funder_countries: ['DE', 'GB'],
      },
      { id: 'pub.3' },
    ],
  ],
  [
    'search grants return grants[id + research_org_countries + research_org_cities]',
    [{ id: 'grant.1', research_org_countries: ['CL', 'DE'], research_org_cities: ['2842647', '3893894', 'Berlin'] }],
  ],
  ['search publications where research_org_country_names = "Germany" return publications[id]', ['pub.1']],
  ['search publications where research_org_country_names != "Germany" return publications[id]', ['pub.2', 'pub.3']],
  ['search publications where research_org_names = "Andes Lab" return publications[id]', ['pub.2']],
  ['search publications where research_org_names ~ "saarland university" return publications[id]', ['pub.1']],
  ['search publications where research_org_country_names is empty return publications[id]', ['pub.3']],
  ['search publications where research_org_country_names is not empty return publications[id]', ['pub.1', 'pub.2']],
  ['search publications where research_org_countries = "DE" return publications[id]', ['pub.1']],
  ['search publications where research_org_countries in ["CL", "GB"] return publications[id]', ['pub.2']],
  // Beside a year test the link rows' own year narrows them (the index (org_id, year, date)).
  ['search publications where research_org_countries = "DE" and year = 2020 return publications[id]', ['pub.1']],
  ['search publications where research_org_countries = "DE" and year = 2019 return publications[id]', []],
  ['search publications where funder_countries = "DE" return publications[id]', ['pub.2']],
  ['search publications where research_org_cities = "Berlin" return publications[id]', ['pub.1']],
  ['search publications where research_org_state_codes is empty return publications[id]', ['pub.3']],
  ['search publications where research_org_countries != "DE" return publications[id]', ['pub.2', 'pub.3']],
  // Two organizations, one country: one value.
  ['search publications where count(research_org_country_names) = 1 return publications[id]', ['pub.1', 'pub.2']],
  ['search publications where count(research_org_countries) = 1 return publications[id]', ['pub.1', 'pub.2']],
  ['search publications where count(research_org_names) >= 2 return publications[id]', ['pub.1']],
  ['search publications where year = 2020 and count(research_org_countries) > 1 return publications[id]', []],
  ['search publications where count(funder_countries) = 2 return publications[id]', ['pub.2']],
  // Facets: pub.1 counts once for Germany, and its citations once.
  [
    'search publications return research_org_countries aggregate citations_total',
    [
      { id: 'CL', count: 1, citations_total: 5 },
      { id: 'DE', count: 1, citations_total: 10 },
    ],
  ],
  [
    'search publications return funder_countries',
    [
      { id: 'GB', count: 2 },
      { id: 'DE', count: 1 },
    ],
  ],
  [
    'search publications where research_org_countries = "DE" return research_org_cities',
    [
      { id: '2842647', count: 1 },
      { id: 'Berlin', count: 1 },
    ],
  ],
  [
    'search grants return research_org_countries',
    [
      { id: 'CL', count: 1 },
      { id: 'DE', count: 1 },
    ],
  ],
];

type Run = (query: string) => Promise<unknown>;

/**
 * What the answer says that the case checks: the ids of a records list (the records with
 * their lists, entity lists as ids, when more than the id is returned), or a facet's rows
 * (id as text, count and the indicators).
 */
function shown(query: string, result: unknown): unknown {
  const answer = result as Record<string, unknown>;
  const kind = query.startsWith('search grants') ? 'grants' : 'publications';
  if (/return [a-z_]+\[/.test(query)) {
    const records = (answer[kind] ?? []) as Record<string, unknown>[];
    const sorted = [...records].sort((a, b) => String(a.id).localeCompare(String(b.id)));
    if (query.includes('[id]')) return sorted.map((r) => r.id);
    return sorted.map((r) =>
      Object.fromEntries(
        Object.entries(r).map(([key, value]) => [
          key,
          Array.isArray(value)
            ? value.map((v: unknown) => (typeof v === 'object' && v !== null ? String((v as { id: unknown }).id) : v))
            : value,
        ]),
      ),
    );
  }
  const facet = /return ([a-z_]+)/.exec(query)?.[1] as string;
  return ((answer[facet] ?? []) as Record<string, unknown>[]).map(({ id, count, citations_total }) => ({
    id: String(id),
    count,
    ...(citations_total === undefined ? {} : { citations_total }),
  }));
}

function answersTests(run: () => Run): void {
  for (const [query, expected] of CASES) {
    test(query, async () => {
      assert.deepEqual(shown(query, await run()(query)), expected);
    });
  }
}

function sqliteRun(ctx: SqliteQueryContext): Run {
  return (query) => {
    const prepared = prepareQuery(query, { dslVersion: 2 });
    return Promise.resolve(
      prepared.kind === 'plan' ? ctx.execute(prepared.plan) : prepared.kind === 'answer' ? prepared.result : {},
    );
  };
}

/** `<owner>_values` rows of the codes the fields were stored under. */
function storedRows(db: Database.Database): number {
  const marks = STORED_CODES.map(() => '?').join(', ');
  return ['publication_values', 'grant_values'].reduce(
    (n, table) =>
      n +
      Number(
        db
          .prepare(`SELECT count(*) FROM ${table} WHERE field IN (${marks})`)
          .pluck()
          .get(...STORED_CODES),
      ),
    0,
  );
}

describe('fields read through the organizations: SQLite', () => {
  const path = join(mkdtempSync(join(tmpdir(), 'quarry-through-')), 'records.db');
  const store = openRecordStore(path, { mmapMb: 0, cacheMb: 16 });
  store.upsert('organizations', ORGS);
  store.upsert('publications', PUBLICATIONS);
  store.upsert('grants', GRANTS);
  store.finish({ optimize: false, analyze: false });
  after(() => store.close());

  test('finish() stores none of their values', () => {
    assert.equal(storedRows(store.db), 0);
  });
  describe('facets from memory', () => answersTests(() => sqliteRun(new SqliteQueryContext(store.db))));
  describe('facets in SQL', () => answersTests(() => sqliteRun(new SqliteQueryContext(store.db, { columnar: false }))));

  test('the name lists are not offered as facets', () => {
    const ctx = new SqliteQueryContext(store.db);
    for (const field of NAMES) {
      assert.throws(
        () => sqliteRun(ctx)(`search publications return ${field}`),
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
    const rows = STORED_CODES.map((code) => `(1, '${code}', 'a value')`).join(', ');
    writer.db.exec(`INSERT INTO publication_values (publication_pk, field, value) VALUES ${rows}`);
    writer.db.exec(`INSERT INTO grant_values (grant_pk, field, value) VALUES (1, '${STORED_CODES[0]}', 'DE')`);
    writer.db.exec("DELETE FROM schema_migrations WHERE migration_set = 'records' AND version >= 10");
    const kept = writer.db.prepare('SELECT count(*) FROM publication_values').pluck().get() as number;
    assert.equal(storedRows(writer.db), STORED_CODES.length + 1);
    writer.close();
    assert.deepEqual(upgradeRecordDatabase(old), sqliteRecordVersionsFrom(10));
    const reopened = openRecordStore(old, { mmapMb: 0, cacheMb: 16 });
    try {
      assert.equal(storedRows(reopened.db), 0);
      // The values of other fields (open_access, ...) stay.
      assert.equal(
        reopened.db.prepare('SELECT count(*) FROM publication_values').pluck().get(),
        kept - STORED_CODES.length,
      );
    } finally {
      reopened.close();
    }
  });
});

describe('fields read through the organizations: PostgreSQL', { timeout: 120_000 }, () => {
  let db: TestPgDatabase;
  let engine: QueryEngine;
  before(async () => {
    db = await createTestPgDatabase('through');
    await writePgRecords(db.url, [
      ['organizations', ORGS],
      ['publications', PUBLICATIONS],
      ['grants', GRANTS],
    ]);
    engine = createPostgresEngine({ url: db.url });
  });
  after(async () => {
    await engine?.close();
    await db?.drop();
  });

  answersTests(() => async (q) => (await engine.run(q, { dslVersion: 2 })).result);

  test('finish() stores none of their values, and migration 8 deletes the rows of an older database', async () => {
    const codes = STORED_CODES.map((c) => `'${c}'`).join(', ');
    const held = async (): Promise<number> => {
      const rows = await queryPg<{ n: string }>(
        db.url,
        `SELECT (SELECT count(*) FROM publication_values WHERE field IN (${codes})) + (SELECT count(*) FROM grant_values WHERE field IN (${codes})) AS n`,
      );
      return Number(rows[0]?.n);
    };
    assert.equal(await held(), 0);
    const pk = (await queryPg<{ pk: number }>(db.url, "SELECT pk FROM publications WHERE id = 'pub.1'"))[0]?.pk;
    const rows = STORED_CODES.map((code) => `(${pk}, '${code}', 'a value')`).join(', ');
    await queryPg(db.url, `INSERT INTO publication_values (publication_pk, field, value) VALUES ${rows}`);
    await queryPg(db.url, "DELETE FROM schema_migrations WHERE migration_set = 'records' AND version = 8");
    assert.equal(await held(), STORED_CODES.length);
    assert.deepEqual(await applyRecordMigrations(db.url), ['records 8']);
    assert.equal(await held(), 0);
  });
});
