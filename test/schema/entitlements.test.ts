// What a subscription's sources entitle a query to read (src/schema/entitlements.ts,
// docs/language.md "Subscriptions"), for every syntax that can reach another source: the
// searched source, facets over linked researchers and organizations with and without field
// lists, records with linked entities, unnest, filters, functions, groups, describe.
// Tables whose test names are the queries, with the sources the caller is subscribed to.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { parse } from '../../src/dsl/index.ts';
import { describeQuery, schemaFor, type SchemaPermissions, type SourceName } from '../../src/schema/index.ts';
import { SOURCE_NAMES } from '../../src/model/sources.ts';
import { coveredFields } from '../../src/schema/entitlements.ts';
import { rejected, valid } from './helpers.ts';

const only = (...sources: SourceName[]): SchemaPermissions => ({ sources });
const label = (p: SchemaPermissions | undefined): string =>
  p?.sources === undefined ? 'all sources' : p.sources.join('+') || 'no source';

interface Allowed {
  readonly query: string;
  readonly permissions: SchemaPermissions | undefined;
  readonly dslVersion?: 1 | 2;
}

const ALLOWED: readonly Allowed[] = [
  // A linked researcher's id and display fields are what the byline shows.
  { query: 'search publications return researchers', permissions: only('publications') },
  {
    query: 'search publications return researchers[id + first_name + last_name + orcid_id + research_orgs]',
    permissions: only('publications'),
  },
  { query: 'search publications return researchers[basics]', permissions: only('publications') },
  { query: 'search publications return researchers[basics + extras - extras]', permissions: only('publications') },
  { query: 'search publications return researchers[basics]', permissions: only('publications'), dslVersion: 1 },
  // A linked organization's id and display fields are what the affiliations show.
  { query: 'search publications return research_orgs[basics]', permissions: only('publications') },
  {
    query: 'search publications return funders[name + latitude + longitude + linkout + types + state_name]',
    permissions: only('publications'),
  },
  {
    query: 'search publications return research_orgs aggregate citations_total sort by citations_total limit 5',
    permissions: only('publications'),
  },
  { query: 'search grants return researchers[basics] return funder_orgs[name]', permissions: only('grants') },
  { query: 'search researchers return current_research_org[basics]', permissions: only('researchers') },
  // Entities that are not sources are covered whole.
  { query: 'search publications return category_for[basics] return journal', permissions: only('publications') },
  // Records, unnest and filters reach only linked entities' display fields.
  {
    query:
      'search publications where researchers.orcid_id = "0000-0001" or research_orgs.name ~ "Saarland" or count(researchers) > 1 return publications[id + researchers + research_orgs + funders + authors + unnest(researchers)]',
    permissions: only('publications'),
  },
  {
    query: 'search researchers where research_orgs.country_name = "Germany" return researchers[basics + extras]',
    permissions: only('researchers'),
  },
  // Functions read the searched source only.
  { query: 'search publications return citations_per_year(2010, 2020)', permissions: only('publications') },
  { query: 'search grants return funding_per_year(2010, 2020, "USD")', permissions: only('grants') },
  // With the linked source, or with every source, the whole record.
  {
    query: 'search publications return researchers[basics + extras]',
    permissions: only('publications', 'researchers'),
  },
  {
    query: 'search publications return research_orgs[nuts + wikidata_ids]',
    permissions: only('publications', 'organizations'),
  },
  { query: 'search grants return researchers[extras] return funders[established]', permissions: undefined },
  { query: 'describe version', permissions: only() },
  { query: 'describe entity researchers', permissions: only('publications') },
  { query: 'describe source publications', permissions: only('publications') },
];

interface Refused {
  readonly query: string;
  readonly permissions: SchemaPermissions;
  /** One entry per problem: its code and the word of the query it points at. */
  readonly problems: ReadonlyArray<readonly [code: string, at: string]>;
  /** Words every message must hold (the missing source, what to do). */
  readonly says?: readonly string[];
  readonly dslVersion?: 1 | 2;
}

const LINKED = 'SCHEMA_LINKED_SOURCE_NOT_SUBSCRIBED';
const SEARCHED = 'SCHEMA_SOURCE_NOT_SUBSCRIBED';

const REFUSED: readonly Refused[] = [
  {
    query: 'search publications return researchers[basics+extras]',
    permissions: only('publications'),
    problems: [[LINKED, 'extras']],
    says: ["the source 'researchers'", 'total_grants', 'nih_ppid', 'first_name', 'administrator'],
  },
  {
    query: 'search publications return researchers[nih_ppid]',
    permissions: only('publications'),
    problems: [[LINKED, 'nih_ppid']],
  },
  {
    query: 'search publications return researchers[id + total_grants + dimensions_url]',
    permissions: only('publications'),
    problems: [
      [LINKED, 'total_grants'],
      [LINKED, 'dimensions_url'],
    ],
  },
  {
    query: 'search publications return researchers[extras]',
    permissions: only('publications'),
    problems: [[LINKED, 'extras']],
    dslVersion: 1,
  },
  {
    query: 'search publications return researchers[all] return research_orgs[all]',
    permissions: only('publications'),
    problems: [
      [LINKED, 'all'],
      [LINKED, 'all'],
    ],
    dslVersion: 1,
  },
  {
    query: 'search publications return research_orgs[nuts]',
    permissions: only('publications', 'researchers'),
    problems: [[LINKED, 'nuts']],
    says: ["the source 'organizations'", 'nuts_level1_code'],
  },
  {
    query: 'search publications return funders[established]',
    permissions: only('publications'),
    problems: [[LINKED, 'established']],
  },
  {
    query: 'search publications return in "people" researchers[current_research_org] as "authors_now" limit 3',
    permissions: only('publications'),
    problems: [[LINKED, 'current_research_org']],
  },
  {
    query: 'search publications return researchers[extras] return research_orgs[nuts]',
    permissions: only('publications', 'organizations'),
    problems: [[LINKED, 'extras']],
  },
  {
    query:
      'search grants return researchers[basics + extras] return funder_orgs[wikidata_ids] return research_orgs[ror_ids]',
    permissions: only('grants'),
    problems: [
      [LINKED, 'extras'],
      [LINKED, 'wikidata_ids'],
      [LINKED, 'ror_ids'],
    ],
  },
  {
    query: 'search researchers return current_research_org[established] return research_orgs[nuts]',
    permissions: only('researchers'),
    problems: [
      [LINKED, 'established'],
      [LINKED, 'nuts'],
    ],
  },
  // The searched source itself, whatever is returned from it.
  {
    query: 'search researchers return research_orgs',
    permissions: only('publications'),
    problems: [[SEARCHED, 'researchers']],
  },
  {
    query: 'search grants return funding_per_year(2010, 2020, "USD")',
    permissions: only('publications'),
    problems: [[SEARCHED, 'grants']],
  },
  {
    query: 'describe source researchers',
    permissions: only('publications'),
    problems: [[SEARCHED, 'researchers']],
    says: ["the source 'researchers'", 'administrator'],
  },
  { query: 'describe source grants', permissions: only(), problems: [[SEARCHED, 'grants']] },
];

describe('entitlements: allowed', () => {
  for (const c of ALLOWED) {
    test(`${c.dslVersion === 1 ? '[v1] ' : ''}${c.query} — ${label(c.permissions)}`, () => {
      valid(c.query, c.dslVersion ?? 2, c.permissions);
    });
  }
});

describe('entitlements: refused with a positioned permission error', () => {
  for (const c of REFUSED) {
    test(`${c.dslVersion === 1 ? '[v1] ' : ''}${c.query} — ${label(c.permissions)}`, () => {
      const err = rejected(c.query, c.dslVersion ?? 2, c.permissions);
      assert.equal(err.category, 'permission');
      assert.deepEqual(
        err.problems.map((p) => [p.code, c.query.slice(p.span?.start, p.span?.end)]),
        c.problems.map(([code, at]) => [code, at]),
      );
      for (const word of c.says ?? []) assert.ok(err.problems[0]?.message.includes(word), `the message says ${word}`);
    });
  }
});

describe('entitlements: describe schema', () => {
  const schemaOf = (permissions?: SchemaPermissions) => {
    const text = 'describe schema';
    const ast = parse(text);
    assert.equal(ast.kind, 'DescribeQuery');
    return describeQuery(ast, { dslVersion: 2, source: text, ...(permissions ? { permissions } : {}) }) as {
      sources: Record<string, unknown>;
      entities: Record<string, unknown>;
      functions: Record<string, { sources: string[] }>;
    };
  };

  test('describe schema — publications: only publications and its function', () => {
    const out = schemaOf(only('publications'));
    assert.deepEqual(Object.keys(out.sources), ['publications']);
    assert.deepEqual(Object.keys(out.functions), ['citations_per_year']);
    // Entities describe the shapes of values inside the sources, and stay.
    assert.deepEqual(Object.keys(out.entities), Object.keys(schemaOf().entities));
  });

  test('describe schema — grants+organizations', () => {
    const out = schemaOf(only('organizations', 'grants'));
    assert.deepEqual(Object.keys(out.sources), ['grants', 'organizations']);
    assert.deepEqual(Object.keys(out.functions), ['funding_per_year']);
  });

  test('describe schema — all sources', () => {
    const out = schemaOf();
    assert.deepEqual(Object.keys(out.sources), SOURCE_NAMES);
    assert.deepEqual(Object.keys(out.functions).sort(), ['citations_per_year', 'funding_per_year']);
  });
});

describe('entitlements: what a linked source covers', () => {
  // Filters and dotted paths (`researchers.orcid_id`, `research_orgs.name`) reach a linked
  // entity's sub-fields, and are allowed with the searched source alone: that holds only as
  // long as every sub-field of an entity that is a source is one of the fields it covers.
  for (const version of [1, 2] as const) {
    test(`[v${version}] every sub-field of researchers and organizations is covered by the source linking to them`, () => {
      const schema = schemaFor(version);
      for (const entity of ['researchers', 'organizations'] as const) {
        const covered = coveredFields(schema, entity);
        for (const sub of schema.entityFields.get(entity)?.keys() ?? []) {
          assert.ok(covered.includes(sub), `${entity}.${sub} is covered`);
        }
        // And what is covered is a field of the entity's own source (a facet list can name it).
        for (const name of covered) assert.ok(schema.fieldsBySource.get(entity)?.has(name), `${entity} has ${name}`);
      }
    });
  }
});
