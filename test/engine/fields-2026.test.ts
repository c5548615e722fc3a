// The 2026 fields of publications, grants and organizations (spec/schema-2026.md §7.1, §7.2,
// §7.4) answer queries the same on PostgreSQL, on SQLite with facets from memory and on
// SQLite with facets in SQL:
// - read from the record: publications `isbn`, `editors`, `funding_section`, grants
//   `project_numbers`;
// - read through the organizations: grants' `funder_org_cities` and `funder_org_states`
//   (through the funders, as the research organizations' places are) and the
//   `research_org_types` of publications and grants (every type of every research
//   organization, from the organizations' `types` list);
// - organizations' `country_code`, the column they hold.
import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { createPostgresEngine } from '../../src/engine/backends/postgres/engine.ts';
import { SqliteQueryContext } from '../../src/engine/backends/sqlite/query-context.ts';
import { prepareQuery } from '../../src/engine/run-query.ts';
import type { QueryEngine } from '../../src/engine/types.ts';
import { openRecordStore } from '../../src/store/sqlite/records-store.ts';
import { createTestPgDatabase, writePgRecords, type TestPgDatabase } from '../fixtures/pg-db.ts';

const ORGS = [
  {
    id: 'grid.1',
    name: 'Saarland University',
    types: ['Education'],
    country_code: 'DE',
    country_name: 'Germany',
    state_code: 'DE-SL',
    state_name: 'Saarland',
    city_id: '2842647',
    city_name: 'Saarbrücken',
  },
  // Two types; no state; a city without an id (keyed by its name).
  {
    id: 'grid.2',
    name: 'Charité Clinic',
    types: ['Healthcare', 'Education'],
    country_code: 'DE',
    country_name: 'Germany',
    city_name: 'Berlin',
  },
  // No type.
  { id: 'grid.3', name: 'Andes Lab', country_code: 'CL', country_name: 'Chile', city_name: 'Concepción' },
  {
    id: 'grid.4',
    name: 'Wellcome Fund',
    types: ['Nonprofit', 'Funder'],
    country_code: 'GB',
    country_name: 'United Kingdom',
    state_code: 'GB-ENG',
    state_name: 'England',
    city_id: '2643743',
    city_name: 'London',
  },
  {
    id: 'grid.5',
    name: 'National Science Agency',
    types: ['Government', 'Funder'],
    country_code: 'US',
    country_name: 'United States',
    state_code: 'US-VA',
    state_name: 'Virginia',
    city_id: '4744709',
    city_name: 'Alexandria',
  },
];

const PUBLICATIONS = [
  {
    id: 'pub.1',
    title: 'A chapter in an edited book',
    type: 'chapter',
    year: 2021,
    times_cited: 4,
    research_orgs: ['grid.1', 'grid.2'],
    isbn: ['9783031748202', '9783031748219'],
    editors: 'Abdul Karim Bangura; JP Afamefuna Ifedi',
    funding_section: 'Funded by the Wellcome Fund (grant 204841/Z/16/Z) and a Saarland fellowship.',
  },
  {
    id: 'pub.2',
    title: 'An article',
    type: 'article',
    year: 2021,
    times_cited: 2,
    research_orgs: ['grid.3'],
    funding_section: 'This study received no external funding.',
  },
  { id: 'pub.3', title: 'A health article', type: 'article', year: 2022, times_cited: 1, research_orgs: ['grid.2'] },
];

const GRANTS = [
  {
    id: 'grant.1',
    title: 'Two funders',
    start_year: 2019,
    funders: ['grid.4', 'grid.5'],
    research_orgs: ['grid.1'],
    grant_number: '204841/Z/16/Z',
    project_numbers: [
      { label: 'project_number', value: '5R01AI130470-05' },
      { label: 'core_project_number', value: 'R01AI130470' },
    ],
  },
  {
    id: 'grant.2',
    title: 'One funder',
    start_year: 2020,
    funders: ['grid.4'],
    research_orgs: ['grid.2', 'grid.3'],
    project_numbers: [{ label: 'grant_number', value: 'EP/X012345/1' }],
  },
  // A funder without a city or a state.
  { id: 'grant.3', title: 'No places', start_year: 2020, funders: ['grid.3'], research_orgs: [] },
];

/** Each query and its answer: ids (`[id]`), records with their fields, or a facet's rows. */
const CASES: [query: string, expected: unknown][] = [
  // Publications: the fields read from the record.
  [
    'search publications return publications[id + isbn + editors + funding_section]',
    [
      {
        id: 'pub.1',
        isbn: PUBLICATIONS[0]!.isbn,
        editors: PUBLICATIONS[0]!.editors,
        funding_section: PUBLICATIONS[0]!.funding_section,
      },
      { id: 'pub.2', funding_section: PUBLICATIONS[1]!.funding_section },
      { id: 'pub.3' },
    ],
  ],
  ['search publications where isbn = "9783031748219" return publications[id]', ['pub.1']],
  ['search publications where isbn in ["9780000000000", "9783031748202"] return publications[id]', ['pub.1']],
  ['search publications where isbn is empty return publications[id]', ['pub.2', 'pub.3']],
  ['search publications where editors ~ "Bangura" return publications[id]', ['pub.1']],
  ['search publications where funding_section is not empty return publications[id]', ['pub.1', 'pub.2']],
  ['search publications where funding_section ~ "wellcome" return publications[id]', ['pub.1']],
  // Publications: the research organizations' types.
  [
    'search publications return publications[id + research_org_types]',
    [
      { id: 'pub.1', research_org_types: ['Education', 'Healthcare'] },
      { id: 'pub.2' },
      { id: 'pub.3', research_org_types: ['Education', 'Healthcare'] },
    ],
  ],
  ['search publications where research_org_types = "Healthcare" return publications[id]', ['pub.1', 'pub.3']],
  ['search publications where research_org_types is empty return publications[id]', ['pub.2']],
  ['search publications where count(research_org_types) = 2 return publications[id]', ['pub.1', 'pub.3']],
  ['search publications where year = 2021 and research_org_types = "Education" return publications[id]', ['pub.1']],
  // Two organizations of type Education count pub.1 once.
  [
    'search publications return research_org_types aggregate citations_total',
    [
      { id: 'Education', count: 2, citations_total: 5 },
      { id: 'Healthcare', count: 2, citations_total: 5 },
    ],
  ],
  // Grants: project numbers, the funders' places, the research organizations' types.
  [
    'search grants return grants[id + project_numbers]',
    [
      { id: 'grant.1', project_numbers: GRANTS[0]!.project_numbers },
      { id: 'grant.2', project_numbers: GRANTS[1]!.project_numbers },
      { id: 'grant.3' },
    ],
  ],
  ['search grants where project_numbers = "R01AI130470" return grants[id]', ['grant.1']],
  ['search grants where project_numbers is empty return grants[id]', ['grant.3']],
  [
    'search grants return grants[id + funder_org_cities + funder_org_states + research_org_types]',
    [
      {
        id: 'grant.1',
        funder_org_cities: ['2643743', '4744709'],
        funder_org_states: ['GB-ENG', 'US-VA'],
        research_org_types: ['Education'],
      },
      {
        id: 'grant.2',
        funder_org_cities: ['2643743'],
        funder_org_states: ['GB-ENG'],
        research_org_types: ['Education', 'Healthcare'],
      },
      { id: 'grant.3', funder_org_cities: ['Concepción'] },
    ],
  ],
  ['search grants where funder_org_cities = "2643743" return grants[id]', ['grant.1', 'grant.2']],
  ['search grants where funder_org_cities = "Concepción" return grants[id]', ['grant.3']],
  ['search grants where funder_org_states = "US-VA" return grants[id]', ['grant.1']],
  ['search grants where funder_org_states is empty return grants[id]', ['grant.3']],
  ['search grants where research_org_types = "Healthcare" return grants[id]', ['grant.2']],
  [
    'search grants return funder_org_states',
    [
      { id: 'GB-ENG', count: 2 },
      { id: 'US-VA', count: 1 },
    ],
  ],
  [
    'search grants return research_org_types',
    [
      { id: 'Education', count: 2 },
      { id: 'Healthcare', count: 1 },
    ],
  ],
  // Organizations: the country code.
  ['search organizations where country_code = "DE" return organizations[id]', ['grid.1', 'grid.2']],
  [
    'search organizations where country_code in ["CL", "US"] return organizations[id + country_code]',
    [
      { id: 'grid.3', country_code: 'CL' },
      { id: 'grid.5', country_code: 'US' },
    ],
  ],
  [
    'search organizations return country_code',
    [
      { id: 'DE', count: 2 },
      { id: 'CL', count: 1 },
      { id: 'GB', count: 1 },
      { id: 'US', count: 1 },
    ],
  ],
];

type Run = (query: string) => Promise<unknown>;
type Row = Record<string, unknown>;

/** What a case checks: the records (ids only for `[id]`, entity lists as ids), or a facet's rows. */
function shown(query: string, result: unknown): unknown {
  const answer = result as Row;
  const kind = /^search ([a-z_]+)/.exec(query)?.[1] as string;
  if (/return [a-z_]+\[/.test(query)) {
    const records = (answer[kind] ?? []) as Row[];
    const sorted = [...records].sort((a, b) => String(a.id).localeCompare(String(b.id)));
    if (query.includes('[id]')) return sorted.map((r) => r.id);
    return sorted.map((r) =>
      Object.fromEntries(
        Object.entries(r).map(([key, value]) => [
          key,
          Array.isArray(value) && key !== 'project_numbers'
            ? value.map((v: unknown) => (typeof v === 'object' && v !== null ? String((v as Row).id) : v)).sort()
            : value,
        ]),
      ),
    );
  }
  const facet = /return ([a-z_]+)/.exec(query)?.[1] as string;
  return ((answer[facet] ?? []) as Row[]).map(({ id, count, citations_total }) => ({
    id: String(id),
    count,
    ...(citations_total === undefined ? {} : { citations_total }),
  }));
}

function answersTests(run: () => Run): void {
  for (const [query, expected] of CASES)
    test(query, async () => {
      assert.deepEqual(shown(query, await run()(query)), expected);
    });
}

function sqliteRun(ctx: SqliteQueryContext): Run {
  return (query) => {
    const prepared = prepareQuery(query, { dslVersion: 2 });
    return Promise.resolve(
      prepared.kind === 'plan' ? ctx.execute(prepared.plan) : prepared.kind === 'answer' ? prepared.result : {},
    );
  };
}

describe('the 2026 fields: SQLite', () => {
  const path = join(mkdtempSync(join(tmpdir(), 'quarry-fields-2026-')), 'records.db');
  const store = openRecordStore(path, { mmapMb: 0, cacheMb: 16 });
  store.upsert('organizations', ORGS);
  store.upsert('publications', PUBLICATIONS);
  store.upsert('grants', GRANTS);
  store.finish({ optimize: false, analyze: false });
  after(() => store.close());

  describe('facets from memory', () => answersTests(() => sqliteRun(new SqliteQueryContext(store.db))));
  describe('facets in SQL', () => answersTests(() => sqliteRun(new SqliteQueryContext(store.db, { columnar: false }))));
});

describe('the 2026 fields: PostgreSQL', { timeout: 120_000 }, () => {
  let db: TestPgDatabase;
  let engine: QueryEngine;
  before(async () => {
    db = await createTestPgDatabase('fields2026');
    await writePgRecords(db.url, [
      ['organizations', ORGS],
      ['publications', PUBLICATIONS],
      ['grants', GRANTS],
    ]);
    engine = createPostgresEngine({ url: db.url });
  });
  after(async () => {
    await engine?.close();
    await db?.drop();
  });

  answersTests(() => async (q) => (await engine.run(q, { dslVersion: 2 })).result);
});
