/**
 * The datasets source (spec/schema-2026.md §7.7): its field table (`fields.ts`), its storage
 * and how a dataset record (`native.ts`) becomes rows, declared once (LAYOUT.md gives the
 * reasons). The registry (`model/sources.ts`) lists it; the schema, both stores and the
 * compiler derive from it.
 */
import { CATEGORY_SCHEMES, FUNDER_FIELDS, byFieldCode, categoryKey, i, t, valueKey } from '../../model/layout-parts.ts';
import {
  affiliationIds,
  categoryRows,
  distinctIds,
  idOf,
  ids,
  joinNames,
  list,
  personIds,
  personName,
  text,
  valueRows,
  type LooseRecord,
} from '../../model/record-values.ts';
import { defineSource } from '../../model/source-module.ts';
import type { LinkHolds } from '../../model/storage-types.ts';
import { DATASETS, DATASETS_LONG_DESCRIPTIONS } from './fields.ts';

/**
 * The stored codes of `dataset_values` fields (`SourceStorage.valueFieldCodes`), from the
 * block 80–99 the datasets took (codes are stored data: never change or reuse one).
 */
const VALUE_FIELD_CODES = { keywords: '80' };

/** Datasets name the places of their organizations as publications do, but `research_org_states` for the states. */
const RESEARCH_ORGANIZATION_FIELDS = {
  research_org_countries: 'country_code',
  research_org_cities: ['city_id', 'city_name'],
  research_org_states: 'state_code',
} as const;

/** The `category_<scheme>` fields of datasets: every scheme but units of assessment. */
const DATASET_SCHEMES: LinkHolds = {
  discriminator: 'scheme',
  fields: Object.fromEntries(
    CATEGORY_SCHEMES.filter((scheme) => scheme !== 'uoa').map((scheme) => [`category_${scheme}`, scheme]),
  ),
};

/** A field of an object the record holds (`repository.name`), when it is text. */
function textOf(value: unknown, key: string): string | undefined {
  const v = value !== null && typeof value === 'object' ? (value as LooseRecord)[key] : undefined;
  return typeof v === 'string' && v !== '' ? v : undefined;
}

export const datasets = defineSource({
  name: 'datasets',
  singular: 'dataset',
  // Publications last: an import writes them before the datasets that link them.
  refersTo: ['categories', 'organizations', 'source_titles', 'researchers', 'grants', 'publications'],
  fieldTable: DATASETS,
  longDescriptions: DATASETS_LONG_DESCRIPTIONS,
  requiredFields: [
    ['title', 'string'],
    ['year', 'number'],
  ],
  importFormats: {
    datacite:
      'DataCite DOI metadata, the records typed Dataset: the Public Data File (.tar.gz), JSON Lines of REST API items, or a REST API page (.json)',
  },
  storage: {
    table: {
      table: 'datasets',
      packedText: ['description'],
      keptApart: { description: 'dataset_descriptions' },
      columns: [
        t('title'),
        t('description'),
        t('doi'),
        i('year'),
        t('date'),
        t('date_created'),
        t('date_modified'),
        t('date_embargo'),
        t('date_inserted'),
        t('language_title'),
        t('language_desc'),
        t('license_name'),
        t('license_url'),
        t('figshare_url'),
        t('dimensions_url'),
        t('journal_id'),
        t('repository_id'),
        // The repository's name as the record gives it: finish() names each repository from these.
        t('repository_name'),
        // The held publication the dataset is linked to: the record's, or found by DOI in finish().
        t('associated_publication_id'),
        // No field: the DOI the importer read, which finish() looks the publication up by.
        t('associated_publication_doi'),
      ],
      indexes: [
        ['doi'],
        ['year'],
        ['date', 'id'],
        ['journal_id'],
        ['repository_id'],
        ['license_name'],
        ['associated_publication_id'],
        ['associated_publication_doi'],
      ],
      entityColumns: {
        // Datasets are not counted in `source_titles.n_publications`: a facet groups the records.
        journal: { column: 'journal_id', entity: 'journals' },
        // The document keeps the record's `{id, name}` too: a page shows it until finish() has
        // made the repository's row.
        repository: { column: 'repository_id', entity: 'repositories', countedIn: 'n_datasets' },
      },
      namedEntities: {
        repositories: { id: 'repository_id', columns: { name: 'repository_name' }, countedIn: 'n_datasets' },
      },
      resolvedIds: [
        {
          column: 'associated_publication_id',
          kind: 'publications',
          by: 'associated_publication_doi',
          match: 'doi',
          object: 'associated_publication',
        },
      ],
      // Whole-source facets of these read their counts (at 1M datasets, 110-490 ms otherwise).
      valueCounts: {
        year: 'dataset_year_counts',
        language_title: 'dataset_language_title_counts',
        language_desc: 'dataset_language_desc_counts',
        license_name: 'dataset_license_name_counts',
      },
      narrow: {
        table: 'datasets_narrow',
        columns: ['id', 'year', 'date', 'journal_id', 'repository_id', 'license_name', 'language_title'],
        counts: {
          research_orgs: 'n_research_orgs',
          funders: 'n_funders',
          researchers: 'n_researchers',
          associated_grant_ids: 'n_associated_grant_ids',
        },
        indexes: [['year'], ['journal_id'], ['repository_id']],
      },
    },
    links: [
      {
        table: 'dataset_research_orgs',
        key: [t('org_id')],
        extra: [],
        reverse: ['org_id'],
        holds: { field: 'research_orgs' },
        readThrough: RESEARCH_ORGANIZATION_FIELDS,
        // As publications': organization + year filters and pages newest first read one index range.
        ownerColumns: ['year', 'date'],
      },
      {
        table: 'dataset_funders',
        key: [t('org_id')],
        extra: [],
        reverse: ['org_id'],
        holds: { field: 'funders' },
        readThrough: FUNDER_FIELDS,
      },
      {
        table: 'dataset_researchers',
        key: [t('researcher_id')],
        extra: [],
        reverse: ['researcher_id'],
        holds: { field: 'researchers' },
        postings: { table: 'dataset_researchers_postings', column: 'dataset_pks' },
      },
      {
        table: 'dataset_grants',
        key: [t('grant_id')],
        extra: [],
        reverse: ['grant_id'],
        holds: { field: 'associated_grant_ids' },
      },
      {
        table: 'dataset_categories',
        key: categoryKey,
        extra: [],
        reverse: ['scheme', 'category_id'],
        holds: DATASET_SCHEMES,
      },
      {
        table: 'dataset_values',
        key: valueKey,
        extra: [],
        reverse: ['field', 'value'],
        holds: byFieldCode(VALUE_FIELD_CODES),
      },
    ],
    fullText: {
      table: 'datasets_fts',
      columns: ['title', 'description', 'keywords', 'authors'],
      indexes: {
        full_data: ['title', 'description', 'keywords', 'authors'],
        title_only: ['title'],
        title_abstract_only: ['title', 'description'],
      },
    },
    valueFieldCodes: VALUE_FIELD_CODES,
  },
  rows: {
    links: (record) => {
      const authors = list(record['authors']);
      return {
        dataset_research_orgs: ids(distinctIds(record['research_orgs'], affiliationIds(authors))),
        dataset_funders: ids(distinctIds(record['funders'])),
        dataset_researchers: ids(distinctIds(record['researchers'], personIds(authors))),
        dataset_grants: ids(distinctIds(record['associated_grant_ids'])),
        dataset_categories: categoryRows(record),
        dataset_values: valueRows(record, VALUE_FIELD_CODES),
      };
    },
    fullText: (record) => [
      text(record['title']),
      text(record['description']),
      list(record['keywords']).map(text).join(' ; '),
      joinNames(list(record['authors']).map(personName)),
    ],
    columnFallbacks: {
      journal_id: (record) => idOf(record['journal']),
      repository_id: (record) => idOf(record['repository']),
      repository_name: (record) => textOf(record['repository'], 'name'),
      associated_publication_id: (record) => idOf(record['associated_publication']),
      associated_publication_doi: (record) => textOf(record['associated_publication'], 'doi')?.toLowerCase(),
    },
    namedCategories: true,
    journal: true,
  },
});
