// A small record set for `identify experts` and `similar_documents`: researchers at three
// organizations, publications with concepts and abstracts (two on graphene by the same
// author, malaria, neural networks) and grants with investigators, written into SQLite
// and into a new PostgreSQL database through the stores' own writers.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openPgRecordWriter } from '../../src/store/postgres/records-writer.ts';
import { openRecordStore } from '../../src/store/sqlite/records-store.ts';
import { createTestPgDatabase, type TestPgDatabase } from '../fixtures/pg-db.ts';

export const ORG_A = 'grid.910001.a';
export const ORG_B = 'grid.910002.b';
export const ORG_C = 'grid.910003.c';

export const ORGS = [
  {
    id: ORG_A,
    name: 'University of Manchester',
    country_name: 'United Kingdom',
    country_code: 'GB',
    types: ['Education'],
  },
  { id: ORG_B, name: 'Radboud University', country_name: 'Netherlands', country_code: 'NL', types: ['Education'] },
  { id: ORG_C, name: 'Institut Pasteur', country_name: 'France', country_code: 'FR', types: ['Facility'] },
];

export const ANA = 'ur.0910000001.01';
export const BEN = 'ur.0910000002.02';
export const CHEN = 'ur.0910000003.03';
export const DANA = 'ur.0910000004.04';
export const ELI = 'ur.0910000005.05';

export const RESEARCHERS = [
  { id: ANA, first_name: 'Ana', last_name: 'Geimova', research_orgs: [ORG_A], current_research_org: ORG_A },
  { id: BEN, first_name: 'Ben', last_name: 'Novak', research_orgs: [ORG_B], current_research_org: ORG_B },
  { id: CHEN, first_name: 'Chen', last_name: 'Li', research_orgs: [ORG_A], current_research_org: ORG_A },
  { id: DANA, first_name: 'Dana', last_name: 'Okafor', research_orgs: [ORG_C], current_research_org: ORG_C },
  { id: ELI, first_name: 'Eli', last_name: 'Berg', research_orgs: [ORG_B], current_research_org: ORG_B },
];

const author = (id: string) => {
  const r = RESEARCHERS.find((x) => x.id === id)!;
  return {
    first_name: r.first_name,
    last_name: r.last_name,
    researcher_id: id,
    affiliations: [{ id: r.research_orgs[0] }],
  };
};

export const PUBLICATIONS = [
  {
    id: 'pub.1910000001',
    title: 'Electric field effect in atomically thin carbon films',
    abstract:
      'We describe monocrystalline graphitic films, which are a few atoms thick but are nonetheless stable under ambient conditions, metallic, and of remarkably high quality. The films are found to be a two-dimensional semimetal with a tiny overlap between valence and conductance bands, and they exhibit a strong ambipolar electric field effect such that electrons and holes in concentrations up to 10 per square centimeter can be induced by applying gate voltage.',
    year: 2004,
    date: '2004-10-22',
    type: 'article',
    concepts: ['graphene', 'electric field effect', 'semimetals', 'gate voltage'],
    authors: [author(ANA), author(BEN)],
  },
  {
    id: 'pub.1910000002',
    title: 'Graphene nanoribbons and carbon nanotubes',
    abstract: 'Graphene ribbons are cut from sheets of carbon and compared with nanotubes of the same width.',
    year: 2016,
    date: '2016-05-01',
    type: 'article',
    concepts: ['graphene', 'carbon nanotubes'],
    authors: [author(ANA)],
  },
  {
    id: 'pub.1910000003',
    title: 'A malaria vaccine trial in Kenya',
    abstract: 'Children in Kenya received a malaria vaccine; antibody levels were measured after a year.',
    year: 2018,
    date: '2018-03-01',
    type: 'article',
    concepts: ['malaria', 'vaccine', 'antibodies'],
    authors: [author(CHEN), author(DANA)],
  },
  {
    id: 'pub.1910000004',
    title: 'Drug resistance of malaria parasites',
    abstract: 'Parasites resistant to artemisinin spread in Southeast Asia; resistance markers are mapped.',
    year: 2019,
    date: '2019-07-07',
    type: 'article',
    concepts: ['malaria', 'drug resistance', 'artemisinin'],
    authors: [author(DANA)],
  },
  {
    id: 'pub.1910000005',
    title: 'Graphene oxide membranes',
    abstract: 'Membranes of graphene oxide let water through and hold salts back.',
    year: 2010,
    date: '2010-02-02',
    type: 'article',
    concepts: ['graphene', 'membranes'],
    authors: [author(ELI)],
  },
  {
    id: 'pub.1910000006',
    title: 'Neural networks read microscope images',
    abstract: 'A convolutional network counts cells in microscope images of blood smears.',
    year: 2020,
    date: '2020-09-09',
    type: 'article',
    concepts: ['neural networks', 'microscopy'],
    authors: [author(BEN), author(CHEN)],
  },
];

export const GRANTS = [
  {
    id: 'grant.9100001',
    title: 'Graphene electronics',
    abstract: 'Transistors made of graphene sheets.',
    start_date: '2015-01-01',
    concepts: ['graphene', 'transistors'],
    investigators: [{ first_name: 'Ben', last_name: 'Novak', researcher_id: BEN, role: 'PI' }],
    research_orgs: [ORG_B],
  },
];

let built: string | undefined;

/** The SQLite database (built once per process); its path. */
export function expertsDatabase(): string {
  if (built !== undefined) return built;
  const path = join(mkdtempSync(join(tmpdir(), 'quarry-experts-')), 'experts.db');
  const store = openRecordStore(path);
  store.upsert('organizations', ORGS);
  store.upsert('researchers', RESEARCHERS);
  store.upsert('publications', PUBLICATIONS);
  store.upsert('grants', GRANTS);
  store.finish();
  store.close();
  built = path;
  return path;
}

/** The same records in a new PostgreSQL database (drop it when done). */
export async function expertsPgDatabase(): Promise<TestPgDatabase> {
  const db = await createTestPgDatabase('experts');
  const writer = await openPgRecordWriter(db.url);
  try {
    await writer.writeBatch('organizations', ORGS);
    await writer.writeBatch('researchers', RESEARCHERS);
    await writer.writeBatch('publications', PUBLICATIONS);
    await writer.writeBatch('grants', GRANTS);
    await writer.finish();
  } finally {
    await writer.close();
  }
  return db;
}
