// Version 1's `open_access_categories` answers the hosted v1 objects `{id, name, description}`
// for the held version-2 values, and a v1 `[all]` warns as the hosted v1 did: both compared
// with the hosted service's real v1 `[all]` answer (test/fixtures/spec/sample-results/03).
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { createPostgresEngine } from '../../src/engine/backends/postgres/engine.ts';
import { SqliteQueryContext } from '../../src/engine/backends/sqlite/query-context.ts';
import { openAccessCategories } from '../../src/engine/open-access-categories.ts';
import { prepareQuery } from '../../src/engine/run-query.ts';
import type { QueryEngine } from '../../src/engine/types.ts';
import { openRecordStore } from '../../src/store/sqlite/records-store.ts';
import { createTestPgDatabase, writePgRecords, type TestPgDatabase } from '../fixtures/pg-db.ts';

const hosted = JSON.parse(
  readFileSync(
    new URL('../fixtures/spec/sample-results/03_publications_all_fieldset_with_warnings_v1.json', import.meta.url),
    'utf8',
  ),
) as {
  result_excerpt: {
    _warnings: string[];
    publications: Array<{ open_access_categories: Array<{ id: string; name: string; description: string }> }>;
  };
};
const HOSTED_CATEGORIES = hosted.result_excerpt.publications[0]!.open_access_categories;

describe('version 1 open access categories and [all] warnings', () => {
  test('the held v2 values give the hosted v1 objects', () => {
    // The sample's publication is all OA and bronze (v2 values `oa_all` and `bronze`).
    assert.deepEqual(openAccessCategories(['oa_all', 'bronze']), HOSTED_CATEGORIES);
  });

  test('every held v2 value gives an object with the v1 keys and texts', () => {
    const keys = Object.keys(HOSTED_CATEGORIES[0]!).sort();
    const answered = openAccessCategories(['oa_all', 'gold', 'hybrid', 'bronze', 'green', 'closed']) as Array<
      Record<string, unknown>
    >;
    for (const category of answered) {
      assert.deepEqual(Object.keys(category).sort(), keys);
      for (const value of Object.values(category)) assert.ok(typeof value === 'string' && value.length > 0);
    }
    assert.equal(new Set(answered.map((c) => c.id)).size, answered.length);
  });

  test('a v1 [all] gives the hosted warnings, in their order', () => {
    const prepared = prepareQuery('search publications where id = "pub.1104296509" return publications[all] limit 1', {
      dslVersion: 1,
    });
    assert.equal(prepared.kind, 'plan');
    assert.deepEqual(prepared.kind === 'plan' ? prepared.plan.warnings : [], hosted.result_excerpt._warnings);
  });
});

// A v1 query names the categories by the v1 ids (`gold_bronze`), the data holds the v2
// values (`bronze`): filters translate the ids, facet rows answer by them.
const PUBLICATIONS = [
  { id: 'pub.1', title: 'Bronze', type: 'article', year: 2020, open_access: ['oa_all', 'bronze'] },
  { id: 'pub.2', title: 'Gold', type: 'article', year: 2020, open_access: ['oa_all', 'gold'] },
  { id: 'pub.3', title: 'Green', type: 'article', year: 2020, open_access: ['oa_all', 'green'] },
  { id: 'pub.4', title: 'Closed', type: 'article', year: 2021, open_access: ['closed'] },
];

type Obj = Record<string, unknown>;
type Run = (query: string) => Promise<Obj>;

const idsOf = (answer: Obj) => ((answer.publications ?? []) as Obj[]).map((p) => p.id).sort();

function v1Tests(run: () => Run): void {
  // The hosted sample's ids: its publication is all OA and bronze.
  const [oaAll, bronze] = HOSTED_CATEGORIES.map((c) => c.id);

  test('filters by the v1 ids: =, .id =, in, and the green ids', async () => {
    const ids = async (where: string) =>
      idsOf(await run()(`search publications where ${where} return publications[id] sort by id asc`));
    assert.deepEqual(await ids(`open_access_categories = "${bronze}"`), ['pub.1']);
    assert.deepEqual(await ids(`open_access_categories = "${oaAll}"`), ['pub.1', 'pub.2', 'pub.3']);
    assert.deepEqual(await ids('open_access_categories.id = "gold_pure"'), ['pub.2']);
    assert.deepEqual(await ids('open_access_categories in ["gold_pure", "closed"]'), ['pub.2', 'pub.4']);
    assert.deepEqual(await ids('open_access_categories != "closed"'), ['pub.1', 'pub.2', 'pub.3']);
    // v1 told the versions of a green copy apart; the data holds one green value for all three.
    for (const green of ['green_sub', 'green_acc', 'green_pub']) {
      assert.deepEqual(await ids(`open_access_categories = "${green}"`), ['pub.3'], green);
    }
  });

  test('a filtered v1 query returns the v1 objects and facets by the v1 ids', async () => {
    const answer = await run()(
      `search publications where open_access_categories = "${bronze}" return publications[id + open_access_categories] return open_access_categories`,
    );
    const [pub] = answer.publications as Obj[];
    const byId = (list: unknown) => [...(list as Obj[])].sort((a, b) => String(a.id).localeCompare(String(b.id)));
    assert.equal(pub?.id, 'pub.1');
    assert.deepEqual(byId(pub?.open_access_categories), byId(openAccessCategories(['oa_all', 'bronze'])));
    // Equal counts in the order of the v1 ids, as facet ties are.
    assert.deepEqual(answer.open_access_categories, [
      { id: bronze, count: 1, name: 'Bronze' },
      { id: oaAll, count: 1, name: 'All OA' },
    ]);
    assert.ok((answer._warnings as string[]).some((w) => w.startsWith("Field 'open_access_categories' is deprecated")));
  });

  test('a facet over every record: one row per held value, by its v1 id, with its name', async () => {
    const rows = (await run()('search publications return open_access_categories')).open_access_categories as Obj[];
    assert.deepEqual(rows[0], { id: oaAll, count: 3, name: 'All OA' });
    assert.deepEqual(
      rows.map((r) => `${String(r.id)}:${String(r.count)}`),
      ['oa_all:3', 'closed:1', 'gold_bronze:1', 'gold_pure:1', 'green:1'],
    );
    for (const row of rows) assert.deepEqual(Object.keys(row), ['id', 'count', 'name']);
  });
}

describe('version 1 open_access_categories by v1 ids: SQLite', () => {
  const path = join(mkdtempSync(join(tmpdir(), 'quarry-oa-v1-')), 'records.db');
  const store = openRecordStore(path, { mmapMb: 0, cacheMb: 16 });
  store.upsert('publications', PUBLICATIONS);
  store.finish({ optimize: false, analyze: false });
  after(() => store.close());
  const sqliteRun =
    (ctx: SqliteQueryContext): Run =>
    (query) => {
      const prepared = prepareQuery(query, { dslVersion: 1 });
      return Promise.resolve(
        prepared.kind === 'plan' ? ctx.execute(prepared.plan) : prepared.kind === 'answer' ? prepared.result : {},
      );
    };
  describe('facets from memory', () => v1Tests(() => sqliteRun(new SqliteQueryContext(store.db))));
  describe('facets in SQL', () => v1Tests(() => sqliteRun(new SqliteQueryContext(store.db, { columnar: false }))));
});

describe('version 1 open_access_categories by v1 ids: PostgreSQL', { timeout: 120_000 }, () => {
  let db: TestPgDatabase;
  let engine: QueryEngine;
  before(async () => {
    db = await createTestPgDatabase('oav1');
    await writePgRecords(db.url, [['publications', PUBLICATIONS]]);
    engine = createPostgresEngine({ url: db.url });
  });
  after(async () => {
    await engine?.close();
    await db?.drop();
  });
  v1Tests(() => async (q) => (await engine.run(q, { dslVersion: 1 })).result);
});
