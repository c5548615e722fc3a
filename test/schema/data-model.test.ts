import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, test } from 'node:test';
import { schemaFor } from '../../src/schema/index.ts';
import type { EntityName, SourceName } from '../../src/schema/index.ts';

// The schema must say exactly what spec/data-model.md says: the tables are read from the
// spec file itself (a copy of the spec kept in test/fixtures/spec/), so a drift fails here.
const SPEC = readFileSync(new URL('../fixtures/spec/data-model.md', import.meta.url), 'utf8');

interface SpecSource {
  fields: Map<string, { type: string; filter: boolean; facet: boolean; multi: boolean }>;
  fieldsets: string[];
  indexes: string[];
  indicators: string[];
}

function section(name: string): string {
  const start = SPEC.indexOf(`\n## ${name}\n`);
  assert.ok(start >= 0, `section ${name} in data-model.md`);
  const end = SPEC.indexOf('\n## ', start + 4);
  return SPEC.slice(start, end < 0 ? undefined : end);
}

function listLine(text: string, label: string): string[] {
  const m = new RegExp(`^${label}: (.*)$`, 'm').exec(text);
  assert.ok(m, `${label} line`);
  return (m[1] ?? '')
    .replace(/\(.*\)/, '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
}

function tableRows(text: string): string[][] {
  return text
    .split('\n')
    .filter(
      (l) => l.startsWith('| ') && !l.startsWith('| ---') && !l.startsWith('| field') && !l.startsWith('| entity'),
    )
    .map((l) =>
      l
        .split('|')
        .slice(1, -1)
        .map((c) => c.trim()),
    );
}

function specSource(name: SourceName): SpecSource {
  const text = section(name);
  const fields = new Map<string, { type: string; filter: boolean; facet: boolean; multi: boolean }>();
  for (const [field = '', type = '', filter, facet, multi] of tableRows(text)) {
    fields.set(field, { type, filter: filter === 'yes', facet: facet === 'yes', multi: multi === 'yes' });
  }
  return {
    fields,
    fieldsets: listLine(text, 'fieldsets'),
    indexes: listLine(text, 'search indexes'),
    indicators: listLine(text, 'indicators'),
  };
}

/** The sources spec/data-model.md defines (later sources are in spec/schema-2026.md §7). */
const SOURCES: SourceName[] = ['publications', 'grants', 'researchers', 'organizations'];

/**
 * The current schema's `score` (spec/schema-2026.md §7): the relevance of a full-text
 * search, returned and sorted by; not a filter here (docs/language.md says why).
 */
const SCORE = { type: 'float', filter: false, facet: false, multi: false };

/**
 * Fields the schema holds beyond the spec tables, each with its reason. The spec's text
 * defines `fcr_gavg` as the geometric mean of `field_citation_ratio`, a field its table
 * leaves out; the indicator needs it.
 */
const BEYOND_SPEC_TABLES: Partial<
  Record<SourceName, Record<string, { type: string; filter: boolean; facet: boolean; multi: boolean }>>
> = {
  publications: {
    field_citation_ratio: { type: 'float', filter: true, facet: false, multi: false },
    // The current schema (spec/schema-2026.md §7.1), beyond the 2022 tables.
    category_for_2020: { type: 'categories', filter: true, facet: true, multi: true },
    document_type: { type: 'string', filter: true, facet: true, multi: false },
    editors: { type: 'string', filter: true, facet: false, multi: false },
    funding_section: { type: 'string', filter: true, facet: false, multi: false },
    isbn: { type: 'string', filter: true, facet: false, multi: true },
    research_org_types: { type: 'string', filter: true, facet: true, multi: true },
    score: SCORE,
  },
  // The current schema (spec/schema-2026.md §7.2), beyond the 2022 tables.
  grants: {
    active_status: { type: 'string', filter: true, facet: true, multi: false },
    category_for_2020: { type: 'categories', filter: true, facet: true, multi: true },
    funder_org_acronym: { type: 'string', filter: true, facet: true, multi: false },
    funder_org_cities: { type: 'cities', filter: true, facet: true, multi: true },
    funder_org_countries: { type: 'countries', filter: true, facet: true, multi: true },
    funder_org_name: { type: 'string', filter: true, facet: true, multi: false },
    funder_org_states: { type: 'states', filter: true, facet: true, multi: true },
    funder_orgs: { type: 'organizations', filter: true, facet: true, multi: true },
    funding_cny: { type: 'float', filter: true, facet: false, multi: false },
    funding_schemes: { type: 'string', filter: true, facet: false, multi: true },
    keywords: { type: 'string', filter: true, facet: true, multi: true },
    project_numbers: { type: 'json', filter: true, facet: false, multi: false },
    research_org_types: { type: 'string', filter: true, facet: true, multi: true },
    // Dropped by the hosted schema in 2021, still asked for: answered with a warning (§8.1).
    resulting_publication_ids: { type: 'string', filter: true, facet: false, multi: true },
    score: SCORE,
  },
  researchers: { score: SCORE },
  organizations: {
    // The current schema (spec/schema-2026.md §7.4), beyond the 2022 tables.
    country_code: { type: 'string', filter: true, facet: true, multi: false },
    // Quarry's own, in no spec table: derived from the parent/child relationships
    // (docs/language.md, "organizations").
    hierarchy_details: { type: 'json', filter: false, facet: false, multi: false },
    ultimate_parent_id: { type: 'string', filter: true, facet: false, multi: false },
    // Quarry's own: ROR's other names, which the affiliation matcher (extract_affiliations)
    // reads and a user may filter by.
    aliases: { type: 'string', filter: true, facet: false, multi: true },
    score: SCORE,
  },
};

/** Search indexes of the current schema (spec/schema-2026.md §3) beyond the 2022 lists. */
const INDEXES_BEYOND_SPEC: Partial<Record<SourceName, readonly string[]>> = {
  publications: ['funding', 'raw_affiliations'],
  grants: ['raw_affiliations'],
};

describe('version 2 schema equals spec/data-model.md', () => {
  const schema = schemaFor(2);
  for (const name of SOURCES) {
    test(`${name}: every field with its type, filter, facet and multi flags`, () => {
      const spec = specSource(name);
      const source = schema.sources.get(name);
      assert.ok(source);
      const expected = new Map([...spec.fields, ...Object.entries(BEYOND_SPEC_TABLES[name] ?? {})]);
      assert.deepEqual(source.fields.map((f) => f.name).sort(), [...expected.keys()].sort());
      for (const f of source.fields) {
        assert.deepEqual(
          { type: f.type, filter: f.isFilter, facet: f.isFacet, multi: f.isMultivalue },
          expected.get(f.name),
          `${name}.${f.name}`,
        );
      }
    });
    test(`${name}: fieldsets, search indexes and indicators`, () => {
      const spec = specSource(name);
      const source = schema.sources.get(name);
      assert.ok(source);
      assert.deepEqual(source.fieldsets.map((fs) => fs.name).sort(), [...spec.fieldsets].sort());
      assert.deepEqual(
        source.searchIndexes.map((ix) => ix.name).sort(),
        [...spec.indexes, ...(INDEXES_BEYOND_SPEC[name] ?? [])].sort(),
      );
      assert.deepEqual(source.indicators.map((ix) => ix.name).sort(), [...spec.indicators].sort());
    });
  }

  test('entities of the spec table have exactly the listed fields and types', () => {
    const rows = tableRows(section('Entities'));
    assert.ok(rows.length >= 7);
    for (const [entity = '', fields = ''] of rows) {
      const spec = fields.split(',').map((f) => {
        const m = /^(\w+) \((\w+)\)$/.exec(f.trim());
        assert.ok(m, f);
        return [m[1], m[2]];
      });
      const actual = schema.entities.get(entity as EntityName)?.fields.map((f) => [f.name, f.type]);
      assert.deepEqual(actual, spec, entity);
    }
  });

  test('every entity type a field names is a described entity, with an id sub-field', () => {
    for (const source of schema.sources.values()) {
      for (const field of source.fields) {
        if (!field.isEntity) continue;
        const entity = schema.entities.get(field.entity as EntityName);
        assert.ok(entity, `${source.name}.${field.name}: ${field.type}`);
        assert.ok(entity.fields.some((f) => f.name === 'id'));
      }
    }
  });

  test('basics fieldsets hold the documented fields in order', () => {
    const basics = (s: SourceName): readonly string[] | undefined =>
      schema.sources.get(s)?.fieldsets.find((fs) => fs.name === 'basics')?.fields;
    assert.deepEqual(basics('publications'), [
      'id',
      'title',
      'doi',
      'type',
      'year',
      'date',
      'journal',
      'volume',
      'issue',
      'pages',
      'authors',
    ]);
    // The current schema's grants basics (spec/schema-2026.md §5, sample-results/26).
    assert.deepEqual(basics('grants'), [
      'id',
      'title',
      'original_title',
      'language',
      'active_year',
      'start_date',
      'end_date',
      'start_year',
      'funder_orgs',
      'funder_org_name',
      'grant_number',
    ]);
    assert.deepEqual(basics('researchers'), ['id', 'first_name', 'last_name', 'orcid_id', 'research_orgs']);
    assert.deepEqual(basics('organizations'), ['id', 'name', 'acronym', 'types', 'city_name', 'country_name']);
  });

  test('every fieldset member is a field of its source; categories holds every category_* field', () => {
    for (const source of schema.sources.values()) {
      const names = new Set(source.fields.map((f) => f.name));
      for (const fs of source.fieldsets)
        for (const f of fs.fields) assert.ok(names.has(f), `${source.name}.${fs.name}: ${f}`);
      const categories = source.fieldsets.find((fs) => fs.name === 'categories');
      if (categories)
        assert.deepEqual([...categories.fields].sort(), [...names].filter((n) => n.startsWith('category_')).sort());
    }
  });

  test('extras holds only single-valued scalar fields (indicators and identifiers)', () => {
    for (const source of schema.sources.values()) {
      const extras = source.fieldsets.find((fs) => fs.name === 'extras');
      if (!extras) continue;
      for (const name of extras.fields) {
        const f = source.fields.find((x) => x.name === name);
        assert.ok(f && !f.isMultivalue && f.type !== 'json', `${source.name}.extras: ${name}`);
      }
    }
  });

  test('person-name indexes are authors (publications), investigators (grants, clinical trials) and inventors (patents)', () => {
    const person = [...schema.sources.values()].flatMap((s) =>
      s.searchIndexes.filter((ix) => ix.isPersonNameIndex).map((ix) => `${s.name}.${ix.name}`),
    );
    assert.deepEqual(person.sort(), [
      'clinical_trials.investigators',
      'grants.investigators',
      'patents.inventors',
      'publications.authors',
    ]);
  });

  test('facet kinds: entity facets for entity fields, value facets with their type otherwise', () => {
    const pubs = schema.fieldsBySource.get('publications');
    assert.equal(pubs?.get('research_orgs')?.facetKind, 'entity');
    assert.equal(pubs?.get('year')?.facetKind, 'value');
    assert.equal(pubs?.get('year')?.type, 'integer');
    assert.equal(pubs?.get('open_access')?.facetKind, 'value');
    assert.equal(pubs?.get('title')?.facetKind, undefined);
  });

  test('operators: ~ only on text, no emptiness on counters, count() only on multi-value fields', () => {
    const pubs = schema.fieldsBySource.get('publications');
    assert.ok(pubs?.get('doi')?.operators.includes('~'));
    assert.ok(!pubs?.get('year')?.operators.includes('~'));
    assert.ok(!pubs?.get('authors')?.operators.includes('~'));
    assert.ok(pubs?.get('authors')?.operators.includes('='));
    assert.ok(!pubs?.get('times_cited')?.operators.includes('empty'));
    assert.ok(pubs?.get('altmetric')?.operators.includes('empty'));
    assert.ok(pubs?.get('research_orgs')?.operators.includes('count'));
    assert.ok(!pubs?.get('journal')?.operators.includes('count'));
    assert.deepEqual(pubs?.get('title')?.operators, ['empty']);
    assert.deepEqual(pubs?.get('abstract')?.operators, ['empty']);
    assert.ok(!schema.fieldsBySource.get('researchers')?.get('obsolete')?.operators.includes('empty'));
  });

  test('version 2 has no deprecated field but those still answered, and no [all]', () => {
    for (const source of schema.sources.values()) {
      assert.deepEqual(
        source.fields.filter((f) => f.deprecated !== undefined).map((f) => `${source.name}.${f.name}`),
        source.name === 'grants' ? ['grants.resulting_publication_ids'] : [],
      );
      assert.ok(source.fieldsets.every((fs) => fs.name !== 'all'));
    }
  });
});

describe('version 1 schema is version 2 plus the removed fields of spec/dsl.md §7', () => {
  const v1 = schemaFor(1);
  const v2 = schemaFor(2);
  const removed: [SourceName, string, string][] = [
    ['publications', 'FOR', 'category_for'],
    ['publications', 'FOR_first', 'category_for'],
    ['publications', 'RCDC', 'category_rcdc'],
    ['publications', 'HRCS_HC', 'category_hrcs_hc'],
    ['publications', 'HRCS_RAC', 'category_hrcs_rac'],
    ['publications', 'author_affiliations', 'authors'],
    ['publications', 'references', 'reference_ids'],
    ['publications', 'terms', 'concepts'],
    ['publications', 'open_access_categories', 'open_access'],
    ['grants', 'FOR', 'category_for'],
    ['grants', 'investigators_details', 'investigators'],
    ['grants', 'investigator_details', 'investigators'],
    ['grants', 'research_org_name', 'research_orgs'],
    ['grants', 'project_num', 'grant_number'],
    ['grants', 'RCDC', 'category_rcdc'],
    ['grants', 'terms', 'concepts'],
  ];
  for (const [source, field, replacement] of removed) {
    test(`${source}.${field} is deprecated in favour of ${replacement}`, () => {
      const d = v1.fieldsBySource.get(source)?.get(field);
      assert.equal(d?.deprecated?.replacement, replacement);
      assert.equal(v2.fieldsBySource.get(source)?.get(field), undefined);
      assert.ok(v1.fieldsBySource.get(source)?.get(d?.deprecated?.readsFrom ?? ''), 'reads from a held field');
    });
  }

  test('every version-2 field is in version 1 unchanged, and v1 has fieldset all (deprecated fields included)', () => {
    for (const [name, source] of v2.sources) {
      const old = v1.fieldsBySource.get(name);
      for (const f of source.fields) assert.deepEqual(old?.get(f.name), f);
      const all = v1.sources.get(name)?.fieldsets.find((fs) => fs.name === 'all');
      assert.deepEqual(
        all?.fields,
        v1.sources.get(name)?.fields.map((f) => f.name),
      );
      assert.ok(all?.deprecated);
    }
  });
});
