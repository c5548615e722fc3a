// How the SQLite engine reads packed text (store/sqlite/packed-text.ts): a page's documents
// and packed columns come back as stored and are unpacked in the engine, never through
// SQL's unpacking functions (which would copy every inflated text into SQLite's row and out again), and
// they read exactly as their text; a filter on a document field unpacks each document it
// tests once per search, not once per statement, with the same answers.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type Database from 'better-sqlite3';
import { compileSearch } from '../../src/compile/compile-search.ts';
import { RECORDS_LAYOUT } from '../../src/compile/records-layout.ts';
import { sqliteDialect } from '../../src/compile/sqlite/dialect.ts';
import { executeCompiled } from '../../src/engine/backends/sqlite/execute.ts';
import { runQuery, SqliteQueryContext } from '../../src/engine/backends/sqlite/query-context.ts';
import { prepareQuery } from '../../src/engine/run-query.ts';
import { shapeResult } from '../../src/engine/shape.ts';
import type { QueryResult } from '../../src/engine/types.ts';
import { openReadOnly } from '../../src/store/sqlite/open.ts';
import { readDictionaries, UNPACK_FUNCTION, UNPACK_UTF8_FUNCTION } from '../../src/store/sqlite/text-dictionaries.ts';
import { unpackText, unpackUtf8 } from '../../src/store/sqlite/packed-text.ts';
import { demoDataset } from '../fixtures/demo-db.ts';
import { completeAuthors } from '../../src/engine/author-objects.ts';

/** Replaces the connection's unpacking functions (`unpack_text`, `unpack_utf8`) by ones that count their calls. */
function countUnpacks(db: Database.Database): { calls: number } {
  const dictionaries = readDictionaries(db);
  const counter = { calls: 0 };
  db.function(UNPACK_FUNCTION, { deterministic: true }, (value: unknown) => {
    counter.calls++;
    return unpackText(value as Buffer | string | null, dictionaries);
  });
  db.function(UNPACK_UTF8_FUNCTION, { deterministic: true }, (value: unknown) => {
    counter.calls++;
    return Buffer.isBuffer(value) ? unpackUtf8(value, dictionaries) : (value as string | null);
  });
  return counter;
}

describe('packed text read by the SQLite engine', { timeout: 600_000 }, () => {
  let db: Database.Database;
  before(async () => {
    db = openReadOnly((await demoDataset({ publications: 1_000 })).dbPath);
  });
  after(() => db.close());

  test('a page of whole records with abstracts unpacks in the engine, not through SQL', () => {
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
      'SELECT p.doc, a.abstract FROM publications p JOIN publication_abstracts a ON a.pk = p.pk WHERE p.id = ?',
    );
    let packed = 0;
    for (const record of records) {
      const row = stored.get(String(record['id']))!;
      if (Buffer.isBuffer(row.doc)) packed++;
      const doc = JSON.parse(unpackText(row.doc, readDictionaries(db))!) as Record<string, unknown>;
      assert.equal(record['abstract'], unpackText(row.abstract, readDictionaries(db)));
      // A field the document alone holds.
      assert.ok(Array.isArray(doc['authors']));
      // Answered with every key of the hosted author objects (engine/author-objects.ts).
      assert.deepEqual(record['authors'], completeAuthors(doc['authors'], 2));
    }
    assert.ok(packed > 40, `${packed} of the page's documents are stored packed`);
  });

  test('four facets under a document filter unpack each document the filter tests once, and answer as before', () => {
    const year = db
      .prepare('SELECT year FROM publications GROUP BY year ORDER BY count(*) DESC LIMIT 1')
      .pluck()
      .get() as number;
    const tested = db.prepare('SELECT count(*) FROM publications WHERE year = ?').pluck().get(year) as number;
    const query = `search publications where year = ${year} and authors != "zzqq" return researchers aggregate citations_total limit 50 return research_orgs aggregate citations_median limit 50 return year return type`;
    const counter = countUnpacks(db);
    const result = runQuery(db, query, { dslVersion: 2 });
    assert.ok(tested > 20 && counter.calls <= tested, `${counter.calls} unpacks for ${tested} documents tested`);
    assert.deepEqual(result, eachStatementTesting(db, query));
  });

  test('a page under a document filter answers as when each statement tests the document', () => {
    for (const query of [
      'search publications where authors = "Wang" return publications[id + title + authors] limit 7 skip 3',
      'search publications for "malaria" where authors != "zzqq" return publications[id + score] limit 9 return year',
      'search publications where not authors = "Smith" return publications[basics] sort by times_cited limit 5',
    ])
      assert.deepEqual(runQuery(db, query, { dslVersion: 2 }), eachStatementTesting(db, query), query);
  });
});

/** The answer with every statement testing the filter itself (no kept matching keys). */
function eachStatementTesting(db: Database.Database, query: string): QueryResult {
  const prepared = prepareQuery(query, { dslVersion: 2 });
  assert.ok(prepared.kind === 'plan');
  const { matchKeys: _kept, ...testing } = sqliteDialect;
  const compiled = compileSearch(testing, RECORDS_LAYOUT, prepared.plan, { expandPattern: () => [] });
  assert.equal(compiled.prelude, undefined);
  const executed = executeCompiled(new SqliteQueryContext(db).statements, compiled);
  return shapeResult({ plan: prepared.plan, ...executed, warnings: [] });
}
