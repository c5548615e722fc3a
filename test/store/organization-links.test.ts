// Organization links matched by name in finish() (store/organization-links.ts), on both
// engines and in both orders: the real ClinicalTrials.gov, USPTO and DataCite samples are
// imported with real ROR records of organizations they name (test/fixtures/data/ror/
// ror_v2_linked.jsonl) and a few native organizations for the patents' assignees (ROR's
// records of them are not among the fixtures), organizations first in one database and last
// in the other. The ordinary fields, filters and facets then answer the links; a name no
// held organization bears, or one whose place rules it out, gives none; and an organization
// imported again under another name takes its links back.
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { after, before, describe, test } from 'node:test';
import { recordWriterFor } from '../../src/backends.ts';
import { importFiles } from '../../src/data/import/index.ts';
import { createPostgresEngine } from '../../src/engine/backends/postgres/engine.ts';
import { SqliteQueryContext } from '../../src/engine/backends/sqlite/query-context.ts';
import type { QueryEngine } from '../../src/engine/types.ts';
import { readCtgovStudies } from '../../src/sources/clinical_trials/import-ctgov-files.ts';
import type { ClinicalTrialRecord } from '../../src/sources/clinical_trials/native.ts';
import { openReadOnly } from '../../src/store/sqlite/open.ts';
import { createTestPgDatabase, type TestPgDatabase } from '../fixtures/pg-db.ts';

const fixture = (path: string): string => fileURLToPath(new URL(`../fixtures/data/${path}`, import.meta.url));
const ROR = fixture('ror/ror_v2_linked.jsonl');
const CTGOV = fixture('clinical_trials/ctgov_v2_studies.jsonl.gz');
const DATACITE = fixture('datasets/datacite_rest_api_dois.jsonl.gz');
const USPTO = [fixture('patents/ipgb20221025_wk43.zip'), fixture('patents/ipgb20230404_wk14.zip')];

const UTAH = 'https://ror.org/03r0ha626';
const STANFORD = 'https://ror.org/00f54p054';
const LUMC = 'https://ror.org/05xvt9f17';
const MAYO = 'https://ror.org/02qp3tb03';
const NIH = 'https://ror.org/01cwqze88';
/** The Czech National Institute of Mental Health: the trials' "NIMH" sponsors are the US institute (class NIH). */
const NIMH_PRAGUE = 'https://ror.org/05xj56w78';
const BATH = 'https://ror.org/002h8g185';
const ZURICH = 'https://ror.org/02crff812';
const LUND = 'https://ror.org/012a77v79';

/** Native organizations for the patents: ids outside ROR's, names as ROR writes companies. */
const NIKE = 'grid.9101.a';
const JAGUAR = 'grid.9102.b';
const MEDTRONIC = 'grid.9103.c';
const PATENT_ORGANIZATIONS = [
  { id: NIKE, name: 'Nike (United States)', aliases: ['Nike'], country_code: 'US', types: ['Company'] },
  { id: JAGUAR, name: 'Jaguar Land Rover (United Kingdom)', country_code: 'GB', types: ['Company'] },
  // "MEDTRONIC MINIMED, INC." is another company: no link.
  { id: MEDTRONIC, name: 'Medtronic (United States)', country_code: 'US', types: ['Company'] },
];

/** Each organization of the trials' cases with the names the registry gives it, exactly. */
const TRIAL_NAMES: Readonly<Record<string, readonly string[]>> = {
  [UTAH]: ['University of Utah'],
  [STANFORD]: ['Stanford University'],
  [LUMC]: ['Leiden University Medical Center'],
  [MAYO]: ['Mayo Clinic', 'Mayo Clinic, Department of Neurology'],
  [NIH]: ['National Institutes of Health (NIH)'],
  [ZURICH]: ['University of Zurich'],
  // "Medtronic Spinal and Biologics" is not Medtronic's name entire.
  [MEDTRONIC]: ['Medtronic'],
};

const trials: ClinicalTrialRecord[] = [];
for await (const read of readCtgovStudies(CTGOV)) if ('record' in read) trials.push(read.record);

const sponsorNames = (t: ClinicalTrialRecord): string[] => (t.sponsors ?? []).map((s) => s.name);
const affiliationNames = (t: ClinicalTrialRecord): string[] =>
  t.investigators.flatMap((i) => i.affiliations.map((a) => a.name));

/** The trials that name `org` by one of its names: as sponsor (`sponsors`) or anywhere. */
function trialsNaming(org: string, where: 'anywhere' | 'sponsors'): string[] {
  const names = TRIAL_NAMES[org] ?? [];
  return trials
    .filter((t) =>
      [...sponsorNames(t), ...(where === 'anywhere' ? affiliationNames(t) : [])].some((n) => names.includes(n)),
    )
    .map((t) => t.id)
    .sort();
}

const dir = mkdtempSync(join(tmpdir(), 'quarry-organization-links-'));
const nativeDir = join(dir, 'native');
mkdirSync(nativeDir);
const writeOrganizations = (records: readonly object[]): void =>
  writeFileSync(join(nativeDir, 'organizations-0001.jsonl'), records.map((r) => `${JSON.stringify(r)}\n`).join(''));
writeOrganizations(PATENT_ORGANIZATIONS);

type Run = (query: string) => Promise<Record<string, unknown>>;
type Row = Readonly<Record<string, unknown>>;

/** Imports the samples and the organizations into `database`, organizations first or last. */
async function load(database: string, organizations: 'first' | 'last'): Promise<void> {
  const sources = async (): Promise<void> => {
    await importFiles({ paths: [CTGOV], open: recordWriterFor(database), onError: 'abort' });
    await importFiles({ paths: [DATACITE], open: recordWriterFor(database), onError: 'abort' });
    await importFiles({ paths: USPTO, open: recordWriterFor(database), format: 'uspto', onError: 'abort' });
  };
  const orgs = async (): Promise<void> => {
    await importFiles({ paths: [ROR], open: recordWriterFor(database), format: 'ror', onError: 'abort' });
    await importFiles({ paths: [nativeDir], open: recordWriterFor(database), format: 'quarry', onError: 'abort' });
  };
  if (organizations === 'first') {
    await orgs();
    await sources();
  } else {
    await sources();
    await orgs();
  }
}

const ids = async (run: Run, query: string): Promise<string[]> => {
  const answer = await run(query);
  const key = /return ([a-z_]+)/.exec(query)?.[1] as string;
  return ((answer[key] ?? []) as Row[]).map((r) => r['id'] as string).sort();
};

/** The cases every database must answer alike. */
function cases(run: () => Run): void {
  test('a trial sponsor or investigator affiliation named as an organization is in research_orgs', async () => {
    for (const org of Object.keys(TRIAL_NAMES)) {
      const expected = trialsNaming(org, 'anywhere');
      assert.ok(expected.length > 0, org);
      assert.deepEqual(
        await ids(run(), `search clinical_trials where research_orgs = "${org}" return clinical_trials[id] limit 1000`),
        expected,
        org,
      );
    }
  });

  test('a matched sponsor that funds (by its types or its NIH class) is in funders; an affiliation is not', async () => {
    assert.deepEqual(
      await ids(run(), `search clinical_trials where funders = "${NIH}" return clinical_trials[id] limit 1000`),
      trialsNaming(NIH, 'sponsors'),
    );
    // Utah is a funder in ROR: the trials it sponsors, not those its investigators are from.
    const sponsored = trialsNaming(UTAH, 'sponsors');
    assert.ok(sponsored.length > 0 && sponsored.length <= trialsNaming(UTAH, 'anywhere').length);
    assert.deepEqual(
      await ids(run(), `search clinical_trials where funders = "${UTAH}" return clinical_trials[id] limit 1000`),
      sponsored,
    );
  });

  test('the research_orgs facet counts only the held organizations the names give, nothing else', async () => {
    const answer = await run()('search clinical_trials return research_orgs limit 100');
    const facet = (answer['research_orgs'] as Row[]).map((r) => [r['id'], r['count']]).sort();
    const expected = Object.keys(TRIAL_NAMES)
      .map((org) => [org, trialsNaming(org, 'anywhere').length])
      .sort();
    assert.deepEqual(facet, expected);
  });

  test('a name whose place rules the organization out gives no link', async () => {
    assert.ok(trials.some((t) => sponsorNames(t).includes('National Institute of Mental Health (NIMH)')));
    assert.deepEqual(
      await ids(run(), `search clinical_trials where research_orgs = "${NIMH_PRAGUE}" return clinical_trials[id]`),
      [],
    );
  });

  test("a dataset creator's affiliation named as an organization is in research_orgs", async () => {
    assert.deepEqual(await ids(run(), `search datasets where research_orgs = "${BATH}" return datasets[id]`), [
      'doi:10.15125/bath-00114',
    ]);
    assert.deepEqual(await ids(run(), `search datasets where research_orgs = "${ZURICH}" return datasets[id]`), [
      'doi:10.5281/zenodo.1196821',
    ]);
    // "Department of Clinical Sciences Lund, …, Lund University": the piece that is the name.
    assert.deepEqual(await ids(run(), `search datasets where research_orgs = "${LUND}" return datasets[id]`), [
      'doi:10.5878/xyad-9f70',
    ]);
  });

  test('a patent assignee named as an organization is in assignees and original_assignees', async () => {
    assert.deepEqual(await ids(run(), `search patents where assignees = "${NIKE}" return patents[id]`), [
      'US-D982279-S1',
    ]);
    assert.deepEqual(await ids(run(), `search patents where original_assignees = "${JAGUAR}" return patents[id]`), [
      'US-RE49258-E1',
    ]);
    assert.deepEqual(await ids(run(), `search patents where assignees = "${MEDTRONIC}" return patents[id]`), []);
    const answer = await run()('search patents where id = "US-D982279-S1" return patents[id+assignees]');
    assert.deepEqual(
      ((answer['patents'] as Row[])[0]?.['assignees'] as Row[]).map((a) => a['id']),
      [NIKE],
    );
  });
}

/** An organization imported again under another name takes its links back; the others stay. */
function renamed(run: () => Run, database: () => string): void {
  test('an organization renamed by a later import loses the links its old name gave', async () => {
    writeOrganizations([
      { ...PATENT_ORGANIZATIONS[0], name: 'Nike Golf', aliases: [] },
      ...PATENT_ORGANIZATIONS.slice(1),
    ]);
    try {
      await importFiles({ paths: [nativeDir], open: recordWriterFor(database()), format: 'quarry', onError: 'abort' });
    } finally {
      writeOrganizations(PATENT_ORGANIZATIONS);
    }
    assert.deepEqual(await ids(run(), `search patents where assignees = "${NIKE}" return patents[id]`), []);
    assert.deepEqual(await ids(run(), `search patents where assignees = "${JAGUAR}" return patents[id]`), [
      'US-RE49258-E1',
    ]);
    // The trials imported again keep their links, once each.
    await importFiles({ paths: [CTGOV], open: recordWriterFor(database()), onError: 'abort' });
    assert.deepEqual(
      await ids(run(), `search clinical_trials where research_orgs = "${UTAH}" return clinical_trials[id] limit 1000`),
      trialsNaming(UTAH, 'anywhere'),
    );
  });
}

const sqliteRun =
  (path: string): (() => Run) =>
  () =>
  (query) => {
    const db = openReadOnly(path);
    try {
      return Promise.resolve(new SqliteQueryContext(db).run(query, { dslVersion: 2 }) as Record<string, unknown>);
    } finally {
      db.close();
    }
  };

for (const order of ['first', 'last'] as const) {
  describe(`SQLite, organizations imported ${order}`, () => {
    const path = join(dir, `links-${order}.db`);
    before(() => load(path, order));
    cases(sqliteRun(path));
    if (order === 'first') renamed(sqliteRun(path), () => path);
  });

  describe(`PostgreSQL, organizations imported ${order}`, () => {
    let pgDb: TestPgDatabase;
    let engine: QueryEngine;
    before(async () => {
      pgDb = await createTestPgDatabase(`organization-links-${order}`);
      await load(pgDb.url, order);
      engine = createPostgresEngine({ url: pgDb.url });
    });
    after(async () => {
      await engine?.close();
      await pgDb?.drop();
    });
    const run = (): Run => async (query) => (await engine.run(query, { dslVersion: 2 })).result;
    cases(run);
    if (order === 'last') renamed(run, () => pgDb.url);
  });
}

after(() => rmSync(dir, { recursive: true, force: true }));
