// The compiler's view of the storage layout, derived from the model, names exactly what the store creates.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import Database from 'better-sqlite3';
import { RECORDS_LAYOUT } from '../../src/compile/records-layout.ts';
import { FULLTEXT_TABLES, RECORD_KINDS, writtenValueFields } from '../../src/model/storage.ts';
import { SOURCE_FIELD_TABLES } from '../../src/model/sources.ts';
import { migrate } from '../../src/store/sqlite/migrate.ts';
import { RECORD_MIGRATIONS } from '../../src/store/sqlite/records-schema.ts';

describe('compiler layout matches the store', () => {
  const db = new Database(':memory:');
  migrate(db, 'records', RECORD_MIGRATIONS);
  const columnsOf = (table: string): Set<string> =>
    new Set((db.prepare(`PRAGMA table_info("${table}")`).all() as Array<{ name: string }>).map((c) => c.name));
  const assertColumns = (table: string, cols: readonly string[]): void => {
    const have = columnsOf(table);
    assert.ok(have.size > 0, `table ${table} exists`);
    for (const c of cols) assert.ok(have.has(c), `${table}.${c} exists`);
  };

  for (const [name, source] of Object.entries(RECORDS_LAYOUT.sources)) {
    test(`${name}: source table, columns, links, entities`, () => {
      const apart = source.apart ?? {};
      assertColumns(source.table, [
        source.key,
        source.document,
        ...Object.values(source.columns).filter((c) => apart[c] === undefined),
        ...source.defaultOrder.map((o) => o.column),
      ]);
      // A column kept apart is in its own table, keyed as the source, and not in the row.
      for (const [column, table] of Object.entries(apart)) {
        assertColumns(table, [source.key, column]);
        assert.ok(!columnsOf(source.table).has(column), `${source.table}.${column} is kept apart`);
      }
      for (const [field, link] of Object.entries(source.links)) {
        assertColumns(link.table, [
          link.recordColumn,
          link.valueColumn,
          ...(link.discriminator === undefined ? [] : [link.discriminator.column]),
        ]);
        if (link.entity !== undefined)
          assertColumns(link.entity.table, [link.entity.idColumn, ...Object.values(link.entity.columns)]);
        if (link.wholeSourceCount !== undefined)
          assertColumns(link.wholeSourceCount.table, [
            link.wholeSourceCount.idColumn,
            link.wholeSourceCount.countColumn,
          ]);
        assert.ok(field.length > 0);
      }
      for (const e of Object.values(source.entityColumns)) {
        assertColumns(source.table, [e.column]);
        assertColumns(e.entity.table, [e.entity.idColumn, ...Object.values(e.entity.columns)]);
      }
    });

    test(`${name}: full-text indexes are the store's`, () => {
      const spec = FULLTEXT_TABLES.find((f) => f.owner === name);
      assert.ok(spec !== undefined && source.fts !== undefined);
      assert.equal(source.fts.table, spec.table);
      assert.deepEqual(Object.keys(source.fts.indexes).sort(), Object.keys(spec.indexes).sort());
      // No column list means every column of the index's table: the main one, or the table
      // apart of indexes added later.
      const columnsOf = (index: string): readonly string[] =>
        spec.apart !== undefined && source.fts?.tables?.[index] === spec.apart.table
          ? spec.apart.columns
          : spec.columns;
      for (const [index, cols] of Object.entries(source.fts.indexes))
        assert.deepEqual(cols ?? columnsOf(index), spec.indexes[index], index);
    });
  }

  test('every value field the store writes is read from its link table', () => {
    for (const kind of RECORD_KINDS) {
      const source = RECORDS_LAYOUT.sources[kind];
      const fields = writtenValueFields(kind);
      if (source === undefined) {
        assert.deepEqual(fields, [], `${kind} has no source layout, so no value fields`);
        continue;
      }
      assert.ok(fields.length > 0 || kind !== 'publications', kind);
      for (const { field, code } of fields) {
        if (field === 'aliases') continue; // organizations' aliases are not a schema field
        assert.equal(source.links[field]?.discriminator?.value, code, `${kind}.${field}`);
      }
    }
  });

  test('the places and names of the organizations a record links are read through them, wherever the schema has them', () => {
    const through = [
      ['research_orgs', 'research_org_countries', ['country_code'], 'countries'],
      ['research_orgs', 'research_org_country_names', ['country_name'], undefined],
      ['research_orgs', 'research_org_cities', ['city_id', 'city_name'], 'cities'],
      ['research_orgs', 'research_org_state_codes', ['state_code'], 'states'],
      ['research_orgs', 'research_org_state_names', ['state_name'], undefined],
      ['research_orgs', 'research_org_names', ['name'], undefined],
      ['funders', 'funder_countries', ['country_code'], 'countries'],
    ] as const;
    // Grants lack the name lists.
    for (const kind of ['publications', 'grants'] as const) {
      const source = RECORDS_LAYOUT.sources[kind];
      const schemaFields = new Set(SOURCE_FIELD_TABLES[kind].fields.map(([name]) => name));
      const held = through.filter(([, field]) => schemaFields.has(field));
      assert.ok(held.length >= 4, kind);
      for (const [linkField, field, columns, entityKind] of held) {
        const link = source?.links[field];
        assert.equal(link?.table, source?.links[linkField]?.table, `${kind}.${field}`);
        assert.deepEqual(link?.through, { table: 'organizations', idColumn: 'id', columns }, `${kind}.${field}`);
        assert.equal(link?.discriminator, undefined, `${kind}.${field}`);
        assert.equal(link?.entityKind, entityKind, `${kind}.${field}`);
        assertColumns('organizations', columns);
      }
    }
  });

  test('entity displays name existing columns', () => {
    for (const e of Object.values(RECORDS_LAYOUT.entities)) {
      assertColumns(e.table, [e.idColumn, ...Object.values(e.columns)]);
      for (const list of Object.values(e.lists ?? {})) {
        assertColumns(list.table, [list.ownerColumn, list.valueColumn, ...(list.field === undefined ? [] : ['field'])]);
        assertColumns(e.table, [list.entityKey]);
      }
    }
  });
});
