// Each registered source's declaration (src/sources/<name>/model.ts) is consistent in itself:
// what its storage holds are fields of its field table, its search indexes are full-text
// columns, and its row hooks make rows for exactly its tables, in the layout's order. A new
// source is checked here by being in the registry. (Fieldsets naming existing fields, and the
// compiler's layout naming what the store creates, are checked in test/schema/data-model and
// test/compile/records-layout.)
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { defineSource, type SourceDeclaration } from '../../src/model/source-module.ts';
import { DECLARED_SOURCES } from '../../src/model/sources.ts';
import { VALUE_FIELD_CODES, fullTextColumns, writtenValueFields, type RecordKind } from '../../src/model/storage.ts';
import { recordToRows } from '../../src/store/rows.ts';

for (const source of DECLARED_SOURCES) {
  const { name, fieldTable, storage, rows } = source;
  const fields = new Set([...fieldTable.fields, ...(fieldTable.aliases ?? []).map((a) => a.row)].map(([f]) => f));

  describe(`source ${name}`, () => {
    test('its link tables and entity columns hold fields of its field table', () => {
      for (const link of storage.links) {
        const held = 'field' in link.holds ? [link.holds.field] : Object.keys(link.holds.fields);
        for (const field of held) assert.ok(fields.has(field), `${link.table} holds ${field}`);
        for (const field of Object.keys(link.readThrough ?? {}))
          assert.ok(!held.includes(field), `${link.table} reads ${field} through its entities and holds it too`);
      }
      for (const field of Object.keys(storage.table.entityColumns ?? {})) assert.ok(fields.has(field), field);
      const linked = new Set(storage.links.flatMap((l) => ('field' in l.holds ? [l.holds.field] : [])));
      for (const field of Object.keys(storage.table.narrow?.counts ?? {}))
        assert.ok(linked.has(field), `narrow count of ${field} is of a link table's field`);
      const columns = new Set(storage.table.columns.map((c) => c.name));
      for (const column of [
        ...(storage.table.narrow?.columns ?? []).filter((c) => c !== 'id'),
        ...Object.keys(storage.table.valueCounts ?? {}),
        ...(storage.table.packedText ?? []),
        ...Object.keys(storage.table.keptApart ?? {}),
        ...storage.table.indexes.flat().filter((c) => c !== 'id'),
      ])
        assert.ok(columns.has(column), `${storage.table.table}.${column} is a column`);
    });

    test('every search index of its field table is a set of its full-text columns', () => {
      const fullText = storage.fullText;
      const indexes = fieldTable.searchIndexes.map((ix) => ix.name);
      assert.ok(indexes.includes(fieldTable.defaultIndex), 'the default index is one of them');
      if (fullText === undefined) return assert.deepEqual(indexes, []);
      assert.deepEqual(Object.keys(fullText.indexes).sort(), [...indexes].sort());
      for (const [index, columns] of Object.entries(fullText.indexes)) {
        assert.ok(columns.length > 0, index);
        // Each index reads one table: its columns are all the table's, or all kept apart.
        const inTable = columns.filter((c) => fullText.columns.includes(c));
        const apart = columns.filter((c) => fullText.apart?.columns.includes(c) === true);
        assert.ok(
          inTable.length === columns.length || apart.length === columns.length,
          `${index}: ${columns.join(', ')}`,
        );
      }
      const apart = fullText.apart?.columns ?? [];
      for (const column of apart) assert.ok(!fullText.columns.includes(column), `${column} is in one table only`);
    });

    test("its values codes are the layout's, in the order the store writes them", () => {
      const codes = Object.entries(storage.valueFieldCodes ?? {}).map(([field, code]) => ({ field, code }));
      assert.deepEqual(writtenValueFields(name as RecordKind), codes);
      for (const { field, code } of codes) assert.equal(VALUE_FIELD_CODES[field], code);
    });

    test('its row hooks make rows for each of its tables, even of an empty record', () => {
      for (const record of [{ id: 'x.1' }, { id: 'x.2', title: 'T', name: 'N', year: 2020 }]) {
        const made = recordToRows(name as RecordKind, record);
        assert.deepEqual(
          [...made.links.keys()],
          storage.links.map((l) => l.table),
        );
        assert.equal(made.columns.length, storage.table.columns.length);
        assert.equal(
          made.fullText?.length,
          storage.fullText === undefined ? undefined : fullTextColumns(storage.fullText).length,
        );
        for (const [table, linkRows] of made.links) {
          const width = storage.links.find((l) => l.table === table)!.key.length;
          for (const row of linkRows) assert.equal(row.length, width, table);
        }
      }
      for (const column of Object.keys(rows.columnFallbacks ?? {}))
        assert.ok(
          storage.table.columns.some((c) => c.name === column),
          `fallback of ${column}`,
        );
    });
  });
}

describe('defineSource', () => {
  const base = DECLARED_SOURCES.find((s) => s.name === 'researchers')!;
  const attempt =
    (change: (s: SourceDeclaration) => SourceDeclaration): (() => unknown) =>
    () =>
      defineSource(change(base));

  test('accepts a registered declaration as it is', () => {
    assert.equal(defineSource(base), base);
  });
  test('refuses a full-text table without its hook, and a hook without the table', () => {
    const { fullText: _hook, ...rows } = base.rows;
    assert.throws(
      attempt((s) => ({ ...s, rows })),
      /full-text/,
    );
    const { fullText: _table, ...storage } = base.storage;
    assert.throws(
      attempt((s) => ({ ...s, storage })),
      /full-text/,
    );
  });
  test('refuses a link table not named for its owner, or declared twice', () => {
    const [first] = base.storage.links;
    assert.throws(
      attempt((s) => ({ ...s, storage: { ...s.storage, links: [{ ...first!, table: 'person_orgs' }] } })),
      /not named researcher_/,
    );
    assert.throws(
      attempt((s) => ({ ...s, storage: { ...s.storage, links: [first!, first!] } })),
      /twice/,
    );
  });
  test('refuses a values field without a stored code', () => {
    assert.throws(
      attempt((s) => ({ ...s, storage: { ...s.storage, valueFieldCodes: { orcid_id: '15' } } })),
      /redirect/,
    );
  });
});
