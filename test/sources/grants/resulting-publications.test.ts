// Grants' `resulting_publication_ids` (spec/schema-2026.md §8.1: dropped by the hosted service
// in 2021 for publications' `supporting_grant_ids`, still asked for by real queries): the
// held publications whose supporting grants name the grant, read through a view of
// `publication_grants`, on both engines. It is returned only when asked for, filters work,
// every query naming it carries the hosted deprecation warning, and `describe` leaves it out.
import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { parse } from '../../../src/dsl/index.ts';
import { createPostgresEngine } from '../../../src/engine/backends/postgres/engine.ts';
import { SqliteQueryContext } from '../../../src/engine/backends/sqlite/query-context.ts';
import { prepareQuery } from '../../../src/engine/run-query.ts';
import type { QueryEngine } from '../../../src/engine/types.ts';
import { describeQuery } from '../../../src/schema/index.ts';
import { deprecationWarning } from '../../../src/schema/rules/removed-field.ts';
import { rewriteInKeyOrder } from '../../../src/store/sqlite/full-pages.ts';
import { openRecordStore } from '../../../src/store/sqlite/records-store.ts';
import { createTestPgDatabase, writePgRecords, type TestPgDatabase } from '../../fixtures/pg-db.ts';

type Obj = Record<string, unknown>;

const WARNING = deprecationWarning('resulting_publication_ids', 'publications.supporting_grant_ids');

const GRANTS = [
  { id: 'grant.1', title: 'Malaria vaccines', start_date: '2015-01-01' },
  { id: 'grant.2', title: 'Mosquito nets', start_date: '2016-01-01' },
  { id: 'grant.3', title: 'Nothing published yet', start_date: '2020-01-01' },
];

const PUBLICATIONS = [
  { id: 'pub.1', title: 'A vaccine trial', year: 2017, supporting_grant_ids: ['grant.1'] },
  { id: 'pub.2', title: 'Nets and vaccines', year: 2018, supporting_grant_ids: ['grant.1', 'grant.2'] },
  // A grant this database does not hold: no grant shows it.
  { id: 'pub.3', title: 'Elsewhere', year: 2019, supporting_grant_ids: ['grant.unheld'] },
];

type Run = (query: string, version?: 1 | 2) => Promise<Obj>;

const byId = (answer: Obj): Record<string, Obj> =>
  Object.fromEntries(((answer['grants'] ?? []) as Obj[]).map((g) => [String(g['id']), g]));
const ids = (answer: Obj): string[] => Object.keys(byId(answer)).sort();
const sorted = (value: unknown): unknown => (Array.isArray(value) ? [...(value as string[])].sort() : value);

function behaviour(run: () => Run): void {
  test('returned when asked for: the publications naming the grant, with the warning', async () => {
    const answer = await run()('search grants return grants[id + resulting_publication_ids] sort by id asc');
    const grants = byId(answer);
    assert.deepEqual(sorted(grants['grant.1']?.['resulting_publication_ids']), ['pub.1', 'pub.2']);
    assert.deepEqual(grants['grant.2']?.['resulting_publication_ids'], ['pub.2']);
    // No publication names it: the key is left out, as for any field without a value.
    assert.ok(grants['grant.3'] !== undefined && !('resulting_publication_ids' in grants['grant.3']));
    assert.deepEqual(answer['_warnings'], [WARNING]);
  });

  test('not in basics, and a query not naming it has no warning', async () => {
    const answer = await run()('search grants return grants');
    assert.equal((answer['_stats'] as Obj)['total_count'], 3);
    for (const g of answer['grants'] as Obj[]) assert.ok(!('resulting_publication_ids' in g), String(g['id']));
    assert.equal(answer['_warnings'], undefined);
  });

  test('filters: a publication id, emptiness, with other filters', async () => {
    const named = await run()('search grants where resulting_publication_ids = "pub.2" return grants[id]');
    assert.deepEqual(ids(named), ['grant.1', 'grant.2']);
    assert.deepEqual(named['_warnings'], [WARNING]);
    assert.deepEqual(
      ids(await run()('search grants where resulting_publication_ids in ["pub.1", "pub.3"] return grants[id]')),
      ['grant.1'],
    );
    assert.deepEqual(ids(await run()('search grants where resulting_publication_ids is empty return grants[id]')), [
      'grant.3',
    ]);
    assert.deepEqual(
      ids(
        await run()(
          'search grants where resulting_publication_ids is not empty and start_year = 2016 return grants[id]',
        ),
      ),
      ['grant.2'],
    );
  });

  test('version 1 answers it too, with the same warning', async () => {
    const answer = await run()('search grants where id = "grant.2" return grants[id + resulting_publication_ids]', 1);
    assert.deepEqual(byId(answer)['grant.2']?.['resulting_publication_ids'], ['pub.2']);
    assert.ok((answer['_warnings'] as string[]).includes(WARNING));
  });
}

test('describe leaves it out, as the current hosted schema does', () => {
  const text = 'describe source grants';
  const out = describeQuery(parse(text) as Parameters<typeof describeQuery>[0], { dslVersion: 2, source: text });
  assert.ok(!('resulting_publication_ids' in (out['fields'] as Obj)));
  assert.ok('title' in (out['fields'] as Obj));
});

function sqliteRun(ctx: SqliteQueryContext): Run {
  return (query, version = 2) => {
    const prepared = prepareQuery(query, { dslVersion: version });
    return Promise.resolve(
      prepared.kind === 'plan' ? ctx.execute(prepared.plan) : prepared.kind === 'answer' ? prepared.result : {},
    );
  };
}

function sqliteStore(): string {
  const path = join(mkdtempSync(join(tmpdir(), 'quarry-resulting-pubs-')), 'records.db');
  const store = openRecordStore(path, { mmapMb: 0, cacheMb: 16 });
  store.upsert('grants', GRANTS);
  store.upsert('publications', PUBLICATIONS);
  store.finish({ optimize: false, analyze: false });
  store.close();
  return path;
}

describe('resulting_publication_ids: SQLite', () => {
  const store = openRecordStore(sqliteStore(), { mmapMb: 0, cacheMb: 16 });
  after(() => store.close());
  describe('facets from memory', () => behaviour(() => sqliteRun(new SqliteQueryContext(store.db))));
  describe('facets in SQL', () => behaviour(() => sqliteRun(new SqliteQueryContext(store.db, { columnar: false }))));

  test('in step with the publications written or removed after, and after grants are rewritten', async () => {
    const again = openRecordStore(sqliteStore(), { mmapMb: 0, cacheMb: 16 });
    try {
      again.remove('publications', ['pub.2']);
      again.upsert('publications', [{ id: 'pub.4', title: 'Later', year: 2021, supporting_grant_ids: ['grant.3'] }]);
      // finish() compacts grants by copying them to a new table renamed over the old one,
      // which the view names.
      rewriteInKeyOrder(again.db, 'grants');
      const answer = await sqliteRun(new SqliteQueryContext(again.db))(
        'search grants return grants[id + resulting_publication_ids]',
      );
      const grants = byId(answer);
      assert.deepEqual(grants['grant.1']?.['resulting_publication_ids'], ['pub.1']);
      assert.ok(!('resulting_publication_ids' in (grants['grant.2'] ?? {})));
      assert.deepEqual(grants['grant.3']?.['resulting_publication_ids'], ['pub.4']);
    } finally {
      again.close();
    }
  });
});

describe('resulting_publication_ids: PostgreSQL', { timeout: 120_000 }, () => {
  let db: TestPgDatabase;
  let engine: QueryEngine;
  before(async () => {
    db = await createTestPgDatabase('resultingpubs');
    await writePgRecords(db.url, [
      ['grants', GRANTS],
      ['publications', PUBLICATIONS],
    ]);
    engine = createPostgresEngine({ url: db.url });
  });
  after(async () => {
    await engine?.close();
    await db?.drop();
  });
  behaviour(
    () =>
      async (q, version = 2) =>
        (await engine.run(q, { dslVersion: version })).result,
  );
});
