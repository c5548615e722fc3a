// The policy_documents source on both engines, over the grey-literature fixture
// (test/sources/reports/fixture.ts: a constructed Crossref report the importer files as a
// policy document, and two hand-made documents of a user's own corpus): every query below
// must give the answer it names on PostgreSQL and on SQLite (facets from memory and in SQL):
// the publisher and its places as single entities, the cited publications by id and as
// links, the two-step "publications a policy cites" shape, facets, full text, paging.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import type Database from 'better-sqlite3';
import { recordWriterFor } from '../../../src/backends.ts';
import { importFiles } from '../../../src/data/import/index.ts';
import { createPostgresEngine } from '../../../src/engine/backends/postgres/engine.ts';
import { SqliteQueryContext } from '../../../src/engine/backends/sqlite/query-context.ts';
import type { QueryEngine } from '../../../src/engine/types.ts';
import { isQuarryError } from '../../../src/errors/index.ts';
import { openReadOnly } from '../../../src/store/sqlite/open.ts';
import { POLICY_DOCUMENTS } from '../../../src/sources/policy_documents/fields.ts';
import type { PolicyDocumentRecord } from '../../../src/sources/policy_documents/native.ts';
import { createTestPgDatabase, type TestPgDatabase } from '../../fixtures/pg-db.ts';
import { IDB, ORGANIZATIONS, WHO, writeGreyShards } from '../reports/fixture.ts';

const dir = mkdtempSync(join(tmpdir(), 'quarry-policy-'));
const { policyDocuments } = writeGreyShards(dir);

type Row = Readonly<Record<string, unknown>>;

const idsWhere = (keep: (p: PolicyDocumentRecord) => boolean): string[] =>
  policyDocuments
    .filter(keep)
    .map((p) => p.id)
    .sort();

/** Newest first by year, ties by id. */
const byDefaultOrder = [...policyDocuments].sort((a, b) => b.year - a.year || (a.id < b.id ? -1 : 1));

function display(id: string): Row {
  const { country_code: _c, state_code: _s, city_id: _i, ...shown } = ORGANIZATIONS.find((o) => o.id === id)!;
  return shown;
}

const OWN = 'policy.2000000001';
const CROSSREF = 'doi:10.18235/0008810';

const CASES: readonly (readonly [query: string, expected: unknown])[] = [
  ['search policy_documents return policy_documents[id] limit 1', { total: policyDocuments.length }],
  [
    'search policy_documents return policy_documents[id + year]',
    byDefaultOrder.map((p) => ({ id: p.id, year: p.year })),
  ],
  [
    'search policy_documents return policy_documents[id + year] sort by year asc limit 2 skip 1',
    [...byDefaultOrder]
      .reverse()
      .slice(1, 3)
      .map((p) => ({ id: p.id, year: p.year })),
  ],
  ['search policy_documents where year >= 2016 return policy_documents[id]', idsWhere((p) => p.year >= 2016)],
  [
    'search policy_documents where title ~ "physical activity" return policy_documents[id]',
    idsWhere((p) => /physical activity/i.test(p.title)),
  ],
  ['search policy_documents where date_inserted >= "2021-01-01" return policy_documents[id]', [OWN]],
  // The publisher and its places.
  [
    `search policy_documents where publisher_org = "${WHO}" return policy_documents[id]`,
    idsWhere((p) => p.publisher_org === WHO),
  ],
  [
    'search policy_documents where publisher_org.name = "Inter-American Development Bank" return policy_documents[id]',
    [CROSSREF],
  ],
  [
    'search policy_documents where publisher_org_country = "CH" return policy_documents[id]',
    idsWhere((p) => p.publisher_org_country === 'CH'),
  ],
  ['search policy_documents where publisher_org_country is empty return policy_documents[id]', [CROSSREF]],
  ['search policy_documents where publisher_org_city = "2660646" return policy_documents[id]', [OWN]],
  ['search policy_documents where publisher_org_state = "CH-GE" return policy_documents[id]', [OWN]],
  // The publications it cites: by id, as links, and by a link's DOI.
  [
    'search policy_documents where publication_ids = "pub.1100000001" return policy_documents[id]',
    idsWhere((p) => p.publication_ids?.includes('pub.1100000001') === true),
  ],
  ['search policy_documents where publications = "pub.1100000002" return policy_documents[id]', [OWN]],
  ['search policy_documents where publications.doi = "10.1000/sb.2" return policy_documents[id]', [OWN]],
  [
    'search policy_documents where publication_ids = "doi:10.1001/jama.2025.0548" return policy_documents[id]',
    [CROSSREF],
  ],
  ['search policy_documents where count(publication_ids) > 1 return policy_documents[id]', [OWN]],
  [
    'search policy_documents where category_for = "42" return policy_documents[id]',
    idsWhere((p) => p.category_for !== undefined && p.category_for.some((c) => c.id === '42')),
  ],
  ['search policy_documents where category_hra.name = "Public Health" return policy_documents[id]', [OWN]],
  // A page's entities with the names their tables hold.
  [
    `search policy_documents where id = "${OWN}" return policy_documents[id + publisher_org + publisher_org_country + publisher_org_city + publisher_org_state + publication_ids + publications]`,
    [
      {
        id: OWN,
        publisher_org: { id: WHO, ...display(WHO) },
        publisher_org_country: { id: 'CH', name: 'Switzerland' },
        publisher_org_city: { id: 2660646, name: 'Geneva' },
        publisher_org_state: { id: 'CH-GE', name: 'Geneva' },
        publication_ids: ['pub.1100000001', 'pub.1100000002'],
        publications: [
          { id: 'pub.1100000001', doi: '10.1000/pa.1' },
          { id: 'pub.1100000002', doi: '10.1000/sb.2' },
        ],
      },
    ],
  ],
  // Facets.
  [
    'search policy_documents return year',
    [
      { id: 2000, count: 1 },
      { id: 2016, count: 1 },
      { id: 2020, count: 1 },
    ],
  ],
  [
    'search policy_documents return publisher_org',
    [
      { id: WHO, count: 2, ...display(WHO) },
      { id: IDB, count: 1, ...display(IDB) },
    ],
  ],
  ['search policy_documents return publisher_org_country', [{ id: 'CH', count: 2, name: 'Switzerland' }]],
  ['search policy_documents return publisher_org_city', [{ id: 2660646, count: 1, name: 'Geneva' }]],
  ['search policy_documents return publisher_org_state', [{ id: 'CH-GE', count: 1, name: 'Geneva' }]],
  // `search policy_documents ... return publications`: the publications they cite, by count.
  [
    'search policy_documents return publications',
    [
      { id: 'pub.1100000001', count: 2 },
      { id: 'doi:10.1001/jama.2025.0548', count: 1 },
      { id: 'pub.1100000002', count: 1 },
    ],
  ],
  ['search policy_documents where year = 2016 return publications', [{ id: 'pub.1100000001', count: 1 }]],
  ['search policy_documents return category_for', [{ id: '42', count: 2, name: '42 Health Sciences' }]],
  // Full text: the title, and in full_data the publisher's name too.
  ['search policy_documents in title_only for "guidelines" return policy_documents[id]', [OWN]],
  ['search policy_documents in title_only for "organization" return policy_documents[id]', []],
  [
    'search policy_documents for "organization" return policy_documents[id]',
    idsWhere((p) => p.publisher_org_name === 'World Health Organization'),
  ],
  ['search policy_documents for "biodiversity" return policy_documents[id]', [CROSSREF]],
];

function shown(query: string, expected: unknown, answer: Record<string, unknown>): unknown {
  if (expected !== null && typeof expected === 'object' && 'total' in expected)
    return { total: (answer['_stats'] as { total_count: number }).total_count };
  if (/return policy_documents\[id\]/.test(query))
    return ((answer['policy_documents'] ?? []) as Row[]).map((r) => r['id'] as string).sort();
  const key = /return ([a-z_0-9]+)/.exec(query)?.[1] as string;
  return answer[key] ?? [];
}

type Run = (query: string) => Promise<Record<string, unknown>>;

function answers(run: () => Run): void {
  for (const [query, expected] of CASES)
    test(query, async () => {
      assert.deepEqual(shown(query, expected, await run()(query)), expected);
    });
}

const SQLITE = join(dir, 'records.db');
let pgDb: TestPgDatabase;
let pgEngine: QueryEngine;
let db: Database.Database;

before(async () => {
  await importFiles({ paths: [dir], open: recordWriterFor(SQLITE), format: 'quarry', onError: 'abort' });
  db = openReadOnly(SQLITE);
  pgDb = await createTestPgDatabase('policy_documents');
  await importFiles({ paths: [dir], open: recordWriterFor(pgDb.url), format: 'quarry', onError: 'abort' });
  pgEngine = createPostgresEngine({ url: pgDb.url });
});
after(async () => {
  db?.close();
  await pgEngine?.close();
  await pgDb?.drop();
  rmSync(dir, { recursive: true, force: true });
});

describe('describe source policy_documents', () => {
  test('lists the 22 fields, the publisher a single organization', () => {
    const described = new SqliteQueryContext(db).run('describe source policy_documents', { dslVersion: 2 }) as {
      fields: Record<string, { type: string; is_entity: boolean; is_multivalue: boolean; is_facet: boolean }>;
      fieldsets: string[];
      search_fields: string[];
    };
    assert.equal(Object.keys(described.fields).length, 22);
    assert.deepEqual(described.fields['publisher_org'], {
      ...described.fields['publisher_org'],
      type: 'organizations',
      is_entity: true,
      is_multivalue: false,
      is_facet: true,
    });
    assert.deepEqual(described.search_fields, ['title_only', 'full_data']);
  });
});

describe('the publications a policy document cites, in two steps', () => {
  test('its publication_ids, then search publications where id in [...]', () => {
    const ctx = new SqliteQueryContext(db);
    const first = ctx.run(`search policy_documents where id = "${OWN}" return policy_documents[publication_ids]`, {
      dslVersion: 2,
    }) as { policy_documents: { publication_ids: string[] }[] };
    const ids = first.policy_documents[0]?.publication_ids ?? [];
    assert.deepEqual(ids, ['pub.1100000001', 'pub.1100000002']);
    const second = ctx.run(
      `search publications where id in ${JSON.stringify(ids)} return publications[id + title] sort by id asc`,
      { dslVersion: 2 },
    ) as { publications: Row[] };
    assert.deepEqual(second.publications, [
      { id: 'pub.1100000001', title: 'Physical activity and health' },
      { id: 'pub.1100000002', title: 'Sedentary behaviour' },
    ]);
  });

  test('reports have no field naming publications in the schema: a coded refusal', () => {
    assert.throws(
      () => new SqliteQueryContext(db).run('search reports return publications', { dslVersion: 2 }),
      (error: unknown) => isQuarryError(error) && error.code === 'SCHEMA_UNKNOWN_RESULT',
    );
  });
});

describe('policy_documents on PostgreSQL', { timeout: 120_000 }, () => {
  answers(() => async (query) => (await pgEngine.run(query, { dslVersion: 2 })).result);
});

describe('policy_documents on SQLite, facets from memory', () => {
  answers(
    () => (query) =>
      Promise.resolve(new SqliteQueryContext(db).run(query, { dslVersion: 2 }) as Record<string, unknown>),
  );
});

describe('policy_documents on SQLite, facets in SQL', () => {
  answers(
    () => (query) =>
      Promise.resolve(
        new SqliteQueryContext(db, { columnar: false }).run(query, { dslVersion: 2 }) as Record<string, unknown>,
      ),
  );
});

describe('both engines give the same whole answers', { timeout: 120_000 }, () => {
  const queries = [
    'search policy_documents return policy_documents limit 40',
    'search policy_documents return policy_documents[basics + categories] limit 40',
    `search policy_documents return policy_documents[${POLICY_DOCUMENTS.fields
      .map(([name]) => name)
      .filter((name) => name !== 'score')
      .join(' + ')}] limit 40`,
  ];
  for (const query of queries)
    test(query, async () => {
      const sqlite = new SqliteQueryContext(db).run(query, { dslVersion: 2 });
      const pg = (await pgEngine.run(query, { dslVersion: 2 })).result;
      assert.equal(JSON.stringify(pg), JSON.stringify(sqlite));
    });
});
