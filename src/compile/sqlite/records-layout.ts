/**
 * The record store's SQLite layout (docs/storage.md, `src/store/layout.ts`) as the compiler
 * reads it. compile/ may not import store/, so the names are repeated here;
 * `test/compile/sqlite/records-layout.test.ts` checks every table and column against the
 * store's own layout so the two cannot drift apart.
 */
import type { EntityDisplay, EntityLayout, LinkLayout, SourceLayout, SqliteLayout } from './layout.ts';

const CATEGORY_SCHEMES = [
  'bra',
  'for',
  'hra',
  'hrcs_hc',
  'hrcs_rac',
  'icrp_cso',
  'icrp_ct',
  'rcdc',
  'sdg',
  'uoa',
] as const;

const ORGANIZATION: EntityLayout = {
  table: 'organizations',
  idColumn: 'id',
  columns: {
    id: 'id',
    name: 'name',
    acronym: 'acronym',
    city_name: 'city_name',
    country_name: 'country_name',
    state_name: 'state_name',
    status: 'status',
  },
};
const RESEARCHER: EntityLayout = {
  table: 'researchers',
  idColumn: 'id',
  columns: { id: 'id', first_name: 'first_name', last_name: 'last_name' },
};
const CATEGORY: EntityLayout = { table: 'categories', idColumn: 'id', columns: { id: 'id', name: 'name' } };
const JOURNAL: EntityLayout = { table: 'journals', idColumn: 'id', columns: { id: 'id', title: 'title' } };
const named = (table: string): EntityLayout => ({ table, idColumn: 'id', columns: { id: 'id', name: 'name' } });

/** Links of one owner: `<owner>_<what>` tables keyed by `<owner>_pk`. */
function links(owner: 'publication' | 'grant' | 'researcher' | 'organization', sourceTable: string) {
  const pk = `${owner}_pk`;
  const link = (table: string, valueColumn: string, extra: Partial<LinkLayout> = {}): LinkLayout => ({
    table: `${owner}_${table}`,
    recordColumn: pk,
    valueColumn,
    ...extra,
  });
  const value = (field: string, extra: Partial<LinkLayout> = {}): LinkLayout =>
    link('values', 'value', { discriminator: { column: 'field', value: field }, ...extra });
  const categories = Object.fromEntries(
    CATEGORY_SCHEMES.map((scheme) => [
      `category_${scheme}`,
      link('categories', 'category_id', {
        discriminator: { column: 'scheme', value: scheme },
        entity: CATEGORY,
        entityKind: 'categories',
      }),
    ]),
  );
  const derived = {
    research_org_countries: value('research_org_countries', { entity: named('countries'), entityKind: 'countries' }),
    research_org_country_names: value('research_org_country_names'),
    research_org_cities: value('research_org_cities', { entity: named('cities'), entityKind: 'cities' }),
    research_org_state_codes: value('research_org_state_codes', { entity: named('states'), entityKind: 'states' }),
    research_org_state_names: value('research_org_state_names'),
    research_org_names: value('research_org_names'),
    funder_countries: value('funder_countries', { entity: named('countries'), entityKind: 'countries' }),
  };
  return { link, value, categories, derived, sourceTable };
}

const pub = links('publication', 'publications');
const grant = links('grant', 'grants');
const researcher = links('researcher', 'researchers');
const organization = links('organization', 'organizations');

const counted = (table: string, countColumn: string) => ({ wholeSourceCount: { table, idColumn: 'id', countColumn } });

const PUBLICATION_COLUMNS = [
  'id',
  'title',
  'abstract',
  'acknowledgements',
  'doi',
  'type',
  'year',
  'date',
  'date_inserted',
  'date_online',
  'date_print',
  'journal_title_raw',
  'volume',
  'issue',
  'pages',
  'publisher',
  'book_doi',
  'book_title',
  'book_series_title',
  'proceedings_title',
  'pmid',
  'pmcid',
  'arxiv_id',
  'altmetric_id',
  'resulting_publication_doi',
  'times_cited',
  'recent_citations',
  'altmetric',
  'relative_citation_ratio',
  'field_citation_ratio',
  'authors_count',
  'linkout',
  'dimensions_url',
] as const;
const GRANT_COLUMNS = [
  'id',
  'title',
  'abstract',
  'original_title',
  'language',
  'language_title',
  'grant_number',
  'foa_number',
  'start_date',
  'end_date',
  'start_year',
  'date_inserted',
  'funding_usd',
  'funding_aud',
  'funding_cad',
  'funding_chf',
  'funding_eur',
  'funding_gbp',
  'funding_jpy',
  'funding_nzd',
  'funding_currency',
  'funding_org_name',
  'funding_org_acronym',
  'funding_org_city',
  'linkout',
  'dimensions_url',
] as const;
const RESEARCHER_COLUMNS = [
  'id',
  'first_name',
  'last_name',
  'nih_ppid',
  'obsolete',
  'first_publication_year',
  'last_publication_year',
  'first_grant_year',
  'last_grant_year',
  'total_publications',
  'total_grants',
  'dimensions_url',
] as const;
const ORGANIZATION_COLUMNS = [
  'id',
  'name',
  'acronym',
  'city_name',
  'state_name',
  'country_name',
  'status',
  'established',
  'latitude',
  'longitude',
  'nuts_level1_code',
  'nuts_level1_name',
  'nuts_level2_code',
  'nuts_level2_name',
  'nuts_level3_code',
  'nuts_level3_name',
  'redirect',
  'wikipedia_url',
  'dimensions_url',
] as const;

const same = (names: readonly string[]): Record<string, string> => Object.fromEntries(names.map((n) => [n, n]));

const publications: SourceLayout = {
  table: 'publications',
  key: 'pk',
  document: 'doc',
  columns: same(PUBLICATION_COLUMNS),
  links: {
    researchers: pub.link('researchers', 'researcher_id', {
      entity: RESEARCHER,
      entityKind: 'researchers',
      ...counted('researchers', 'n_publications'),
    }),
    research_orgs: pub.link('research_orgs', 'org_id', {
      entity: ORGANIZATION,
      entityKind: 'organizations',
      ...counted('organizations', 'n_publications'),
    }),
    funders: pub.link('funders', 'org_id', {
      entity: ORGANIZATION,
      entityKind: 'organizations',
      ...counted('organizations', 'n_funded_publications'),
    }),
    supporting_grant_ids: pub.link('grants', 'grant_id'),
    concepts: pub.link('concepts', 'concept'),
    reference_ids: pub.link('references', 'cited_id'),
    ...pub.categories,
    ...pub.derived,
    ...Object.fromEntries(
      ['issn', 'mesh_terms', 'open_access', 'clinical_trial_ids', 'journal_lists', 'subtitles'].map((f) => [
        f,
        pub.value(f),
      ]),
    ),
  },
  entityColumns: {
    journal: {
      column: 'journal_id',
      entity: JOURNAL,
      entityKind: 'journals',
      ...counted('journals', 'n_publications'),
    },
    source_title: {
      column: 'journal_id',
      entity: JOURNAL,
      entityKind: 'journals',
      ...counted('journals', 'n_publications'),
    },
  },
  fts: {
    table: 'publications_fts',
    indexes: {
      full_data: null,
      full_data_exact: null,
      title_only: ['title'],
      title_abstract_only: ['title', 'abstract'],
      terms: ['concepts'],
      concepts: ['concepts'],
      authors: ['authors'],
      acknowledgements: ['acknowledgements'],
    },
  },
  defaultOrder: [{ column: 'date', direction: 'desc' }],
};

const grants: SourceLayout = {
  table: 'grants',
  key: 'pk',
  document: 'doc',
  columns: same(GRANT_COLUMNS),
  links: {
    researchers: grant.link('researchers', 'researcher_id', {
      entity: RESEARCHER,
      entityKind: 'researchers',
      ...counted('researchers', 'n_grants'),
    }),
    research_orgs: grant.link('research_orgs', 'org_id', {
      entity: ORGANIZATION,
      entityKind: 'organizations',
      ...counted('organizations', 'n_grants'),
    }),
    funders: grant.link('funders', 'org_id', {
      entity: ORGANIZATION,
      entityKind: 'organizations',
      ...counted('organizations', 'n_funded_grants'),
    }),
    ...grant.categories,
    ...grant.derived,
    active_year: grant.value('active_year'),
    concepts: grant.link('concepts', 'concept'),
  },
  entityColumns: {},
  fts: {
    table: 'grants_fts',
    indexes: {
      full_data: null,
      title_only: ['title'],
      title_abstract_only: ['title', 'abstract'],
      concepts: ['concepts'],
      investigators: ['investigators'],
    },
  },
  defaultOrder: [{ column: 'start_date', direction: 'desc' }],
};

const researchers: SourceLayout = {
  table: 'researchers',
  key: 'pk',
  document: 'doc',
  columns: same(RESEARCHER_COLUMNS),
  links: {
    research_orgs: researcher.link('research_orgs', 'org_id', { entity: ORGANIZATION, entityKind: 'organizations' }),
    orcid_id: researcher.value('orcid_id'),
    redirect: researcher.value('redirect'),
  },
  entityColumns: {
    current_research_org: { column: 'current_research_org_id', entity: ORGANIZATION, entityKind: 'organizations' },
  },
  fts: { table: 'researchers_fts', indexes: { full_data: null } },
  defaultOrder: [{ column: 'last_name', direction: 'asc' }],
};

const ORGANIZATION_VALUE_FIELDS = [
  'types',
  'ror_ids',
  'isni_ids',
  'external_ids_fundref',
  'cnrs_ids',
  'hesa_ids',
  'linkout',
  'orgref_ids',
  'ucas_ids',
  'ukprn_ids',
  'wikidata_ids',
  'organization_child_ids',
  'organization_parent_ids',
  'organization_related_ids',
];

const organizations: SourceLayout = {
  table: 'organizations',
  key: 'pk',
  document: 'doc',
  columns: same(ORGANIZATION_COLUMNS),
  links: Object.fromEntries(ORGANIZATION_VALUE_FIELDS.map((f) => [f, organization.value(f)])),
  entityColumns: {},
  fts: { table: 'organizations_fts', indexes: { full_data: null } },
  defaultOrder: [{ column: 'name', direction: 'asc' }],
};

const display = (e: EntityLayout): EntityDisplay => ({
  table: e.table,
  idColumn: e.idColumn,
  columns: Object.fromEntries(Object.entries(e.columns).filter(([k]) => k !== 'id')),
});

/** Entity kinds → what a facet row or a returned entity shows (spec/data-model.md). */
const entities: Record<string, EntityDisplay> = {
  organizations: {
    table: 'organizations',
    idColumn: 'id',
    columns: { name: 'name', acronym: 'acronym', city_name: 'city_name', country_name: 'country_name' },
    lists: { types: { table: 'organization_values', ownerColumn: 'organization_pk', entityKey: 'pk', field: 'types' } },
  },
  researchers: {
    ...display(RESEARCHER),
    lists: {
      orcid_id: { table: 'researcher_values', ownerColumn: 'researcher_pk', entityKey: 'pk', field: 'orcid_id' },
    },
  },
  categories: display(CATEGORY),
  journals: display(JOURNAL),
  countries: display(named('countries')),
  cities: display(named('cities')),
  states: display(named('states')),
};

export const RECORDS_LAYOUT: SqliteLayout = { sources: { publications, grants, researchers, organizations }, entities };
