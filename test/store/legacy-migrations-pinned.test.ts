// Records migrations 1–19 stay what they were when a source is added. The layout here gets a
// kind of record (inventions) after the registered sources, with a table of every kind a
// source can have (a narrow table, value counts, an abstract kept apart, links carrying owner columns, interned links
// kept as lists by record with posting lists, a values table, a full-text table), before the
// store's modules are loaded, so everything they derive from the layout sees it. Then:
// - the upgrade steps of 2–19 (what an older database runs) make exactly what the frozen
//   files make: none of them reaches the new source;
// - the declared layout has the new tables, so the declared-layout test fails until a
//   migration makes them; a next migration made from their declared DDL closes the gap, on a
//   new database and on an upgraded one.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import Database from 'better-sqlite3';
import {
  FULLTEXT_TABLES,
  LINK_TABLES,
  SOURCE_TABLES,
  type FullTextSpec,
  type LinkTableSpec,
  type RecordKind,
  type SourceTableSpec,
} from '../../src/model/storage.ts';

const INVENTIONS = 'inventions' as RecordKind;
const text = (name: string) => ({ name, type: 'text' }) as const;
const integer = (name: string) => ({ name, type: 'integer' }) as const;

(SOURCE_TABLES as Record<string, SourceTableSpec>)['inventions'] = {
  kind: INVENTIONS,
  table: 'inventions',
  packedText: ['abstract'],
  keptApart: { abstract: 'invention_abstracts' },
  columns: [text('title'), text('abstract'), integer('year'), text('date'), integer('times_cited')],
  indexes: [['year'], ['date', 'id']],
  valueCounts: { year: 'invention_year_counts' },
  narrow: {
    table: 'inventions_narrow',
    columns: ['id', 'year', 'date', 'times_cited'],
    counts: { researchers: 'n_researchers', concepts: 'n_concepts' },
    indexes: [['year']],
  },
};
(LINK_TABLES as LinkTableSpec[]).push(
  {
    table: 'invention_researchers',
    owner: INVENTIONS,
    key: [text('researcher_id')],
    extra: [],
    reverse: ['researcher_id'],
    holds: { field: 'researchers' },
    postings: { table: 'invention_researchers_postings', column: 'invention_pks' },
  },
  {
    table: 'invention_research_orgs',
    owner: INVENTIONS,
    key: [text('org_id')],
    extra: [],
    reverse: ['org_id'],
    holds: { field: 'research_orgs' },
    ownerColumns: ['year', 'date'],
  },
  {
    table: 'invention_concepts',
    owner: INVENTIONS,
    key: [integer('concept_id')],
    extra: [],
    dropped: [{ name: 'score', type: 'real' }],
    reverse: ['concept_id'],
    holds: { field: 'concepts' },
    interned: { table: 'concept_names', column: 'name', replaced: 'concept' },
    postings: { table: 'invention_concepts_postings', column: 'invention_pks' },
    listed: { table: 'invention_concepts_lists', column: 'concept_ids' },
  },
  {
    table: 'invention_values',
    owner: INVENTIONS,
    key: [text('field'), { name: 'value', type: 'any' }],
    extra: [],
    reverse: ['field', 'value'],
    holds: { discriminator: 'field', fields: { issn: '1' } },
  },
);
(FULLTEXT_TABLES as FullTextSpec[]).push({
  owner: INVENTIONS,
  table: 'inventions_fts',
  columns: ['title', 'abstract'],
  indexes: { full_data: ['title', 'abstract'] },
});

// Loaded after the layout changed (a static import would load them first).
const { migrate } = await import('../../src/store/sqlite/migrate.ts');
const { RECORD_MIGRATIONS } = await import('../../src/store/sqlite/records-schema.ts');
const { declaredRecordSchemaSql } = await import('../../src/store/sqlite/declared-schema.ts');
const { registerPostingFunctions } = await import('../../src/store/sqlite/posting-lists.ts');
const { shapeDifferences, sqliteSchemaShape } = await import('../fixtures/schema-shape.ts');

const INVENTION_TABLE = /^invention/;

/** Records migrations 1–19, those with upgrade steps pinned to the kinds they knew (later ones add sources' tables). */
const LEGACY = RECORD_MIGRATIONS.filter((m) => m.version <= 19);

function database(): Database.Database {
  const db = new Database(':memory:');
  registerPostingFunctions(db);
  return db;
}

/** A database brought through the frozen files on a new database, as `migrate()` does. */
function frozenPath(migrations = RECORD_MIGRATIONS): Database.Database {
  const db = database();
  migrate(db, 'records', migrations);
  return db;
}

test('the upgrade steps of records migrations 2-19 make what the frozen files make, and nothing of a later source', () => {
  const upgraded = database();
  const first = RECORD_MIGRATIONS[0]!;
  assert.equal(first.upgrade, undefined, 'version 1 only ever runs on a new database');
  upgraded.exec(first.sql());
  for (const m of LEGACY.slice(1)) {
    assert.ok(m.upgrade !== undefined, `records migration ${m.version} has an upgrade step`);
    m.upgrade(upgraded);
  }
  const shape = sqliteSchemaShape(upgraded);
  assert.deepEqual(
    Object.keys(shape).filter((name) => INVENTION_TABLE.test(name)),
    [],
  );
  assert.deepEqual(shapeDifferences(shape, sqliteSchemaShape(frozenPath(LEGACY))), []);
});

test('the declared layout has the new source, so the migrations fall short until one makes its tables', () => {
  const declared = database();
  for (const statement of declaredRecordSchemaSql()) declared.exec(statement);
  const declaredShape = sqliteSchemaShape(declared);
  const missing = shapeDifferences(sqliteSchemaShape(frozenPath()), declaredShape);
  assert.ok(missing.length > 0);
  assert.ok(
    missing.every((d) => INVENTION_TABLE.test(d)),
    missing.join('\n'),
  );

  // The next migration: the new source's declared DDL, frozen as a file would hold it.
  const inventionSql = declaredRecordSchemaSql()
    .filter((s) => /\binvention/.test(s.split('(')[0] ?? ''))
    .map((s) => `${s};\n`)
    .join('');
  const next = { version: RECORD_MIGRATIONS.length + 1, name: 'inventions', sql: () => inventionSql };
  const fresh = database();
  assert.deepEqual(migrate(fresh, 'records', [...RECORD_MIGRATIONS, next]).length, next.version);
  assert.deepEqual(shapeDifferences(sqliteSchemaShape(fresh), declaredShape), []);

  // An older database: 1–10 from the files, then 11–19 through their upgrade steps, then the later ones.
  const older = database();
  migrate(older, 'records', RECORD_MIGRATIONS.slice(0, 10));
  older.exec("INSERT INTO publications (pk, id, title) VALUES (1, 'pub.1', 'A')");
  assert.deepEqual(
    migrate(older, 'records', [...RECORD_MIGRATIONS, next]),
    [...RECORD_MIGRATIONS, next].map((m) => m.version).filter((v) => v > 10),
  );
  assert.deepEqual(shapeDifferences(sqliteSchemaShape(older), declaredShape), []);
  assert.equal(older.prepare("SELECT title FROM publications WHERE id = 'pub.1'").pluck().get(), 'A');
});
