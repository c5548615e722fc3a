// Concept and reference links hold the id of their text in a vocabulary (model/storage.ts,
// `interned`): concept names in `concept_names`, shared by publications and grants, and
// cited ids in `cited_ids`. Filters, lists, citation counts and `citations_per_year` answer
// as they did when the links held the text (the expected answers below are what the engines
// gave then), in both engines; a rewrite of a record's links follows it; and the records
// migrations (SQLite 11 and 12, PostgreSQL 9 and 10) turn the links of a database written
// before them into ids.
import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import Database from 'better-sqlite3';
import { createPostgresEngine } from '../../src/engine/backends/postgres/engine.ts';
import { SqliteQueryContext } from '../../src/engine/backends/sqlite/query-context.ts';
import { prepareQuery } from '../../src/engine/run-query.ts';
import type { QueryEngine } from '../../src/engine/types.ts';
import { migrate } from '../../src/store/sqlite/migrate.ts';
import { RECORD_MIGRATIONS } from '../../src/store/sqlite/records-schema.ts';
import { openRecordStore, upgradeRecordDatabase } from '../../src/store/sqlite/records-store.ts';
import {
  applyRecordMigrations,
  createTestPgDatabase,
  queryPg,
  writePgRecords,
  type TestPgDatabase,
} from '../fixtures/pg-db.ts';
import { pgRecordVersionsFrom, sqliteRecordVersionsFrom } from '../fixtures/record-versions.ts';

const PUBLICATIONS = [
  {
    id: 'pub.1',
    title: 'Two concepts',
    year: 2020,
    concepts: ['graphene', 'Battery Storage'],
    concepts_scores: [
      { concept: 'graphene', relevance: 0.9 },
      { concept: 'Battery Storage', relevance: 0.5 },
    ],
    // A held publication, another, and one outside the corpus.
    reference_ids: ['pub.3', 'W999', 'pub.2'],
  },
  { id: 'pub.2', title: 'One concept', year: 2021, concepts: ['graphene'], reference_ids: ['pub.3'] },
  { id: 'pub.3', title: 'No concept', year: 2022 },
];
const GRANTS = [{ id: 'grant.1', title: 'Shared names', start_year: 2019, concepts: ['graphene', 'solar cells'] }];
/** pub.2 rewritten: its old concept and reference are gone, a new name gets an id. */
const REWRITTEN = { id: 'pub.2', title: 'One concept', year: 2021, concepts: ['perovskite'] };

/** Each query and the ids (or records) it must give. */
const CASES: [query: string, expected: unknown][] = [
  ['search publications where concepts = "graphene" return publications[id]', ['pub.1', 'pub.2']],
  // Structured fields compare without regard to case.
  ['search publications where concepts = "battery storage" return publications[id]', ['pub.1']],
  ['search publications where concepts = "GRAPHENE" return publications[id]', ['pub.1', 'pub.2']],
  ['search publications where concepts != "graphene" return publications[id]', ['pub.3']],
  ['search publications where concepts in ["solar cells", "Battery Storage"] return publications[id]', ['pub.1']],
  ['search publications where concepts is empty return publications[id]', ['pub.3']],
  ['search publications where concepts is not empty return publications[id]', ['pub.1', 'pub.2']],
  [
    // Read from the links, in the order of the text (as when they held it).
    'search publications return publications[id + concepts]',
    [
      { id: 'pub.1', concepts: ['Battery Storage', 'graphene'] },
      { id: 'pub.2', concepts: ['graphene'] },
      { id: 'pub.3' },
    ],
  ],
  ['search grants where concepts = "solar cells" return grants[id]', ['grant.1']],
  ['search grants where concepts = "Battery Storage" return grants[id]', []],
  ['search publications where reference_ids = "pub.3" return publications[id]', ['pub.1', 'pub.2']],
  ['search publications where reference_ids in ["W999", "pub.9"] return publications[id]', ['pub.1']],
  ['search publications where reference_ids is empty return publications[id]', ['pub.3']],
  [
    'search publications return publications[id + reference_ids + times_cited]',
    [
      { id: 'pub.1', reference_ids: ['W999', 'pub.2', 'pub.3'], times_cited: 0 },
      { id: 'pub.2', reference_ids: ['pub.3'], times_cited: 1 },
      { id: 'pub.3', times_cited: 2 },
    ],
  ],
  [
    'search publications where id = "pub.3" return citations_per_year(2019, 2022)',
    { 2019: 0, 2020: 1, 2021: 1, 2022: 0 },
  ],
  ['search publications return citations_per_year(2019, 2022)', { 2019: 0, 2020: 2, 2021: 1, 2022: 0 }],
];
const AFTER_REWRITE: [query: string, expected: unknown][] = [
  ['search publications where concepts = "graphene" return publications[id]', ['pub.1']],
  ['search publications where concepts = "perovskite" return publications[id]', ['pub.2']],
  ['search publications where reference_ids = "pub.3" return publications[id]', ['pub.1']],
  [
    'search publications where id = "pub.3" return citations_per_year(2019, 2022)',
    { 2019: 0, 2020: 1, 2021: 0, 2022: 0 },
  ],
];

type Run = (query: string) => Promise<unknown>;

/** The ids of the records, or the records as returned, sorted by id. */
function shown(query: string, result: unknown): unknown {
  if (query.includes('citations_per_year')) return (result as Record<string, unknown>)['citations_per_year'];
  const kind = query.startsWith('search grants') ? 'grants' : 'publications';
  const records = ((result as Record<string, unknown>)[kind] ?? []) as Record<string, unknown>[];
  const sorted = [...records].sort((a, b) => String(a['id']).localeCompare(String(b['id'])));
  return query.includes('[id]') ? sorted.map((r) => r['id']) : sorted;
}

function answers(cases: typeof CASES, run: () => Run): void {
  for (const [query, expected] of cases)
    test(query, async () => assert.deepEqual(shown(query, await run()(query)), expected));
}

function sqliteRun(db: Database.Database): Run {
  const ctx = new SqliteQueryContext(db);
  return (query) => {
    const prepared = prepareQuery(query, { dslVersion: 2 });
    return Promise.resolve(
      prepared.kind === 'plan' ? ctx.execute(prepared.plan) : prepared.kind === 'answer' ? prepared.result : {},
    );
  };
}

/** The names of the vocabulary with their ids. */
const VOCABULARY = 'SELECT name, id FROM concept_names ORDER BY name';
/** Every concept link as (owner id, name). */
const LINKS = `SELECT p.id AS owner, n.name FROM publication_concepts l JOIN publications p ON p.pk = l.publication_pk JOIN concept_names n ON n.id = l.concept_id
  UNION ALL SELECT g.id, n.name FROM grant_concepts l JOIN grants g ON g.pk = l.grant_pk JOIN concept_names n ON n.id = l.concept_id
  ORDER BY 1, 2`;
/** Every reference as (citing id, cited id). */
const REFERENCES = `SELECT p.id AS owner, v.cited_id AS cited FROM publication_references l JOIN publications p ON p.pk = l.publication_pk
  JOIN cited_ids v ON v.id = l.cited_key ORDER BY 1, 2`;
const EXPECTED_REFERENCES = [
  { owner: 'pub.1', cited: 'W999' },
  { owner: 'pub.1', cited: 'pub.2' },
  { owner: 'pub.1', cited: 'pub.3' },
  { owner: 'pub.2', cited: 'pub.3' },
];
const EXPECTED_LINKS = [
  { owner: 'grant.1', name: 'graphene' },
  { owner: 'grant.1', name: 'solar cells' },
  { owner: 'pub.1', name: 'Battery Storage' },
  { owner: 'pub.1', name: 'graphene' },
  { owner: 'pub.2', name: 'graphene' },
];
/** The concept links of a database whose links still hold a score (written before records migration 13 / 11). */
const SCORED_LINKS = `INSERT INTO publications (pk, id, title, year) VALUES (1, 'pub.1', 'A', 2020), (2, 'pub.2', 'B', 2021);
  INSERT INTO grants (pk, id, title) VALUES (1, 'grant.1', 'G');
  INSERT INTO concept_names (id, name) VALUES (1, 'graphene'), (2, 'Battery Storage'), (3, 'solar cells');
  ALTER TABLE publication_concepts ADD COLUMN score REAL;
  ALTER TABLE grant_concepts ADD COLUMN score REAL;
  INSERT INTO publication_concepts (publication_pk, concept_id, score) VALUES (1, 1, 0.9), (1, 2, 0.5), (2, 1, NULL);
  INSERT INTO grant_concepts (grant_pk, concept_id, score) VALUES (1, 1, NULL), (1, 3, NULL)`;

describe('interned links: SQLite', () => {
  const path = join(mkdtempSync(join(tmpdir(), 'quarry-concepts-')), 'records.db');
  const store = openRecordStore(path, { mmapMb: 0, cacheMb: 16 });
  store.upsert('publications', PUBLICATIONS);
  store.upsert('grants', GRANTS);
  store.finish({ optimize: false, analyze: false });
  after(() => store.close());

  test('each name is held once, shared by publications and grants; the links name it by id', () => {
    assert.deepEqual(store.db.prepare(VOCABULARY).pluck().all(), ['Battery Storage', 'graphene', 'solar cells']);
    assert.deepEqual(store.db.prepare(LINKS).all(), EXPECTED_LINKS);
    assert.deepEqual(store.db.prepare(REFERENCES).all(), EXPECTED_REFERENCES);
    assert.equal(store.db.prepare('SELECT count(*) FROM cited_ids').pluck().get(), 3);
  });
  describe('answers', () => answers(CASES, () => sqliteRun(store.db)));
  describe('after a rewrite', () => {
    let idsBefore: unknown[];
    before(() => {
      idsBefore = store.db.prepare(VOCABULARY).all();
      store.upsert('publications', [REWRITTEN]);
      store.finish({ optimize: false, analyze: false });
    });
    answers(AFTER_REWRITE, () => sqliteRun(store.db));
    test('the new name is added once; the names before keep their ids', () => {
      store.upsert('publications', [REWRITTEN]);
      const ids = store.db.prepare(VOCABULARY).all() as { name: string }[];
      assert.deepEqual(
        ids.filter((r) => r.name !== 'perovskite'),
        idsBefore,
      );
      assert.equal(ids.filter((r) => r.name === 'perovskite').length, 1);
    });
  });

  test('a write that fails leaves no id behind: the same texts written again link to their own ids', async () => {
    const path = join(mkdtempSync(join(tmpdir(), 'quarry-concepts-')), 'records.db');
    const writer = openRecordStore(path, { mmapMb: 0, cacheMb: 16 });
    try {
      assert.throws(
        () =>
          writer.transaction(() => {
            writer.upsert('publications', [
              { id: 'pub.8', title: 'Rolled back', concepts: ['brand new'], reference_ids: ['pub.99'] },
            ]);
            throw new Error('the batch fails');
          }),
        /the batch fails/,
      );
      // The ids the failed write gave are free again: other texts take them first.
      writer.upsert('publications', [
        { id: 'pub.9', title: 'Other texts', concepts: ['other concept'], reference_ids: ['pub.98'] },
      ]);
      writer.upsert('publications', [
        { id: 'pub.10', title: 'The same texts', concepts: ['brand new'], reference_ids: ['pub.99'] },
      ]);
      writer.finish({ optimize: false, analyze: false });
      const run = sqliteRun(writer.db);
      for (const [query, expected] of [
        ['search publications where concepts = "brand new" return publications[id]', ['pub.10']],
        ['search publications where concepts = "other concept" return publications[id]', ['pub.9']],
        ['search publications where reference_ids = "pub.99" return publications[id]', ['pub.10']],
        ['search publications where reference_ids = "pub.98" return publications[id]', ['pub.9']],
      ] as const)
        assert.deepEqual(shown(query, await run(query)), expected, query);
    } finally {
      writer.close();
    }
  });

  test('migrations 11 and 12 turn the texts of a database written before them into ids', async () => {
    const old = join(mkdtempSync(join(tmpdir(), 'quarry-concepts-')), 'records.db');
    const db = new Database(old);
    migrate(db, 'records', RECORD_MIGRATIONS.slice(0, 10));
    db.exec(`INSERT INTO publications (pk, id, title, year) VALUES (1, 'pub.1', 'A', 2020), (2, 'pub.2', 'B', 2021);
      INSERT INTO grants (pk, id, title) VALUES (1, 'grant.1', 'G');
      INSERT INTO publication_concepts (publication_pk, concept, score) VALUES (1, 'graphene', 0.9), (1, 'Battery Storage', 0.5), (2, 'graphene', NULL);
      INSERT INTO grant_concepts (grant_pk, concept, score) VALUES (1, 'graphene', NULL), (1, 'solar cells', NULL);
      INSERT INTO publication_references (publication_pk, cited_id) VALUES (1, 'pub.3'), (1, 'W999'), (1, 'pub.2'), (2, 'pub.3')`);
    db.close();
    assert.deepEqual(upgradeRecordDatabase(old), sqliteRecordVersionsFrom(11));
    const upgraded = openRecordStore(old, { mmapMb: 0, cacheMb: 16 });
    try {
      upgraded.finish({ optimize: false, analyze: false });
      assert.deepEqual(upgraded.db.prepare(LINKS).all(), EXPECTED_LINKS);
      assert.deepEqual(upgraded.db.prepare(REFERENCES).all(), EXPECTED_REFERENCES);
      assert.equal(upgraded.db.prepare('SELECT count(*) FROM concept_names').pluck().get(), 3);
      const columns = upgraded.db.prepare("SELECT name FROM pragma_table_info('publication_concepts')").pluck().all();
      assert.deepEqual(columns, ['publication_pk', 'concept_id']);
      // Migration 16 gave the concepts and the references posting lists in place of their reverse indexes.
      const lists = upgraded.db
        .prepare(
          'SELECT n.name, postings_json(l.publication_pks) AS pks FROM publication_concepts_postings l JOIN concept_names n ON n.id = l.concept_id ORDER BY 1',
        )
        .raw()
        .all();
      assert.deepEqual(lists, [
        ['Battery Storage', '[1]'],
        ['graphene', '[1,2]'],
      ]);
      const reverse = upgraded.db
        .prepare(
          "SELECT name FROM sqlite_schema WHERE type = 'index' AND name LIKE '%_by_c%' AND tbl_name IN ('publication_concepts', 'grant_concepts', 'publication_references')",
        )
        .pluck()
        .all();
      assert.deepEqual(reverse, []);
      const run = sqliteRun(upgraded.db);
      for (const query of [
        'search publications where concepts = "graphene" return publications[id]',
        'search publications where reference_ids = "pub.3" return publications[id]',
      ])
        assert.deepEqual(shown(query, await run(query)), ['pub.1', 'pub.2']);
    } finally {
      upgraded.close();
    }
  });

  test('migration 13 rebuilds concept links that still hold a score without it', async () => {
    const old = join(mkdtempSync(join(tmpdir(), 'quarry-concepts-')), 'records.db');
    const db = new Database(old);
    migrate(db, 'records', RECORD_MIGRATIONS.slice(0, 12));
    db.exec(SCORED_LINKS);
    db.close();
    assert.deepEqual(upgradeRecordDatabase(old), sqliteRecordVersionsFrom(13));
    const upgraded = openRecordStore(old, { mmapMb: 0, cacheMb: 16 });
    try {
      upgraded.finish({ optimize: false, analyze: false });
      const columns = (table: string): unknown[] =>
        upgraded.db.prepare(`SELECT name FROM pragma_table_info('${table}')`).pluck().all();
      assert.deepEqual(columns('publication_concepts'), ['publication_pk', 'concept_id']);
      assert.deepEqual(columns('grant_concepts'), ['grant_pk', 'concept_id']);
      assert.deepEqual(upgraded.db.prepare(LINKS).all(), EXPECTED_LINKS);
      const indexes = upgraded.db
        .prepare("SELECT name FROM sqlite_schema WHERE type = 'index' AND tbl_name = 'publication_concepts'")
        .pluck()
        .all();
      // The reverse side is a posting list since migration 16.
      assert.deepEqual(indexes, []);
      const query = 'search publications where concepts = "graphene" return publications[id]';
      assert.deepEqual(shown(query, await sqliteRun(upgraded.db)(query)), ['pub.1', 'pub.2']);
    } finally {
      upgraded.close();
    }
  });
});

describe('interned links: PostgreSQL', { timeout: 120_000 }, () => {
  let db: TestPgDatabase;
  let engine: QueryEngine;
  before(async () => {
    db = await createTestPgDatabase('concepts');
    await writePgRecords(db.url, [
      ['publications', PUBLICATIONS],
      ['grants', GRANTS],
    ]);
    engine = createPostgresEngine({ url: db.url });
  });
  after(async () => {
    await engine?.close();
    await db?.drop();
  });
  const run = (): Run => async (q) => (await engine.run(q, { dslVersion: 2 })).result;

  test('each name is held once, shared by publications and grants; the links name it by id', async () => {
    const names = await queryPg<{ name: string }>(db.url, VOCABULARY);
    assert.deepEqual(
      names.map((r) => r.name),
      ['Battery Storage', 'graphene', 'solar cells'],
    );
    assert.deepEqual(await queryPg(db.url, LINKS), EXPECTED_LINKS);
    assert.deepEqual(await queryPg(db.url, REFERENCES), EXPECTED_REFERENCES);
  });
  describe('answers', () => answers(CASES, run));
  describe('after a rewrite', () => {
    before(() => writePgRecords(db.url, [['publications', [REWRITTEN]]]));
    answers(AFTER_REWRITE, run);
  });

  test('migrations 9 and 10 turn the texts of a database written before them into ids', async () => {
    const old = await createTestPgDatabase('concepts-old');
    try {
      await applyRecordMigrations(old.url, 8);
      await queryPg(
        old.url,
        `INSERT INTO publications (pk, id, title, year) VALUES (1, 'pub.1', 'A', 2020), (2, 'pub.2', 'B', 2021);
         INSERT INTO grants (pk, id, title) VALUES (1, 'grant.1', 'G');
         INSERT INTO publication_concepts (publication_pk, concept, score) VALUES (1, 'graphene', 0.9), (1, 'Battery Storage', 0.5), (2, 'graphene', NULL);
         INSERT INTO grant_concepts (grant_pk, concept, score) VALUES (1, 'graphene', NULL), (1, 'solar cells', NULL);
         INSERT INTO publication_references (publication_pk, cited_id) VALUES (1, 'pub.3'), (1, 'W999'), (1, 'pub.2'), (2, 'pub.3')`,
      );
      assert.deepEqual(await applyRecordMigrations(old.url), pgRecordVersionsFrom(9));
      assert.deepEqual(await queryPg(old.url, LINKS), EXPECTED_LINKS);
      assert.deepEqual(await queryPg(old.url, REFERENCES), EXPECTED_REFERENCES);
      const indexes = await queryPg<{ indexname: string }>(
        old.url,
        "SELECT indexname FROM pg_indexes WHERE tablename = 'publication_concepts' ORDER BY 1",
      );
      assert.deepEqual(
        indexes.map((r) => r.indexname),
        ['publication_concepts_by_concept_id', 'publication_concepts_pkey'],
      );
    } finally {
      await old.drop();
    }
  });

  test('migration 11 drops the score of concept links that still hold one', async () => {
    const old = await createTestPgDatabase('concepts-scored');
    try {
      await applyRecordMigrations(old.url, 10);
      await queryPg(old.url, SCORED_LINKS);
      assert.deepEqual(await applyRecordMigrations(old.url), pgRecordVersionsFrom(11));
      const columns = await queryPg<{ column_name: string }>(
        old.url,
        "SELECT column_name FROM information_schema.columns WHERE table_schema = current_schema() AND table_name IN ('publication_concepts', 'grant_concepts') ORDER BY table_name, ordinal_position",
      );
      assert.deepEqual(
        columns.map((c) => c.column_name),
        ['grant_pk', 'concept_id', 'publication_pk', 'concept_id'],
      );
      assert.deepEqual(await queryPg(old.url, LINKS), EXPECTED_LINKS);
    } finally {
      await old.drop();
    }
  });
});
