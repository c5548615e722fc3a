/**
 * The reports source (spec/schema-2026.md §7.9): its field table (`fields.ts`), its storage
 * and how a report record (`native.ts`) becomes rows, declared once. The registry
 * (`model/sources.ts`) lists it; the schema, both stores and the compiler derive from it.
 *
 * Four kinds of organizations are linked, each in a table of its own so the places read
 * through them stay apart (`publisher_orgs_countries` are the publishers' countries only):
 * research (the responsible ones and the authors' affiliations), responsible, publishing and
 * funding organizations. The 2026 schema gives reports no field naming publications, so a
 * report links none (policy documents do: `publication_ids`).
 */
import { byScheme, categoryKey, i, t } from '../../model/layout-parts.ts';
import {
  affiliationIds,
  categoryRows,
  conceptTexts,
  distinctIds,
  ids,
  joinNames,
  list,
  personName,
  text,
} from '../../model/record-values.ts';
import { defineSource } from '../../model/source-module.ts';
import { REPORTS, REPORTS_LONG_DESCRIPTIONS } from './fields.ts';

/** The places of the research organizations, keyed as the publications' are. */
const RESEARCH_ORGANIZATION_PLACES = {
  research_org_countries: 'country_code',
  research_org_cities: ['city_id', 'city_name'],
  research_org_states: 'state_code',
} as const;

/** The places of the responsible organizations. */
const RESPONSIBLE_ORGANIZATION_PLACES = {
  responsible_orgs_countries: 'country_code',
  responsible_orgs_cities: ['city_id', 'city_name'],
  responsible_orgs_states: 'state_code',
} as const;

export const reports = defineSource({
  name: 'reports',
  singular: 'report',
  refersTo: ['categories', 'organizations', 'researchers'],
  fieldTable: REPORTS,
  longDescriptions: REPORTS_LONG_DESCRIPTIONS,
  requiredFields: [
    ['title', 'string'],
    ['year', 'number'],
    ['date', 'string'],
  ],
  storage: {
    table: {
      table: 'reports',
      packedText: ['abstract'],
      keptApart: { abstract: 'report_abstracts' },
      columns: [
        t('title'),
        t('abstract'),
        t('doi'),
        i('year'),
        t('date'),
        t('date_inserted'),
        t('keywords'),
        t('linkout'),
      ],
      indexes: [['doi'], ['year'], ['date', 'id']],
      valueCounts: { year: 'report_year_counts' },
    },
    links: [
      {
        table: 'report_research_orgs',
        key: [t('org_id')],
        extra: [],
        reverse: ['org_id'],
        holds: { field: 'research_orgs' },
        readThrough: RESEARCH_ORGANIZATION_PLACES,
      },
      {
        table: 'report_responsible_orgs',
        key: [t('org_id')],
        extra: [],
        reverse: ['org_id'],
        holds: { field: 'responsible_orgs' },
        readThrough: RESPONSIBLE_ORGANIZATION_PLACES,
      },
      {
        table: 'report_publisher_orgs',
        key: [t('org_id')],
        extra: [],
        reverse: ['org_id'],
        holds: { field: 'publisher_orgs' },
        readThrough: { publisher_orgs_countries: 'country_code' },
      },
      {
        table: 'report_funder_orgs',
        key: [t('org_id')],
        extra: [],
        reverse: ['org_id'],
        holds: { field: 'funder_orgs' },
        readThrough: { funder_orgs_countries: 'country_code' },
      },
      {
        table: 'report_categories',
        key: categoryKey,
        extra: [],
        reverse: ['scheme', 'category_id'],
        holds: byScheme,
      },
    ],
    fullText: {
      table: 'reports_fts',
      columns: ['title', 'abstract', 'concepts', 'keywords', 'authors'],
      indexes: {
        full_data: ['title', 'abstract', 'concepts', 'keywords', 'authors'],
        title_abstract_only: ['title', 'abstract'],
        concepts: ['concepts'],
      },
    },
  },
  rows: {
    links: (record) => ({
      // The responsible organizations and the authors' affiliations, as the schema's description says.
      report_research_orgs: ids(
        distinctIds(record['research_orgs'], record['responsible_orgs'], affiliationIds(list(record['authors']))),
      ),
      report_responsible_orgs: ids(distinctIds(record['responsible_orgs'])),
      report_publisher_orgs: ids(distinctIds(record['publisher_orgs'])),
      report_funder_orgs: ids(distinctIds(record['funder_orgs'])),
      report_categories: categoryRows(record),
    }),
    fullText: (record) => [
      text(record['title']),
      text(record['abstract']),
      conceptTexts(record).join(' ; '),
      text(record['keywords']),
      joinNames(list(record['authors']).map(personName)),
    ],
    namedCategories: true,
  },
});
