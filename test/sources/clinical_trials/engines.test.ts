// The clinical_trials source on both engines: the fixture (the 536 real ClinicalTrials.gov
// studies mapped by the importer, with hand-made links to organizations, funders,
// researchers, grants, categories and the publications their references name: fixture.ts) is
// imported through `importFiles` into SQLite and PostgreSQL, and every query below must give
// the answer it names, the same on PostgreSQL, on SQLite with facets from memory and on SQLite
// with facets in SQL. The queries cover `describe`, the fieldsets, filters on scalar,
// multi-value, entity and json fields, facets on the facet fields with the names the entity
// tables hold, full text in each search index (the investigators' names as phrases in either
// order), sorting, paging and counts, and the links both ways between trials and publications.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import type Database from 'better-sqlite3';
import { recordWriterFor } from '../../../src/backends.ts';
import { importFiles, type ImportReport } from '../../../src/data/import/index.ts';
import { createPostgresEngine } from '../../../src/engine/backends/postgres/engine.ts';
import { SqliteQueryContext } from '../../../src/engine/backends/sqlite/query-context.ts';
import type { QueryEngine } from '../../../src/engine/types.ts';
import { isQuarryError } from '../../../src/errors/index.ts';
import { CLINICAL_TRIALS } from '../../../src/sources/clinical_trials/fields.ts';
import type { ClinicalTrialRecord } from '../../../src/sources/clinical_trials/native.ts';
import { openReadOnly } from '../../../src/store/sqlite/open.ts';
import { createTestPgDatabase, type TestPgDatabase } from '../../fixtures/pg-db.ts';
import {
  ASHINA,
  ASHINA_TRIALS,
  DANISH_HEADACHE_CENTER,
  GUO,
  NCCIH,
  NIAAA,
  NOVO_NORDISK_FOUNDATION,
  SAMPLE_STUDIES,
  UNIVERSITY_OF_WASHINGTON,
  writeTrialShards,
} from './fixture.ts';

const dir = mkdtempSync(join(tmpdir(), 'quarry-clinical-trials-'));
const trials: ClinicalTrialRecord[] = await writeTrialShards(dir);

type Row = Readonly<Record<string, unknown>>;

/** The ids of the fixture's trials that `keep` holds for, in id order. */
const idsWhere = (keep: (t: ClinicalTrialRecord) => boolean): string[] =>
  trials
    .filter(keep)
    .map((t) => t.id)
    .sort();

const byId = (a: ClinicalTrialRecord, b: ClinicalTrialRecord): number => (a.id < b.id ? -1 : 1);
const startOf = (t: ClinicalTrialRecord): string => t.start_date ?? '';

/** The records in the default order: newest start first, ties by id. */
const byDefaultOrder = [...trials].sort((a, b) =>
  startOf(a) === startOf(b) ? byId(a, b) : startOf(a) < startOf(b) ? 1 : -1,
);

/** A facet as the fixture gives it: count descending, ties by id. */
function facetOf(values: (t: ClinicalTrialRecord) => readonly (string | number | undefined)[], limit = 20): Row[] {
  const counts = new Map<string | number, number>();
  for (const t of trials)
    for (const v of new Set(values(t))) if (v !== undefined && v !== '') counts.set(v, (counts.get(v) ?? 0) + 1);
  return [...counts]
    .sort(([a, m], [b, n]) => n - m || (a < b ? -1 : 1))
    .slice(0, limit)
    .map(([id, count]) => ({ id, count }));
}

/** True when `word` (or phrase) occurs as whole words in one of the texts, case aside. */
function mentions(word: string, texts: readonly (string | undefined)[]): boolean {
  const pattern = new RegExp(`\\b${word.replace(/\s+/g, '\\s+')}\\b`, 'i');
  return texts.some((s) => s !== undefined && pattern.test(s));
}

/** The texts of each search index: what the registry writes in the fields it reads. */
const titles = (t: ClinicalTrialRecord): (string | undefined)[] => [t.title, t.brief_title, t.acronym];
const affiliations = (t: ClinicalTrialRecord): string[] => [
  ...(t.sponsors ?? []).map((s) => s.name),
  ...t.investigators.flatMap((i) => i.affiliations.map((a) => a.name)),
];
const everyText = (t: ClinicalTrialRecord): (string | undefined)[] => [
  ...titles(t),
  t.abstract,
  ...t.investigators.map((i) => `${i.first_name} ${i.last_name}`),
  ...(t.conditions ?? []),
  ...(t.mesh_terms ?? []),
  ...(t.interventions ?? []).flatMap((i) => [i.name, i.description, ...(i.other_names ?? [])]),
  ...(t.study_outcome_measures ?? []).flatMap((o) => [o.measure, o.description]),
  t.study_eligibility_criteria,
  ...affiliations(t),
];

const trial = (id: string): ClinicalTrialRecord => {
  const found = trials.find((t) => t.id === id);
  assert.ok(found, id);
  return found;
};
/**
 * A multi-value field kept in `clinical_trial_values` as a page shows it: read from its rows,
 * in the order of the values.
 */
const byValue = <T extends string | number>(values: readonly T[] | undefined): T[] | undefined =>
  values === undefined ? undefined : [...values].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));

/** The fields of a record as an answer shows them: a field without a value is left out. */
const present = (record: Row): Row => Object.fromEntries(Object.entries(record).filter(([, v]) => v !== undefined));
const basics = (t: ClinicalTrialRecord): Row =>
  present({ id: t.id, title: t.title, active_years: byValue(t.active_years), investigators: t.investigators });

const DHC = {
  id: DANISH_HEADACHE_CENTER,
  name: 'Danish Headache Center',
  city_name: 'Glostrup',
  country_name: 'Denmark',
  types: ['Healthcare'],
};
const UW = {
  id: UNIVERSITY_OF_WASHINGTON,
  name: 'University of Washington',
  city_name: 'Seattle',
  state_name: 'Washington',
  country_name: 'United States',
  types: ['Education'],
};

const NIAAA_ORG = {
  id: NIAAA,
  name: 'National Institute on Alcohol Abuse and Alcoholism',
  acronym: 'NIAAA',
  country_name: 'United States',
  types: ['Government'],
};
const NCCIH_ORG = {
  id: NCCIH,
  name: 'National Center for Complementary and Integrative Health',
  acronym: 'NCCIH',
  country_name: 'United States',
  types: ['Government'],
};

/**
 * Whether a trial names an organization by its name, as a sponsor or an investigator's
 * affiliation (alone, or followed by its acronym in brackets): finish() links those to the
 * organization (store/organization-links.ts).
 */
const naming =
  (name: string) =>
  (t: ClinicalTrialRecord): boolean =>
    [
      ...(t.sponsors ?? []).map((s) => s.name),
      ...t.investigators.flatMap((i) => i.affiliations.map((a) => a.name)),
    ].some((n) => n === name || n.startsWith(`${name} (`));

/** The Danish Headache Center's trials: those linked by hand, and those naming it. */
const DHC_TRIALS = idsWhere((t) => ASHINA_TRIALS.includes(t.id) || naming(DHC.name)(t));

/** The research_orgs facet: each organization's hand-made and matched trials, most first. */
const RESEARCH_ORGS_FACET = [
  { ...DHC, count: DHC_TRIALS.length },
  { ...UW, count: idsWhere((t) => t.id === 'NCT06000007' || naming(UW.name)(t)).length },
  { ...NIAAA_ORG, count: idsWhere(naming(NIAAA_ORG.name)).length },
  { ...NCCIH_ORG, count: idsWhere(naming(NCCIH_ORG.name)).length },
]
  .filter((row) => row.count > 0)
  .sort((a, b) => b.count - a.count || (a.id < b.id ? -1 : 1));

/**
 * Each query and what its answer must show: for `return clinical_trials[id]`, the ids in id
 * order; for another field list, the records as returned (in the answer's order); for a
 * facet, its rows; `{ total }`: the total count.
 */
const CASES: readonly (readonly [query: string, expected: unknown])[] = [
  // Counts, paging and sorting.
  ['search clinical_trials return clinical_trials[id] limit 1', { total: SAMPLE_STUDIES }],
  [
    'search clinical_trials return clinical_trials[id + start_date] limit 5 skip 3',
    byDefaultOrder.slice(3, 8).map((t) => ({ id: t.id, start_date: t.start_date })),
  ],
  [
    'search clinical_trials return clinical_trials[id + start_date] sort by start_date asc limit 4 skip 2',
    [...trials]
      .sort((a, b) => (startOf(a) === startOf(b) ? byId(a, b) : startOf(a) < startOf(b) ? -1 : 1))
      .slice(2, 6)
      .map((t) => ({ id: t.id, start_date: t.start_date })),
  ],
  [
    'search clinical_trials where study_participants > 0 return clinical_trials[id + study_participants] sort by study_participants desc limit 5',
    trials
      .filter((t) => (t.study_participants ?? 0) > 0)
      .sort((a, b) => (b.study_participants ?? 0) - (a.study_participants ?? 0) || byId(a, b))
      .slice(0, 5)
      .map((t) => ({ id: t.id, study_participants: t.study_participants })),
  ],
  [
    'search clinical_trials where overall_status = "COMPLETED" return clinical_trials[id] limit 1',
    { total: idsWhere((t) => t.overall_status === 'COMPLETED').length },
  ],
  // Filters on scalar fields.
  ['search clinical_trials where id = "NCT05093582" return clinical_trials[id]', ['NCT05093582']],
  [
    'search clinical_trials where overall_status = "TERMINATED" return clinical_trials[id] limit 100',
    idsWhere((t) => t.overall_status === 'TERMINATED'),
  ],
  [
    'search clinical_trials where phase = "Phase 1/Phase 2" return clinical_trials[id]',
    idsWhere((t) => t.phase === 'Phase 1/Phase 2'),
  ],
  ['search clinical_trials where gender = "Male" return clinical_trials[id]', idsWhere((t) => t.gender === 'Male')],
  ['search clinical_trials where acronym = "LUNG-05" return clinical_trials[id]', ['NCT06576635']],
  [
    'search clinical_trials where start_date >= "2025-01-01" return clinical_trials[id] limit 200',
    idsWhere((t) => startOf(t) >= '2025-01-01'),
  ],
  [
    'search clinical_trials where end_date < "2010-01-01" return clinical_trials[id] limit 200',
    idsWhere((t) => t.end_date !== undefined && t.end_date < '2010-01-01'),
  ],
  [
    'search clinical_trials where study_participants >= 1000 return clinical_trials[id] limit 200',
    idsWhere((t) => (t.study_participants ?? 0) >= 1000),
  ],
  [
    'search clinical_trials where study_type = "OBSERVATIONAL" and study_minimum_age = "65 Years" return clinical_trials[id]',
    idsWhere((t) => t.study_type === 'OBSERVATIONAL' && t.study_minimum_age === '65 Years'),
  ],
  [
    'search clinical_trials where registry = "ClinicalTrials.gov" return clinical_trials[id] limit 1',
    { total: SAMPLE_STUDIES },
  ],
  // Multi-value fields in `clinical_trial_values`.
  [
    'search clinical_trials where conditions = "Migraine" return clinical_trials[id]',
    idsWhere((t) => t.conditions?.includes('Migraine') === true),
  ],
  [
    'search clinical_trials where mesh_terms = "Spinal Stenosis" return clinical_trials[id] limit 100',
    idsWhere((t) => t.mesh_terms?.includes('Spinal Stenosis') === true),
  ],
  [
    'search clinical_trials where active_years = 2030 return clinical_trials[id] limit 100',
    idsWhere((t) => t.active_years?.includes(2030) === true),
  ],
  [
    'search clinical_trials where study_designs = "Masking: Quadruple" and study_arms = "Placebo" return clinical_trials[id]',
    idsWhere(
      (t) => t.study_designs?.includes('Masking: Quadruple') === true && t.study_arms?.includes('Placebo') === true,
    ),
  ],
  // Grants, real (NIH projects by full number) and hand-made.
  [
    'search clinical_trials where associated_grant_ids in ["nih.5R44AA026234-03", "grant.9101"] return clinical_trials[basics + associated_grant_ids]',
    // Newest start first: NCT05093582 started in June 2021, NCT04581499 in January.
    [
      { ...basics(trial('NCT05093582')), associated_grant_ids: ['grant.9101'] },
      { ...basics(trial('NCT04581499')), associated_grant_ids: ['nih.2R44AA026234-02', 'nih.5R44AA026234-03'] },
    ],
  ],
  [
    'search clinical_trials where associated_grant_ids is not empty return clinical_trials[id]',
    idsWhere((t) => (t.associated_grant_ids ?? []).length > 0),
  ],
  // Organizations: from the matched sponsors and affiliations, and the funders.
  [`search clinical_trials where research_orgs = "${DANISH_HEADACHE_CENTER}" return clinical_trials[id]`, DHC_TRIALS],
  [
    'search clinical_trials where research_orgs.name = "University of Washington" return clinical_trials[id]',
    ['NCT06000007'],
  ],
  [`search clinical_trials where funders = "${NIAAA}" return clinical_trials[id]`, ['NCT04581499']],
  ['search clinical_trials where funder_countries = "DK" return clinical_trials[id]', ['NCT05093582']],
  [
    'search clinical_trials where count(funders) > 0 return clinical_trials[id]',
    ['NCT04581499', 'NCT05093582', 'NCT06000007'],
  ],
  // Researchers: identified investigators and the record's own.
  [`search clinical_trials where researchers = "${ASHINA}" return clinical_trials[id]`, ASHINA_TRIALS],
  ['search clinical_trials where count(researchers) > 1 return clinical_trials[id]', ['NCT02466334']],
  // Categories.
  ['search clinical_trials where category_for = "3209" return clinical_trials[id]', ASHINA_TRIALS],
  [
    'search clinical_trials where category_for_2020.name = "4203 Health Services and Systems" return clinical_trials[id]',
    ['NCT06000007'],
  ],
  ['search clinical_trials where category_hrcs_hc = "890" return clinical_trials[id]', ['NCT02466334']],
  // Publications: held ones by id; every link by its DOI or PMID, from the document.
  [
    'search clinical_trials where publication_ids = "pub.9201" return clinical_trials[id]',
    idsWhere((t) => t.publication_ids?.includes('pub.9201') === true),
  ],
  ['search clinical_trials where publications.id = "pub.9202" return clinical_trials[id]', ['NCT03814226']],
  ['search clinical_trials where publications = "pub.9202" return clinical_trials[id]', ['NCT03814226']],
  [
    'search clinical_trials where publications.pmid = "34822741" return clinical_trials[id + publications + publication_ids]',
    [{ id: 'NCT03814226', publications: trial('NCT03814226').publications, publication_ids: ['pub.9202'] }],
  ],
  [
    'search clinical_trials where publications.doi = "10.1186/s12885-021-08460-w" return clinical_trials[id]',
    idsWhere((t) => t.publications?.some((p) => p.doi === '10.1186/s12885-021-08460-w') === true),
  ],
  [
    'search clinical_trials where publications is not empty return clinical_trials[id] limit 1',
    { total: idsWhere((t) => (t.publications ?? []).length > 0).length },
  ],
  // And the other way: a publication names the trials in its text by registry id.
  ['search publications where clinical_trial_ids = "NCT02466334" return publications[id]', ['pub.9201']],
  // Structured fields: compared with every value they hold.
  [
    'search clinical_trials where investigators = "Danish Headache Center" return clinical_trials[id]',
    idsWhere((t) => t.investigators.some((i) => i.affiliations.some((a) => a.name === 'Danish Headache Center'))),
  ],
  [
    'search clinical_trials where interventions = "DEVICE" return clinical_trials[id] limit 1',
    { total: idsWhere((t) => t.interventions?.some((i) => i.type === 'DEVICE') === true).length },
  ],
  // A page's entity fields with the names their tables hold.
  [
    'search clinical_trials where id = "NCT02466334" return clinical_trials[id + research_orgs + researchers + category_for + category_hrcs_hc]',
    [
      {
        id: 'NCT02466334',
        research_orgs: [DHC],
        researchers: [
          { id: ASHINA, first_name: 'Messoud', last_name: 'Ashina' },
          { id: GUO, first_name: 'Song', last_name: 'Guo' },
        ],
        category_for: [{ id: '3209', name: '3209 Neurosciences' }],
        category_hrcs_hc: [{ id: '890', name: 'Neurological' }],
      },
    ],
  ],
  [
    'search clinical_trials where id = "NCT05093582" return clinical_trials[id + funders + funder_countries + associated_grant_ids]',
    [
      {
        id: 'NCT05093582',
        funders: [
          {
            id: NOVO_NORDISK_FOUNDATION,
            name: 'Novo Nordisk Foundation',
            country_name: 'Denmark',
            types: ['Nonprofit'],
          },
        ],
        funder_countries: [{ id: 'DK', name: 'Denmark' }],
        associated_grant_ids: ['grant.9101'],
      },
    ],
  ],
  // Facets on scalar and multi-value fields.
  ['search clinical_trials return overall_status', facetOf((t) => [t.overall_status])],
  ['search clinical_trials return study_type', facetOf((t) => [t.study_type])],
  ['search clinical_trials return study_minimum_age limit 5', facetOf((t) => [t.study_minimum_age], 5)],
  ['search clinical_trials return study_maximum_age limit 5', facetOf((t) => [t.study_maximum_age], 5)],
  ['search clinical_trials return study_participants limit 5', facetOf((t) => [t.study_participants], 5)],
  ['search clinical_trials return active_years limit 6', facetOf((t) => t.active_years ?? [], 6)],
  [
    'search clinical_trials where overall_status = "RECRUITING" return active_years',
    facetOf((t) => (t.overall_status === 'RECRUITING' ? (t.active_years ?? []) : [])),
  ],
  ['search clinical_trials return mesh_terms limit 8', facetOf((t) => t.mesh_terms ?? [], 8)],
  ['search clinical_trials return study_arms limit 5', facetOf((t) => t.study_arms ?? [], 5)],
  ['search clinical_trials return study_designs', facetOf((t) => t.study_designs ?? [])],
  // Facets on entity fields, with the names of their tables.
  ['search clinical_trials return research_orgs', RESEARCH_ORGS_FACET],
  [
    'search clinical_trials return funders',
    [
      { ...NIAAA_ORG, count: 1 },
      { ...NCCIH_ORG, count: 1 },
      {
        id: NOVO_NORDISK_FOUNDATION,
        count: 1,
        name: 'Novo Nordisk Foundation',
        country_name: 'Denmark',
        types: ['Nonprofit'],
      },
    ],
  ],
  [
    'search clinical_trials return funder_countries',
    [
      { id: 'US', count: 2, name: 'United States' },
      { id: 'DK', count: 1, name: 'Denmark' },
    ],
  ],
  [
    'search clinical_trials return researchers',
    [
      { id: ASHINA, count: 4, first_name: 'Messoud', last_name: 'Ashina' },
      { id: GUO, count: 1, first_name: 'Song', last_name: 'Guo' },
    ],
  ],
  [
    'search clinical_trials return category_for',
    [
      { id: '3209', count: 4, name: '3209 Neurosciences' },
      { id: '4203', count: 1, name: '4203 Health Services and Systems' },
    ],
  ],
  [
    'search clinical_trials where start_date < "2016-01-01" return category_for_2020',
    [{ id: '3209', count: 2, name: '3209 Neurosciences' }],
  ],
  // Grouped by the held publication's id: a link naming only a DOI or PMID is no value.
  ['search clinical_trials return publications', facetOf((t) => (t.publications ?? []).map((p) => p.id))],
  // Full text, in each search index.
  [
    'search clinical_trials in investigators for "\\"Messoud Ashina\\"" return clinical_trials limit 5',
    ASHINA_TRIALS.map((id) => basics(trial(id))),
  ],
  ['search clinical_trials in investigators for "\\"Ashina Messoud\\"" return clinical_trials[id]', ASHINA_TRIALS],
  // The conformance file's query: no John Smith among the sample's investigators.
  [
    'search clinical_trials in investigators for "\\"John Smith\\"" return clinical_trials limit 5',
    idsWhere((t) => t.investigators.some((i) => `${i.first_name} ${i.last_name}` === 'John Smith')),
  ],
  // Names only: the affiliations are in raw_affiliations.
  ['search clinical_trials in investigators for "\\"Headache Center\\"" return clinical_trials[id]', []],
  [
    'search clinical_trials in raw_affiliations for "\\"Danish Headache Center\\"" return clinical_trials[id]',
    idsWhere((t) => mentions('Danish Headache Center', affiliations(t))),
  ],
  [
    'search clinical_trials in raw_affiliations for "Leiden" return clinical_trials[id]',
    idsWhere((t) => mentions('Leiden', affiliations(t))),
  ],
  [
    'search clinical_trials in title_only for "oxybate" return clinical_trials[id]',
    idsWhere((t) => mentions('oxybate', titles(t))),
  ],
  ['search clinical_trials in title_only for "lithium" return clinical_trials[id]', []],
  [
    'search clinical_trials in title_abstract_only for "lithium" return clinical_trials[id]',
    idsWhere((t) => mentions('lithium', [...titles(t), t.abstract])),
  ],
  ['search clinical_trials in title_abstract_only for "breastfeeding" return clinical_trials[id]', []],
  [
    'search clinical_trials in full_data for "breastfeeding" return clinical_trials[id] limit 100',
    idsWhere((t) => mentions('breastfeeding', everyText(t))),
  ],
  ['search clinical_trials for "DynamiCare" return clinical_trials[id]', ['NCT04581499']],
  [
    'search clinical_trials for "osimertinib" where study_type = "INTERVENTIONAL" return overall_status',
    facetOf((t) =>
      t.study_type === 'INTERVENTIONAL' && mentions('osimertinib', everyText(t)) ? [t.overall_status] : [],
    ),
  ],
];

/** What a case checks of an answer: see CASES. */
function shown(query: string, expected: unknown, answer: Record<string, unknown>): unknown {
  if (expected !== null && typeof expected === 'object' && 'total' in expected)
    return { total: (answer['_stats'] as { total_count: number }).total_count };
  const key = /return ([a-z_0-9]+)/.exec(query)?.[1] as string;
  const rows = (answer[key] ?? []) as Row[];
  if (/return [a-z_]+\[id\]/.test(query) || (Array.isArray(expected) && typeof expected[0] === 'string'))
    return rows.map((r) => r['id'] as string).sort();
  if (/ in [a-z_]+ for .* return clinical_trials limit/.test(query))
    // A relevance page: the order may differ between the engines' rankings (fulltext.ts).
    return [...rows].sort((a, b) => ((a['id'] as string) < (b['id'] as string) ? -1 : 1));
  return rows;
}

type Run = (query: string) => Promise<Record<string, unknown>>;

function answers(run: () => Run): void {
  for (const [query, expected] of CASES)
    test(query, async () => {
      assert.deepEqual(shown(query, expected, await run()(query)), expected);
    });
}

const SQLITE = join(dir, 'records.db');
let sqliteReport: ImportReport;
let pgReport: ImportReport;
let pgDb: TestPgDatabase;
let pgEngine: QueryEngine;
let db: Database.Database;

before(async () => {
  sqliteReport = await importFiles({ paths: [dir], open: recordWriterFor(SQLITE), format: 'quarry', onError: 'abort' });
  db = openReadOnly(SQLITE);
  pgDb = await createTestPgDatabase('clinical-trials');
  pgReport = await importFiles({ paths: [dir], open: recordWriterFor(pgDb.url), format: 'quarry', onError: 'abort' });
  pgEngine = createPostgresEngine({ url: pgDb.url });
});
after(async () => {
  db?.close();
  await pgEngine?.close();
  await pgDb?.drop();
  rmSync(dir, { recursive: true, force: true });
});

describe('the import', () => {
  test('writes every study of the real sample, and the records they link, on both engines', () => {
    assert.equal(trials.length, SAMPLE_STUDIES);
    for (const report of [sqliteReport, pgReport]) {
      assert.deepEqual(report.records, {
        organizations: 5,
        researchers: 2,
        grants: 4,
        publications: 2,
        clinical_trials: SAMPLE_STUDIES,
      });
      assert.equal(report.skipped, 0);
    }
  });

  test('the hand-made links are what the cases expect of them', () => {
    // Guards against a sample that changes under the cases: each link lands where intended.
    assert.deepEqual(
      idsWhere((t) => t.investigators.some((i) => i.researcher_id === ASHINA)),
      ASHINA_TRIALS,
    );
    assert.deepEqual(trial('NCT03814226').publication_ids, ['pub.9202']);
    assert.ok((trial('NCT03814226').publications ?? []).some((p) => p.id === undefined && p.pmid === '34822741'));
  });
});

describe('describe source clinical_trials', () => {
  test('lists every field of the field table, its fieldsets and search indexes', () => {
    const described = new SqliteQueryContext(db).run('describe source clinical_trials', { dslVersion: 2 }) as {
      fields: Record<string, { type: string; is_entity: boolean; is_facet: boolean; long_description: string | null }>;
      fieldsets: string[];
      search_fields: string[];
    };
    const names = [...CLINICAL_TRIALS.fields.map(([name]) => name), ...CLINICAL_TRIALS.aliases.map((a) => a.row[0])];
    assert.equal(names.length, 45);
    assert.deepEqual(Object.keys(described.fields).sort(), names.sort());
    assert.deepEqual(described.fields['publications'], {
      ...described.fields['publications'],
      type: 'publication_links',
      is_entity: true,
      is_facet: true,
    });
    assert.match(described.fields['interventions']?.long_description ?? '', /arm_group_labels/);
    assert.deepEqual(described.fieldsets, ['basics', 'extras', 'categories', 'studies']);
    assert.deepEqual(
      described.search_fields,
      CLINICAL_TRIALS.searchIndexes.map((ix) => ix.name),
    );
  });
});

describe('fieldsets', () => {
  const run = (query: string): Row[] =>
    (new SqliteQueryContext(db).run(query, { dslVersion: 2 }) as { clinical_trials: Row[] }).clinical_trials;

  test('without a list, a record has the basics', () => {
    assert.deepEqual(run('search clinical_trials where id = "NCT05093582" return clinical_trials'), [
      basics(trial('NCT05093582')),
    ]);
  });
  test('studies lists the study_* fields the record holds, the kept-apart criteria included', () => {
    const t = trial('NCT06576635');
    // Its arms and designs in an order that is not the values' order: the page shows the values'.
    assert.notDeepEqual(t.study_designs, byValue(t.study_designs));
    const [record] = run('search clinical_trials where id = "NCT06576635" return clinical_trials[id + studies]');
    assert.deepEqual(
      record,
      present({
        id: t.id,
        study_arms: byValue(t.study_arms),
        study_designs: byValue(t.study_designs),
        study_eligibility_criteria: t.study_eligibility_criteria,
        study_maximum_age: t.study_maximum_age,
        study_minimum_age: t.study_minimum_age,
        study_outcome_measures: t.study_outcome_measures,
        study_participants: t.study_participants,
        study_type: t.study_type,
      }),
    );
    // Absent values are left out, not null.
    assert.ok(Object.values(record ?? {}).every((v) => v !== undefined && v !== null));
  });
  test('extras and the abstract read the columns and the kept-apart abstract', () => {
    const t = trial('NCT06576635');
    const [record] = run(
      'search clinical_trials where id = "NCT06576635" return clinical_trials[id + abstract + extras + gender + interventions]',
    );
    assert.deepEqual(
      record,
      present({
        id: t.id,
        abstract: t.abstract,
        brief_title: t.brief_title,
        acronym: t.acronym,
        overall_status: t.overall_status,
        phase: t.phase,
        start_date: t.start_date,
        end_date: t.end_date,
        registry: t.registry,
        date_inserted: t.date_inserted,
        linkout: t.linkout,
        gender: t.gender,
        interventions: t.interventions,
        altmetric: t.altmetric,
      }),
    );
  });
});

describe('clinical_trials on PostgreSQL', { timeout: 120_000 }, () => {
  answers(() => async (query) => (await pgEngine.run(query, { dslVersion: 2 })).result);
});

describe('clinical_trials on SQLite, facets from memory', () => {
  answers(
    () => (query) =>
      Promise.resolve(new SqliteQueryContext(db).run(query, { dslVersion: 2 }) as Record<string, unknown>),
  );
});

describe('clinical_trials on SQLite, facets in SQL', () => {
  answers(
    () => (query) =>
      Promise.resolve(
        new SqliteQueryContext(db, { columnar: false }).run(query, { dslVersion: 2 }) as Record<string, unknown>,
      ),
  );
});

describe('both engines give the same whole answers', { timeout: 120_000 }, () => {
  const queries = [
    'search clinical_trials return clinical_trials limit 40',
    'search clinical_trials return clinical_trials[basics + extras + studies + categories] limit 40',
    `search clinical_trials return clinical_trials[${CLINICAL_TRIALS.fields
      .map(([name]) => name)
      .filter((name) => name !== 'score')
      .join(' + ')}] limit 40`,
    'search clinical_trials for "headache" return clinical_trials[id + title] sort by title limit 40',
    'search clinical_trials where research_orgs is not empty or funders is not empty return clinical_trials[id + research_orgs + funders + researchers + publications + publication_ids] sort by id',
  ];
  for (const query of queries)
    test(query, async () => {
      const sqlite = new SqliteQueryContext(db).run(query, { dslVersion: 2 });
      const pg = (await pgEngine.run(query, { dslVersion: 2 })).result;
      // As text: the keys of each object in the same order too.
      assert.equal(JSON.stringify(pg), JSON.stringify(sqlite));
    });
});

describe('refused', () => {
  for (const field of ['phase', 'conditions', 'associated_grant_ids'])
    test(`${field} is no facet`, () => {
      assert.throws(
        () => new SqliteQueryContext(db).run(`search clinical_trials return ${field}`, { dslVersion: 2 }),
        (error: unknown) => isQuarryError(error) && error.code === 'SCHEMA_NOT_A_FACET',
      );
    });
});
