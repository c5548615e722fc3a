// How the SQLite engine reads packed text (store/sqlite/packed-text.ts): a page's documents
// and packed columns come back as stored and are unpacked in the engine, never through
// `unpack_text` (which would copy every inflated text into SQLite's row and out again), and
// they read exactly as their text.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type Database from 'better-sqlite3';
import { runQuery } from '../../src/engine/backends/sqlite/query-context.ts';
import { openReadOnly } from '../../src/store/sqlite/open.ts';
import { readDictionaries, UNPACK_FUNCTION } from '../../src/store/sqlite/text-dictionaries.ts';
import { unpackText } from '../../src/store/sqlite/packed-text.ts';
import { demoDataset } from '../fixtures/demo-db.ts';

/** Replaces the connection's `unpack_text` by one that counts its calls. */
function countUnpacks(db: Database.Database): { calls: number } {
  const dictionaries = readDictionaries(db);
  const counter = { calls: 0 };
  db.function(UNPACK_FUNCTION, { deterministic: true }, (value: unknown) => {
    counter.calls++;
    return unpackText(value as Buffer | string | null, dictionaries);
  });
  return counter;
}

describe('packed text read by the SQLite engine', { timeout: 600_000 }, () => {
  let db: Database.Database;
  before(async () => {
    db = openReadOnly((await demoDataset({ publications: 1_000 })).dbPath);
  });
  after(() => db.close());

  test('a page of whole records with abstracts unpacks in the engine, not through unpack_text', () => {
    const counter = countUnpacks(db);
    const result = runQuery(
      db,
      'search publications where abstract is not empty return publications[basics + extras + abstract] limit 50',
      { dslVersion: 2 },
    );
    assert.equal(counter.calls, 0);
    const records = result['publications'] as Record<string, unknown>[];
    assert.equal(records.length, 50);
    const stored = db.prepare<[string], { doc: Buffer | string; abstract: Buffer | string }>(
      'SELECT doc, abstract FROM publications WHERE id = ?',
    );
    let packed = 0;
    for (const record of records) {
      const row = stored.get(String(record['id']))!;
      if (Buffer.isBuffer(row.doc)) packed++;
      const doc = JSON.parse(unpackText(row.doc, readDictionaries(db))!) as Record<string, unknown>;
      assert.equal(record['abstract'], unpackText(row.abstract, readDictionaries(db)));
      // A field the document alone holds.
      assert.ok(Array.isArray(doc['authors']));
      assert.deepEqual(record['authors'], doc['authors']);
    }
    assert.ok(packed > 40, `${packed} of the page's documents are stored packed`);
  });
});
