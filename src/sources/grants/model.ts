/**
 * The grants source (spec/data-model.md, "grants"): its field table, its storage and how a
 * grant record becomes rows, declared once. The registry (`model/sources.ts`) lists it.
 */
import {
  CONCEPT_NAMES,
  FUNDER_ORGANIZATION_FIELDS,
  RESEARCH_ORGANIZATION_FIELDS,
  RESEARCH_ORGANIZATION_TYPES,
  byFieldCode,
  byScheme,
  categoryKey,
  i,
  r,
  t,
  valueKey,
} from '../../model/layout-parts.ts';
import type { SourceTable } from '../../model/field-table.ts';
import {
  affiliationIds,
  categoryRows,
  conceptRows,
  conceptTexts,
  distinctIds,
  idOf,
  ids,
  joinNames,
  list,
  personIds,
  personName,
  rawAffiliationTexts,
  text,
  valueRows,
  type LooseRecord,
} from '../../model/record-values.ts';
import { CATEGORY_FIELDS, CATEGORY_FIELD_NAMES, CONCEPTS_SCORES } from '../../model/shared-fields.ts';
import { defineSource } from '../../model/source-module.ts';

/** spec/data-model.md, "grants". */
const FIELDS = {
  description: 'Research grants awarded by funders.',
  fields: [
    ['abstract', 'string', '', 'Abstract of the funded project.'],
    ['active_status', 'string', 'fc', 'Whether the grant is running (Active) or has ended (Closed).'],
    ['active_year', 'integer', 'fcm', 'Years in which the grant is active.'],
    ...CATEGORY_FIELDS,
    ['concepts', 'json', 'f', 'Concepts extracted from title and abstract, most relevant first.'],
    ['concepts_scores', 'json', 'f', 'Concepts with their relevance scores.'],
    ['date_inserted', 'date', 'f', 'Date the record was added to this deployment.'],
    ['dimensions_url', 'string', '', 'Link to the record on the web.'],
    ['end_date', 'date', 'f', 'End date (YYYY-MM-DD).'],
    ['foa_number', 'string', 'f', 'Funding opportunity announcement number.'],
    ['funder_countries', 'countries', 'fcm', 'Countries of the funders.'],
    ['funder_org_cities', 'cities', 'fcm', 'Cities of the funding organizations.'],
    ['funder_org_states', 'states', 'fcm', 'States of the funding organizations.'],
    ['funders', 'organizations', 'fcm', 'Funding organizations.'],
    ['funding_aud', 'float', 'f', 'Funding amount in AUD.'],
    ['funding_cad', 'float', 'f', 'Funding amount in CAD.'],
    ['funding_chf', 'float', 'f', 'Funding amount in CHF.'],
    ['funding_cny', 'float', 'f', 'Funding amount in CNY.'],
    ['funding_currency', 'string', 'fc', 'Currency of the original funding amount.'],
    ['funding_eur', 'float', 'f', 'Funding amount in EUR.'],
    ['funding_gbp', 'float', 'f', 'Funding amount in GBP.'],
    ['funding_jpy', 'float', 'f', 'Funding amount in JPY.'],
    ['funding_nzd', 'float', 'f', 'Funding amount in NZD.'],
    ['funding_org_acronym', 'string', 'fc', 'Acronym of the funding organization.'],
    ['funding_org_city', 'string', 'fc', 'City of the funding organization.'],
    ['funding_org_name', 'string', 'fc', 'Name of the funding organization.'],
    ['funding_schemes', 'string', 'fm', 'Funding schemes, programmes or mechanisms the funder files the grant under.'],
    ['funding_usd', 'float', 'f', 'Funding amount in USD.'],
    ['grant_number', 'string', 'f', "The funder's grant number."],
    ['id', 'string', 'f', 'Quarry grant identifier.'],
    ['investigators', 'json', 'f', 'Investigators: first_name, last_name, role, researcher_id, affiliations.'],
    ['keywords', 'string', 'fcm', 'Keywords given by the funder.'],
    ['language', 'string', 'fc', 'Language of the grant text.'],
    ['language_title', 'string', 'fc', 'Language of the title.'],
    ['linkout', 'string', '', "Link to the grant at the funder's site."],
    ['original_title', 'string', '', 'Title in the original language.'],
    [
      'project_numbers',
      'json',
      'f',
      'Grant identifiers as the funder or aggregator gives them: objects with `label` and `value`.',
    ],
    ['research_org_cities', 'cities', 'fcm', 'Cities of the research organizations.'],
    ['research_org_countries', 'countries', 'fcm', 'Countries of the research organizations.'],
    ['research_org_names', 'string', 'fm', 'Names of the research organizations.'],
    ['research_org_state_codes', 'states', 'fcm', 'States of the research organizations.'],
    ['research_org_types', 'string', 'fcm', 'Types of the research organizations (Education, Healthcare, ...).'],
    ['research_orgs', 'organizations', 'fcm', 'Distinct organizations of the investigators’ affiliations.'],
    ['researchers', 'researchers', 'fcm', 'Distinct identified researchers among the investigators.'],
    [
      'score',
      'float',
      'n',
      'Relevance of the record to the query\'s full-text search, higher is more relevant (only with `for "..."`; `sort by score` is `sort by relevance`).',
    ],
    ['start_date', 'date', 'f', 'Start date (YYYY-MM-DD).'],
    ['start_year', 'integer', 'fc', 'Year the grant starts.'],
    ['title', 'string', '', 'Title.'],
  ],
  aliases: [
    {
      row: ['category_for_2020', 'categories', 'fcm', 'Fields of Research (ANZSRC 2020) codes.'],
      readsFrom: 'category_for',
    },
    {
      row: ['funder_org_acronym', 'string', 'fc', 'Acronym of the funding organization.'],
      readsFrom: 'funding_org_acronym',
    },
    {
      row: ['funder_org_countries', 'countries', 'fcm', 'Countries of the funding organizations.'],
      readsFrom: 'funder_countries',
    },
    { row: ['funder_org_name', 'string', 'fc', 'Name of the funding organization.'], readsFrom: 'funding_org_name' },
    { row: ['funder_orgs', 'organizations', 'fcm', 'Funding organizations.'], readsFrom: 'funders' },
  ],
  // Dropped by the hosted service in 2021 for publications' `supporting_grant_ids`, which it
  // reads the other way round; real queries still ask for it (spec/schema-2026.md §8.1).
  deprecatedFields: [
    {
      row: [
        'resulting_publication_ids',
        'string',
        'fm',
        'Publications resulting from the grant: the held publications whose supporting_grant_ids name it.',
      ],
      replacement: 'publications.supporting_grant_ids',
    },
  ],
  removedInV2: [
    {
      row: ['FOR', 'categories', 'fcm', 'Fields of Research codes (version 1).'],
      replacement: 'category_for',
      readsFrom: 'category_for',
    },
    {
      row: ['FOR_first', 'categories', 'fcm', 'Top-level (two-digit) Fields of Research codes (version 1).'],
      replacement: 'category_for',
      readsFrom: 'category_for',
      derivation: 'first-level',
    },
    {
      row: ['RCDC', 'categories', 'fcm', 'RCDC categories (version 1).'],
      replacement: 'category_rcdc',
      readsFrom: 'category_rcdc',
    },
    {
      row: ['HRCS_HC', 'categories', 'fcm', 'HRCS Health Categories (version 1).'],
      replacement: 'category_hrcs_hc',
      readsFrom: 'category_hrcs_hc',
    },
    {
      row: ['HRCS_RAC', 'categories', 'fcm', 'HRCS Research Activity Codes (version 1).'],
      replacement: 'category_hrcs_rac',
      readsFrom: 'category_hrcs_rac',
    },
    { row: ['terms', 'string', 'm', 'Extracted terms (version 1).'], replacement: 'concepts', readsFrom: 'concepts' },
    {
      row: ['investigators_details', 'json', 'f', 'Investigators with their details (version 1).'],
      replacement: 'investigators',
      readsFrom: 'investigators',
    },
    {
      row: ['investigator_details', 'json', 'f', 'Investigators with their details (version 1).'],
      replacement: 'investigators',
      readsFrom: 'investigators',
    },
    {
      row: ['research_org_name', 'string', 'fm', 'Names of the research organizations (version 1).'],
      replacement: 'research_orgs',
      readsFrom: 'research_org_names',
    },
    {
      row: ['project_num', 'string', 'f', "The funder's grant number (version 1)."],
      replacement: 'grant_number',
      readsFrom: 'grant_number',
    },
    {
      row: ['title_language', 'string', 'fc', 'Language of the title (version 1).'],
      replacement: 'language_title',
      readsFrom: 'language_title',
    },
  ],
  fieldsets: [
    {
      name: 'basics',
      description: 'Returned when no field list is given (the current schema basics).',
      fields: [
        'id',
        'title',
        'original_title',
        'language',
        'active_year',
        'start_date',
        'end_date',
        'start_year',
        'funder_orgs',
        'funder_org_name',
        'grant_number',
      ],
    },
    {
      name: 'extras',
      description: 'Scalar indicators and identifiers.',
      fields: [
        'grant_number',
        'foa_number',
        'start_year',
        'funding_currency',
        'funding_aud',
        'funding_cad',
        'funding_chf',
        'funding_eur',
        'funding_gbp',
        'funding_jpy',
        'funding_nzd',
        'dimensions_url',
        'linkout',
      ],
    },
    {
      name: 'categories',
      description: 'Every category_* field.',
      fields: [...CATEGORY_FIELD_NAMES, 'category_for_2020'],
    },
  ],
  searchIndexes: [
    { name: 'title_only', description: 'Titles.' },
    { name: 'title_abstract_only', description: 'Titles and abstracts.' },
    { name: 'concepts', description: 'Extracted concepts.' },
    {
      name: 'raw_affiliations',
      description:
        "The investigators' affiliations as the funder writes them (the affiliation's name where no other string is given).",
    },
    {
      name: 'investigators',
      description: 'Investigator names, matched as phrases in either order.',
      personNames: true,
    },
    { name: 'full_data', description: 'All text fields (the default).' },
  ],
  defaultIndex: 'full_data',
  indicators: ['count', 'funding'],
  defaultOrder: { field: 'start_date', direction: 'desc' },
} as const satisfies SourceTable;

/** The stored codes of `grant_values` fields (`SourceStorage.valueFieldCodes`). */
const VALUE_FIELD_CODES = { active_year: '14' };

/** A grant's active years from its start and end dates, when the record does not list them. */
function activeYears(record: LooseRecord): number[] {
  const year = (v: unknown): number | undefined => {
    const n = typeof v === 'number' ? v : typeof v === 'string' ? Number(v.slice(0, 4)) : NaN;
    return Number.isInteger(n) && n > 0 ? n : undefined;
  };
  const start = year(record['start_year']) ?? year(record['start_date']);
  if (start === undefined) return [];
  const end = Math.max(start, Math.min(year(record['end_date']) ?? start, start + 50));
  return Array.from({ length: end - start + 1 }, (_, k) => start + k);
}

/**
 * The `raw_affiliations` index's text: the investigators' affiliation strings as the funder
 * gives them, or an affiliation's name where the investigator has none.
 *
 * @example rawAffiliationsText({ investigators: [{ affiliations: [{ name: 'Univ. of Y' }] }] }) // 'Univ. of Y'
 */
export function rawAffiliationsText(record: LooseRecord): string {
  return [...new Set(rawAffiliationTexts(record['investigators']))].join(' ; ');
}

export const grants = defineSource({
  name: 'grants',
  singular: 'grant',
  refersTo: ['categories', 'organizations', 'researchers'],
  fieldTable: FIELDS,
  requiredFields: [['title', 'string']],
  longDescriptions: {
    concepts_scores: CONCEPTS_SCORES,
    investigators:
      'Returned objects contain: `first_name`, `middle_name`, `last_name`, `role` (e.g. PI, Co-PI), `researcher_id` ' +
      'and `affiliations` (each with `id`, `name`, `city`, `city_id`, `country`, `country_code`, `state`, `state_code`).',
    project_numbers:
      'A list of objects with `label` (what kind of number: `project_number`, `core_project_number`, ' +
      "or the funder's own name for it) and `value` (the number as the source gives it).",
  },
  storage: {
    table: {
      table: 'grants',
      packedText: ['abstract'],
      keptApart: { abstract: 'grant_abstracts' },
      columns: [
        t('title'),
        t('abstract'),
        t('original_title'),
        t('language'),
        t('language_title'),
        t('grant_number'),
        t('foa_number'),
        t('start_date'),
        t('end_date'),
        i('start_year'),
        t('date_inserted'),
        r('funding_usd'),
        r('funding_aud'),
        r('funding_cad'),
        r('funding_chf'),
        r('funding_eur'),
        r('funding_gbp'),
        r('funding_jpy'),
        r('funding_nzd'),
        t('funding_currency'),
        t('funding_org_id'),
        t('funding_org_name'),
        t('funding_org_acronym'),
        t('funding_org_city'),
        t('linkout'),
        t('dimensions_url'),
      ],
      indexes: [['start_year'], ['start_date', 'id'], ['funding_org_id'], ['grant_number']],
      narrow: {
        table: 'grants_narrow',
        columns: ['id', 'start_year', 'start_date', 'funding_usd', 'funding_org_id', 'language'],
        counts: {
          researchers: 'n_researchers',
          research_orgs: 'n_research_orgs',
          funders: 'n_funders',
          concepts: 'n_concepts',
        },
        indexes: [['start_year'], ['funding_org_id']],
      },
      perYear: {
        function: 'funding_per_year',
        fresh: 'per_year_grants',
        // A grant's funded years (its active years, or its start year when it lists none):
        // `years` is how many it has, so a year's share of an amount is `amount * shares / years`
        // (`shares` is 1 unless one year is listed twice).
        byRecord: { table: 'grant_funding_years', columns: [i('shares'), i('years')] },
        // Per currency with a column of its own (`funding_usd`: `USD`), the whole corpus's sum.
        corpus: { table: 'funding_by_year', key: [t('currency')], columns: [r('amount')] },
      },
    },
    links: [
      {
        table: 'grant_researchers',
        key: [t('researcher_id')],
        extra: [],
        reverse: ['researcher_id'],
        holds: { field: 'researchers', countedIn: 'n_grants' },
        postings: { table: 'grant_researchers_postings', column: 'grant_pks' },
      },
      {
        table: 'grant_research_orgs',
        key: [t('org_id')],
        extra: [],
        reverse: ['org_id'],
        holds: { field: 'research_orgs', countedIn: 'n_grants' },
        readThrough: { ...RESEARCH_ORGANIZATION_FIELDS, ...RESEARCH_ORGANIZATION_TYPES },
      },
      {
        table: 'grant_funders',
        key: [t('org_id')],
        extra: [],
        reverse: ['org_id'],
        holds: { field: 'funders', countedIn: 'n_funded_grants' },
        readThrough: FUNDER_ORGANIZATION_FIELDS,
      },
      {
        table: 'grant_categories',
        key: categoryKey,
        extra: [],
        reverse: ['scheme', 'category_id'],
        holds: byScheme,
      },
      {
        table: 'grant_concepts',
        key: [i('concept_id')],
        extra: [],
        dropped: [r('score')],
        reverse: ['concept_id'],
        holds: { field: 'concepts' },
        interned: CONCEPT_NAMES,
        postings: { table: 'grant_concepts_postings', column: 'grant_pks' },
        listed: { table: 'grant_concepts_lists', column: 'concept_ids' },
      },
      {
        table: 'grant_values',
        key: valueKey,
        extra: [],
        reverse: ['field', 'value'],
        holds: byFieldCode(VALUE_FIELD_CODES),
      },
    ],
    reverseLinks: [
      { view: 'grant_resulting_publications', field: 'resulting_publication_ids', of: 'publication_grants' },
    ],
    fullText: {
      table: 'grants_fts',
      columns: ['title', 'abstract', 'concepts', 'investigators'],
      indexes: {
        full_data: ['title', 'abstract', 'concepts', 'investigators'],
        title_only: ['title'],
        title_abstract_only: ['title', 'abstract'],
        concepts: ['concepts'],
        investigators: ['investigators'],
        raw_affiliations: ['raw_affiliations'],
      },
      // The `raw_affiliations` index came after the table (records migrations 31 and
      // PostgreSQL 23, which fill it from the records held); `full_data` keeps to the columns
      // it had, as publications' does.
      apart: { table: 'grants_fts_apart', columns: ['raw_affiliations'] },
    },
    valueFieldCodes: VALUE_FIELD_CODES,
  },
  rows: {
    links: (record) => {
      const investigators = list(record['investigators']);
      // Active years from the dates when the record lists none, before those it lists.
      const derivedYears = Array.isArray(record['active_year'])
        ? []
        : activeYears(record).map((year) => [VALUE_FIELD_CODES.active_year, year]);
      return {
        grant_researchers: ids(distinctIds(record['researchers'], personIds(investigators))),
        grant_research_orgs: ids(distinctIds(record['research_orgs'], affiliationIds(investigators))),
        grant_funders: ids(distinctIds(record['funders'], record['funding_org_id'])),
        grant_categories: categoryRows(record),
        grant_concepts: conceptRows(record),
        grant_values: [...derivedYears, ...valueRows(record, VALUE_FIELD_CODES)],
      };
    },
    fullText: (record) => [
      [text(record['title']), text(record['original_title'])].join(' ; '),
      text(record['abstract']),
      conceptTexts(record).join(' ; '),
      joinNames(list(record['investigators']).map(personName)),
      rawAffiliationsText(record),
    ],
    columnFallbacks: {
      funding_org_id: (record) => (Array.isArray(record['funders']) ? idOf(record['funders'][0]) : undefined),
      start_year: (record) =>
        typeof record['start_date'] === 'string' ? Number(record['start_date'].slice(0, 4)) || null : undefined,
    },
    namedCategories: true,
  },
});
