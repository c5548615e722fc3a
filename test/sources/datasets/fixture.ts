// A small native datasets fixture: the datasets of the real DataCite samples of
// test/fixtures/data/datasets (the REST items and the Public Data File, 27 + 4), mapped by the
// importer, a few of them given hand-made links (organizations, researchers, a grant, a
// journal, a category, a publication by id), and the records those links name, written as
// the native shards `quarry import --format quarry` reads (`<kind>-0001.jsonl`).
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { dataciteDatasets, type DataciteLayout } from '../../../src/sources/datasets/import-datacite-files.ts';
import type { DatasetRecord } from '../../../src/sources/datasets/native.ts';

const DATA = fileURLToPath(new URL('../../fixtures/data/datasets/', import.meta.url));

/** The sample files read, with their layout and the number of records typed Dataset in each. */
export const SAMPLES: readonly (readonly [file: string, layout: DataciteLayout, datasets: number])[] = [
  ['datacite_rest_api_dois.jsonl.gz', 'jsonl', 27],
  ['datacite_public_data_file_sample.tar.gz', 'public-data-file', 4],
];

export const ORGANIZATIONS = [
  {
    id: 'https://ror.org/01ggx4157',
    name: 'European Organization for Nuclear Research',
    acronym: 'CERN',
    country_code: 'CH',
    country_name: 'Switzerland',
    state_code: 'CH-GE',
    state_name: 'Geneva',
    city_id: '2660646',
    city_name: 'Geneva',
    types: ['Facility'],
  },
  {
    id: 'https://ror.org/002h8g185',
    name: 'University of Bath',
    country_code: 'GB',
    country_name: 'United Kingdom',
    city_id: '2656173',
    city_name: 'Bath',
    types: ['Education'],
  },
  {
    id: 'https://ror.org/00f809463',
    name: 'Centre International de Recherches Médicales de Franceville',
    country_code: 'GA',
    country_name: 'Gabon',
    city_name: 'Franceville',
    types: ['Facility'],
  },
  // Funders as Crossref keys them (`doi:10.13039/<id>`), which the DataCite importer gives too.
  {
    id: 'doi:10.13039/501100000266',
    name: 'Engineering and Physical Sciences Research Council',
    country_code: 'GB',
    country_name: 'United Kingdom',
    types: ['Government'],
  },
  {
    id: 'doi:10.13039/100000050',
    name: 'National Heart, Lung, and Blood Institute',
    country_code: 'US',
    country_name: 'United States',
    types: ['Government'],
  },
];

export const RESEARCHERS = [
  { id: 'ur.0100000001.01', first_name: 'Benjamin', last_name: 'Ollomo' },
  { id: 'ur.0100000002.02', first_name: 'Franck', last_name: 'Prugnolle' },
];

export const GRANTS = [{ id: 'grant.9001', title: 'Malaria parasites of African apes', start_year: 2008 }];

/**
 * Publications: `pub.dryad` has the DOI the Dryad dataset names, so finish() links them;
 * `pub.psyp` is named by id.
 */
export const PUBLICATIONS = [
  {
    id: 'pub.dryad',
    title: 'A new malaria agent in African hominids',
    doi: '10.1371/journal.ppat.1000446',
    year: 2009,
    date: '2009-05-29',
  },
  {
    id: 'pub.psyp',
    title: 'Psychophysiological responses',
    doi: '10.1111/psyp.12637',
    year: 2016,
    date: '2016-03-01',
  },
];

/** What the hand-made links add to the mapped datasets, by id. */
const LINKS: Readonly<Record<string, Partial<DatasetRecord>>> = {
  'doi:10.5061/dryad.8515': {
    research_orgs: ['https://ror.org/00f809463', 'https://ror.org/01ggx4157'],
    researchers: ['ur.0100000001.01', 'ur.0100000002.02'],
    associated_grant_ids: ['grant.9001'],
    journal: { id: 'jour.ppat', title: 'PLOS Pathogens' },
    category_for: [{ id: '3107', name: '3107 Microbiology' }],
  },
  'doi:10.15125/bath-00114': {
    research_orgs: ['https://ror.org/002h8g185'],
    category_for: [{ id: '3406', name: '3406 Physical Chemistry' }],
  },
  'doi:10.5281/zenodo.1239': {
    research_orgs: ['https://ror.org/01ggx4157'],
    researchers: ['ur.0100000001.01'],
  },
  'doi:10.5281/zenodo.1196821': {
    associated_publication: { id: 'pub.psyp', doi: '10.1111/psyp.12637' },
    associated_publication_id: 'pub.psyp',
    journal: { id: 'jour.ppat', title: 'PLOS Pathogens' },
  },
};

/** The datasets of the samples, in file order, with the hand-made links. */
export async function sampleDatasets(): Promise<DatasetRecord[]> {
  const out: DatasetRecord[] = [];
  for (const [file, layout] of SAMPLES)
    for await (const read of dataciteDatasets(join(DATA, file), layout)) {
      if (!('record' in read)) throw new Error(`${read.where}:${read.line}: ${read.malformed}`);
      out.push({ ...read.record, ...LINKS[read.record.id] });
    }
  return out;
}

/** Writes the fixture's shards into `dir`; returns its datasets. */
export async function writeDatasetShards(dir: string): Promise<DatasetRecord[]> {
  const datasets = await sampleDatasets();
  const shard = (kind: string, records: readonly object[]): void =>
    writeFileSync(join(dir, `${kind}-0001.jsonl`), records.map((r) => `${JSON.stringify(r)}\n`).join(''));
  shard('organizations', ORGANIZATIONS);
  shard('researchers', RESEARCHERS);
  shard('grants', GRANTS);
  shard('publications', PUBLICATIONS);
  shard('datasets', datasets);
  return datasets;
}
