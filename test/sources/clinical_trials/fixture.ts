// A native clinical_trials fixture: the 536 real studies of
// test/fixtures/data/clinical_trials/ctgov_v2_studies.jsonl.gz mapped by the ClinicalTrials.gov
// importer, a few of them given hand-made links (sponsors and affiliations matched to
// organizations, funders, identified investigators, a grant, categories), their references
// found among the fixture's publications by PMID, and the records those links name, written
// as the native shards `quarry import --format quarry` reads (`<kind>-0001.jsonl`).
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { readCtgovStudies } from '../../../src/sources/clinical_trials/import-ctgov-files.ts';
import type { ClinicalTrialRecord } from '../../../src/sources/clinical_trials/native.ts';

export const SAMPLE = fileURLToPath(
  new URL('../../fixtures/data/clinical_trials/ctgov_v2_studies.jsonl.gz', import.meta.url),
);
/** The studies of the sample (test/fixtures/data/clinical_trials/README.md). */
export const SAMPLE_STUDIES = 536;

export const DANISH_HEADACHE_CENTER = 'grid.9001.a';
export const UNIVERSITY_OF_WASHINGTON = 'grid.9002.b';
export const NIAAA = 'grid.9003.c';
export const NCCIH = 'grid.9004.d';
export const NOVO_NORDISK_FOUNDATION = 'grid.9005.e';

export const ORGANIZATIONS = [
  {
    id: DANISH_HEADACHE_CENTER,
    name: 'Danish Headache Center',
    country_code: 'DK',
    country_name: 'Denmark',
    city_id: 2620964,
    city_name: 'Glostrup',
    types: ['Healthcare'],
  },
  {
    id: UNIVERSITY_OF_WASHINGTON,
    name: 'University of Washington',
    country_code: 'US',
    country_name: 'United States',
    state_code: 'US-WA',
    state_name: 'Washington',
    city_id: 5809844,
    city_name: 'Seattle',
    types: ['Education'],
  },
  {
    id: NIAAA,
    name: 'National Institute on Alcohol Abuse and Alcoholism',
    acronym: 'NIAAA',
    country_code: 'US',
    country_name: 'United States',
    types: ['Government'],
  },
  {
    id: NCCIH,
    name: 'National Center for Complementary and Integrative Health',
    acronym: 'NCCIH',
    country_code: 'US',
    country_name: 'United States',
    types: ['Government'],
  },
  {
    id: NOVO_NORDISK_FOUNDATION,
    name: 'Novo Nordisk Foundation',
    country_code: 'DK',
    country_name: 'Denmark',
    types: ['Nonprofit'],
  },
];

export const ASHINA = 'ur.0100000003.03';
export const GUO = 'ur.0100000004.04';
export const RESEARCHERS = [
  { id: ASHINA, first_name: 'Messoud', last_name: 'Ashina' },
  { id: GUO, first_name: 'Song', last_name: 'Guo' },
];

/**
 * The grants: the NIH projects the sample's trials name by full project number (the importer
 * keys them `nih.<number>`), and one the links below add.
 */
export const GRANTS = [
  { id: 'nih.2R44AA026234-02', title: 'Technology-enabled contingency management for alcohol use', start_year: 2019 },
  { id: 'nih.5R44AA026234-03', title: 'Technology-enabled contingency management for alcohol use', start_year: 2021 },
  { id: 'nih.1R44AT011593-01', title: 'A behavioral digital therapeutic for chronic pain', start_year: 2021 },
  { id: 'grant.9101', title: 'Cluster headache and the trigeminovascular system', start_year: 2020 },
];

/**
 * Publications the trials' references name by PMID (and DOI), each naming its trial in
 * `clinical_trial_ids` as a publication's full text does. NCT03814226 names two references:
 * one is held, the other stays a link with its DOI and PMID alone.
 */
export const PUBLICATIONS = [
  {
    id: 'pub.9201',
    title: 'Effect of sphenopalatine ganglion stimulation in chronic cluster headache',
    doi: '10.1001/jamaneurol.2018.1675',
    pmid: '29987329',
    year: 2018,
    date: '2018-07-09',
    clinical_trial_ids: ['NCT02466334'],
  },
  {
    id: 'pub.9202',
    title: 'Cluster headache attacks and PACAP38',
    doi: '10.3389/fneur.2023.1135246',
    pmid: '37143998',
    year: 2023,
    date: '2023-04-18',
    clinical_trial_ids: ['NCT03814226'],
  },
];

/** The Ashina trials of the Danish Headache Center (its lead sponsor in all four). */
export const ASHINA_TRIALS = ['NCT02466334', 'NCT02510729', 'NCT03814226', 'NCT05093582'];

/**
 * The links of an Ashina trial: the sponsor matched (research_orgs comes from its id), the
 * investigator identified, a category.
 */
const ashinaLinks = (trial: ClinicalTrialRecord): Partial<ClinicalTrialRecord> => ({
  sponsors: (trial.sponsors ?? []).map((s) =>
    s.name === 'Danish Headache Center' ? { ...s, id: DANISH_HEADACHE_CENTER } : s,
  ),
  investigators: trial.investigators.map((i) => (i.last_name === 'Ashina' ? { ...i, researcher_id: ASHINA } : i)),
  category_for: [{ id: '3209', name: '3209 Neurosciences' }],
});

/** What the hand-made links change in a mapped trial, by id. */
const LINKS: Readonly<Record<string, (trial: ClinicalTrialRecord) => Partial<ClinicalTrialRecord>>> = {
  NCT02510729: ashinaLinks,
  NCT03814226: ashinaLinks,
  NCT02466334: (trial) => ({
    ...ashinaLinks(trial),
    researchers: [GUO],
    category_hrcs_hc: [{ id: '890', name: 'Neurological' }],
  }),
  NCT05093582: (trial) => ({
    ...ashinaLinks(trial),
    funders: [NOVO_NORDISK_FOUNDATION],
    associated_grant_ids: ['grant.9101'],
  }),
  // The affiliation matched, and the NIH institute collaborating as funder.
  NCT06000007: (trial) => ({
    investigators: trial.investigators.map((i) => ({
      ...i,
      affiliations: i.affiliations.map((a) => ({ ...a, id: UNIVERSITY_OF_WASHINGTON })),
    })),
    funders: [NCCIH],
    category_for: [{ id: '4203', name: '4203 Health Services and Systems' }],
  }),
  NCT04581499: () => ({ funders: [NIAAA] }),
};

/** The trial's references held among the fixture's publications (found by PMID), with their ids. */
function withHeldPublications(trial: ClinicalTrialRecord): Partial<ClinicalTrialRecord> {
  if (trial.publications === undefined) return {};
  const publications = trial.publications.map((link) => {
    const held = PUBLICATIONS.find((p) => p.pmid === link.pmid);
    return held === undefined ? link : { id: held.id, ...link };
  });
  const ids = publications.flatMap((link) => (link.id === undefined ? [] : [link.id]));
  return ids.length === 0 ? {} : { publications, publication_ids: ids };
}

/** The trials of the sample, in file order, with the hand-made links. */
export async function sampleTrials(): Promise<ClinicalTrialRecord[]> {
  const out: ClinicalTrialRecord[] = [];
  for await (const read of readCtgovStudies(SAMPLE)) {
    if (!('record' in read)) throw new Error(`${read.place.name}:${read.place.line}: ${read.malformed}`);
    const trial = read.record;
    out.push({ ...trial, ...withHeldPublications(trial), ...LINKS[trial.id]?.(trial) });
  }
  return out;
}

/** Writes the fixture's shards into `dir`; returns its trials. */
export async function writeTrialShards(dir: string): Promise<ClinicalTrialRecord[]> {
  const trials = await sampleTrials();
  const shard = (kind: string, records: readonly object[]): void =>
    writeFileSync(join(dir, `${kind}-0001.jsonl`), records.map((r) => `${JSON.stringify(r)}\n`).join(''));
  shard('organizations', ORGANIZATIONS);
  shard('researchers', RESEARCHERS);
  shard('grants', GRANTS);
  shard('publications', PUBLICATIONS);
  shard('clinical_trials', trials);
  return trials;
}
