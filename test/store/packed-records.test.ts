// Packed `doc` and abstracts in the SQLite record store: every record's document and long
// texts come back byte for byte, through the writer's and the read-only connections; a
// database written before packing (plain text rows) is upgraded without a rewrite and
// answers every query exactly as a packed one; upserts into it pack, and both forms read.
import assert from 'node:assert/strict';
import { copyFileSync, mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import Database from 'better-sqlite3';
import { runQuery } from '../../src/engine/backends/sqlite/query-context.ts';
import { SOURCE_TABLES, type RecordKind } from '../../src/model/storage.ts';
import { recordToRows } from '../../src/store/rows.ts';
import { openReadOnly } from '../../src/store/sqlite/open.ts';
import { packText } from '../../src/store/sqlite/packed-text.ts';
import { RECORD_MIGRATIONS } from '../../src/store/sqlite/records-schema.ts';
import {
  SHIPPED_DICTIONARIES_V1,
  readShippedDictionaries,
  shippedDictionaries,
} from '../../src/store/sqlite/text-dictionaries.ts';
import { openRecordStore, upgradeRecordDatabase } from '../../src/store/sqlite/records-store.ts';
import { queryShapes } from '../../bench/query-shapes.ts';
import { demoDataset } from '../fixtures/demo-db.ts';
import { sqliteRecordVersionsFrom } from '../fixtures/record-versions.ts';

const PACKED_KINDS = ['publications', 'grants'] as const;
/** The records migration that introduced packing. */
const PACKING = RECORD_MIGRATIONS.find((m) => m.name.startsWith('preset dictionaries for packed text'))!.version;

function records(dataDir: string, kind: RecordKind): Record<string, unknown>[] {
  return readdirSync(dataDir)
    .filter((f) => f.startsWith(`${kind}-`) && f.endsWith('.jsonl'))
    .flatMap((f) => readFileSync(join(dataDir, f), 'utf8').split('\n'))
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line) as Record<string, unknown>);
}

/** The table a kind's abstracts are kept in, apart from its rows (records migration 15). */
function abstractsTable(kind: RecordKind): string {
  return SOURCE_TABLES[kind].keptApart!['abstract']!;
}

/** Per id: the stored form and the unpacked text of `doc` and `abstract`. */
function storedTexts(db: Database.Database, kind: RecordKind) {
  const table = SOURCE_TABLES[kind].table;
  return new Map(
    db
      .prepare<[], { id: string; docType: string; doc: string; abstractType: string; abstract: string | null }>(
        `SELECT t.id, typeof(t.doc) AS docType, unpack_text(t.doc) AS doc, typeof(a.abstract) AS abstractType, unpack_text(a.abstract) AS abstract ` +
          `FROM ${table} t LEFT JOIN ${abstractsTable(kind)} a ON a.pk = t.pk`,
      )
      .all()
      .map((r) => [r.id, r]),
  );
}

describe('packed text in the SQLite record store', { timeout: 600_000 }, () => {
  const work = mkdtempSync(join(tmpdir(), 'quarry-packed-'));
  let dbPath: string;
  let dataDir: string;
  let oldPath: string;
  before(async () => {
    ({ dbPath, dataDir } = await demoDataset({ publications: 1_000 }));
    // What an older Quarry wrote: plain text in doc and abstract (in the row), no dictionaries.
    oldPath = join(work, 'old.db');
    copyFileSync(dbPath, oldPath);
    const store = openRecordStore(oldPath);
    for (const kind of PACKED_KINDS) {
      const table = SOURCE_TABLES[kind].table;
      store.db.exec(`ALTER TABLE ${table} ADD COLUMN abstract TEXT`);
      store.db.exec(
        `UPDATE ${table} SET doc = unpack_text(doc), abstract = (SELECT unpack_text(a.abstract) FROM ${abstractsTable(kind)} a WHERE a.pk = ${table}.pk)`,
      );
      store.db.exec(`DROP TABLE ${abstractsTable(kind)}`);
    }
    store.close();
    const raw = new Database(oldPath);
    raw.exec(
      `DROP TABLE text_dictionaries; DELETE FROM schema_migrations WHERE migration_set = 'records' AND version >= ${PACKING}; VACUUM`,
    );
    raw.close();
  });
  after(() => rmSync(work, { recursive: true, force: true }));

  test('every document and abstract reads back byte for byte, and long ones are stored packed', () => {
    const db = openReadOnly(dbPath);
    try {
      for (const kind of PACKED_KINDS) {
        const stored = storedTexts(db, kind);
        const all = records(dataDir, kind);
        assert.ok(all.length > 50 && stored.size === all.length, `${kind}: ${all.length} records`);
        let textBytes = 0;
        let packedBytes = 0;
        for (const record of all) {
          const rows = recordToRows(kind, record);
          const row = stored.get(rows.id)!;
          assert.equal(row.doc, rows.doc, `${kind} ${rows.id} doc`);
          const abstract = record['abstract'];
          assert.equal(row.abstract, typeof abstract === 'string' ? abstract : null, `${kind} ${rows.id} abstract`);
          if (rows.doc.length > 200) assert.equal(row.docType, 'blob', `${kind} ${rows.id} doc is packed`);
          if (typeof abstract === 'string' && abstract.length > 200) assert.equal(row.abstractType, 'blob');
          textBytes += Buffer.byteLength(rows.doc);
          packedBytes += db
            .prepare<[string], number>(`SELECT length(doc) FROM ${SOURCE_TABLES[kind].table} WHERE id = ?`)
            .pluck()
            .get(rows.id)!;
        }
        assert.ok(packedBytes < textBytes / 3, `${kind}: documents ${textBytes} bytes stored in ${packedBytes}`);
      }
    } finally {
      db.close();
    }
  });

  test('a database written before packing is upgraded without a rewrite and answers every query the same', () => {
    assert.deepEqual(
      upgradeRecordDatabase(oldPath),
      RECORD_MIGRATIONS.filter((m) => m.version >= PACKING).map((m) => m.version),
    );
    const packed = openReadOnly(dbPath);
    const old = openReadOnly(oldPath);
    try {
      assert.equal(
        old.prepare("SELECT count(*) FROM publications WHERE typeof(doc) = 'blob'").pluck().get(),
        0,
        'old rows stay text',
      );
      const queries = [
        'search publications where abstract is empty return publications[id + title + abstract] limit 30',
        'search publications where abstract is not empty return publications[id + abstract] limit 30 skip 20',
        'search publications where abstract is empty return year',
        'search publications return publications[basics + extras] limit 40',
        'search publications for "malaria" return publications[id + abstract + authors] limit 20',
        'search grants where abstract is not empty return grants[basics + extras] limit 30',
        'search grants where abstract is empty return grants[id + abstract] limit 10',
        'search researchers return researchers[basics] limit 20',
        'search organizations return organizations[basics] limit 20',
      ];
      for (const [, make] of queryShapes(packed)) queries.push(make(0), make(1));
      for (const q of queries) {
        const expected = runQuery(old, q, { dslVersion: 2 });
        assert.deepEqual(runQuery(packed, q, { dslVersion: 2 }), expected, q);
      }
    } finally {
      packed.close();
      old.close();
    }
  });

  test('the writer refuses a database whose dictionary is not the one rows are packed with', () => {
    const path = join(work, 'other-dictionary.db');
    copyFileSync(dbPath, path);
    const raw = new Database(path);
    raw.exec("UPDATE text_dictionaries SET dictionary = CAST('other' AS BLOB) WHERE name = 'publications.doc'");
    raw.close();
    assert.throws(() => openRecordStore(path), /text dictionary \d+ \(publications\.doc\)/);
  });

  test('upserts into an upgraded database pack, and its two forms read side by side', () => {
    const path = join(work, 'mixed.db');
    copyFileSync(oldPath, path);
    const pubs = records(dataDir, 'publications').slice(0, 20);
    const store = openRecordStore(path);
    try {
      store.upsert('publications', pubs);
      const stored = storedTexts(store.db, 'publications');
      for (const record of pubs) {
        const rows = recordToRows('publications', record);
        const row = stored.get(rows.id)!;
        assert.equal(row.doc, rows.doc);
        assert.equal(row.docType, rows.doc.length > 200 ? 'blob' : 'text');
      }
      const types = store.db
        .prepare('SELECT typeof(doc) AS t, count(*) AS n FROM publications GROUP BY 1 ORDER BY 1')
        .all();
      assert.deepEqual(
        types.map((r) => (r as { t: string }).t),
        ['blob', 'text'],
      );
    } finally {
      store.close();
    }
  });

  test('values packed with the first release read after the second is stored, and upserts pack with the second', () => {
    const path = join(work, 'first-release.db');
    copyFileSync(dbPath, path);
    // What Quarry wrote before migration 14: every packed value names a first-release dictionary.
    const first = new Map(readShippedDictionaries(SHIPPED_DICTIONARIES_V1).map((d) => [d.name, d]));
    const store = openRecordStore(path);
    const expected = new Map(PACKED_KINDS.map((kind) => [kind, storedTexts(store.db, kind)]));
    for (const kind of PACKED_KINDS) {
      const table = SOURCE_TABLES[kind].table;
      const updateDoc = store.db.prepare<[unknown, string]>(`UPDATE ${table} SET doc = ? WHERE id = ?`);
      const updateAbstract = store.db.prepare<[unknown, string]>(
        `UPDATE ${abstractsTable(kind)} SET abstract = ? WHERE pk = (SELECT pk FROM ${table} WHERE id = ?)`,
      );
      const repack = (column: string, text: string | null): unknown => {
        const d = first.get(`${table}.${column}`)!;
        return text === null ? null : packText(text, { id: d.id, bytes: d.bytes });
      };
      for (const row of expected.get(kind)!.values()) {
        updateDoc.run(repack('doc', row.doc), row.id);
        updateAbstract.run(repack('abstract', row.abstract), row.id);
      }
    }
    store.close();
    const raw = new Database(path);
    raw.exec(
      `DELETE FROM text_dictionaries WHERE id > 4; DELETE FROM schema_migrations WHERE migration_set = 'records' AND version >= 14`,
    );
    assert.equal(
      raw.prepare("SELECT count(*) FROM publications WHERE typeof(doc) = 'blob' AND unicode(doc) > 4").pluck().get(),
      0,
    );
    raw.close();

    // 15 finds the abstracts apart already.
    assert.deepEqual(upgradeRecordDatabase(path), sqliteRecordVersionsFrom(14));
    const upgraded = openRecordStore(path);
    try {
      for (const kind of PACKED_KINDS) {
        const read = storedTexts(upgraded.db, kind);
        for (const [id, row] of expected.get(kind)!) {
          assert.equal(read.get(id)?.doc, row.doc, `${kind} ${id} doc`);
          assert.equal(read.get(id)?.abstract, row.abstract, `${kind} ${id} abstract`);
        }
      }
      const pubs = records(dataDir, 'publications').slice(0, 10);
      upgraded.upsert('publications', pubs);
      const newest = shippedDictionaries().get('publications.doc')!.id;
      assert.ok(newest > 4, 'packing uses the second release');
      const ids = pubs.map((p) => recordToRows('publications', p).id);
      const named = upgraded.db
        .prepare<[string], number>(
          "SELECT hex(substr(doc, 1, 1)) FROM publications WHERE id = ? AND typeof(doc) = 'blob'",
        )
        .pluck();
      for (const id of ids) assert.equal(named.get(id), newest.toString(16).toUpperCase().padStart(2, '0'), id);
      const read = storedTexts(upgraded.db, 'publications');
      for (const record of pubs) {
        const rows = recordToRows('publications', record);
        assert.equal(read.get(rows.id)?.doc, rows.doc);
      }
    } finally {
      upgraded.close();
    }
  });
});
