/**
 * The field table of `policy_documents` (spec/schema-2026.md §7.8): every field of the current
 * schema with the hosted service's descriptions (`Dimensions` and `GRID` left out), fieldsets
 * (§5), search indexes (§3) and indicators (§4).
 */
import { CATEGORY_FIELDS } from '../../model/shared-fields.ts';
import type { FieldRow, SourceTable } from '../../model/field-table.ts';

/** Policy documents are classified by every scheme but SDGs and units of assessment (§7.8). */
const POLICY_CATEGORY_FIELDS: readonly FieldRow[] = CATEGORY_FIELDS.filter(
  ([name]) => name !== 'category_sdg' && name !== 'category_uoa',
);

export const POLICY_DOCUMENTS = {
  description: 'Policy documents: guidelines, reports and briefs published by government and intergovernmental bodies.',
  fields: [
    ...POLICY_CATEGORY_FIELDS,
    [
      'date_inserted',
      'date',
      'f',
      'Date the record was added to this deployment (note: only range filters, e.g. `<=` or `>=`, are meaningful).',
    ],
    ['dimensions_url', 'string', '', 'Link to the record on the web.'],
    [
      'id',
      'string',
      'f',
      'Quarry policy document identifier (the source’s id, e.g. `policy.…` or an OpenAlex work id).',
    ],
    ['linkout', 'string', '', 'Original URL for the policy document.'],
    ['publication_ids', 'string', 'fm', 'Identifiers of the publications related to this policy document.'],
    [
      'publications',
      'publication_links',
      'fcm',
      'The publications related to this policy document, as links (`id`, `doi`, `pmid`, `pmcid`).',
    ],
    ['publisher_org', 'organizations', 'fc', 'Organization publishing the policy document.'],
    ['publisher_org_city', 'cities', 'fc', 'City of the organization publishing the policy document.'],
    ['publisher_org_country', 'countries', 'fc', 'Country of the organization publishing the policy document.'],
    ['publisher_org_state', 'states', 'fc', 'State of the organization publishing the policy document.'],
    [
      'score',
      'float',
      'n',
      'Relevance of the record to the query\'s full-text search, higher is more relevant (only with `for "..."`; `sort by score` is `sort by relevance`).',
    ],
    ['title', 'string', 'f', 'Title of the policy document.'],
    ['year', 'integer', 'fc', 'Year of publication of the policy document.'],
  ],
  aliases: [
    {
      row: ['category_for_2020', 'categories', 'fcm', 'Fields of Research (ANZSRC 2020) codes.'],
      readsFrom: 'category_for',
    },
  ],
  // `category_for_2008` (2022-2023) was never a version-1-only field.
  removedInV2: [],
  fieldsets: [
    {
      // Not observed directly (spec §5): outputs of `[basics+publication_ids+category_for]`
      // hold id, title, year and publisher_org.
      name: 'basics',
      description: 'Returned when no field list is given.',
      fields: ['id', 'title', 'year', 'publisher_org', 'linkout'],
    },
    {
      name: 'categories',
      description: 'Every category_* field.',
      fields: [...POLICY_CATEGORY_FIELDS.map(([name]) => name), 'category_for_2020'],
    },
  ],
  searchIndexes: [
    { name: 'title_only', description: 'Titles.' },
    {
      name: 'full_data',
      description: 'All text held of the document (the default): its title and its publisher’s name.',
    },
  ],
  defaultIndex: 'full_data',
  indicators: ['count'],
  // Newest first: `year` is the one date every policy document has; ties by id.
  defaultOrder: { field: 'year', direction: 'desc' },
} as const satisfies SourceTable;
