/**
 * The field table of `datasets` (spec/schema-2026.md §7.7): every field of the current schema
 * with the hosted service's descriptions (`Dimensions` and `GRID` left out, the ones the spec
 * cuts short or copied from another field completed), fieldsets (§5), search indexes (§3) and
 * indicators (§4), and the `long_description` of its structured field.
 * `repository` is typed by the entity `repositories`, which datasets brought to Quarry
 * (`model/entities.ts`; its table is filled from the datasets naming each one).
 */
import { CATEGORY_FIELDS } from '../../model/shared-fields.ts';
import type { FieldRow, SourceTable } from '../../model/field-table.ts';

/** Datasets are classified like publications, but by no units of assessment. */
const DATASET_CATEGORY_FIELDS: readonly FieldRow[] = CATEGORY_FIELDS.filter(([name]) => name !== 'category_uoa');

export const DATASETS = {
  description: 'Research datasets deposited in data repositories (DataCite DOIs of type Dataset).',
  fields: [
    [
      'associated_grant_ids',
      'string',
      'fm',
      'Identifiers of the grants linked to the publication the dataset is associated with.',
    ],
    ['associated_publication', 'publication_links', 'fc', 'Publication linked to the dataset (single value).'],
    ['associated_publication_id', 'string', 'f', 'Identifier of the publication linked to the dataset (single value).'],
    ['authors', 'json', 'fm', 'Ordered list of the dataset authors. ORCIDs are included if available.'],
    ...DATASET_CATEGORY_FIELDS,
    ['date', 'date', 'f', 'The publication date of the dataset, eg "2018-01-01".'],
    ['date_created', 'date', 'f', 'The creation date of the dataset.'],
    ['date_embargo', 'date', 'f', 'The embargo date of the dataset.'],
    ['date_inserted', 'date', 'f', 'Date the record was added to this deployment.'],
    ['date_modified', 'date', 'f', 'The last modification date of the dataset.'],
    ['description', 'string', '', 'Description of the dataset.'],
    ['dimensions_url', 'string', '', 'Link to the record on the web.'],
    ['doi', 'string', 'f', 'Dataset DOI.'],
    ['figshare_url', 'string', '', 'Figshare URL for the dataset.'],
    ['funder_countries', 'countries', 'fcm', 'The countries of the organisations funding the dataset.'],
    ['funders', 'organizations', 'fcm', 'The organisations funding the dataset.'],
    ['id', 'string', 'f', 'Quarry dataset identifier: `doi:` and the lower-case DOI (e.g. doi:10.5061/dryad.8515).'],
    ['journal', 'journals', 'fc', 'The journal a data set belongs to.'],
    ['keywords', 'string', 'fcm', 'Keywords used to describe the dataset (from authors).'],
    ['language_desc', 'string', 'fc', 'Dataset description language, as ISO 639-1 language codes.'],
    ['language_title', 'string', 'fc', 'Dataset title language, as ISO 639-1 language codes.'],
    ['license_name', 'string', 'fc', "The dataset licence name, e.g. 'CC BY 4.0'."],
    ['license_url', 'string', '', "The dataset licence URL, e.g. 'https://creativecommons.org/licenses/by/4.0/'."],
    ['repository', 'repositories', 'fc', 'Repository associated with the dataset.'],
    [
      'research_org_cities',
      'cities',
      'fcm',
      'City of the organisations the dataset authors are affiliated to, expressed as GeoNames ID and name.',
    ],
    [
      'research_org_countries',
      'countries',
      'fcm',
      'Country of the organisations the dataset authors are affiliated to, identified using GeoNames codes.',
    ],
    [
      'research_org_states',
      'states',
      'fcm',
      'State of the organisations the dataset authors are affiliated to, expressed as GeoNames codes (ISO-3166-2).',
    ],
    [
      'research_orgs',
      'organizations',
      'fcm',
      'Organisations linked to the dataset: its authors’ affiliations and those of the publication associated to it.',
    ],
    [
      'researchers',
      'researchers',
      'fcm',
      "Researchers associated to the dataset's associated publication. Note: in most cases, these would be the same as the dataset authors.",
    ],
    [
      'score',
      'float',
      'n',
      'Relevance of the record to the query\'s full-text search, higher is more relevant (only with `for "..."`; `sort by score` is `sort by relevance`).',
    ],
    ['title', 'string', '', 'Title of the dataset.'],
    ['year', 'integer', 'fc', 'Year of publication of the dataset.'],
  ],
  aliases: [
    {
      row: ['category_for_2020', 'categories', 'fcm', 'Fields of Research (ANZSRC 2020) codes.'],
      readsFrom: 'category_for',
    },
  ],
  removedInV2: [
    {
      row: ['license', 'string', 'fc', 'The dataset licence name (version 1).'],
      replacement: 'license_name',
      readsFrom: 'license_name',
    },
  ],
  fieldsets: [
    {
      name: 'basics',
      description: 'Returned when no field list is given.',
      // The hosted basics seen in outputs: authors, id, title, year (2020 outputs also journal and keywords).
      fields: ['id', 'title', 'year', 'authors', 'journal', 'keywords'],
    },
    {
      name: 'categories',
      description: 'Every category_* field.',
      fields: [...DATASET_CATEGORY_FIELDS.map(([name]) => name), 'category_for_2020'],
    },
  ],
  searchIndexes: [
    { name: 'title_only', description: 'Titles.' },
    { name: 'title_abstract_only', description: 'Titles and descriptions.' },
    { name: 'full_data', description: 'All text fields: title, description, keywords and author names (the default).' },
  ],
  defaultIndex: 'full_data',
  indicators: ['count'],
  // Newest first by publication date, as publications: `date` is the dataset's main date and
  // every record has it (the year's first day when the source gives only a year).
  defaultOrder: { field: 'date', direction: 'desc' },
} as const satisfies SourceTable;

/** The `long_description` of the structured fields (spec/schema-2026.md §6.4). */
export const DATASETS_LONG_DESCRIPTIONS: Readonly<Record<string, string>> = {
  authors:
    'Returned objects contain: `name` and `orcid`, as the hosted service gives them, and where the source ' +
    'says: `first_name`, `last_name`, `researcher_id` and `affiliations` (each with `name`, and `id` when the ' +
    'organization is identified). Missing values are left out.',
};
