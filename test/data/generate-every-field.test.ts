// The generated demo fills every field of every source, so real queries find records and
// notebooks get their columns: on the shared 10k database, each field `describe` lists is
// answered with a value by some record. The fields left empty are listed below with the
// reason, and the test holds them to it: a listed field that starts holding values must
// leave the list.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type Database from 'better-sqlite3';
import { foaNumber } from '../../src/data/generate/grants.ts';
import { RandomSource } from '../../src/data/generate/prng.ts';
import type { OrganizationRecord } from '../../src/model/native-records.ts';
import { SOURCE_NAMES } from '../../src/model/sources.ts';
import { runQuery } from '../../src/engine/backends/sqlite/query-context.ts';
import { openReadOnly } from '../../src/store/sqlite/open.ts';
import { demoDataset } from '../fixtures/demo-db.ts';

/** Fields no generated record holds, per source, and why. */
const LEFT_EMPTY: Readonly<Record<string, Readonly<Record<string, string>>>> = {
  '*': {
    dimensions_url: "a link to the record on the hosted service's web app; a deployment has no such page",
    score: 'the relevance of a full-text match: only answers to a search `for` text carry it',
  },
  publications: {
    clinical_trial_ids: 'the trials citing a paper are made after it; answers do not read them back yet',
    referenced_pubs: 'the identifier objects of the references: answers do not read them through yet',
  },
  organizations: {
    redirect: 'set only on a merged organization; the generated ones are all live',
    nuts_level1_code: 'NUTS regions need a region table the vendored reference data does not hold',
    nuts_level1_name: 'as nuts_level1_code',
    nuts_level2_code: 'as nuts_level1_code',
    nuts_level2_name: 'as nuts_level1_code',
    nuts_level3_code: 'as nuts_level1_code',
    nuts_level3_name: 'as nuts_level1_code',
    organization_parent_ids: 'the vendored ROR extract keeps no relationships',
    organization_child_ids: 'as organization_parent_ids',
    organization_related_ids: 'as organization_parent_ids',
  },
  grants: {
    foa_number:
      "only US federal grants have one, and the demo's few grant funders (drawn from ROR at random) are not American",
  },
  researchers: {
    redirect: 'set only on an obsolete researcher id; the generated ones are all live',
  },
  clinical_trials: {
    linkout: 'generated NCT ids have no registry page to link to',
  },
};

const RECORDS_READ = 5_000;
const PAGE = 1_000;

/** Whether a field's value in an answer holds something. */
function holds(value: unknown): boolean {
  if (value === null || value === undefined || value === '') return false;
  if (Array.isArray(value)) return value.length > 0;
  if (typeof value === 'object') return Object.keys(value).length > 0;
  return true;
}

describe('the generated demo fills every field of every source', async () => {
  const { dbPath } = await demoDataset({ publications: 10_000 });
  let db: Database.Database;
  before(() => {
    db = openReadOnly(dbPath);
  });
  after(() => db.close());
  const ask = (text: string): Record<string, unknown> => runQuery(db, text, { dslVersion: 2 });

  for (const source of SOURCE_NAMES) {
    test(source, () => {
      const fields = Object.keys((ask(`describe source ${source}`) as { fields: object }).fields);
      const filled = new Set<string>();
      for (let skip = 0; skip < RECORDS_READ; skip += PAGE) {
        const page = ask(`search ${source} return ${source}[${fields.join('+')}] limit ${PAGE} skip ${skip}`);
        const records = (page[source] ?? []) as Record<string, unknown>[];
        for (const record of records) for (const f of fields) if (holds(record[f])) filled.add(f);
        if (records.length < PAGE) break;
      }
      const excused = { ...LEFT_EMPTY['*'], ...LEFT_EMPTY[source] };
      const empty = fields.filter((f) => !filled.has(f) && !(f in excused));
      assert.deepEqual(empty, [], `${source}: fields no generated record fills`);
      const nowFilled = Object.keys(excused).filter((f) => fields.includes(f) && filled.has(f));
      assert.deepEqual(nowFilled, [], `${source}: fields listed as left empty that records now fill`);
    });
  }
});

describe('funding opportunity numbers of generated grants', () => {
  const draws = new RandomSource(7).draws('grant', 1, 'extras');
  const funder = (name: string, country: string, types: string[]): OrganizationRecord => ({
    id: 'grid.900001.0',
    name,
    country_code: country,
    types,
    status: 'active',
  });

  test('US federal funders give NSF solicitations or NIH-style announcements; others give none', () => {
    assert.match(
      foaNumber(funder('National Science Foundation', 'US', ['Government', 'Funder']), 2021, draws) ?? '',
      /^NSF 20-\d{3}$/,
    );
    assert.match(
      foaNumber(funder('National Cancer Institute', 'US', ['Government', 'Funder']), 2021, draws) ?? '',
      /^(PA-20-\d{3}|RFA-[A-Z]{2}-20-\d{3})$/,
    );
    assert.equal(
      foaNumber(funder('Kansas Department of Wildlife and Parks', 'US', ['Government']), 2021, draws),
      undefined,
    );
    assert.equal(
      foaNumber(funder('Japan Society for the Promotion of Science', 'JP', ['Government']), 2021, draws),
      undefined,
    );
    assert.equal(foaNumber(funder('Wellcome Trust', 'GB', ['Nonprofit', 'Funder']), 2021, draws), undefined);
  });
});
