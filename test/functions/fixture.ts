// A small record database for the statement functions, the same records in SQLite and in
// PostgreSQL: funders with Funder Registry ids, grants numbered the ways funders write them
// (NIH project numbers across support years, UKRI numbers with slashes), and researchers of
// which one was merged into another.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openRecordStore } from '../../src/store/sqlite/records-store.ts';
import { createTestPgDatabase, writePgRecords, type TestPgDatabase } from '../fixtures/pg-db.ts';

export const ORGS = [
  {
    id: 'grid.910001.a',
    name: 'National Cancer Institute',
    acronym: 'NCI',
    country_name: 'United States',
    country_code: 'US',
    types: ['Government'],
    external_ids_fundref: ['100000054'],
  },
  {
    id: 'grid.910002.b',
    name: 'Engineering and Physical Sciences Research Council',
    acronym: 'EPSRC',
    country_name: 'United Kingdom',
    country_code: 'GB',
    types: ['Government'],
    external_ids_fundref: ['501100000266'],
  },
  {
    id: 'grid.910003.c',
    name: 'National Natural Science Foundation of China',
    acronym: 'NSFC',
    country_name: 'China',
    country_code: 'CN',
    types: ['Government'],
    external_ids_fundref: ['501100001809'],
  },
  {
    id: 'grid.910004.d',
    name: 'University of Testing',
    country_name: 'Ireland',
    country_code: 'IE',
    types: ['Education'],
  },
];

export const GRANTS = [
  {
    id: 'grant.1001',
    title: 'Tumour biology, year one',
    start_date: '2019-07-01',
    funders: ['grid.910001.a'],
    grant_number: '1R01CA123456-01A1',
    project_numbers: [
      { label: 'project_number', value: '1R01CA123456-01A1' },
      { label: 'core_project_number', value: 'R01CA123456' },
    ],
  },
  {
    id: 'grant.1002',
    title: 'Tumour biology, year two',
    start_date: '2020-07-01',
    funders: ['grid.910001.a'],
    grant_number: '5R01CA123456-02',
    project_numbers: [
      { label: 'project_number', value: '5R01CA123456-02' },
      { label: 'core_project_number', value: 'R01CA123456' },
    ],
  },
  {
    id: 'grant.1003',
    title: 'Metamaterials',
    start_date: '2015-01-01',
    funders: ['grid.910002.b'],
    grant_number: 'EP/K012345/1',
  },
  {
    id: 'grant.1004',
    title: 'Graphene devices',
    start_date: '2016-01-01',
    funders: ['grid.910003.c'],
    grant_number: '30410203277',
  },
  {
    // The same number at another funder: only the funder tells them apart.
    id: 'grant.1005',
    title: 'Another 30410203277',
    start_date: '2017-01-01',
    funders: ['grid.910002.b'],
    grant_number: '30410203277',
  },
];

export const RESEARCHERS = [
  { id: 'ur.0100000001.01', first_name: 'Ana', last_name: 'Silva', research_orgs: ['grid.910004.d'] },
  { id: 'ur.0100000002.02', first_name: 'Ana', last_name: 'Silva', obsolete: 1, redirect: ['ur.0100000001.01'] },
  { id: 'ur.0100000003.03', first_name: 'Bo', last_name: 'Li', obsolete: 1, redirect: [] },
];

let built: string | undefined;

/** The SQLite database, built once per process; its path. */
export function functionsDatabase(): string {
  built ??= build();
  return built;
}

function build(): string {
  const path = join(mkdtempSync(join(tmpdir(), 'quarry-functions-')), 'functions.db');
  const store = openRecordStore(path);
  store.upsert('organizations', ORGS);
  store.upsert('researchers', RESEARCHERS);
  store.upsert('grants', GRANTS);
  store.finish();
  store.close();
  return path;
}

/** The same records in a new PostgreSQL database (drop it when done). */
export async function functionsPgDatabase(): Promise<TestPgDatabase> {
  const db = await createTestPgDatabase('functions');
  await writePgRecords(db.url, [
    ['organizations', ORGS],
    ['researchers', RESEARCHERS],
    ['grants', GRANTS],
  ]);
  return db;
}
