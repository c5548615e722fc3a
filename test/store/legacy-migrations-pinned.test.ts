// Records migrations 1–19 stay what they were when a source is added. The layout here gets a
// fifth kind of record (patents) with a table of every kind a source can have (a narrow
// table, value counts, an abstract kept apart, links carrying owner columns, interned links
// kept as lists by record with posting lists, a values table, a full-text table), before the
// store's modules are loaded, so everything they derive from the layout sees it. Then:
// - the upgrade steps of 2–19 (what an older database runs) make exactly what the frozen
//   files make: none of them reaches the new source;
// - the declared layout has the new tables, so the declared-layout test fails until a
//   migration makes them; a migration 20 made from their declared DDL closes the gap, on a
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

const PATENTS = 'patents' as RecordKind;
const text = (name: string) => ({ name, type: 'text' }) as const;
const integer = (name: string) => ({ name, type: 'integer' }) as const;

(SOURCE_TABLES as Record<string, SourceTableSpec>)['patents'] = {
  kind: PATENTS,
  table: 'patents',
  packedText: ['abstract'],
  keptApart: { abstract: 'patent_abstracts' },
  columns: [text('title'), text('abstract'), integer('year'), text('date'), integer('times_cited')],
  indexes: [['year'], ['date', 'id']],
  valueCounts: { year: 'patent_year_counts' },
  narrow: {
    table: 'patents_narrow',
    columns: ['id', 'year', 'date', 'times_cited'],
    counts: { researchers: 'n_researchers', concepts: 'n_concepts' },
    indexes: [['year']],
  },
};
(LINK_TABLES as LinkTableSpec[]).push(
  {
    table: 'patent_researchers',
    owner: PATENTS,
    key: [text('researcher_id')],
    extra: [],
    reverse: ['researcher_id'],
    holds: { field: 'researchers' },
    postings: { table: 'patent_researchers_postings', column: 'patent_pks' },
  },
  {
    table: 'patent_research_orgs',
    owner: PATENTS,
    key: [text('org_id')],
    extra: [],
    reverse: ['org_id'],
    holds: { field: 'research_orgs' },
    ownerColumns: ['year', 'date'],
  },
  {
    table: 'patent_concepts',
    owner: PATENTS,
    key: [integer('concept_id')],
    extra: [],
    dropped: [{ name: 'score', type: 'real' }],
    reverse: ['concept_id'],
    holds: { field: 'concepts' },
    interned: { table: 'concept_names', column: 'name', replaced: 'concept' },
    postings: { table: 'patent_concepts_postings', column: 'patent_pks' },
    listed: { table: 'patent_concepts_lists', column: 'concept_ids' },
  },
  {
    table: 'patent_values',
    owner: PATENTS,
    key: [text('field'), { name: 'value', type: 'any' }],
    extra: [],
    reverse: ['field', 'value'],
    holds: { discriminator: 'field', fields: { issn: '1' } },
  },
);
(FULLTEXT_TABLES as FullTextSpec[]).push({
  owner: PATENTS,
  table: 'patents_fts',
  columns: ['title', 'abstract'],
  indexes: { full_data: ['title', 'abstract'] },
});

// Loaded after the layout changed (a static import would load them first).
const { migrate } = await import('../../src/store/sqlite/migrate.ts');
const { RECORD_MIGRATIONS } = await import('../../src/store/sqlite/records-schema.ts');
const { declaredRecordSchemaSql } = await import('../../src/store/sqlite/declared-schema.ts');
const { registerPostingFunctions } = await import('../../src/store/sqlite/posting-lists.ts');
const { shapeDifferences, sqliteSchemaShape } = await import('../fixtures/schema-shape.ts');

const PATENT_TABLE = /^patent/;

function database(): Database.Database {
  const db = new Database(':memory:');
  registerPostingFunctions(db);
  return db;
}

/** A database brought through the frozen files on a new database, as `migrate()` does. */
function frozenPath(): Database.Database {
  const db = database();
  migrate(db, 'records', RECORD_MIGRATIONS);
  return db;
}

test('the upgrade steps of records migrations 2-19 make what the frozen files make, and nothing of a later source', () => {
  const upgraded = database();
  const first = RECORD_MIGRATIONS[0]!;
  assert.equal(first.upgrade, undefined, 'version 1 only ever runs on a new database');
  upgraded.exec(first.sql());
  for (const m of RECORD_MIGRATIONS.slice(1)) {
    assert.ok(m.upgrade !== undefined, `records migration ${m.version} has an upgrade step`);
    m.upgrade(upgraded);
  }
  const shape = sqliteSchemaShape(upgraded);
  assert.deepEqual(
    Object.keys(shape).filter((name) => PATENT_TABLE.test(name)),
    [],
  );
  assert.deepEqual(shapeDifferences(shape, sqliteSchemaShape(frozenPath())), []);
});

test('the declared layout has the new source, so the migrations fall short until one makes its tables', () => {
  const declared = database();
  for (const statement of declaredRecordSchemaSql()) declared.exec(statement);
  const declaredShape = sqliteSchemaShape(declared);
  const missing = shapeDifferences(sqliteSchemaShape(frozenPath()), declaredShape);
  assert.ok(missing.length > 0);
  assert.ok(
    missing.every((d) => PATENT_TABLE.test(d)),
    missing.join('\n'),
  );

  // Migration 20: the new source's declared DDL, frozen as a file would hold it.
  const patentSql = declaredRecordSchemaSql()
    .filter((s) => /\bpatent/.test(s.split('(')[0] ?? ''))
    .map((s) => `${s};\n`)
    .join('');
  const twenty = { version: 20, name: 'patents', sql: () => patentSql };
  const fresh = database();
  assert.deepEqual(migrate(fresh, 'records', [...RECORD_MIGRATIONS, twenty]).length, 20);
  assert.deepEqual(shapeDifferences(sqliteSchemaShape(fresh), declaredShape), []);

  // An older database: 1–10 from the files, then 11–19 through their upgrade steps, then 20.
  const older = database();
  migrate(older, 'records', RECORD_MIGRATIONS.slice(0, 10));
  older.exec("INSERT INTO publications (pk, id, title) VALUES (1, 'pub.1', 'A')");
  assert.deepEqual(migrate(older, 'records', [...RECORD_MIGRATIONS, twenty]), [11, 12, 13, 14, 15, 16, 17, 18, 19, 20]);
  assert.deepEqual(shapeDifferences(sqliteSchemaShape(older), declaredShape), []);
  assert.equal(older.prepare("SELECT title FROM publications WHERE id = 'pub.1'").pluck().get(), 'A');
});
