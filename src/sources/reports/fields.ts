/**
 * The field table of `reports` (spec/schema-2026.md §7.9): every field of the current schema
 * with the hosted service's descriptions (`Dimensions` and `GRID` left out, the ones the spec
 * cuts short completed), fieldsets (§5), search indexes (§3) and indicators (§4), and the
 * `long_description` of its structured fields.
 */
import { CATEGORY_FIELDS, CONCEPTS_SCORES } from '../../model/shared-fields.ts';
import type { SourceTable } from '../../model/field-table.ts';

export const REPORTS = {
  description: 'Reports: grey literature issued by organizations (technical, research and working papers).',
  fields: [
    ['abstract', 'string', '', 'The abstract of the report.'],
    [
      'authors',
      'json',
      'f',
      'Ordered list of authors names and their affiliations, as they appear in the source. The list can include researcher and organization identifiers, where they are known.',
    ],
    ...CATEGORY_FIELDS,
    [
      'concepts',
      'json',
      'f',
      'Concepts describing the main topics of the report (note: automatically derived from the text using machine learning).',
    ],
    ['concepts_scores', 'json', 'f', 'Relevancy scores for `concepts`.'],
    ['date', 'date', 'f', "Date when the report was published, in the format 'YYYY-MM-DD'."],
    [
      'date_inserted',
      'date',
      'f',
      'Date the record was added to this deployment (note: only range filters, e.g. `<=` or `>=`, are meaningful).',
    ],
    ['doi', 'string', 'f', 'Digital object identifier.'],
    ['external_ids', 'json', 'f', 'External identifiers available from the report publisher (e.g. OSTI ID).'],
    ['funder_details', 'json', 'f', 'Sponsors/funders of the research/report, as they appear in the source.'],
    ['funder_orgs', 'organizations', 'fcm', 'Organizations funding the report (only disambiguated).'],
    ['funder_orgs_countries', 'countries', 'fcm', 'Countries of the organizations funding the report.'],
    [
      'id',
      'string',
      'f',
      'Quarry report identifier (the source’s id, e.g. the OpenAlex work id, or `doi:` and the DOI).',
    ],
    ['keywords', 'string', 'f', 'Keywords, as provided by the source.'],
    ['linkout', 'string', '', 'Original URL for the report.'],
    ['publisher_details', 'json', 'f', 'Organizations publishing the report, as they appear in the source.'],
    ['publisher_orgs', 'organizations', 'fcm', 'Organizations publishing the report (only disambiguated).'],
    ['publisher_orgs_countries', 'countries', 'fcm', 'Countries of the organizations publishing the report.'],
    [
      'research_org_cities',
      'cities',
      'fcm',
      'Cities of the organisations associated with the report, expressed as GeoNames ID and name.',
    ],
    [
      'research_org_countries',
      'countries',
      'fcm',
      'Countries of the organisations associated with the report, expressed as GeoNames code and name.',
    ],
    [
      'research_org_states',
      'states',
      'fcm',
      'States of the organisations associated with the report, expressed as GeoNames codes (ISO-3166-2).',
    ],
    [
      'research_orgs',
      'organizations',
      'fcm',
      'Combined list of organisations associated with the report, because the source marks them as responsible for it, or because they appear as author affiliations.',
    ],
    [
      'responsible_orgs',
      'organizations',
      'fcm',
      'Organizations responsible for the report. Note: this can be different from the author affiliations.',
    ],
    [
      'responsible_orgs_cities',
      'cities',
      'fcm',
      'Cities of the organisations responsible for the report, expressed as GeoNames ID and name.',
    ],
    [
      'responsible_orgs_countries',
      'countries',
      'fcm',
      'Countries of the organisations responsible for the report, expressed as GeoNames code and name.',
    ],
    [
      'responsible_orgs_details',
      'json',
      'f',
      'Organizations responsible for the report, as they appear in the source. Note: this can be different from the author affiliations.',
    ],
    [
      'responsible_orgs_states',
      'states',
      'fcm',
      'States of the organisations responsible for the report, expressed as GeoNames codes (ISO-3166-2).',
    ],
    [
      'score',
      'float',
      'n',
      'Relevance of the record to the query\'s full-text search, higher is more relevant (only with `for "..."`; `sort by score` is `sort by relevance`).',
    ],
    ['title', 'string', '', 'Title of a report.'],
    [
      'year',
      'integer',
      'fc',
      'Year when the report was published (note: when the `date` field is available, this is equal to the year part of the full date).',
    ],
  ],
  aliases: [
    {
      row: ['category_for_2020', 'categories', 'fcm', 'Fields of Research (ANZSRC 2020) codes.'],
      readsFrom: 'category_for',
    },
  ],
  // Reports came with version 2's schema (2021): no field of theirs was version-1-only.
  removedInV2: [],
  fieldsets: [
    {
      // The hosted membership is not observed (spec §5): what identifies and cites a report.
      name: 'basics',
      description: 'Returned when no field list is given.',
      fields: ['id', 'title', 'year', 'date', 'doi', 'authors', 'publisher_orgs', 'linkout'],
    },
    {
      name: 'categories',
      description: 'Every category_* field.',
      fields: [...CATEGORY_FIELDS.map(([name]) => name), 'category_for_2020'],
    },
  ],
  searchIndexes: [
    { name: 'title_abstract_only', description: 'Titles and abstracts.' },
    { name: 'concepts', description: 'The concepts of the report.' },
    {
      name: 'full_data',
      description: 'All text fields (the default): title, abstract, concepts, keywords and author names.',
    },
  ],
  defaultIndex: 'full_data',
  indicators: ['count'],
  // Newest first by publication date, as publications: every record has a date (the year's
  // first day when the source gives only a year).
  defaultOrder: { field: 'date', direction: 'desc' },
} as const satisfies SourceTable;

/** The `long_description` of the structured fields (spec/schema-2026.md §6.4). */
export const REPORTS_LONG_DESCRIPTIONS: Readonly<Record<string, string>> = {
  authors:
    'Returned objects contain, in byline order: `first_name`, `last_name`, `researcher_id` (when the author is ' +
    'an identified researcher), `orcid`, and `affiliations` (each with `name`, and `id` when the organization is ' +
    'identified). Missing values are left out.',
  concepts: 'A list of the concepts (strings), most relevant first.',
  concepts_scores: CONCEPTS_SCORES,
  external_ids: 'An object: identifier type (`doi`, `osti`, `openalex`, `mag`, ...) → the identifier.',
  funder_details:
    'Returned objects contain: `name` as the source writes it, `id` when the funder is an identified ' +
    'organization, and `award` (the award numbers). Missing values are left out.',
  publisher_details:
    'Returned objects contain: `name` as the source writes it, and `id` when the publisher is an identified ' +
    'organization.',
  responsible_orgs_details:
    'Returned objects contain: `name` as the source writes it, and `id` when the organization is identified.',
};
