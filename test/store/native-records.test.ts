// Records in exactly the native shapes of src/model/native-records.ts go where docs/storage.md says.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import type {
  CategoryRecord,
  GrantRecord,
  OrganizationRecord,
  PublicationRecord,
  ResearcherRecord,
} from '../../src/model/native-records.ts';
import { runQuery } from '../../src/engine/backends/sqlite/query-context.ts';
import type { SourceTitleRecord } from '../../src/sources/source_titles/native.ts';
import { VALUE_FIELD_CODES, valueFieldCode } from '../../src/model/storage.ts';
import { openRecordStore } from '../../src/store/sqlite/records-store.ts';

const dir = mkdtempSync(join(tmpdir(), 'quarry-native-'));
after(() => rmSync(dir, { recursive: true, force: true }));

const categories: CategoryRecord[] = [
  { id: '31', name: 'Biological sciences', scheme: 'for' },
  { id: '3101', name: 'Biochemistry and cell biology', scheme: 'for' },
];
const organizations: OrganizationRecord[] = [
  {
    id: 'grid.900001.a',
    name: 'Universidade do Porto',
    acronym: 'UP',
    aliases: ['University of Porto'],
    types: ['education'],
    city_id: '2735943',
    city_name: 'Porto',
    country_code: 'PT',
    country_name: 'Portugal',
    status: 'active',
    ror_ids: ['https://ror.org/043pwc612'],
    linkout: ['https://www.up.pt'],
  },
  {
    id: 'grid.900002.b',
    name: 'Science Fund',
    acronym: 'SF',
    types: ['funder'],
    city_name: 'Lisbon',
    country_code: 'PT',
    country_name: 'Portugal',
    status: 'active',
  },
];
const journals: SourceTitleRecord[] = [
  { id: 'jour.1900001', title: 'Journal of Cells', publisher: 'Porto Press', issn: ['1234-5678'] },
];
const researchers: ResearcherRecord[] = [
  {
    id: 'ur.0100000001.41',
    first_name: 'Ana',
    last_name: 'Silva',
    orcid_id: ['0000-0002-1825-0097'],
    research_orgs: ['grid.900001.a'],
    current_research_org: 'grid.900001.a',
    total_publications: 1,
    total_grants: 1,
  },
];
const grants: GrantRecord[] = [
  {
    id: 'grant.9000001',
    title: 'Cell membranes in motion',
    funders: ['grid.900002.b'],
    funding_usd: 250000,
    start_date: '2019-01-01',
    end_date: '2021-12-31',
    start_year: 2019,
    active_year: [2019, 2020, 2021],
    investigators: [
      {
        first_name: 'Ana',
        last_name: 'Silva',
        researcher_id: 'ur.0100000001.41',
        role: 'PI',
        affiliations: [{ id: 'grid.900001.a', name: 'Universidade do Porto' }],
      },
    ],
    research_orgs: ['grid.900001.a'],
    category_for: [{ id: '3101', name: 'Biochemistry and cell biology' }],
  },
];
const publications: PublicationRecord[] = [
  {
    id: 'pub.1900000001',
    title: 'Membrane dynamics of dividing cells',
    abstract: 'We follow membranes through division.',
    doi: '10.99999/syn.00000001',
    type: 'article',
    year: 2021,
    date: '2021-03-14',
    journal: { id: 'jour.1900001', title: 'Journal of Cells' },
    issn: ['1234-5678'],
    authors: [
      {
        first_name: 'Ana',
        last_name: 'Silva',
        researcher_id: 'ur.0100000001.41',
        affiliations: [{ id: 'grid.900001.a', name: 'Universidade do Porto', city: 'Porto', country: 'Portugal' }],
      },
      { first_name: 'Rui', last_name: 'Costa', affiliations: [{ name: 'Unresolved Lab' }] },
    ],
    research_orgs: ['grid.900001.a'],
    funders: ['grid.900002.b'],
    supporting_grant_ids: ['grant.9000001'],
    reference_ids: [],
    times_cited: 0,
    recent_citations: 0,
    category_for: [
      { id: '31', name: 'Biological sciences' },
      { id: '3101', name: 'Biochemistry and cell biology' },
    ],
    concepts: ['membrane', 'cell division'],
    concepts_scores: [
      { concept: 'membrane', relevance: 0.9 },
      { concept: 'cell division', relevance: 0.6 },
    ],
    open_access: ['oa_all', 'gold'],
    mesh_terms: ['Cell Membrane'],
  },
];

test('every native record kind lands in its tables, links and full text', () => {
  const store = openRecordStore(join(dir, 'native.db'), { cacheMb: 16 });
  store.upsert('categories', categories);
  store.upsert('organizations', organizations);
  store.upsert('source_titles', journals);
  store.upsert('researchers', researchers);
  store.upsert('grants', grants);
  store.upsert('publications', publications);
  store.finish({ recentSince: 2024 });
  const all = (sql: string) => store.db.prepare(sql).raw().all();

  assert.deepEqual(all('SELECT id, name, scheme FROM categories ORDER BY id'), [
    ['31', 'Biological sciences', 'for'],
    ['3101', 'Biochemistry and cell biology', 'for'],
  ]);
  assert.deepEqual(all('SELECT id, title, publisher, n_publications FROM source_titles'), [
    ['jour.1900001', 'Journal of Cells', 'Porto Press', 1],
  ]);
  const fieldNames = new Map(Object.entries(VALUE_FIELD_CODES).map(([name, code]) => [code, name]));
  const named = (rows: unknown[]) =>
    rows
      .map((row) => {
        const [code, value] = row as [string, string];
        return [fieldNames.get(code), value];
      })
      .sort((a, b) => String(a[0]).localeCompare(String(b[0])));
  assert.deepEqual(named(all('SELECT field, value FROM organization_values WHERE organization_pk = 1')), [
    ['aliases', 'University of Porto'],
    ['linkout', 'https://www.up.pt'],
    ['ror_ids', 'https://ror.org/043pwc612'],
    ['types', 'education'],
  ]);
  assert.deepEqual(
    all('SELECT id, n_publications, n_grants, n_funded_publications, n_funded_grants FROM organizations ORDER BY id'),
    [
      ['grid.900001.a', 1, 1, 0, 0],
      ['grid.900002.b', 0, 0, 1, 1],
    ],
  );

  assert.deepEqual(
    all('SELECT current_research_org_id, total_publications, n_publications, n_grants FROM researchers'),
    [['grid.900001.a', 1, 1, 1]],
  );
  assert.deepEqual(named(all('SELECT field, value FROM researcher_values')), [['orcid_id', '0000-0002-1825-0097']]);
  assert.deepEqual(all('SELECT org_id FROM researcher_research_orgs'), [['grid.900001.a']]);

  assert.deepEqual(
    all('SELECT funding_org_id, funding_org_name, funding_org_acronym, funding_org_city, start_year FROM grants'),
    [['grid.900002.b', 'Science Fund', 'SF', 'Lisbon', 2019]],
  );
  assert.deepEqual(
    all(`SELECT value FROM grant_values WHERE field = '${valueFieldCode('active_year')}' ORDER BY value`),
    [[2019], [2020], [2021]],
  );
  // Read through the funders, not stored per grant.
  const funded = runQuery(store.db, 'search grants return grants[id + funder_countries]', { dslVersion: 2 });
  assert.deepEqual(
    (funded['grants'] as { funder_countries: { id: string }[] }[]).map((g) => g.funder_countries.map((c) => c.id)),
    [['PT']],
  );

  assert.deepEqual(all('SELECT journal_id, authors_count, times_cited FROM publications'), [['jour.1900001', 2, 0]]);
  assert.deepEqual(all('SELECT researcher_id FROM publication_researchers'), [['ur.0100000001.41']]);
  assert.deepEqual(all('SELECT org_id FROM publication_research_orgs'), [['grid.900001.a']]);
  assert.deepEqual(all('SELECT org_id FROM publication_funders'), [['grid.900002.b']]);
  assert.deepEqual(all('SELECT grant_id FROM publication_grants'), [['grant.9000001']]);
  assert.deepEqual(all('SELECT scheme, category_id FROM publication_categories ORDER BY category_id'), [
    ['for', '31'],
    ['for', '3101'],
  ]);
  // Concepts are held once in their vocabulary; the link rows name them by id (their scores stay in doc).
  assert.deepEqual(
    all('SELECT n.name FROM publication_concepts l JOIN concept_names n ON n.id = l.concept_id ORDER BY n.name'),
    [['cell division'], ['membrane']],
  );
  const fields = ['issn', 'mesh_terms', 'open_access'];
  assert.deepEqual(
    all(
      `SELECT field, value FROM publication_values WHERE field IN (${fields.map((f) => `'${valueFieldCode(f)}'`).join(', ')})`,
    )
      .map((row) => {
        const [code, value] = row as [string, string];
        return [fields.find((f) => valueFieldCode(f) === code), value];
      })
      .sort((a, b) => String(a).localeCompare(String(b))),
    [
      ['issn', '1234-5678'],
      ['mesh_terms', 'Cell Membrane'],
      ['open_access', 'gold'],
      ['open_access', 'oa_all'],
    ],
  );
  // The organizations' cities are read through them.
  const cities = runQuery(store.db, 'search publications return publications[id + research_org_cities]', {
    dslVersion: 2,
  });
  assert.deepEqual(
    (cities['publications'] as { research_org_cities: { id: unknown }[] }[]).map((p) =>
      p.research_org_cities.map((c) => String(c.id)),
    ),
    [['2735943']],
  );
  assert.deepEqual(all('SELECT id, name FROM cities ORDER BY id'), [
    ['2735943', 'Porto'],
    ['Lisbon', 'Lisbon'],
  ]);

  const doc = JSON.parse(store.db.prepare('SELECT unpack_text(doc) FROM publications').pluck().get() as string);
  assert.deepEqual(doc.authors, publications[0]!.authors);
  // Fields the links and the journal row hold are shown from there, not copied into doc.
  assert.equal(doc.journal, undefined);
  assert.equal(doc.research_orgs, undefined);
  assert.deepEqual(doc.concepts_scores, publications[0]!.concepts_scores);
  const shown = runQuery(store.db, 'search publications return publications[id + journal + research_orgs]', {
    dslVersion: 2,
  })['publications'] as { journal: unknown; research_orgs: { id: string }[] }[];
  assert.deepEqual(shown[0]?.journal, { id: 'jour.1900001', title: 'Journal of Cells' });
  assert.ok((shown[0]?.research_orgs.length ?? 0) > 0);

  const search = (table: string, match: string) =>
    store.db.prepare(`SELECT rowid FROM ${table} WHERE ${table} MATCH ?`).pluck().all(match);
  assert.deepEqual(search('publications_fts', 'concepts: "cell division"'), [1]);
  assert.deepEqual(
    search('publications_fts', 'concepts: "cell membrane"'),
    [1],
    'MeSH terms are searched with the concepts',
  );
  assert.deepEqual(search('publications_fts', 'authors: NEAR("costa" "rui", 2)'), [1]);
  assert.deepEqual(search('grants_fts', 'investigators: "ana silva"'), [1]);
  assert.deepEqual(search('organizations_fts', '"university of porto"'), [1]);
  store.close();
});
