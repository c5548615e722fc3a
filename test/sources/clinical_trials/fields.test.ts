// The clinical_trials field table says what spec/schema-2026.md §7.6 says: the table is read
// from a copy of that section (test/fixtures/spec/), so a drift fails here.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, test } from 'node:test';
import { ENTITY_NAMES } from '../../../src/model/types.ts';
import { CLINICAL_TRIALS, CLINICAL_TRIALS_LONG_DESCRIPTIONS } from '../../../src/sources/clinical_trials/fields.ts';

const SPEC = readFileSync(new URL('../../fixtures/spec/schema-2026-clinical-trials.md', import.meta.url), 'utf8');

/** The `label: a, b, c` lists of the section's head (`fieldsets: ... · indicators: ...`). */
function listOf(label: string): string[] {
  const m = new RegExp(`${label}: ([^·\\n]*)`).exec(SPEC);
  assert.ok(m, label);
  return (m[1] ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
}

interface SpecField {
  type: string;
  filter: boolean;
  facet: boolean;
  multi: boolean;
}

/** The field table: `| \`name\` | list<entity: X> | ✓ | ✓ | since | description |`. */
const SPEC_FIELDS = new Map<string, SpecField>(
  SPEC.split('\n')
    .filter((l) => l.startsWith('| `'))
    .map((l) => {
      const [name = '', type = '', f = '', fa = ''] = l
        .split('|')
        .slice(1, -1)
        .map((c) => c.trim());
      const multi = type.startsWith('list<');
      const inner = type.replace(/^list<(.*)>$/, '$1').replace(/^entity: /, '');
      return [name.replace(/`/g, ''), { type: inner, filter: f === '✓', facet: fa === '✓', multi }];
    }),
);

const rows = [...CLINICAL_TRIALS.fields, ...CLINICAL_TRIALS.aliases.map((a) => a.row)];

describe('clinical_trials fields equal spec/schema-2026.md §7.6', () => {
  test('every field of the spec, and no other, with its type and flags', () => {
    assert.equal(SPEC_FIELDS.size, 45);
    assert.deepEqual(rows.map(([name]) => name).sort(), [...SPEC_FIELDS.keys()].sort());
    for (const [name, type, flags] of rows) {
      const spec = SPEC_FIELDS.get(name)!;
      // `score` answers and sorts, but filters nothing here (docs/language.md says why), as on every source.
      const expected = name === 'score' ? { ...spec, filter: false } : spec;
      assert.deepEqual(
        { type, filter: flags.includes('f'), facet: flags.includes('c'), multi: flags.includes('m') },
        expected,
        name,
      );
    }
  });

  test('the facets the spec lists are exactly the fields flagged as facets', () => {
    assert.deepEqual(
      rows
        .filter(([, , flags]) => flags.includes('c'))
        .map(([name]) => name)
        .sort(),
      listOf('facets').sort(),
    );
  });

  test('fieldsets, search indexes and indicators; fieldsets name existing fields', () => {
    assert.deepEqual(CLINICAL_TRIALS.fieldsets.map((f) => f.name).sort(), listOf('fieldsets').sort());
    assert.deepEqual(CLINICAL_TRIALS.searchIndexes.map((i) => i.name).sort(), listOf('search indexes').sort());
    assert.deepEqual([...CLINICAL_TRIALS.indicators], listOf('indicators'));
    assert.ok(CLINICAL_TRIALS.searchIndexes.some((i) => i.name === CLINICAL_TRIALS.defaultIndex));
    const names = new Set(rows.map(([name]) => name));
    for (const fieldset of CLINICAL_TRIALS.fieldsets)
      for (const f of fieldset.fields) assert.ok(names.has(f), `${fieldset.name}: ${f}`);
    // The observed basics (spec §5), and every study_* field in `studies`.
    assert.deepEqual(
      CLINICAL_TRIALS.fieldsets
        .find((f) => f.name === 'basics')
        ?.fields.slice()
        .sort(),
      ['active_years', 'id', 'investigators', 'title'],
    );
    assert.deepEqual(
      CLINICAL_TRIALS.fieldsets.find((f) => f.name === 'studies')?.fields,
      [...names].filter((n) => n.startsWith('study_')).sort(),
    );
    assert.ok(names.has(CLINICAL_TRIALS.defaultOrder.field));
  });

  test('entity types are Quarry entities; long descriptions only for the json fields', () => {
    for (const [name, type] of rows)
      if (!['string', 'integer', 'float', 'date', 'json'].includes(type))
        assert.ok((ENTITY_NAMES as readonly string[]).includes(type), `${name}: ${type}`);
    assert.deepEqual(
      Object.keys(CLINICAL_TRIALS_LONG_DESCRIPTIONS).sort(),
      rows
        .filter(([, type]) => type === 'json')
        .map(([name]) => name)
        .sort(),
    );
    for (const [name, , , description] of rows) assert.ok(description.length > 10, name);
  });
});
