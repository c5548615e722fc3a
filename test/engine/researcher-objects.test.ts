// Researchers nested in answers (a publication's `researchers`, researcher facet rows) carry
// the keys the hosted service sends, with its value types: the keys and types are read from
// its real answer (test/fixtures/spec/sample-results/07), and the answers of SQLite (facets
// from memory and in SQL) and PostgreSQL are compared with them.
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { createPostgresEngine } from '../../src/engine/backends/postgres/engine.ts';
import { SqliteQueryContext } from '../../src/engine/backends/sqlite/query-context.ts';
import { prepareQuery } from '../../src/engine/run-query.ts';
import type { QueryEngine } from '../../src/engine/types.ts';
import { openRecordStore } from '../../src/store/sqlite/records-store.ts';
import { createTestPgDatabase, writePgRecords, type TestPgDatabase } from '../fixtures/pg-db.ts';

type Obj = Record<string, unknown>;

const hosted = JSON.parse(
  readFileSync(
    new URL('../fixtures/spec/sample-results/07_publications_researchers_field.json', import.meta.url),
    'utf8',
  ),
) as { result_excerpt: { publications: Array<{ researchers: Obj[] }> } };
const HOSTED_RESEARCHERS = hosted.result_excerpt.publications.flatMap((p) => p.researchers);

/** A value's JSON type, lists with the types of their items (`list<string>`). */
const jsonType = (value: unknown): string =>
  Array.isArray(value)
    ? `list<${[...new Set(value.map(jsonType))].sort().join('|')}>`
    : value === null
      ? 'null'
      : typeof value;

/** Each key of the hosted researcher objects with the types its values take there. */
const HOSTED_TYPES = new Map<string, Set<string>>();
for (const r of HOSTED_RESEARCHERS)
  for (const [key, value] of Object.entries(r)) {
    if (!HOSTED_TYPES.has(key)) HOSTED_TYPES.set(key, new Set());
    HOSTED_TYPES.get(key)?.add(jsonType(value));
  }
/** The keys every hosted researcher object has (`orcid_id` is left out when there is none). */
const ALWAYS = [...HOSTED_TYPES.keys()].filter((k) => HOSTED_RESEARCHERS.every((r) => k in r)).sort();

const RESEARCHERS = [
  {
    id: 'ur.01',
    first_name: 'Susana',
    last_name: 'Rocha',
    orcid_id: ['0000-0003-1258-9396'],
    research_orgs: ['grid.5949.1', 'grid.5596.f'],
  },
  { id: 'ur.02', first_name: 'Nagma', last_name: 'Parveen', research_orgs: ['grid.5596.f'] },
];
const ORGANIZATIONS = [
  { id: 'grid.5949.1', name: 'University of Münster', country_code: 'DE', country_name: 'Germany' },
  { id: 'grid.5596.f', name: 'KU Leuven', country_code: 'BE', country_name: 'Belgium' },
];
const PUBLICATIONS = [
  {
    id: 'pub.1',
    title: 'Two researchers',
    type: 'article',
    year: 2018,
    doi: '10.3390/v10050250',
    researchers: ['ur.01', 'ur.02'],
    authors: [
      { first_name: 'Susana', last_name: 'Rocha', researcher_id: 'ur.01', affiliations: [] },
      { first_name: 'Nagma', last_name: 'Parveen', researcher_id: 'ur.02', affiliations: [] },
    ],
  },
];

type Run = (query: string) => Promise<Obj>;

function assertHostedShape(researcher: Obj, extra: readonly string[] = []): void {
  const keys = Object.keys(researcher).filter((k) => !extra.includes(k));
  for (const key of ALWAYS) assert.ok(keys.includes(key), `${String(researcher.id)} has ${key}`);
  for (const key of keys) {
    const seen = HOSTED_TYPES.get(key);
    assert.ok(seen !== undefined, `${key} is a key the hosted service sends`);
    assert.ok(
      seen.has(jsonType(researcher[key])),
      `${key}: ${jsonType(researcher[key])}, hosted: ${[...seen].join(', ')}`,
    );
  }
}

function researcherTests(run: () => Run): void {
  test('the hosted sample gives the keys and types (guards the reading above)', () => {
    assert.deepEqual(ALWAYS, ['first_name', 'id', 'last_name', 'research_orgs']);
    assert.deepEqual([...(HOSTED_TYPES.get('orcid_id') ?? [])], ['list<string>']);
  });

  test("a publication's researchers carry the hosted keys, with their value types", async () => {
    const answer = await run()('search publications return publications[doi + researchers]');
    const [pub] = answer.publications as Obj[];
    const researchers = [...(pub?.researchers as Obj[])].sort((a, b) => String(a.id).localeCompare(String(b.id)));
    assert.equal(researchers.length, 2);
    for (const r of researchers) assertHostedShape(r);
    assert.deepEqual(researchers[0]?.orcid_id, ['0000-0003-1258-9396']);
    assert.deepEqual([...(researchers[0]?.research_orgs as string[])].sort(), ['grid.5596.f', 'grid.5949.1']);
    // Without an ORCID iD the key is left out, as the hosted service does.
    assert.equal('orcid_id' in (researchers[1] ?? {}), false);
  });

  test('researcher facet rows carry the same keys, and count', async () => {
    const rows = (await run()('search publications return researchers')).researchers as Obj[];
    assert.equal(rows.length, 2);
    for (const row of rows) {
      assert.equal(row.count, 1);
      assertHostedShape(row, ['count']);
    }
  });
}

describe('researcher objects: SQLite', () => {
  const path = join(mkdtempSync(join(tmpdir(), 'quarry-researcher-objects-')), 'records.db');
  const store = openRecordStore(path, { mmapMb: 0, cacheMb: 16 });
  store.upsert('organizations', ORGANIZATIONS);
  store.upsert('researchers', RESEARCHERS);
  store.upsert('publications', PUBLICATIONS);
  store.finish({ optimize: false, analyze: false });
  after(() => store.close());
  const sqliteRun =
    (ctx: SqliteQueryContext): Run =>
    (query) => {
      const prepared = prepareQuery(query, { dslVersion: 2 });
      return Promise.resolve(
        prepared.kind === 'plan' ? ctx.execute(prepared.plan) : prepared.kind === 'answer' ? prepared.result : {},
      );
    };
  describe('facets from memory', () => researcherTests(() => sqliteRun(new SqliteQueryContext(store.db))));
  describe('facets in SQL', () =>
    researcherTests(() => sqliteRun(new SqliteQueryContext(store.db, { columnar: false }))));
});

describe('researcher objects: PostgreSQL', { timeout: 120_000 }, () => {
  let db: TestPgDatabase;
  let engine: QueryEngine;
  before(async () => {
    db = await createTestPgDatabase('researcherobjects');
    await writePgRecords(db.url, [
      ['organizations', ORGANIZATIONS],
      ['researchers', RESEARCHERS],
      ['publications', PUBLICATIONS],
    ]);
    engine = createPostgresEngine({ url: db.url });
  });
  after(async () => {
    await engine?.close();
    await db?.drop();
  });
  researcherTests(() => async (q) => (await engine.run(q, { dslVersion: 2 })).result);
});
