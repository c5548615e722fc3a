import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe as suite, test } from 'node:test';
import { parse } from '../../src/dsl/index.ts';
import { isQuarryError } from '../../src/errors/index.ts';
import { describeQuery, schemaFor } from '../../src/schema/index.ts';
import { SOURCE_NAMES } from '../../src/model/sources.ts';

function run(text: string, dslVersion: 1 | 2 = 2): Record<string, unknown> {
  const ast = parse(text);
  assert.equal(ast.kind, 'DescribeQuery');
  return describeQuery(ast, { dslVersion, source: text });
}

type FieldDocs = Record<
  string,
  {
    type: string;
    description: string;
    long_description: string | null;
    is_entity: boolean;
    is_filter: boolean;
    is_facet: boolean;
    is_multivalue: boolean;
  }
>;

/** The opening of spec/schema-2026.md, copied into the fixtures. */
const SPEC_OPENING = readFileSync(new URL('../fixtures/spec/schema-2026-versions.md', import.meta.url), 'utf8');

suite('describe', () => {
  test('describe version names the release of the schema the spec gives', () => {
    // Version 2 serves the spec's 2026 `describe schema`, whose release its opening names.
    const release = /\bDSL ≈ v(\d+\.\d+)\b/.exec(SPEC_OPENING)?.[1];
    assert.ok(release !== undefined, 'the fixture names the release');
    assert.deepEqual(run('describe version'), { release, version: `${release}.0` });
  });

  test('describe version under version 1 names the hosted v1 release the spec cites', () => {
    // The spec's sources cite the hosted documentation of the last v1 release (S5).
    const cited = [...SPEC_OPENING.matchAll(/\b(1)\.(\d+)\.(\d+)\b/g)].map((m) => [Number(m[2]), m[0]] as const);
    assert.ok(cited.length > 0, 'the fixture cites a v1 release');
    const [minor, version] = cited.reduce((a, b) => (b[0] > a[0] ? b : a));
    assert.deepEqual(run('describe version', 1), { release: `1.${minor}`, version });
  });

  test('describe schema', () => {
    const out = run('describe schema') as {
      sources: Record<string, Record<string, unknown>>;
      entities: Record<string, { fields: FieldDocs }>;
    };
    // Every source, in the registry's order (test/model/sources.test.ts pins the first four).
    assert.deepEqual(Object.keys(out.sources), SOURCE_NAMES);
    const pubs = out.sources.publications as {
      fields: FieldDocs;
      fieldsets: string[];
      fieldset_fields: Record<string, string[]>;
      metrics: Record<string, unknown>;
      search_fields: string[];
    };
    assert.deepEqual(pubs.fieldsets, ['basics', 'extras', 'book', 'categories']);
    assert.deepEqual(pubs.fieldset_fields.basics, [
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
    // The current schema's search fields, in its order.
    assert.deepEqual(pubs.search_fields, [
      'full_data_exact',
      'title_only',
      'terms',
      'authors',
      'funding',
      'acknowledgements',
      'title_abstract_only',
      'concepts',
      'raw_affiliations',
      'full_data',
    ]);
    assert.deepEqual(Object.keys(pubs.metrics).sort(), [
      'altmetric_avg',
      'altmetric_median',
      'citations_avg',
      'citations_median',
      'citations_total',
      'count',
      'fcr_gavg',
      'rcr_avg',
      'recent_citations_total',
    ]);
    assert.deepEqual(pubs.fields.research_orgs, {
      type: 'organizations',
      description: 'Distinct organizations of the authors’ affiliations.',
      long_description: null,
      is_entity: true,
      is_filter: true,
      is_facet: true,
      is_multivalue: true,
    });
    assert.deepEqual(Object.keys(out.entities).sort(), [
      'categories',
      'cities',
      'countries',
      'journals',
      'open_access',
      'organizations',
      'publication_links',
      'repositories',
      'researchers',
      'source_titles',
      'states',
    ]);
    // Structured fields describe their objects' shape in long_description.
    assert.match(String(pubs.fields.authors?.long_description), /`city_id` \(GeoNames id, a number\)/);
    assert.match(String(pubs.fields.authors?.long_description), /`raw_affiliation`/);
    assert.ok(JSON.parse(JSON.stringify(out)), 'is JSON');
  });

  test('every described field has type, description and the four flags', () => {
    const out = run('describe schema') as {
      sources: Record<string, { fields: FieldDocs }>;
      entities: Record<string, { fields: FieldDocs }>;
    };
    const all = [...Object.values(out.sources), ...Object.values(out.entities)].flatMap((s) => Object.values(s.fields));
    assert.ok(all.length > 150);
    for (const f of all) {
      assert.equal(typeof f.type, 'string');
      assert.ok(f.description.length > 0);
      for (const flag of ['is_entity', 'is_filter', 'is_facet', 'is_multivalue'] as const)
        assert.equal(typeof f[flag], 'boolean');
      assert.ok(f.long_description === null || typeof f.long_description === 'string', 'long_description');
    }
  });

  test('describe source publications (version 1 leaves deprecated fields and [all] out)', () => {
    type Described = { fields: FieldDocs; fieldsets: string[]; fieldset_fields: Record<string, string[]> };
    const { fieldset_fields: v1Sets, ...v1 } = run('describe source publications', 1) as Described;
    const { fieldset_fields: v2Sets, ...v2 } = run('describe source publications', 2) as Described;
    assert.deepEqual(v1, v2);
    // Version 1's basics held author_affiliations where version 2's hold authors (the hosted v1 answers).
    assert.deepEqual(v1Sets, {
      ...v2Sets,
      basics: v2Sets.basics?.map((f) => (f === 'authors' ? 'author_affiliations' : f)),
    });
    assert.ok(v1Sets.basics?.includes('author_affiliations'));
    assert.equal(v1.fields.FOR, undefined);
    assert.ok(!v1.fieldsets.includes('all'));
    assert.ok(schemaFor(1).fieldsBySource.get('publications')?.get('FOR'), 'still accepted by version 1');
  });

  test('describe source grants', () => {
    const out = run('describe source grants') as {
      fields: FieldDocs;
      metrics: Record<string, unknown>;
      search_fields: string[];
    };
    assert.deepEqual(Object.keys(out.metrics), ['count', 'funding']);
    // The current schema's search fields, in its order (spec/schema-2026.md §7.2).
    assert.deepEqual(out.search_fields, [
      'title_only',
      'title_abstract_only',
      'concepts',
      'raw_affiliations',
      'investigators',
      'full_data',
    ]);
    assert.equal(out.fields.funding_usd?.type, 'float');
  });

  test('describe entity categories', () => {
    assert.deepEqual(run('describe entity categories'), {
      fields: {
        id: {
          name: 'string',
          type: 'string',
          description: 'Category identifier.',
          long_description: null,
          is_entity: false,
          is_filter: true,
          is_facet: false,
          is_multivalue: false,
        },
        name: {
          name: 'string',
          type: 'string',
          description: 'Category code and name ("16 Studies in Human Society").',
          long_description: null,
          is_entity: false,
          is_filter: true,
          is_facet: false,
          is_multivalue: false,
        },
      },
      fieldsets: ['basics'],
      display_fields: ['name'],
    });
  });

  test('describe entity planets', () => {
    try {
      run('describe entity planets');
      assert.fail('should be rejected');
    } catch (error) {
      assert.ok(isQuarryError(error));
      assert.equal(error.code, 'SCHEMA_UNKNOWN_ENTITY');
      assert.deepEqual(error.first.position, { line: 1, column: 17 });
    }
  });
});
