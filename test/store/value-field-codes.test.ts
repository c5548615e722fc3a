// The `<owner>_values` tables keep a short code per field (model/storage.ts,
// VALUE_FIELD_CODES), not its name. The codes are in stored data, so they are pinned here;
// and a database written before them, with names in its rows, is recoded by the records
// migration (SQLite 7, PostgreSQL 5) and then answers filters and per-year functions as a
// fresh import does.
import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { createPostgresEngine } from '../../src/engine/backends/postgres/engine.ts';
import { runQuery } from '../../src/engine/backends/sqlite/query-context.ts';
import type { QueryEngine } from '../../src/engine/types.ts';
import { LINK_TABLES, VALUE_FIELD_CODES } from '../../src/model/storage.ts';
import { openPgRecordWriter } from '../../src/store/postgres/records-writer.ts';
import { openRecordStore, upgradeRecordDatabase } from '../../src/store/sqlite/records-store.ts';
import { recodeValueFieldsSql } from '../../src/store/value-field-codes.ts';
import { applyRecordMigrations, createTestPgDatabase, queryPg, type TestPgDatabase } from '../fixtures/pg-db.ts';
import { sqliteRecordVersionsFrom } from '../fixtures/record-versions.ts';

const PUBLICATIONS = [
  { id: 'pub.1', title: 'One', year: 2019, open_access: ['gold', 'oa_all'], issn: ['1234-5678'] },
  { id: 'pub.2', title: 'Two', year: 2020, open_access: ['closed'] },
];
const GRANTS = [
  { id: 'grant.1', start_year: 2012, funding_usd: 900, active_year: [2012, 2013, 2014] },
  { id: 'grant.2', start_year: 2014, funding_usd: 100 },
];
const GOLD = 'search publications where open_access = "gold" return publications[id]';
const FUNDING = 'search grants return funding_per_year(2012, 2015, "USD")';
const EXPECTED = {
  gold: ['pub.1'],
  funding: { '2012': 300, '2013': 300, '2014': 400, '2015': 0 },
};

/** The statements that put names back where codes are: a database as written before the codes. */
function uncodeSql(): string[] {
  const cases = Object.entries(VALUE_FIELD_CODES)
    .map(([name, code]) => `WHEN '${code}' THEN '${name}'`)
    .join(' ');
  return valuesTables().map((table) => `UPDATE ${table} SET field = CASE field ${cases} ELSE field END`);
}
const valuesTables = (): string[] =>
  LINK_TABLES.filter((l) => 'discriminator' in l.holds && l.holds.discriminator === 'field').map((l) => l.table);

describe('values field codes', () => {
  test('every values field has a code, no two share one, and the codes stay as stored', () => {
    const fields = LINK_TABLES.flatMap((l) =>
      'discriminator' in l.holds && l.holds.discriminator === 'field'
        ? [...Object.keys(l.holds.fields), ...(l.holds.unexposed ?? [])]
        : [],
    );
    for (const f of fields) assert.ok(VALUE_FIELD_CODES[f] !== undefined, f);
    const codes = Object.values(VALUE_FIELD_CODES);
    assert.equal(new Set(codes).size, codes.length);
    // Pinned: changing a code would make stored rows unreadable.
    assert.deepEqual(
      {
        issn: VALUE_FIELD_CODES['issn'],
        active_year: VALUE_FIELD_CODES['active_year'],
        aliases: VALUE_FIELD_CODES['aliases'],
      },
      { issn: '1', active_year: '14', aliases: '31' },
    );
    assert.equal(recodeValueFieldsSql().length, valuesTables().length);
  });

  test('SQLite: rows hold codes, and migration 7 recodes a database written with names', () => {
    const path = join(mkdtempSync(join(tmpdir(), 'quarry-codes-')), 'records.db');
    const store = openRecordStore(path, { mmapMb: 0, cacheMb: 16 });
    store.upsert('publications', PUBLICATIONS);
    store.upsert('grants', GRANTS);
    store.finish({ optimize: false, analyze: false });
    const fields = (): string[] =>
      store.db.prepare('SELECT DISTINCT field FROM publication_values ORDER BY 1').pluck().all() as string[];
    assert.deepEqual(fields(), [VALUE_FIELD_CODES['issn'], VALUE_FIELD_CODES['open_access']].sort());
    const answers = () => ({
      gold: (runQuery(store.db, GOLD, { dslVersion: 2 }) as { publications: { id: string }[] }).publications.map(
        (p) => p.id,
      ),
      funding: (runQuery(store.db, FUNDING, { dslVersion: 2 }) as Record<string, unknown>)['funding_per_year'],
    });
    assert.deepEqual(answers(), EXPECTED);

    for (const sql of uncodeSql()) store.db.exec(sql);
    store.db.exec("DELETE FROM schema_migrations WHERE migration_set = 'records' AND version >= 7");
    assert.deepEqual(fields(), ['issn', 'open_access']);
    assert.deepEqual(answers().gold, [], 'a database with names does not match the codes');
    store.close();

    assert.deepEqual(upgradeRecordDatabase(path), sqliteRecordVersionsFrom(7));
    const reopened = openRecordStore(path, { mmapMb: 0, cacheMb: 16 });
    try {
      assert.deepEqual(reopened.db.prepare('SELECT DISTINCT field FROM grant_values ORDER BY 1').pluck().all(), [
        VALUE_FIELD_CODES['active_year'],
      ]);
      assert.deepEqual(
        (runQuery(reopened.db, GOLD, { dslVersion: 2 }) as { publications: { id: string }[] }).publications.map(
          (p) => p.id,
        ),
        EXPECTED.gold,
      );
      assert.deepEqual(
        (runQuery(reopened.db, FUNDING, { dslVersion: 2 }) as Record<string, unknown>)['funding_per_year'],
        EXPECTED.funding,
      );
    } finally {
      reopened.close();
    }
  });
});

describe('values field codes (PostgreSQL)', { timeout: 120_000 }, () => {
  let db: TestPgDatabase;
  let engine: QueryEngine | undefined;
  before(async () => {
    db = await createTestPgDatabase('codes');
  });
  after(async () => {
    await engine?.close();
    await db?.drop();
  });

  test('migration 5 recodes a database written with names', async () => {
    const writer = await openPgRecordWriter(db.url);
    try {
      await writer.writeBatch('publications', PUBLICATIONS);
      await writer.writeBatch('grants', GRANTS);
      await writer.finish();
    } finally {
      await writer.close();
    }
    for (const sql of uncodeSql()) await queryPg(db.url, sql);
    await queryPg(db.url, "DELETE FROM schema_migrations WHERE migration_set = 'records' AND version = 5");
    assert.deepEqual(
      (await queryPg<{ field: string }>(db.url, 'SELECT DISTINCT field FROM grant_values ORDER BY 1')).map(
        (r) => r.field,
      ),
      ['active_year'],
    );
    assert.deepEqual(await applyRecordMigrations(db.url), ['records 5']);
    engine = createPostgresEngine({ url: db.url });
    const gold = (await engine.run(GOLD, { dslVersion: 2 })).result as { publications: { id: string }[] };
    assert.deepEqual(
      gold.publications.map((p) => p.id),
      EXPECTED.gold,
    );
    const funding = (await engine.run(FUNDING, { dslVersion: 2 })).result as Record<string, unknown>;
    assert.deepEqual(funding['funding_per_year'], EXPECTED.funding);
  });
});
