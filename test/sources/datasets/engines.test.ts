// The datasets source on both engines: the fixture (the real DataCite samples mapped by the
// importer, with hand-made links to organizations, researchers, a grant, a journal, categories
// and publications: fixture.ts) is imported through `importFiles` into SQLite and PostgreSQL,
// and every query below must give the answer it names, the same on PostgreSQL, on SQLite with
// facets from memory and on SQLite with facets in SQL. The queries cover `describe`, the
// fieldsets, filters on scalar, multi-value and entity fields (those read through the
// organizations included), facets on each facet field with the names the entity tables hold,
// full text in each search index, sorting, paging and counts; and what `finish()` derives:
// the repositories' table and the publication found by the DOI a dataset names.
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
import { openReadOnly } from '../../../src/store/sqlite/open.ts';
import { DATASETS } from '../../../src/sources/datasets/fields.ts';
import type { DatasetRecord } from '../../../src/sources/datasets/native.ts';
import { createTestPgDatabase, queryPg, type TestPgDatabase } from '../../fixtures/pg-db.ts';
import { SAMPLES, writeDatasetShards } from './fixture.ts';

const dir = mkdtempSync(join(tmpdir(), 'quarry-datasets-'));
const datasets: DatasetRecord[] = await writeDatasetShards(dir);

type Row = Readonly<Record<string, unknown>>;

/** The ids of the fixture's datasets that `keep` holds for, in id order. */
const idsWhere = (keep: (d: DatasetRecord) => boolean): string[] =>
  datasets
    .filter(keep)
    .map((d) => d.id)
    .sort();

/** The records in the default order: newest first, ties by id. */
const byDefaultOrder = [...datasets].sort((a, b) =>
  a.date === b.date ? (a.id < b.id ? -1 : 1) : a.date < b.date ? 1 : -1,
);

/** A facet of a scalar field as the fixture gives it: count descending, ties by id. */
function facetOf(values: (d: DatasetRecord) => readonly (string | number | undefined)[], limit = 20): Row[] {
  const counts = new Map<string | number, number>();
  for (const d of datasets)
    for (const v of new Set(values(d))) if (v !== undefined && v !== '') counts.set(v, (counts.get(v) ?? 0) + 1);
  return [...counts]
    .sort(([a, m], [b, n]) => n - m || (a < b ? -1 : 1))
    .slice(0, limit)
    .map(([id, count]) => ({ id, count }));
}

const DRYAD = 'doi:10.5061/dryad.8515';
const BATH = 'doi:10.15125/bath-00114';
const ZENODO_R = 'doi:10.5281/zenodo.1239';
const ZENODO_PSY = 'doi:10.5281/zenodo.1196821';
const TOPMED = 'doi:10.23725/8na3-9s47';
const GTEX = 'doi:10.25491/8kmc-g314';
const CERN = { id: 'https://ror.org/01ggx4157', name: 'European Organization for Nuclear Research' };

/**
 * Each query and what its answer must show: for `return datasets[id]`, the ids in id order;
 * for another field list, the records as returned (in the answer's order); for a facet, its
 * rows; `{ total }`: the total count.
 */
const CASES: readonly (readonly [query: string, expected: unknown])[] = [
  // Counts and paging.
  ['search datasets return datasets[id] limit 1', { total: datasets.length }],
  [
    'search datasets return datasets[id + date] limit 5 skip 3',
    byDefaultOrder.slice(3, 8).map((d) => ({ id: d.id, date: d.date })),
  ],
  [
    'search datasets return datasets[id + date] sort by date asc limit 4 skip 2',
    [...byDefaultOrder]
      .sort((a, b) => (a.date === b.date ? (a.id < b.id ? -1 : 1) : a.date < b.date ? -1 : 1))
      .slice(2, 6)
      .map((d) => ({ id: d.id, date: d.date })),
  ],
  [
    'search datasets where year in [2000:2030] return datasets[id + year] sort by year desc limit 3',
    [...datasets]
      .filter((d) => d.year >= 2000 && d.year <= 2030)
      .sort((a, b) => b.year - a.year || (a.id < b.id ? -1 : 1))
      .slice(0, 3)
      .map((d) => ({ id: d.id, year: d.year })),
  ],
  ['search datasets where year = 2017 return datasets[id] limit 1', { total: idsWhere((d) => d.year === 2017).length }],
  // Filters on scalar fields.
  ['search datasets where year = 2017 return datasets[id]', idsWhere((d) => d.year === 2017)],
  ['search datasets where doi = "10.5061/dryad.8515" return datasets[id]', [DRYAD]],
  ['search datasets where license_name = "CC0 1.0" return datasets[id]', idsWhere((d) => d.license_name === 'CC0 1.0')],
  ['search datasets where language_title = "de" return datasets[id]', idsWhere((d) => d.language_title === 'de')],
  ['search datasets where date >= "2023-01-01" return datasets[id]', idsWhere((d) => d.date >= '2023-01-01')],
  [
    'search datasets where date_created is not empty return datasets[id] limit 100',
    idsWhere((d) => d.date_created !== undefined),
  ],
  // Multi-value fields: keywords (in `dataset_values`), grants, categories.
  [
    'search datasets where keywords = "GBIF" return datasets[id]',
    idsWhere((d) => d.keywords?.includes('GBIF') === true),
  ],
  ['search datasets where associated_grant_ids in ["grant.9001"] return datasets[id]', [DRYAD]],
  [
    'search datasets where associated_grant_ids in ["grant.9001"] return datasets[id + title + associated_grant_ids]',
    [{ id: DRYAD, title: 'Data from: A new malaria agent in African hominids.', associated_grant_ids: ['grant.9001'] }],
  ],
  ['search datasets where category_for = "3107" return datasets[id]', [DRYAD]],
  ['search datasets where category_for.name = "3406 Physical Chemistry" return datasets[id]', [BATH]],
  ['search datasets where category_for_2020 = "3406" return datasets[id]', [BATH]],
  // Entity fields: organizations, and the places read through them.
  [`search datasets where research_orgs = "${CERN.id}" return datasets[id]`, [DRYAD, ZENODO_R].sort()],
  ['search datasets where research_orgs.name = "University of Bath" return datasets[id]', [BATH]],
  ['search datasets where research_org_countries = "GA" return datasets[id]', [DRYAD]],
  ['search datasets where research_org_cities = "2656173" return datasets[id]', [BATH]],
  ['search datasets where research_org_states = "CH-GE" return datasets[id]', [DRYAD, ZENODO_R].sort()],
  ['search datasets where count(research_orgs) > 1 return datasets[id]', [DRYAD]],
  ['search datasets where funders = "doi:10.13039/100000050" return datasets[id]', [GTEX, TOPMED].sort()],
  ['search datasets where funder_countries = "GB" return datasets[id]', [BATH]],
  ['search datasets where researchers = "ur.0100000002.02" return datasets[id]', [DRYAD]],
  ['search datasets where journal = "jour.ppat" return datasets[id]', [DRYAD, ZENODO_PSY].sort()],
  ['search datasets where repository = "cern.zenodo" return datasets[id]', [ZENODO_PSY, ZENODO_R].sort()],
  ['search datasets where repository.name = "Zenodo" return datasets[id]', [ZENODO_PSY, ZENODO_R].sort()],
  // The associated publication: named by id, or found by its DOI in finish().
  ['search datasets where associated_publication_id = "pub.dryad" return datasets[id]', [DRYAD]],
  ['search datasets where associated_publication.id = "pub.dryad" return datasets[id]', [DRYAD]],
  ['search datasets where associated_publication = "pub.psyp" return datasets[id]', [ZENODO_PSY]],
  [
    'search datasets where associated_publication.doi = "10.5194/essd-7-93-2015" return datasets[id]',
    ['doi:10.1594/pangaea.836178'],
  ],
  [
    'search datasets where associated_publication_id is not empty return datasets[id + associated_publication_id + associated_publication]',
    [
      {
        id: ZENODO_PSY,
        associated_publication_id: 'pub.psyp',
        associated_publication: { id: 'pub.psyp', doi: '10.1111/psyp.12637' },
      },
      {
        id: DRYAD,
        associated_publication_id: 'pub.dryad',
        associated_publication: { doi: '10.1371/journal.ppat.1000446', id: 'pub.dryad' },
      },
    ],
  ],
  // A page's entity fields with the names their tables hold.
  [
    `search datasets where doi = "10.5061/dryad.8515" return datasets[id + journal + repository + research_orgs + research_org_countries + researchers + category_for]`,
    [
      {
        id: DRYAD,
        journal: { id: 'jour.ppat', title: 'PLOS Pathogens' },
        repository: { id: 'dryad.dryad', name: 'Dryad' },
        research_orgs: [
          {
            id: 'https://ror.org/00f809463',
            name: 'Centre International de Recherches Médicales de Franceville',
            city_name: 'Franceville',
            country_name: 'Gabon',
            types: ['Facility'],
          },
          {
            ...CERN,
            acronym: 'CERN',
            city_name: 'Geneva',
            state_name: 'Geneva',
            country_name: 'Switzerland',
            types: ['Facility'],
          },
        ],
        research_org_countries: [
          { id: 'CH', name: 'Switzerland' },
          { id: 'GA', name: 'Gabon' },
        ],
        researchers: [
          { id: 'ur.0100000001.01', first_name: 'Benjamin', last_name: 'Ollomo' },
          { id: 'ur.0100000002.02', first_name: 'Franck', last_name: 'Prugnolle' },
        ],
        category_for: [{ id: '3107', name: '3107 Microbiology' }],
      },
    ],
  ],
  // Facets on scalar fields (the year from its value counts, over the whole source).
  ['search datasets return year limit 4', facetOf((d) => [d.year], 4)],
  ['search datasets where year >= 2015 return year', facetOf((d) => (d.year >= 2015 ? [d.year] : []))],
  ['search datasets return license_name', facetOf((d) => [d.license_name])],
  ['search datasets return language_title', facetOf((d) => [d.language_title])],
  ['search datasets return language_desc', facetOf((d) => [d.language_desc])],
  ['search datasets return keywords limit 5', facetOf((d) => d.keywords ?? [], 5)],
  // Facets on entity fields, with the names of their tables.
  [
    'search datasets return repository limit 3',
    [
      { id: 'pangaea.repository', count: 3, name: 'PANGAEA - Data Publisher for Earth & Environmental Science' },
      { id: 'cern.zenodo', count: 2, name: 'Zenodo' },
      { id: 'cyark.oh', count: 2, name: 'Open Heritage' },
    ],
  ],
  [
    'search datasets where year in [2021:2023] return repository',
    [
      {
        id: 'the-archive-for-marine-species-and-habitats-data-dassh',
        count: 2,
        name: 'The Archive for Marine Species and Habitats Data (DASSH)',
      },
      { id: 'rodare', count: 1, name: 'Rodare' },
      { id: 'snd.snd', count: 1, name: 'Lund University' },
    ],
  ],
  ['search datasets return journal', [{ id: 'jour.ppat', count: 2, title: 'PLOS Pathogens' }]],
  [
    'search datasets return research_orgs',
    [
      {
        id: CERN.id,
        count: 2,
        name: CERN.name,
        acronym: 'CERN',
        city_name: 'Geneva',
        state_name: 'Geneva',
        country_name: 'Switzerland',
        types: ['Facility'],
      },
      {
        id: 'https://ror.org/002h8g185',
        count: 1,
        name: 'University of Bath',
        city_name: 'Bath',
        country_name: 'United Kingdom',
        types: ['Education'],
      },
      {
        id: 'https://ror.org/00f809463',
        count: 1,
        name: 'Centre International de Recherches Médicales de Franceville',
        city_name: 'Franceville',
        country_name: 'Gabon',
        types: ['Facility'],
      },
    ],
  ],
  [
    'search datasets return research_org_countries',
    [
      { id: 'CH', count: 2, name: 'Switzerland' },
      { id: 'GA', count: 1, name: 'Gabon' },
      { id: 'GB', count: 1, name: 'United Kingdom' },
    ],
  ],
  [
    'search datasets return research_org_cities',
    [
      { id: '2660646', count: 2, name: 'Geneva' },
      { id: '2656173', count: 1, name: 'Bath' },
      { id: 'Franceville', count: 1, name: 'Franceville' },
    ],
  ],
  ['search datasets return research_org_states', [{ id: 'CH-GE', count: 2, name: 'Geneva' }]],
  [
    'search datasets return funder_countries',
    [
      { id: 'US', count: 2, name: 'United States' },
      { id: 'GB', count: 1, name: 'United Kingdom' },
    ],
  ],
  [
    'search datasets return funders limit 1',
    [
      {
        id: 'doi:10.13039/100000050',
        count: 2,
        name: 'National Heart, Lung, and Blood Institute',
        country_name: 'United States',
        types: ['Government'],
      },
    ],
  ],
  [
    'search datasets return researchers',
    [
      { id: 'ur.0100000001.01', count: 2, first_name: 'Benjamin', last_name: 'Ollomo' },
      { id: 'ur.0100000002.02', count: 1, first_name: 'Franck', last_name: 'Prugnolle' },
    ],
  ],
  [
    'search datasets where researchers in ["ur.0100000001.01"] return research_orgs[id + name]',
    [
      { id: CERN.id, count: 2, name: CERN.name },
      {
        id: 'https://ror.org/00f809463',
        count: 1,
        name: 'Centre International de Recherches Médicales de Franceville',
      },
    ],
  ],
  [
    'search datasets return category_for',
    [
      { id: '3107', count: 1, name: '3107 Microbiology' },
      { id: '3406', count: 1, name: '3406 Physical Chemistry' },
    ],
  ],
  ['search datasets where year = 2011 return category_for_2020', [{ id: '3107', count: 1, name: '3107 Microbiology' }]],
  // Grouped by the publication's id: a DOI no held publication has is no value.
  [
    'search datasets return associated_publication',
    [
      { id: 'pub.dryad', count: 1 },
      { id: 'pub.psyp', count: 1 },
    ],
  ],
  // Full text, in each search index.
  ['search datasets for "ozone" return datasets[id]', ['doi:10.21944/temis-ozone-msr2']],
  ['search datasets in title_only for "malaria" return datasets[id]', [DRYAD]],
  ['search datasets in title_only for "Plasmodium" return datasets[id]', []],
  ['search datasets in title_abstract_only for "Plasmodium" return datasets[id]', [DRYAD]],
  ['search datasets in title_abstract_only for "Parasites" return datasets[id]', []],
  ['search datasets in full_data for "Parasites" return datasets[id]', [DRYAD]],
  ['search datasets for "\\"Benjamin Ollomo\\"" return datasets[id]', [DRYAD]],
  ['search datasets for "malaria" where year = 2011 return year', [{ id: 2011, count: 1 }]],
];

/** What a case checks of an answer: see CASES. */
function shown(query: string, expected: unknown, answer: Record<string, unknown>): unknown {
  if (expected !== null && typeof expected === 'object' && 'total' in expected)
    return { total: (answer['_stats'] as { total_count: number }).total_count };
  if (/return datasets\[id\]/.test(query))
    return ((answer['datasets'] ?? []) as Row[]).map((r) => r['id'] as string).sort();
  const key = /return ([a-z_0-9]+)/.exec(query)?.[1] as string;
  const rows = (answer[key] ?? []) as Row[];
  // Facet ids as text where the expected ones are (a city's GeoNames id is read as a number).
  return key === 'research_org_cities' ? rows.map((r) => ({ ...r, id: String(r['id']) })) : rows;
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
  pgDb = await createTestPgDatabase('datasets');
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
  test('writes every dataset of the real samples, and the records they link, on both engines', () => {
    const expected = SAMPLES.reduce((n, [, , count]) => n + count, 0);
    assert.equal(datasets.length, expected);
    for (const report of [sqliteReport, pgReport]) {
      assert.deepEqual(report.records, { organizations: 5, researchers: 2, grants: 1, publications: 2, datasets: 31 });
      assert.equal(report.skipped, 0);
    }
  });

  test('finish() names each repository from its datasets and counts them, on both engines', async () => {
    const sql =
      "SELECT id, name, n_datasets FROM repositories WHERE id IN ('cern.zenodo', 'pangaea.repository') ORDER BY id";
    const expected = [
      { id: 'cern.zenodo', name: 'Zenodo', n_datasets: 2 },
      // Two spellings of the name: the largest is kept.
      { id: 'pangaea.repository', name: 'PANGAEA - Data Publisher for Earth & Environmental Science', n_datasets: 3 },
    ];
    assert.deepEqual(db.prepare(sql).all(), expected);
    const pgRows = await queryPg<{ id: string; name: string; n_datasets: string }>(pgDb.url, sql);
    assert.deepEqual(
      pgRows.map((r) => ({ ...r, n_datasets: Number(r.n_datasets) })),
      expected,
    );
  });
});

describe('describe source datasets', () => {
  test('lists every field of the field table, with the repository an entity', () => {
    const described = new SqliteQueryContext(db).run('describe source datasets', { dslVersion: 2 }) as {
      fields: Record<string, { type: string; is_entity: boolean; is_facet: boolean }>;
      fieldsets: string[];
      search_fields: string[];
    };
    const names = [...DATASETS.fields.map(([name]) => name), ...DATASETS.aliases.map((a) => a.row[0])].sort();
    assert.deepEqual(Object.keys(described.fields).sort(), names);
    assert.deepEqual(described.fields['repository'], {
      ...described.fields['repository'],
      type: 'repositories',
      is_entity: true,
      is_facet: true,
    });
    assert.deepEqual(described.fieldsets, ['basics', 'categories']);
    assert.deepEqual(described.search_fields, ['title_only', 'title_abstract_only', 'full_data']);
  });
});

describe('fieldsets', () => {
  test('without a list, a record has the basics it holds', () => {
    const answer = new SqliteQueryContext(db).run('search datasets where doi = "10.5061/dryad.8515" return datasets', {
      dslVersion: 2,
    }) as { datasets: Row[] };
    assert.deepEqual(Object.keys(answer.datasets[0] ?? {}).sort(), [
      'authors',
      'id',
      'journal',
      'keywords',
      'title',
      'year',
    ]);
  });
  test('categories lists the category fields it holds', () => {
    const answer = new SqliteQueryContext(db).run(
      'search datasets where doi = "10.15125/bath-00114" return datasets[id + categories]',
      { dslVersion: 2 },
    ) as { datasets: Row[] };
    const named = [{ id: '3406', name: '3406 Physical Chemistry' }];
    assert.deepEqual(answer.datasets, [{ id: BATH, category_for: named, category_for_2020: named }]);
  });
});

describe('datasets on PostgreSQL', { timeout: 120_000 }, () => {
  answers(() => async (query) => (await pgEngine.run(query, { dslVersion: 2 })).result);
});

describe('datasets on SQLite, facets from memory', () => {
  answers(
    () => (query) =>
      Promise.resolve(new SqliteQueryContext(db).run(query, { dslVersion: 2 }) as Record<string, unknown>),
  );
});

describe('datasets on SQLite, facets in SQL', () => {
  answers(
    () => (query) =>
      Promise.resolve(
        new SqliteQueryContext(db, { columnar: false }).run(query, { dslVersion: 2 }) as Record<string, unknown>,
      ),
  );
});

describe('both engines give the same whole answers', { timeout: 120_000 }, () => {
  const queries = [
    'search datasets return datasets limit 40',
    'search datasets return datasets[basics + categories] limit 40',
    `search datasets return datasets[${DATASETS.fields
      .map(([name]) => name)
      .filter((name) => name !== 'score')
      .join(' + ')}] limit 40`,
    'search datasets for "data" return datasets[id + title] sort by title limit 40',
    'search datasets where year < 2015 return datasets[id + year + repository + license_name] sort by year limit 10',
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
  test('a field of no facet is not a facet', () => {
    assert.throws(
      () => new SqliteQueryContext(db).run('search datasets return associated_grant_ids', { dslVersion: 2 }),
      (error: unknown) => isQuarryError(error) && error.code === 'SCHEMA_NOT_A_FACET',
    );
  });
});
