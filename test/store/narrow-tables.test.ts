// The narrow side tables: one row per record with its copied columns and the counts of its
// link rows, kept in step by upserts (a bulk load leaves them to finish()), refreshed by
// finish() after derived values change, and filled by the migration for a database made
// before they existed.
import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import Database from 'better-sqlite3';
import { openRecordStore, upgradeRecordDatabase, type RecordStore } from '../../src/store/sqlite/records-store.ts';
import { sqliteRecordVersionsFrom } from '../fixtures/record-versions.ts';

const dir = mkdtempSync(join(tmpdir(), 'quarry-narrow-'));
let n = 0;
const freshPath = (): string => join(dir, `t${++n}.db`);

const pub = (id: string, extra: Record<string, unknown> = {}) => ({
  id,
  title: `Title of ${id}`,
  type: 'article',
  year: 2020,
  date: '2020-03-01',
  journal: { id: 'jour.1', title: 'Journal of Tests' },
  authors: [
    { first_name: 'Ana', last_name: 'Silva', researcher_id: 'ur.01', affiliations: [{ id: 'grid.1' }] },
    { first_name: 'Bo', last_name: 'Li', researcher_id: 'ur.02', affiliations: [{ id: 'grid.1' }, { id: 'grid.2' }] },
    { first_name: 'Cy', last_name: 'Lee', researcher_id: null, affiliations: [] },
  ],
  funders: ['grid.9'],
  reference_ids: ['pub.2'],
  ...extra,
});

type Row = Record<string, unknown>;
const narrowRow = (store: RecordStore, id: string): Row =>
  store.db
    .prepare(
      'SELECT id, year, date, type, journal_id, times_cited, n_researchers, n_research_orgs, n_funders, n_reference_ids, n_concepts FROM publications_narrow WHERE id = ?',
    )
    .get(id) as Row;

describe('narrow tables', () => {
  test("an upsert writes the record's narrow row with its link counts, and a re-import rewrites it", () => {
    const store = openRecordStore(freshPath(), { mmapMb: 0, cacheMb: 16 });
    store.upsert('publications', [pub('pub.1'), pub('pub.2', { reference_ids: [], funders: [] })]);
    assert.deepEqual(narrowRow(store, 'pub.1'), {
      id: 'pub.1',
      year: 2020,
      date: '2020-03-01',
      type: 'article',
      journal_id: 'jour.1',
      times_cited: null,
      n_researchers: 2,
      n_research_orgs: 2,
      n_funders: 1,
      n_reference_ids: 1,
      n_concepts: 0,
    });
    store.upsert('publications', [pub('pub.1', { year: 2021, authors: [], funders: ['grid.8', 'grid.9'] })]);
    const row = narrowRow(store, 'pub.1');
    assert.deepEqual([row.year, row.n_researchers, row.n_research_orgs, row.n_funders], [2021, 0, 0, 2]);
    assert.equal(store.db.prepare('SELECT count(*) FROM publications_narrow').pluck().get(), 2);
    store.close();
  });

  test('a bulk load leaves the narrow rows to finish(), which writes them with their link counts', () => {
    const store = openRecordStore(freshPath(), { bulk: true, mmapMb: 0, cacheMb: 16 });
    store.upsert('publications', [pub('pub.1'), pub('pub.2', { reference_ids: [], funders: [] })]);
    store.upsert('publications', [
      pub('pub.1', {
        year: 2021,
        funders: ['grid.8', 'grid.9'],
        reference_ids: ['pub.2', 'pub.3', 'pub.4'],
        concepts: ['graphene', 'battery'],
      }),
    ]);
    assert.equal(store.db.prepare('SELECT count(*) FROM publications_narrow').pluck().get(), 0);
    store.finish({ optimize: false, analyze: false });
    const row = narrowRow(store, 'pub.1');
    assert.deepEqual([row.year, row.n_researchers, row.n_research_orgs, row.n_funders], [2021, 2, 2, 2]);
    // Counted from the records' lists (the references and the concepts are kept as lists by record).
    assert.deepEqual([row.n_reference_ids, row.n_concepts], [3, 2]);
    assert.deepEqual([narrowRow(store, 'pub.2').n_reference_ids, narrowRow(store, 'pub.2').n_concepts], [0, 0]);
    assert.equal(store.db.prepare('SELECT count(*) FROM publications_narrow').pluck().get(), 2);
    store.close();
  });

  test('a bulk load closed without finish(), or killed, has its narrow rows written by close() or the next open', () => {
    const narrowCount = (path: string): number => {
      const db = new Database(path, { readonly: true });
      try {
        return db.prepare('SELECT count(*) FROM publications_narrow').pluck().get() as number;
      } finally {
        db.close();
      }
    };
    const closed = freshPath();
    const first = openRecordStore(closed, { bulk: true, mmapMb: 0, cacheMb: 16 });
    first.upsert('publications', [pub('pub.1'), pub('pub.2')]);
    first.close();
    assert.equal(narrowCount(closed), 2);

    const killed = freshPath();
    const second = openRecordStore(killed, { bulk: true, mmapMb: 0, cacheMb: 16 });
    second.upsert('publications', [pub('pub.1'), pub('pub.2'), pub('pub.3')]);
    second.db.close(); // as a killed process leaves it: no close(), no finish()
    assert.equal(narrowCount(killed), 0);
    const reopened = openRecordStore(killed, { mmapMb: 0, cacheMb: 16 });
    assert.equal(narrowRow(reopened, 'pub.3').n_researchers, 2);
    reopened.close();
    assert.equal(narrowCount(killed), 3);
  });

  test('a bulk store written after its finish() and closed without another has those narrow rows written by close()', () => {
    const store = openRecordStore(freshPath(), { bulk: true, mmapMb: 0, cacheMb: 16 });
    store.upsert('publications', [pub('pub.1')]);
    store.finish({ optimize: false, analyze: false });
    store.upsert('publications', [pub('pub.2')]);
    assert.equal(narrowRow(store, 'pub.2'), undefined);
    const path = store.db.name;
    store.close();
    const reopened = openRecordStore(path, { mmapMb: 0, cacheMb: 16 });
    assert.equal(narrowRow(reopened, 'pub.2').n_researchers, 2);
    reopened.close();
  });

  test('a removed record loses its narrow row, so facets and counts no longer see it', () => {
    const store = openRecordStore(freshPath(), { mmapMb: 0, cacheMb: 16 });
    store.upsert('publications', [pub('pub.1'), pub('pub.2', { year: 2021 })]);
    assert.equal(store.remove('publications', ['pub.1']), 1);
    assert.deepEqual(store.db.prepare('SELECT id FROM publications_narrow').pluck().all(), ['pub.2']);
    store.close();
  });

  test('finish() copies the derived citation counts into the narrow table', () => {
    const store = openRecordStore(freshPath(), { mmapMb: 0, cacheMb: 16 });
    store.upsert('publications', [pub('pub.1', { reference_ids: ['pub.2'] }), pub('pub.2', { reference_ids: [] })]);
    store.finish({ optimize: false, analyze: false });
    assert.equal(narrowRow(store, 'pub.2').times_cited, 1);
    assert.equal(narrowRow(store, 'pub.1').times_cited, 0);
    store.close();
  });

  test('a database made before the narrow tables gets them filled when it is upgraded', () => {
    const path = freshPath();
    const store = openRecordStore(path, { mmapMb: 0, cacheMb: 16 });
    store.upsert('publications', [pub('pub.1'), pub('pub.2')]);
    store.upsert('grants', [{ id: 'grant.1', start_year: 2019, funding_usd: 5, funders: ['grid.9'] }]);
    store.close();
    // Back to version 2: no narrow tables (the per-year tables of version 4 are rebuilt after them; version 5 keeps the dictionaries it finds).
    const db = new Database(path);
    db.exec(
      "DROP TABLE publications_narrow; DROP TABLE grants_narrow; DELETE FROM schema_migrations WHERE migration_set = 'records' AND version >= 3",
    );
    db.close();
    assert.deepEqual(upgradeRecordDatabase(path), sqliteRecordVersionsFrom(3));
    const upgraded = openRecordStore(path, { mmapMb: 0, cacheMb: 16 });
    assert.equal(narrowRow(upgraded, 'pub.2').n_researchers, 2);
    assert.deepEqual(upgraded.db.prepare('SELECT id, start_year, funding_usd, n_funders FROM grants_narrow').get(), {
      id: 'grant.1',
      start_year: 2019,
      funding_usd: 5,
      n_funders: 1,
    });
    upgraded.close();
  });
});
