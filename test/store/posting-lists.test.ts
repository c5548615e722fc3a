// The reverse side of the references and the concepts as posting lists (SQLite, records migration 16): the list
// format, the writer keeping each list equal to the link rows through upserts and removals,
// a bulk load's lists built by finish() (or on close), the upgrade of a database that had a
// reverse index, and the compiled statements' reading of a list as rows.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import Database from 'better-sqlite3';
import { sqliteDialect } from '../../src/compile/sqlite/dialect.ts';
import { listedLinks, ownerKey, postingLinks } from '../../src/model/storage.ts';
import {
  decodePostings,
  encodePostings,
  postingsStale,
  rebuildFromListsByRecord,
} from '../../src/store/sqlite/posting-lists.ts';
import { openRecordStore, upgradeRecordDatabase, type RecordStore } from '../../src/store/sqlite/records-store.ts';
import { LEGACY_RECORD_KINDS } from '../../src/store/sqlite/records-schema.ts';
import { sqliteRecordVersionsFrom } from '../fixtures/record-versions.ts';

const dir = mkdtempSync(join(tmpdir(), 'quarry-postings-'));
after(() => rmSync(dir, { recursive: true, force: true }));
let n = 0;
const freshPath = (): string => join(dir, `t${++n}.db`);

const pub = (id: string, reference_ids: readonly string[]) => ({
  id,
  title: `Title of ${id}`,
  type: 'article',
  year: 2020,
  date: '2020-03-01',
  reference_ids,
});

/** Cited id → the ids citing it, as the posting lists hold them (read through `postings_json`). */
function fromLists(store: RecordStore): Record<string, string[]> {
  const rows = store.db
    .prepare<[], { cited: string; citing: string }>(
      `SELECT v.cited_id AS cited, p.id AS citing FROM publication_references_postings l
       JOIN cited_ids v ON v.id = l.cited_key, json_each(postings_json(l.publication_pks)) j
       JOIN publications p ON p.pk = j.value ORDER BY 1, 2`,
    )
    .all();
  return group(rows);
}

/** The same from the link rows themselves. */
function fromLinks(store: RecordStore): Record<string, string[]> {
  const rows = store.db
    .prepare<[], { cited: string; citing: string }>(
      `SELECT v.cited_id AS cited, p.id AS citing FROM publication_references r
       JOIN cited_ids v ON v.id = r.cited_key JOIN publications p ON p.pk = r.publication_pk ORDER BY 1, 2`,
    )
    .all();
  return group(rows);
}

/** Every table's lists as `[value, keys as JSON]`, by table. */
function allLists(db: RecordStore['db']): { table: string; rows: unknown[] }[] {
  return postingLinks().map((link) => ({
    table: link.postings.table,
    rows: db
      .prepare(`SELECT * FROM ${link.postings.table} ORDER BY 1`)
      .raw()
      .all()
      .map((row) => {
        const [value, list] = row as [unknown, Buffer];
        return [value, JSON.stringify(decodePostings(list))];
      }),
  }));
}

function group(rows: readonly { cited: string; citing: string }[]): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  for (const { cited, citing } of rows) (out[cited] ??= []).push(citing);
  return out;
}

describe('posting lists', () => {
  test('a list is its keys ascending, once each, as varint gaps; decoding gives them back', () => {
    const keys = [2 ** 53 - 1, 0, 127, 128, 16_383, 16_384, 2 ** 31, 2 ** 40, 128];
    const encoded = encodePostings(keys);
    assert.deepEqual(decodePostings(encoded), [0, 127, 128, 16_383, 16_384, 2 ** 31, 2 ** 40, 2 ** 53 - 1]);
    // 5, then +2, then +293 (0xa5 0x02: 37 + 2 * 128).
    assert.deepEqual([...encodePostings([300, 5, 7])], [0x05, 0x02, 0xa5, 0x02]);
    assert.deepEqual([...encodePostings([])], []);
    assert.throws(() => decodePostings(Uint8Array.from([0x05, 0x82])), /ends inside a key/);
    assert.throws(() => encodePostings([-1]), /non-negative integers/);
    assert.throws(() => encodePostings([1.5]), /non-negative integers/);
  });

  test('the writer keeps each list equal to the link rows through upserts, replacements and removals', () => {
    const store = openRecordStore(freshPath());
    store.upsert('publications', [
      pub('pub.1', ['pub.9', 'pub.8']),
      pub('pub.2', ['pub.9']),
      pub('pub.3', ['pub.9', 'pub.7', 'pub.9']),
    ]);
    assert.deepEqual(fromLists(store), {
      'pub.7': ['pub.3'],
      'pub.8': ['pub.1'],
      'pub.9': ['pub.1', 'pub.2', 'pub.3'],
    });
    // pub.1 now cites pub.7 instead of pub.9 and pub.8; pub.2 cites nothing.
    store.upsert('publications', [pub('pub.1', ['pub.7']), pub('pub.2', [])]);
    assert.deepEqual(fromLists(store), { 'pub.7': ['pub.1', 'pub.3'], 'pub.9': ['pub.3'] });
    // A value no record links to any more has no row.
    assert.equal(store.remove('publications', ['pub.3']), 1);
    assert.deepEqual(fromLists(store), { 'pub.7': ['pub.1'] });
    assert.deepEqual(fromLists(store), fromLinks(store));
    assert.equal(store.db.prepare('SELECT count(*) FROM publication_references_postings').pluck().get(), 1);
    store.close();
  });

  test('every link table with lists has them kept: the concepts of publications and of grants', () => {
    const store = openRecordStore(freshPath());
    store.upsert('publications', [
      { ...pub('pub.1', []), concepts: ['graphene', 'battery'] },
      { ...pub('pub.2', []), concepts: ['graphene'] },
    ]);
    store.upsert('grants', [{ id: 'grant.1', title: 'G', concepts: ['graphene'] }]);
    store.upsert('publications', [{ ...pub('pub.1', []), concepts: ['battery'] }]);
    const lists = (table: string, column: string, owners: string) =>
      store.db
        .prepare(
          `SELECT n.name, o.id FROM ${table} l JOIN concept_names n ON n.id = l.concept_id,
           json_each(postings_json(l.${column})) j JOIN ${owners} o ON o.pk = j.value ORDER BY 1, 2`,
        )
        .raw()
        .all();
    assert.deepEqual(lists('publication_concepts_postings', 'publication_pks', 'publications'), [
      ['battery', 'pub.1'],
      ['graphene', 'pub.2'],
    ]);
    assert.deepEqual(lists('grant_concepts_postings', 'grant_pks', 'grants'), [['graphene', 'grant.1']]);
    store.close();
  });

  test('lists keyed by a text id (researchers, their organizations) are kept the same way', () => {
    const store = openRecordStore(freshPath());
    const author = (id: string) => ({ first_name: 'A', last_name: id, researcher_id: id, affiliations: [] });
    store.upsert('publications', [
      { ...pub('pub.1', []), authors: [author('ur.2'), author('ur.1')] },
      { ...pub('pub.2', []), authors: [author('ur.1')] },
    ]);
    store.upsert('researchers', [
      { id: 'ur.1', first_name: 'A', last_name: 'B', research_orgs: ['grid.2', 'grid.1'] },
      { id: 'ur.2', first_name: 'C', last_name: 'D', research_orgs: ['grid.1'] },
    ]);
    store.upsert('publications', [{ ...pub('pub.1', []), authors: [author('ur.2')] }]);
    const lists = (table: string, value: string, column: string, owners: string) =>
      store.db
        .prepare(
          `SELECT l.${value}, o.id FROM ${table} l, json_each(postings_json(l.${column})) j
           JOIN ${owners} o ON o.pk = j.value ORDER BY 1, 2`,
        )
        .raw()
        .all();
    assert.deepEqual(lists('publication_researchers_postings', 'researcher_id', 'publication_pks', 'publications'), [
      ['ur.1', 'pub.2'],
      ['ur.2', 'pub.1'],
    ]);
    assert.deepEqual(lists('researcher_research_orgs_postings', 'org_id', 'researcher_pks', 'researchers'), [
      ['grid.1', 'ur.1'],
      ['grid.1', 'ur.2'],
      ['grid.2', 'ur.1'],
    ]);
    // finish() counts a researcher's publications from the lists.
    store.finish({ optimize: false, analyze: false });
    const counts = store.db.prepare('SELECT id, n_publications FROM researchers ORDER BY id').raw().all();
    assert.deepEqual(counts, [
      ['ur.1', 1],
      ['ur.2', 1],
    ]);
    store.close();
  });

  test('inside one transaction, several records changing one list change it once and all of them', () => {
    const store = openRecordStore(freshPath());
    store.transaction(() => {
      store.upsert('publications', [pub('pub.1', ['pub.9'])]);
      store.upsert('publications', [pub('pub.2', ['pub.9']), pub('pub.1', ['pub.8'])]);
    });
    assert.deepEqual(fromLists(store), { 'pub.8': ['pub.1'], 'pub.9': ['pub.2'] });
    assert.deepEqual(fromLists(store), fromLinks(store));
    store.close();
  });

  test('a bulk load leaves the lists to finish(), and closing without finish() builds them', () => {
    const path = freshPath();
    const bulk = openRecordStore(path, { bulk: true });
    bulk.upsert('publications', [pub('pub.1', ['pub.9', 'pub.8']), pub('pub.2', ['pub.9'])]);
    assert.equal(postingsStale(bulk.db), true);
    assert.deepEqual(fromLists(bulk), {});
    const report = bulk.finish();
    assert.ok(report.steps.some((s) => s.step === 'posting lists'));
    assert.equal(postingsStale(bulk.db), false);
    assert.deepEqual(fromLists(bulk), { 'pub.8': ['pub.1'], 'pub.9': ['pub.1', 'pub.2'] });
    // Written again in bulk, then closed before finish(): the lists are rebuilt on close.
    bulk.close();
    const again = openRecordStore(path, { bulk: true });
    again.upsert('publications', [pub('pub.3', ['pub.8'])]);
    again.close();
    const reopened = openRecordStore(path);
    assert.equal(postingsStale(reopened.db), false);
    assert.deepEqual(fromLists(reopened), { 'pub.8': ['pub.1', 'pub.3'], 'pub.9': ['pub.1', 'pub.2'] });
    reopened.close();
  });

  test('lists by record turned around hold what the grouped pass and the record-by-record writer hold, in passes of any size', () => {
    // Kept record by record: the lists the writer maintains are the reference.
    const store = openRecordStore(freshPath());
    const cited = (k: number): string[] =>
      Array.from({ length: (k * 7) % 13 }, (_, j) => `pub.c${(k * 31 + j * 17) % 40}`);
    store.upsert(
      'publications',
      Array.from({ length: 60 }, (_, k) => ({ ...pub(`pub.${k}`, cited(k)), concepts: [`c${k % 5}`, `c${k % 3}`] })),
    );
    store.upsert(
      'grants',
      Array.from({ length: 12 }, (_, k) => ({ id: `grant.${k}`, title: `Grant ${k}`, concepts: [`c${k % 4}`, 'c9'] })),
    );
    store.upsert(
      'patents',
      Array.from({ length: 8 }, (_, k) => ({
        id: `US-${k}-B2`,
        title: `Patent ${k}`,
        publication_date: '2021-01-05',
        reference_ids: [`US-${(k * 3) % 5}-B2`, `US-9${k % 3}-A1`],
      })),
    );
    store.remove('publications', ['pub.10', 'pub.11']);
    const kept = allLists(store.db);
    const grouped = (link: ReturnType<typeof postingLinks>[number]) =>
      store.db
        .prepare(
          `SELECT ${link.key[link.key.length - 1]!.name}, postings_of(${ownerKey(link.owner)}) FROM ${link.table} GROUP BY 1 ORDER BY 1`,
        )
        .raw()
        .all()
        .map((row) => {
          const [value, list] = row as [unknown, Buffer];
          return [value, JSON.stringify(decodePostings(list))];
        });
    for (const link of postingLinks()) {
      if (link.listed === undefined) continue;
      const expected = kept.find((k) => k.table === link.postings.table)!.rows;
      assert.ok(expected.length > 0, link.table);
      assert.deepEqual(grouped(link), expected, `${link.table}: the grouped pass`);
      // Budgets of one key (a pass a value), a few keys, and everything at once.
      for (const budget of [1, 5, 1_000_000]) {
        store.db.exec(`DELETE FROM ${link.postings.table}`);
        assert.equal(rebuildFromListsByRecord(store.db, { ...link, listed: link.listed }, budget), true);
        assert.deepEqual(
          allLists(store.db).find((k) => k.table === link.postings.table)!.rows,
          expected,
          `${link.table}, budget ${budget}`,
        );
      }
    }
    store.close();
  });

  test("a bulk store's writes and removals after its finish() reach the lists at the next finish()", () => {
    const bulk = openRecordStore(freshPath(), { bulk: true });
    bulk.upsert('publications', [pub('pub.1', ['pub.9'])]);
    bulk.finish();
    bulk.upsert('publications', [pub('pub.2', ['pub.9', 'pub.8'])]);
    assert.equal(postingsStale(bulk.db), true);
    bulk.finish();
    assert.deepEqual(fromLists(bulk), { 'pub.8': ['pub.2'], 'pub.9': ['pub.1', 'pub.2'] });
    bulk.remove('publications', ['pub.1']);
    assert.equal(postingsStale(bulk.db), true);
    bulk.finish();
    assert.deepEqual(fromLists(bulk), { 'pub.8': ['pub.2'], 'pub.9': ['pub.2'] });
    bulk.close();
  });

  test('a database with the reverse index gets the lists from its links, and loses the index, when upgraded', () => {
    const path = freshPath();
    const store = openRecordStore(path);
    const author = (id: string) => ({ first_name: 'A', last_name: id, researcher_id: id, affiliations: [] });
    store.upsert('publications', [
      { ...pub('pub.1', ['pub.9', 'pub.8']), concepts: ['graphene'], authors: [author('ur.1')] },
      { ...pub('pub.2', ['pub.9']), concepts: ['graphene', 'battery'], authors: [author('ur.1'), author('ur.2')] },
    ]);
    store.upsert('grants', [{ id: 'grant.1', title: 'G', concepts: ['graphene'], researchers: ['ur.2'] }]);
    store.upsert('researchers', [{ id: 'ur.1', first_name: 'A', last_name: 'B', research_orgs: ['grid.1'] }]);
    const expected = fromLinks(store);
    const everyList = allLists(store.db);
    assert.equal(everyList.length, postingLinks().length);
    // Migration 16 made the lists of the sources it knew; a later source's come with its own tables.
    const legacy = postingLinks().filter((l) => LEGACY_RECORD_KINDS.has(l.owner));
    assert.ok(
      everyList.filter((l) => legacy.some((k) => k.postings.table === l.table)).every((l) => l.rows.length > 0),
    );
    store.close();
    // As version 15 left it: the reverse index, no lists (a table kept as lists by record,
    // a view since migration 17, stays one: 17 leaves it alone).
    const raw = new Database(path);
    for (const link of legacy) {
      raw.exec(`DROP TABLE ${link.postings.table}`);
      if (link.listed === undefined)
        raw.exec(
          `CREATE INDEX ${link.table}_by_${link.reverse.join('_')} ON ${link.table} (${link.reverse.join(', ')})`,
        );
    }
    raw.exec("DELETE FROM schema_migrations WHERE migration_set = 'records' AND version >= 16");
    raw.close();

    assert.deepEqual(upgradeRecordDatabase(path), sqliteRecordVersionsFrom(16));
    const upgraded = openRecordStore(path);
    assert.deepEqual(fromLists(upgraded), expected);
    // Every table's lists as they were written, and no reverse index left.
    assert.deepEqual(allLists(upgraded.db), everyList);
    for (const link of postingLinks()) {
      const index = upgraded.db
        .prepare("SELECT name FROM sqlite_master WHERE type = 'index' AND name = ?")
        .get(`${link.table}_by_${link.reverse.join('_')}`);
      assert.equal(index, undefined, link.table);
    }
    upgraded.close();
  });

  test('the references by record are one list per publication, which the view reads as the link rows', () => {
    const store = openRecordStore(freshPath());
    const rows = () =>
      store.db.prepare('SELECT publication_pk, cited_key FROM publication_references ORDER BY 1, 2').raw().all();
    const lists = () =>
      store.db
        .prepare('SELECT publication_pk, postings_json(cited_keys) FROM publication_references_lists ORDER BY 1')
        .raw()
        .all();
    store.upsert('publications', [
      pub('pub.1', ['pub.9', 'pub.8', 'pub.9']),
      pub('pub.2', []),
      pub('pub.3', ['pub.8']),
    ]);
    // Keys as the vocabulary gave them: pub.9 1, pub.8 2.
    assert.deepEqual(lists(), [
      [1, '[1,2]'],
      [3, '[2]'],
    ]);
    assert.deepEqual(rows(), [
      [1, 1],
      [1, 2],
      [3, 2],
    ]);
    assert.deepEqual(fromLinks(store), fromLists(store));
    // Replaced, emptied, removed.
    store.upsert('publications', [pub('pub.1', ['pub.7']), pub('pub.3', [])]);
    assert.deepEqual(lists(), [[1, '[3]']]);
    assert.equal(store.remove('publications', ['pub.1']), 1);
    assert.deepEqual(lists(), []);
    assert.deepEqual(rows(), []);
    store.close();
  });

  test('migrations 17 and 18 turn the references and the concepts tables into lists by record and views of the same rows', () => {
    const path = freshPath();
    const store = openRecordStore(path);
    store.upsert('publications', [
      { ...pub('pub.1', ['pub.9', 'pub.8']), concepts: ['graphene', 'battery'] },
      { ...pub('pub.2', ['pub.9']), concepts: ['battery'] },
      pub('pub.3', []),
    ]);
    store.upsert('grants', [{ id: 'grant.1', title: 'G', concepts: ['graphene', 'solar cells'] }]);
    // Migrations 17 and 18 are those of the sources they knew; a later source's come with its own tables.
    const listed = listedLinks().filter((l) => LEGACY_RECORD_KINDS.has(l.owner));
    assert.deepEqual(
      listed.map((l) => l.table),
      ['publication_references', 'publication_concepts', 'grant_concepts'],
    );
    const read = (db: RecordStore['db'], sql: string): unknown[] => db.prepare(sql).raw().all();
    const before = listed.map((l) => {
      const [owner, value] = [ownerKey(l.owner), l.key[0]!.name];
      return {
        link: l,
        owner,
        value,
        rows: read(store.db, `SELECT ${owner}, ${value} FROM ${l.table} ORDER BY 1, 2`),
        lists: read(store.db, `SELECT * FROM ${l.listed.table} ORDER BY 1`),
      };
    });
    assert.ok(before.every((t) => t.rows.length > 0));
    store.close();
    // As version 16 left it: each link table holds its rows.
    const raw = new Database(path);
    for (const { link, owner, value, rows } of before) {
      raw.exec(`DROP VIEW ${link.table}; DROP TABLE ${link.listed.table};
        CREATE TABLE ${link.table} (${owner} INTEGER NOT NULL, ${value} INTEGER NOT NULL, PRIMARY KEY (${owner}, ${value})) WITHOUT ROWID`);
      const insert = raw.prepare(`INSERT INTO ${link.table} VALUES (?, ?)`);
      for (const row of rows) insert.run(...(row as [number, number]));
    }
    raw.exec("DELETE FROM schema_migrations WHERE migration_set = 'records' AND version >= 17");
    raw.close();

    assert.deepEqual(upgradeRecordDatabase(path), sqliteRecordVersionsFrom(17));
    const upgraded = openRecordStore(path);
    for (const { link, owner, value, rows, lists } of before) {
      const kind = upgraded.db.prepare('SELECT type FROM sqlite_schema WHERE name = ?').pluck().get(link.table);
      assert.equal(kind, 'view', link.table);
      assert.deepEqual(read(upgraded.db, `SELECT * FROM ${link.listed.table} ORDER BY 1`), lists, link.table);
      assert.deepEqual(
        read(upgraded.db, `SELECT ${owner}, ${value} FROM ${link.table} ORDER BY 1, 2`),
        rows,
        link.table,
      );
    }
    upgraded.close();
  });

  test("the SQLite dialect reads a value's list as link rows", () => {
    const store = openRecordStore(freshPath());
    store.upsert('publications', [pub('pub.1', ['pub.9']), pub('pub.2', ['pub.9', 'pub.8'])]);
    const link = postingLinks().find((l) => l.table === 'publication_references');
    assert.ok(link !== undefined && sqliteDialect.postingRows !== undefined);
    const rows = sqliteDialect.postingRows(link.postings, 'cited_key', 'publication_pk');
    const citing = store.db
      .prepare<[string], string>(
        `SELECT p.id FROM ${rows} l JOIN publications p ON p.pk = l.publication_pk
         WHERE l.cited_key = (SELECT id FROM cited_ids WHERE cited_id = ?) ORDER BY 1`,
      )
      .pluck();
    assert.deepEqual(citing.all('pub.9'), ['pub.1', 'pub.2']);
    assert.deepEqual(citing.all('pub.8'), ['pub.2']);
    assert.deepEqual(citing.all('pub.1'), []);
    store.close();
  });
});
