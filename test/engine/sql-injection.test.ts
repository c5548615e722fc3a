// Attack strings in every value position, in full-text strings and in identifiers: each
// query is rejected with a coded error or runs harmlessly, no attack text ever reaches the
// SQL text (values are bound), and the data is intact afterwards.
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import pg from 'pg';
import { lowerValidated } from '../../src/compile/lower-validated.ts';
import { compileSearch } from '../../src/compile/compile-search.ts';
import { postgresDialect } from '../../src/compile/postgres/dialect.ts';
import { sqliteDialect } from '../../src/compile/sqlite/dialect.ts';
import { createPostgresEngine } from '../../src/engine/backends/postgres/engine.ts';
import type { QueryEngine, QueryResult } from '../../src/engine/types.ts';
import { RECORDS_LAYOUT } from '../../src/compile/records-layout.ts';
import { parse, printString } from '../../src/dsl/index.ts';
import { validate } from '../../src/schema/index.ts';
import { runQuery } from '../../src/engine/backends/sqlite/query-context.ts';
import { QuarryError } from '../../src/errors/index.ts';
import { openReadOnly } from '../../src/store/sqlite/open.ts';
import Database from 'better-sqlite3';
import type { TestPgDatabase } from '../fixtures/pg-db.ts';
import { tinyDatabase, tinyPgDatabase } from './fixtures/tiny-db.ts';

const ATTACKS = [
  "'; DROP TABLE publications; --",
  "' OR '1'='1",
  '" OR 1=1 --',
  '1; DELETE FROM publications',
  "x') UNION SELECT sql FROM sqlite_master --",
  '%',
  '_',
  '\\',
  "grid.1' OR research_orgs.id != '",
  'NEAR(a b)',
  'title: x',
  '{title} : x',
  '^x',
  '*',
  'a" OR "b',
  '\u0000',
  "'); ATTACH DATABASE '/tmp/evil.db' AS evil; --",
];

const path = tinyDatabase();

/** A fingerprint of every table's content. */
function fingerprint(file: string): string {
  const db = new Database(file, { readonly: true });
  try {
    const hash = createHash('sha256');
    const tables = db
      .prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE '%fts%' ORDER BY name")
      .pluck()
      .all() as string[];
    for (const t of tables) hash.update(`${t}:${JSON.stringify(db.prepare(`SELECT * FROM "${t}"`).all())}\n`);
    hash.update(String(db.prepare('SELECT count(*) FROM publications_fts').pluck().get()));
    return hash.digest('hex');
  } finally {
    db.close();
  }
}

const s = (v: string): string => printString({ kind: 'String', value: v, triple: false, span: { start: 0, end: 0 } });

/** Query templates with a value hole. */
const VALUE_POSITIONS: ReadonlyArray<(v: string) => string> = [
  (v) => `search publications where title_x = ${s(v)} return publications`.replace('title_x', 'doi'),
  (v) => `search publications where type != ${s(v)} return publications[id]`,
  (v) => `search publications where research_orgs = ${s(v)} return publications[id]`,
  (v) => `search publications where research_orgs.name = ${s(v)} return publications[id]`,
  (v) => `search publications where research_orgs.name ~ ${s(v)} return publications[id]`,
  (v) => `search publications where doi in [${s(v)}, "10.1/x"] return publications[id]`,
  (v) => `search publications where date in [${s(v)}:"2030-01-01"] return publications[id]`,
  (v) => `search publications where year = ${s(v)} return publications[id]`,
  (v) => `search publications where authors = ${s(v)} return publications[id]`,
  (v) => `search publications where open_access = ${s(v)} return open_access`,
  (v) => `search publications where category_for.name = ${s(v)} return research_orgs`,
  (v) => `search publications for ${s(v)} return publications[id]`,
  (v) => `search publications for ${s(`"${v}"`)} return publications[id]`,
  (v) => `search publications in authors for ${s(`"${v} x"`)} return publications[id]`,
  (v) => `search publications for ${s(`${v}*`)} return publications[id]`,
  (v) => `search publications return publications[id] as ${s(v)}`,
  (v) => `search publications return in ${s(v)} year`,
];

const IDENTIFIER_POSITIONS: readonly string[] = [
  'search publications where doi_drop_table = "x" return publications',
  'search publications where "doi" = "x" return publications',
  'search publications; DROP TABLE publications return publications',
  'search publications where research_orgs.name_x = "x" return publications',
  'search sqlite_master return sqlite_master',
  'search publications return sqlite_master',
  'search publications return publications[id + sqlite_master]',
  'search publications return publications sort by doc_x',
  'search publications in doc for "x" return publications',
  'search publications where count(publications) > 1 return publications',
  "search publications where year = 2019 -- ' return publications",
];

describe('SQL injection: sqlite', () => {
  const fingerprintBefore = fingerprint(path);
  const db = openReadOnly(path);
  after(() => db.close());

  for (const attack of ATTACKS) {
    test(`values are bound and inert: ${JSON.stringify(attack)}`, () => {
      for (const template of VALUE_POSITIONS) {
        const text = template(attack);
        // the SQL text never holds the attack; only the parameters do
        try {
          const { query } = validate(parse(text), { dslVersion: 2, source: text });
          assert.equal(query.kind, 'search');
          if (query.kind !== 'search') continue;
          const compiled = compileSearch(sqliteDialect, RECORDS_LAYOUT, lowerValidated(query), {
            expandPattern: () => [],
          });
          const statements = [
            compiled.count,
            ...compiled.outputs.map((o) => (o.kind === 'records' ? o.page : o.statement)),
          ];
          assert.ok(statements.length >= 2);
          for (const st of statements) {
            if (attack.length > 2) assert.ok(!st.text.includes(attack), `${text}\n→ ${st.text}`);
          }
        } catch (e) {
          assert.ok(e instanceof QuarryError, `${text}: ${String(e)}`);
        }
        try {
          const result = runQuery(db, text, { dslVersion: 2 });
          assert.equal(typeof (result._stats as { total_count: number }).total_count, 'number');
        } catch (e) {
          assert.ok(e instanceof QuarryError, `${text}: ${String(e)}`);
        }
      }
    });
  }

  for (const text of IDENTIFIER_POSITIONS) {
    test(`identifiers are rejected: ${text}`, () => {
      assert.throws(
        () => runQuery(db, text, { dslVersion: 2 }),
        (e: unknown) => e instanceof QuarryError && ['syntax', 'semantic', 'unsupported'].includes(e.category),
      );
    });
  }

  test('an unknown identifier is a semantic error', () => {
    assert.throws(
      () => runQuery(db, 'search publications where doi_x = "x" return publications', { dslVersion: 2 }),
      (e: unknown) => e instanceof QuarryError && e.category === 'semantic',
    );
  });

  test('the data is intact afterwards', () => {
    assert.equal(fingerprint(path), fingerprintBefore);
    assert.equal(
      runQuery(db, 'search publications return publications[id] limit 1', { dslVersion: 2 })._stats &&
        (runQuery(db, 'search publications return year', { dslVersion: 2 })._stats as { total_count: number })
          .total_count,
      10,
    );
  });
});

/** A fingerprint of every record table of a PostgreSQL database. */
async function pgFingerprint(engineUrl: string): Promise<string> {
  const client = new pg.Client({ connectionString: engineUrl });
  await client.connect();
  try {
    const tables = (
      await client.query<{ t: string }>(
        "SELECT tablename AS t FROM pg_tables WHERE schemaname = 'public' ORDER BY tablename",
      )
    ).rows.map((r) => r.t);
    const hash = createHash('sha256');
    for (const t of tables) {
      const r = await client.query<{ h: string | null }>(
        `SELECT md5(string_agg(x::text, E'\\n' ORDER BY x::text)) AS h FROM "${t}" x`,
      );
      hash.update(`${t}:${r.rows[0]?.h ?? ''}\n`);
    }
    return hash.digest('hex');
  } finally {
    await client.end();
  }
}

describe('SQL injection: postgres', () => {
  let db: TestPgDatabase;
  let engine: QueryEngine;
  let fingerprintBefore: string;
  const run = async (text: string): Promise<QueryResult> => (await engine.run(text, { dslVersion: 2 })).result;
  before(async () => {
    db = await tinyPgDatabase('injection');
    engine = createPostgresEngine({ url: db.url });
    fingerprintBefore = await pgFingerprint(db.url);
  });
  after(async () => {
    await engine.close();
    await db.drop();
  });

  for (const attack of ATTACKS) {
    test(`values are bound and inert: ${JSON.stringify(attack)}`, async () => {
      for (const template of VALUE_POSITIONS) {
        const text = template(attack);
        try {
          const { query } = validate(parse(text), { dslVersion: 2, source: text });
          if (query.kind !== 'search') continue;
          const compiled = compileSearch(postgresDialect, RECORDS_LAYOUT, lowerValidated(query), {
            expandPattern: () => [],
          });
          for (const st of [
            compiled.count,
            ...compiled.outputs.map((o) => (o.kind === 'records' ? o.page : o.statement)),
          ])
            if (attack.length > 2) assert.ok(!st.text.includes(attack), `${text}\n→ ${st.text}`);
        } catch (e) {
          assert.ok(e instanceof QuarryError, `${text}: ${String(e)}`);
        }
        try {
          const result = await run(text);
          assert.equal(typeof (result._stats as { total_count: number }).total_count, 'number');
        } catch (e) {
          assert.ok(e instanceof QuarryError, `${text}: ${String(e)}`);
        }
      }
    });
  }

  for (const text of IDENTIFIER_POSITIONS) {
    test(`identifiers are rejected: ${text}`, async () => {
      await assert.rejects(
        run(text),
        (e: unknown) => e instanceof QuarryError && ['syntax', 'semantic', 'unsupported'].includes(e.category),
      );
    });
  }

  test('the data is intact afterwards', async () => {
    assert.equal(await pgFingerprint(db.url), fingerprintBefore);
    assert.equal(((await run('search publications return year'))._stats as { total_count: number }).total_count, 10);
  });
});
