// Every field the current schema lists for the sources of the 2022 data model
// (spec/schema-2026.md §7.1 publications, §7.2 grants, §7.3 researchers, §7.4 organizations)
// is in their field tables with the filter and facet flags it lists, and every search index
// it lists for them (§7.1–7.4 heads) is offered. The sections are read from a copy kept in
// test/fixtures/spec/, so a field dropped from a table, or a table that drifts from the
// copy, fails here.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, test } from 'node:test';
import { parse } from '../../src/dsl/index.ts';
import { describeQuery, schemaFor, type SourceName } from '../../src/schema/index.ts';

const SPEC = readFileSync(new URL('../fixtures/spec/schema-2026-held-sources.md', import.meta.url), 'utf8');

interface SpecSection {
  readonly fields: ReadonlyMap<string, { readonly filter: boolean; readonly facet: boolean }>;
  readonly indexes: readonly string[];
}

/** The `### 7.N \`<source>\`` section: its field table and the search indexes of its head. */
function section(source: SourceName): SpecSection {
  const start = SPEC.indexOf(`\`${source}\`\n`, SPEC.indexOf('### 7.'));
  assert.ok(start > 0, `section of ${source}`);
  const end = SPEC.indexOf('\n### ', start);
  const text = SPEC.slice(start, end < 0 ? undefined : end);
  const indexes = /search indexes: ([^·\n]*)/.exec(text)?.[1] ?? '';
  const fields = new Map(
    text
      .split('\n')
      .filter((l) => l.startsWith('| `'))
      .map((l) => {
        const [name = '', , f = '', fa = ''] = l
          .split('|')
          .slice(1, -1)
          .map((c) => c.trim());
        return [name.replace(/`/g, ''), { filter: f === '✓', facet: fa === '✓' }] as const;
      }),
  );
  return {
    fields,
    indexes: indexes
      .split(',')
      .map((s) => s.trim())
      .filter((s) => s !== '' && s !== '—'),
  };
}

/**
 * Flags of the current schema Quarry does not follow, each with its reason: `score` is
 * returned and sorted by, not filtered on (docs/language.md says why).
 */
const FLAGS_DIFFERING = new Set(['score']);

const schema = schemaFor(2);
const SOURCES: readonly SourceName[] = ['publications', 'grants', 'researchers', 'organizations'];

describe('the current schema of the 2022 sources (spec/schema-2026.md §7.1–7.4)', () => {
  test('the copied sections list the fields they list in the spec', () => {
    // 74 + 56 + 17 + 35 rows in the spec's tables: a truncated copy fails here.
    assert.deepEqual(
      SOURCES.map((s) => section(s).fields.size),
      [74, 56, 17, 35],
    );
  });

  for (const name of SOURCES) {
    const spec = section(name);
    const source = schema.sources.get(name);

    test(`${name}: every field of the spec is in the field table`, () => {
      assert.ok(source);
      const held = new Set(source.fields.map((f) => f.name));
      assert.deepEqual(
        [...spec.fields.keys()].filter((f) => !held.has(f)),
        [],
      );
    });

    test(`${name}: each field is a filter and a facet where the spec marks it`, () => {
      assert.ok(source);
      for (const f of source.fields) {
        const flags = spec.fields.get(f.name);
        if (flags === undefined || FLAGS_DIFFERING.has(f.name)) continue;
        assert.deepEqual({ filter: f.isFilter, facet: f.isFacet }, flags, `${name}.${f.name}`);
      }
    });

    test(`${name}: every search index of the spec is offered`, () => {
      assert.ok(source);
      const offered = new Set(source.searchIndexes.map((ix) => ix.name));
      assert.deepEqual(
        spec.indexes.filter((ix) => !offered.has(ix)),
        [],
      );
    });
  }
});

/** The fields `describe source <name>` lists, with the flags it gives each. */
function described(name: SourceName): Record<string, { type: string; is_filter: boolean; is_facet: boolean }> {
  const text = `describe source ${name}`;
  const out = describeQuery(parse(text) as Parameters<typeof describeQuery>[0], { dslVersion: 2, source: text });
  return out['fields'] as Record<string, { type: string; is_filter: boolean; is_facet: boolean }>;
}

describe('describe source lists the 2026 fields', () => {
  const ADDED: Readonly<Record<string, readonly string[]>> = {
    publications: ['isbn', 'editors', 'funding_section', 'research_org_types'],
    grants: ['project_numbers', 'funder_org_cities', 'funder_org_states', 'research_org_types'],
    organizations: ['country_code'],
  };
  for (const [name, fields] of Object.entries(ADDED)) {
    test(`describe source ${name}`, () => {
      const spec = section(name as SourceName);
      const docs = described(name as SourceName);
      for (const field of fields) {
        const doc = docs[field];
        assert.ok(doc, `${name}.${field} is described`);
        assert.deepEqual({ filter: doc.is_filter, facet: doc.is_facet }, spec.fields.get(field), `${name}.${field}`);
      }
    });
  }
  test('the entity types of the places read through the funders', () => {
    const grants = described('grants');
    assert.equal(grants['funder_org_cities']?.type, 'cities');
    assert.equal(grants['funder_org_states']?.type, 'states');
    assert.equal(grants['project_numbers']?.type, 'json');
  });
});
