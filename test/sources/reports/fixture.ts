// A small native fixture of reports and policy documents: the works of
// test/fixtures/data/grey_literature mapped by the OpenAlex and Crossref importers (the 4 real
// OpenAlex reports and the 3 constructed Crossref reports: 6 reports and 1 policy document),
// a few of them given hand-made links (responsible,
// publishing and funding organizations, categories, publications), two hand-made policy
// documents, and the records those links name, written as the native shards
// `quarry import --format quarry` reads (`<kind>-0001.jsonl`). The organizations' places are
// hand-made too: what the queries read through them.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Mapped } from '../../../src/data/import/formats/common.ts';
import { CrossrefReader } from '../../../src/data/import/formats/crossref.ts';
import { OpenAlexReader } from '../../../src/data/import/formats/openalex.ts';
import type { PolicyDocumentRecord } from '../../../src/sources/policy_documents/native.ts';
import type { ReportRecord } from '../../../src/sources/reports/native.ts';

const GREY = fileURLToPath(new URL('../../fixtures/data/grey_literature/', import.meta.url));

export const IDB = 'https://ror.org/02gjn4306';
export const OSTI = 'I139351228';
export const USAID = 'doi:10.13039/100000200';
export const AUSTRAL = 'https://ror.org/029ycp228';
export const WHO = 'https://ror.org/01f80g185';

export const ORGANIZATIONS = [
  {
    id: IDB,
    name: 'Inter-American Development Bank',
    acronym: 'IDB',
    country_code: 'US',
    country_name: 'United States',
    state_code: 'US-DC',
    state_name: 'District of Columbia',
    city_id: '4140963',
    city_name: 'Washington',
    types: ['Funder', 'Other'],
  },
  {
    // Keyed by its OpenAlex id, as the importer keys an institution OpenAlex knows no ROR id of.
    id: OSTI,
    name: 'Office of Scientific and Technical Information',
    country_code: 'US',
    country_name: 'United States',
    state_code: 'US-TN',
    state_name: 'Tennessee',
    city_name: 'Oak Ridge',
    types: ['Government'],
  },
  {
    id: USAID,
    name: 'United States Agency for International Development',
    country_code: 'US',
    country_name: 'United States',
    types: ['Government'],
  },
  {
    id: AUSTRAL,
    name: 'Universidad Austral de Chile',
    country_code: 'CL',
    country_name: 'Chile',
    city_name: 'Valdivia',
    types: ['Education'],
  },
  {
    id: WHO,
    name: 'World Health Organization',
    acronym: 'WHO',
    country_code: 'CH',
    country_name: 'Switzerland',
    state_code: 'CH-GE',
    state_name: 'Geneva',
    city_id: '2660646',
    city_name: 'Geneva',
    types: ['Funder', 'Government'],
  },
];

/** Held publications: one a Crossref report cites, two the hand-made policy documents cite. */
export const PUBLICATIONS = [
  {
    id: 'doi:10.1001/jama.2025.0548',
    title: 'A held paper',
    doi: '10.1001/jama.2025.0548',
    year: 2025,
    date: '2025-02-28',
  },
  { id: 'pub.1100000001', title: 'Physical activity and health', doi: '10.1000/pa.1', year: 2019, date: '2019-05-01' },
  { id: 'pub.1100000002', title: 'Sedentary behaviour', doi: '10.1000/sb.2', year: 2018, date: '2018-01-01' },
];

/** What the hand-made links add to the mapped reports, by id. */
const REPORT_LINKS: Readonly<Record<string, Partial<ReportRecord>>> = {
  W194118789: {
    responsible_orgs: [AUSTRAL],
    responsible_orgs_details: [{ name: 'Universidad Austral de Chile', id: AUSTRAL }],
    funder_orgs: [USAID],
    category_for: [{ id: '4104', name: '4104 Environmental management' }],
    category_sdg: [{ id: '40015', name: '15 Life on Land' }],
  },
  W100927044: {
    publisher_orgs: [IDB],
    publisher_details: [{ name: 'Inter-American Development Bank', id: IDB }],
    category_for: [{ id: '3801', name: '3801 Applied economics' }],
  },
  'doi:10.2172/843087': { publisher_orgs: [OSTI] },
};

/** Hand-made policy documents: a user's own corpus, with every field a record may give. */
export const OWN_POLICY_DOCUMENTS: readonly PolicyDocumentRecord[] = [
  {
    id: 'policy.2000000001',
    title: 'Guidelines on physical activity and sedentary behaviour',
    year: 2020,
    date_inserted: '2021-01-15',
    linkout: 'https://www.who.int/publications/i/item/9789240015128',
    dimensions_url: 'https://example.org/policy.2000000001',
    publisher_org: WHO,
    publisher_org_name: 'World Health Organization',
    publisher_org_country: 'CH',
    publisher_org_city: '2660646',
    publisher_org_state: 'CH-GE',
    publication_ids: ['pub.1100000001', 'pub.1100000002'],
    publications: [
      { id: 'pub.1100000001', doi: '10.1000/pa.1' },
      { id: 'pub.1100000002', doi: '10.1000/sb.2' },
    ],
    category_for: [{ id: '42', name: '42 Health Sciences' }],
    category_hra: [{ id: '3903', name: 'Public Health' }],
  },
  {
    id: 'policy.2000000002',
    title: 'Physical activity strategy for the WHO European Region',
    year: 2016,
    publisher_org: WHO,
    publisher_org_name: 'World Health Organization',
    publisher_org_country: 'CH',
    publication_ids: ['pub.1100000001'],
    category_for: [{ id: '42', name: '42 Health Sciences' }],
  },
];

function mapped(reader: OpenAlexReader | CrossrefReader, file: string): Mapped[] {
  return readFileSync(join(GREY, file), 'utf8')
    .trim()
    .split('\n')
    .flatMap((line) => reader.map(line));
}

/** The fixture's records of one kind, in file order. */
function ofKind<T>(all: readonly Mapped[], kind: string): T[] {
  return all.flatMap((m) => (m.kind === kind && 'record' in m ? [m.record as unknown as T] : []));
}

export interface GreyFixture {
  readonly reports: readonly ReportRecord[];
  readonly policyDocuments: readonly PolicyDocumentRecord[];
}

/** The mapped works with the hand-made links, and the hand-made policy documents. */
export function greyFixture(): GreyFixture {
  const all = [
    ...mapped(new OpenAlexReader(), 'openalex_reports.jsonl'),
    ...mapped(new CrossrefReader(), 'crossref_reports_constructed.jsonl'),
  ];
  const reports = ofKind<ReportRecord>(all, 'reports').map((r) => ({ ...r, ...REPORT_LINKS[r.id] }));
  return {
    reports,
    policyDocuments: [...ofKind<PolicyDocumentRecord>(all, 'policy_documents'), ...OWN_POLICY_DOCUMENTS],
  };
}

/** Writes the fixture's shards into `dir`; returns its records. */
export function writeGreyShards(dir: string): GreyFixture {
  const fixture = greyFixture();
  const shard = (kind: string, records: readonly object[]): void =>
    writeFileSync(join(dir, `${kind}-0001.jsonl`), records.map((r) => `${JSON.stringify(r)}\n`).join(''));
  shard('organizations', ORGANIZATIONS);
  shard('publications', PUBLICATIONS);
  shard('reports', fixture.reports);
  shard('policy_documents', fixture.policyDocuments);
  return fixture;
}
