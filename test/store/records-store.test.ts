import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { isQuarryError } from '../../src/errors/index.ts';
import { valueFieldCode } from '../../src/model/storage.ts';
import { openReadOnly } from '../../src/store/sqlite/open.ts';
import { SORTING_CACHE_KIB } from '../../src/store/sqlite/derive.ts';
import { RECORD_INDEXES } from '../../src/store/sqlite/records-schema.ts';
import { openRecordStore, type RecordStore } from '../../src/store/sqlite/records-store.ts';

const dir = mkdtempSync(join(tmpdir(), 'quarry-store-'));
after(() => rmSync(dir, { recursive: true, force: true }));
let n = 0;
const freshPath = (): string => join(dir, `t${++n}.db`);

const org = (id: string, name: string, country_code: string, country_name: string, city_name: string) => ({
  id,
  name,
  country_code,
  country_name,
  city_name,
  types: ['education'],
});

const pub = (id: string, extra: Record<string, unknown> = {}) => ({
  id,
  title: `Title of ${id}`,
  abstract: 'A study of malaria transmission in rural areas.',
  doi: `10.99999/syn.${id}`,
  type: 'article',
  year: 2020,
  date: '2020-03-01',
  journal: { id: 'jour.1900001', title: 'Journal of Tests' },
  authors: [
    {
      first_name: 'Ana',
      last_name: 'Silva',
      researcher_id: 'ur.01',
      affiliations: [{ id: 'grid.900001.a', name: 'Uni A' }],
    },
    { first_name: 'Bob', last_name: 'Jones', researcher_id: null, affiliations: [] },
  ],
  research_orgs: ['grid.900001.a'],
  funders: [{ id: 'grid.900002.b', name: 'Fund B' }],
  supporting_grant_ids: ['grant.9000001'],
  category_for: [{ id: '3101', name: '3101 Biochemistry' }],
  open_access: ['oa_all', 'gold'],
  concepts: ['malaria', 'transmission'],
  reference_ids: [],
  ...extra,
});

function ftsIds(store: RecordStore, table: string, match: string): string[] {
  const source = table.replace(/_fts$/, '');
  return store.db
    .prepare<[string], { id: string }>(
      `SELECT s.id FROM ${table} f JOIN ${source} s ON s.pk = f.rowid WHERE ${table} MATCH ? ORDER BY s.id`,
    )
    .all(match)
    .map((r) => r.id);
}

function open(path = freshPath()): RecordStore {
  return openRecordStore(path, { cacheMb: 16, mmapMb: 0 });
}

describe('upsert', () => {
  test('importing the same records twice leaves the same rows, with updated values', () => {
    const store = open();
    const records = [pub('pub.1900000001'), pub('pub.1900000002')];
    store.upsert('publications', records);
    const first = store.counts();
    const pkBefore = store.db.prepare("SELECT pk FROM publications WHERE id = 'pub.1900000001'").pluck().get();
    store.upsert('publications', [pub('pub.1900000001', { title: 'A new title', year: 2021 }), records[1]!]);
    assert.deepEqual(store.counts(), first);
    assert.equal(first['publications'], 2);
    assert.equal(first['publication_research_orgs'], 2);
    assert.equal(first['publications_fts'], 2);
    const row = store.db
      .prepare("SELECT pk, title, year FROM publications WHERE id = 'pub.1900000001'")
      .get() as Record<string, unknown>;
    assert.deepEqual(row, { pk: pkBefore, title: 'A new title', year: 2021 });
    store.close();
  });

  test('re-importing a record replaces its link rows', () => {
    const store = open();
    store.upsert('publications', [pub('pub.1900000001')]);
    store.upsert('publications', [
      pub('pub.1900000001', {
        research_orgs: ['grid.900003.c'],
        authors: [
          { first_name: 'Cy', last_name: 'Lee', researcher_id: 'ur.02', affiliations: [{ id: 'grid.900003.c' }] },
        ],
        open_access: ['closed'],
        category_for: [],
      }),
    ]);
    const all = (sql: string) => store.db.prepare(sql).pluck().all();
    assert.deepEqual(all('SELECT org_id FROM publication_research_orgs'), ['grid.900003.c']);
    assert.deepEqual(all('SELECT researcher_id FROM publication_researchers'), ['ur.02']);
    assert.deepEqual(all(`SELECT value FROM publication_values WHERE field = '${valueFieldCode('open_access')}'`), [
      'closed',
    ]);
    assert.deepEqual(all('SELECT category_id FROM publication_categories'), []);
    store.close();
  });

  test('abstracts are kept apart: a row for each record with one, replaced, removed with the abstract or the record', () => {
    const store = open();
    store.upsert('publications', [pub('pub.1900000001'), pub('pub.1900000002', { abstract: null })]);
    const abstracts = () =>
      store.db
        .prepare(
          'SELECT p.id, unpack_text(a.abstract) AS abstract FROM publication_abstracts a JOIN publications p ON p.pk = a.pk ORDER BY p.id',
        )
        .all();
    assert.deepEqual(abstracts(), [
      { id: 'pub.1900000001', abstract: 'A study of malaria transmission in rural areas.' },
    ]);
    store.upsert('publications', [pub('pub.1900000002', { abstract: 'Another text.' })]);
    assert.deepEqual(abstracts(), [
      { id: 'pub.1900000001', abstract: 'A study of malaria transmission in rural areas.' },
      { id: 'pub.1900000002', abstract: 'Another text.' },
    ]);
    // Upserted without its abstract: the row goes; removed: so does the other.
    store.upsert('publications', [pub('pub.1900000001', { abstract: undefined })]);
    assert.deepEqual(abstracts(), [{ id: 'pub.1900000002', abstract: 'Another text.' }]);
    assert.equal(store.remove('publications', ['pub.1900000002']), 1);
    assert.deepEqual(abstracts(), []);
    store.close();
  });

  test('link rows come from the record: distinct researchers and organizations, categories with scheme, values', () => {
    const store = open();
    store.upsert('publications', [
      pub('pub.1900000001', {
        authors: [
          { first_name: 'Ana', last_name: 'Silva', researcher_id: 'ur.01', affiliations: [{ id: 'grid.900001.a' }] },
          { first_name: 'Ana', last_name: 'Silva', researcher_id: 'ur.01', affiliations: [{ id: 'grid.900002.b' }] },
        ],
        category_rcdc: [{ id: '503', name: 'Malaria' }],
      }),
    ]);
    const all = (sql: string) => store.db.prepare(sql).raw().all();
    assert.deepEqual(all('SELECT researcher_id FROM publication_researchers'), [['ur.01']]);
    assert.deepEqual(all('SELECT org_id FROM publication_research_orgs ORDER BY org_id'), [
      ['grid.900001.a'],
      ['grid.900002.b'],
    ]);
    assert.deepEqual(all('SELECT scheme, category_id FROM publication_categories ORDER BY scheme'), [
      ['for', '3101'],
      ['rcdc', '503'],
    ]);
    assert.deepEqual(all('SELECT id, name, scheme FROM categories ORDER BY id'), [
      ['3101', '3101 Biochemistry', 'for'],
      ['503', 'Malaria', 'rcdc'],
    ]);
    assert.deepEqual(all('SELECT id, title FROM source_titles'), [['jour.1900001', 'Journal of Tests']]);
    assert.deepEqual(all('SELECT grant_id FROM publication_grants'), [['grant.9000001']]);
    const doc = JSON.parse(store.db.prepare('SELECT unpack_text(doc) FROM publications').pluck().get() as string);
    assert.equal(doc.authors.length, 2);
    assert.equal(doc.title, undefined, 'fields with a column are not repeated in doc');
    assert.equal(doc.reference_ids, undefined, 'references live only in publication_references');
    store.close();
  });

  test('grants: investigators, funders and active years become link rows', () => {
    const store = open();
    store.upsert('grants', [
      {
        id: 'grant.9000001',
        title: 'Malaria vaccines',
        start_date: '2018-07-01',
        end_date: '2020-06-30',
        funding_usd: 1500000,
        funders: [{ id: 'grid.900002.b', name: 'Fund B' }],
        investigators: [
          { first_name: 'Ana', last_name: 'Silva', researcher_id: 'ur.01', affiliations: [{ id: 'grid.900001.a' }] },
        ],
      },
    ]);
    const all = (sql: string) => store.db.prepare(sql).raw().all();
    assert.deepEqual(all('SELECT start_year, funding_usd FROM grants'), [[2018, 1500000]]);
    assert.deepEqual(
      all(
        `SELECT value, typeof(value) FROM grant_values WHERE field = '${valueFieldCode('active_year')}' ORDER BY value`,
      ),
      [
        [2018, 'integer'],
        [2019, 'integer'],
        [2020, 'integer'],
      ],
    );
    assert.deepEqual(all('SELECT researcher_id FROM grant_researchers'), [['ur.01']]);
    assert.deepEqual(all('SELECT org_id FROM grant_research_orgs'), [['grid.900001.a']]);
    assert.deepEqual(all('SELECT org_id FROM grant_funders'), [['grid.900002.b']]);
    assert.deepEqual(ftsIds(store, 'grants_fts', 'investigators: NEAR("silva" "ana", 2)'), ['grant.9000001']);
    store.close();
  });

  test('a record without an id is refused', () => {
    const store = open();
    assert.throws(() => store.upsert('publications', [{ title: 'no id' }]), /no id/);
    store.close();
  });
});

describe('full text', () => {
  test('MATCH finds the record, and after an update finds the new text, not the old', () => {
    const store = open();
    store.upsert('publications', [pub('pub.1900000001', { title: 'Graphene membranes' }), pub('pub.1900000002')]);
    assert.deepEqual(ftsIds(store, 'publications_fts', 'graphene'), ['pub.1900000001']);
    store.upsert('publications', [pub('pub.1900000001', { title: 'Perovskite solar cells' })]);
    assert.deepEqual(ftsIds(store, 'publications_fts', 'graphene'), []);
    assert.deepEqual(ftsIds(store, 'publications_fts', 'perovskite'), ['pub.1900000001']);
    assert.deepEqual(ftsIds(store, 'publications_fts', '{title}: malaria'), []);
    assert.deepEqual(ftsIds(store, 'publications_fts', '{title abstract}: malaria'), [
      'pub.1900000001',
      'pub.1900000002',
    ]);
    store.close();
  });

  test('a record given twice in one batch ends with the last version only', () => {
    const store = open();
    store.upsert('publications', [pub('pub.1900000001', { title: 'Graphene membranes' })]);
    store.upsert('publications', [
      pub('pub.1900000001', { title: 'Perovskite solar cells' }),
      pub('pub.1900000002', { title: 'Quantum dots' }),
      pub('pub.1900000002', { title: 'Quantum wells' }),
      pub('pub.1900000001', { title: 'Organic photovoltaics' }),
    ]);
    assert.equal(store.counts()['publications_fts'], 2);
    for (const gone of ['graphene', 'perovskite', 'dots'])
      assert.deepEqual(ftsIds(store, 'publications_fts', gone), [], gone);
    assert.deepEqual(ftsIds(store, 'publications_fts', 'photovoltaics'), ['pub.1900000001']);
    assert.deepEqual(ftsIds(store, 'publications_fts', 'wells'), ['pub.1900000002']);
    store.close();
  });

  test('unicode words are searchable and diacritics are folded', () => {
    const store = open();
    store.upsert('publications', [
      pub('pub.1900000001', { title: '乳がん 検診の効果' }),
      pub('pub.1900000002', { authors: [{ first_name: 'José', last_name: 'Núñez' }] }),
    ]);
    assert.deepEqual(ftsIds(store, 'publications_fts', '"乳がん"'), ['pub.1900000001']);
    assert.deepEqual(ftsIds(store, 'publications_fts', 'authors: "jose nunez"'), ['pub.1900000002']);
    store.close();
  });

  test('a NEAR group over person names never joins two people', () => {
    const store = open();
    store.upsert('publications', [
      pub('pub.1900000001', {
        authors: [
          { first_name: 'Jennifer', last_name: 'Smith' },
          { first_name: 'Bob', last_name: 'Doudna' },
        ],
      }),
      pub('pub.1900000002', { authors: [{ first_name: 'Jennifer', last_name: 'A. Doudna' }] }),
    ]);
    assert.deepEqual(ftsIds(store, 'publications_fts', 'authors: NEAR("jennifer" "doudna", 3)'), ['pub.1900000002']);
    assert.deepEqual(ftsIds(store, 'publications_fts', 'authors: NEAR("doudna" "j"*, 3)'), ['pub.1900000002']);
    assert.deepEqual(ftsIds(store, 'publications_fts', 'authors: NEAR("smith" "jennifer", 2)'), ['pub.1900000001']);
    store.close();
  });

  test('researchers are found by name in either order; organizations by name, alias and place', () => {
    const store = open();
    store.upsert('researchers', [{ id: 'ur.01', first_name: 'Satoko', last_name: 'Shimazaki', obsolete: 0 }]);
    store.upsert('organizations', [
      {
        ...org('grid.900001.a', 'Saarland University', 'DE', 'Germany', 'Saarbrücken'),
        aliases: ['Universität des Saarlandes'],
      },
    ]);
    assert.deepEqual(ftsIds(store, 'researchers_fts', '"satoko shimazaki"'), ['ur.01']);
    assert.deepEqual(ftsIds(store, 'researchers_fts', '"shimazaki satoko"'), ['ur.01']);
    assert.deepEqual(ftsIds(store, 'researchers_fts', '"satoko" "shimazaki"'), ['ur.01']);
    assert.deepEqual(ftsIds(store, 'organizations_fts', 'universitat saarlandes'), ['grid.900001.a']);
    assert.deepEqual(ftsIds(store, 'organizations_fts', 'place: saarbrucken'), ['grid.900001.a']);
    store.close();
  });
});

describe('transactions', () => {
  test('a failing transaction leaves nothing behind', () => {
    const store = open();
    store.upsert('publications', [pub('pub.1900000001')]);
    const before = store.counts();
    assert.throws(
      () =>
        store.transaction(() => {
          store.upsert('publications', [pub('pub.1900000002'), pub('pub.1900000001', { title: 'changed' })]);
          throw new Error('boom');
        }),
      /boom/,
    );
    assert.deepEqual(store.counts(), before);
    assert.equal(
      store.db.prepare("SELECT title FROM publications WHERE id = 'pub.1900000001'").pluck().get(),
      'Title of pub.1900000001',
    );
    assert.deepEqual(ftsIds(store, 'publications_fts', 'changed'), []);
    store.close();
  });

  test('batches already committed survive a failure in a later batch', () => {
    const path = freshPath();
    const store = openRecordStore(path, { batchSize: 2, cacheMb: 16 });
    const records = [pub('pub.1900000001'), pub('pub.1900000002'), pub('pub.1900000003'), { title: 'no id' }];
    assert.throws(() => store.upsert('publications', records), /no id/);
    store.close();
    const reopened = openRecordStore(path, { cacheMb: 16 });
    // The first batch (2 records) committed; the second (record 3 + the bad one) rolled back.
    assert.deepEqual(reopened.db.prepare('SELECT id FROM publications ORDER BY id').pluck().all(), [
      'pub.1900000001',
      'pub.1900000002',
    ]);
    reopened.close();
  });
});

describe('finish', () => {
  test('sorts with helper threads and a small cache while it runs, and leaves the connection as it found it', () => {
    const store = open();
    store.upsert('publications', [pub('pub.1900000001')]);
    const cacheBefore = store.db.pragma('cache_size', { simple: true }) as number;
    assert.notEqual(cacheBefore, -SORTING_CACHE_KIB);
    const during = new Set<string>();
    store.finish({
      optimize: false,
      // The source titles' merge and the organization links come first, as writes of their
      // own, before the derived data and their sorting settings.
      onStep: (step) =>
        step !== 'source titles merged' &&
        !step.startsWith('organizations linked by name') &&
        during.add(
          `${String(store.db.pragma('threads', { simple: true }))} ${String(store.db.pragma('cache_size', { simple: true }))}`,
        ),
    });
    assert.deepEqual([...during], [`${Math.min(4, availableParallelism())} ${-SORTING_CACHE_KIB}`]);
    assert.equal(store.db.pragma('threads', { simple: true }), 0);
    assert.equal(store.db.pragma('cache_size', { simple: true }), cacheBefore);
    store.close();
  });

  test('derives citation counts, totals, place values and entity lists', () => {
    const store = open();
    store.upsert('organizations', [
      org('grid.900001.a', 'Uni A', 'AU', 'Australia', 'Melbourne'),
      org('grid.900002.b', 'Fund B', 'US', 'United States', 'Bethesda'),
    ]);
    store.upsert('researchers', [{ id: 'ur.01', first_name: 'Ana', last_name: 'Silva' }]);
    store.upsert('publications', [
      pub('pub.1900000001', { year: 2015 }),
      pub('pub.1900000002', { year: 2024, reference_ids: ['pub.1900000001', 'pub.1999999999'] }),
      pub('pub.1900000003', { year: 2018, reference_ids: ['pub.1900000001'], times_cited: 7, recent_citations: 1 }),
    ]);
    const report = store.finish({ recentSince: 2023 });
    assert.ok(report.steps.some((s) => s.step === 'citations'));
    assert.equal(store.db.prepare("SELECT value FROM store_meta WHERE key = 'recent_since'").pluck().get(), '2023');
    const cites = store.db
      .prepare('SELECT id, times_cited, recent_citations FROM publications ORDER BY id')
      .raw()
      .all();
    assert.deepEqual(cites, [
      ['pub.1900000001', 2, 1],
      ['pub.1900000002', 0, 0],
      ['pub.1900000003', 7, 1], // carried by the record: kept
    ]);
    const researcher = store.db
      .prepare(
        'SELECT n_publications, total_publications, first_publication_year, last_publication_year FROM researchers',
      )
      .raw()
      .get();
    assert.deepEqual(researcher, [3, 3, 2015, 2024]);
    const orgs = store.db
      .prepare('SELECT id, n_publications, n_funded_publications FROM organizations ORDER BY id')
      .raw()
      .all();
    assert.deepEqual(orgs, [
      ['grid.900001.a', 3, 0],
      ['grid.900002.b', 0, 3],
    ]);
    assert.equal(store.db.prepare('SELECT n_publications FROM source_titles').pluck().get(), 3);
    // The places of the organizations are read through them: no values rows are derived.
    assert.deepEqual(
      store.db
        .prepare(`SELECT field, value FROM publication_values WHERE field NOT IN ('${valueFieldCode('open_access')}')`)
        .raw()
        .all(),
      [],
    );
    assert.deepEqual(store.db.prepare('SELECT id, name FROM countries ORDER BY id').raw().all(), [
      ['AU', 'Australia'],
      ['US', 'United States'],
    ]);
    store.close();
  });

  test('by default "recent" means this calendar year and the last', () => {
    const store = open();
    store.upsert('publications', [pub('pub.1900000001', { year: 2000 })]);
    store.finish({ optimize: false, analyze: false });
    const since = store.db.prepare("SELECT value FROM store_meta WHERE key = 'recent_since'").pluck().get();
    assert.equal(since, String(new Date().getUTCFullYear() - 1));
    store.close();
  });

  test('bulk mode drops secondary indexes and finish() rebuilds them; a plain open restores them', () => {
    const path = freshPath();
    const indexNames = (s: RecordStore) =>
      new Set(
        s.db
          .prepare("SELECT name FROM sqlite_master WHERE type = 'index' AND name NOT LIKE 'sqlite_%'")
          .pluck()
          .all() as string[],
      );
    const bulk = openRecordStore(path, { bulk: true, cacheMb: 16 });
    bulk.upsert('publications', [pub('pub.1900000001')]);
    assert.equal(indexNames(bulk).size, 0);
    const automerge = (s: RecordStore) =>
      s.db.prepare("SELECT v FROM publications_fts_config WHERE k = 'automerge'").pluck().get();
    assert.equal(automerge(bulk), 0, 'incremental full-text merging is off during a bulk load');
    bulk.close();
    const plain = openRecordStore(path, { cacheMb: 16 });
    assert.deepEqual(indexNames(plain), new Set(RECORD_INDEXES.map((i) => i.name)));
    assert.equal(automerge(plain), 4);
    plain.close();
    const again = openRecordStore(path, { bulk: true, cacheMb: 16 });
    assert.equal(automerge(again), 0);
    again.finish({ optimize: false, analyze: false });
    assert.deepEqual(indexNames(again), new Set(RECORD_INDEXES.map((i) => i.name)));
    assert.equal(automerge(again), 4);
    again.close();
  });

  test('the first finish() after a bulk load rebuilds the trees the load filled row by row, full; a plain load keeps them', () => {
    // 4,000 publications with 12 MeSH terms each, written in key order as an import writes them.
    const records = Array.from({ length: 4000 }, (_, i) =>
      pub(`pub.19${String(i).padStart(8, '0')}`, {
        mesh_terms: Array.from({ length: 12 }, (_, j) => `term ${(i * 7919 + j * 104729) % 3000}`),
      }),
    );
    const fill = (s: RecordStore, tree: string): number =>
      s.db
        .prepare<[string], number>('SELECT 1.0 - 1.0 * sum(unused) / sum(pgsize) FROM dbstat WHERE name = ?')
        .pluck()
        .get(tree)!;
    const steps = (s: RecordStore): string[] => s.finish({ optimize: false, analyze: false }).steps.map((x) => x.step);
    const load = (bulk: boolean): RecordStore => {
      const store = openRecordStore(freshPath(), { bulk, cacheMb: 16, mmapMb: 0 });
      for (let i = 0; i < records.length; i += 100) store.upsert('publications', records.slice(i, i + 100));
      return store;
    };

    const plain = load(false);
    assert.ok(!steps(plain).includes('compact'));
    const plainFill = fill(plain, 'publication_values');
    assert.ok(plainFill < 0.95, `a tree filled row by row keeps room in its pages (${plainFill.toFixed(3)})`);
    plain.close();

    const bulk = load(true);
    assert.ok(steps(bulk).includes('compact'));
    const bulkFill = fill(bulk, 'publication_values');
    assert.ok(bulkFill > 0.97, `the same tree is full after the bulk load's finish (${bulkFill.toFixed(3)})`);
    const terms = `SELECT count(*) FROM publication_values WHERE field = '${valueFieldCode('mesh_terms')}'`;
    assert.equal(bulk.db.prepare(terms).pluck().get(), 48_000);
    assert.deepEqual(bulk.db.pragma('integrity_check', { simple: true }), 'ok');
    assert.ok(!steps(bulk).includes('compact'), 'only the first finish() compacts');
    bulk.close();
  });
});

describe('openReadOnly', () => {
  test('reads a finished database and refuses writes', () => {
    const path = freshPath();
    const store = open(path);
    store.upsert('publications', [pub('pub.1900000001')]);
    store.finish({ optimize: false });
    const reader = openReadOnly(path);
    assert.equal(reader.prepare('SELECT COUNT(*) FROM publications').pluck().get(), 1);
    assert.throws(() => reader.exec("UPDATE publications SET title = 'x'"), /readonly/);
    reader.close();
    store.close();
  });

  test('a reader sees committed batches and never a transaction in flight', () => {
    const path = freshPath();
    const store = open(path);
    store.upsert('publications', [pub('pub.1900000001')]);
    const reader = openReadOnly(path);
    const count = () => reader.prepare('SELECT COUNT(*) FROM publications').pluck().get();
    assert.equal(count(), 1);
    store.transaction(() => {
      store.upsert('publications', [pub('pub.1900000002')]);
      assert.equal(count(), 1, 'uncommitted rows are invisible to the reader');
    });
    assert.equal(count(), 2);
    reader.close();
    store.close();
  });

  test('a missing file or a database without record tables is a coded error', () => {
    for (const path of [join(dir, 'missing.db'), freshPath()]) {
      if (!path.endsWith('missing.db')) {
        const store = openRecordStore(path);
        store.db.exec('DROP TABLE schema_migrations');
        store.close();
      }
      assert.throws(
        () => openReadOnly(path),
        (err: unknown) =>
          isQuarryError(err) && err.code === 'ENGINE_DATABASE_UNAVAILABLE' && err.message.includes(path),
      );
    }
  });
});
