/**
 * The patents source (spec/schema-2026.md §7.5): its field table (`fields.ts`), its storage
 * as `LAYOUT.md` proposes it, and how a patent record (`native.ts`) becomes rows, declared
 * here once. The registry (`model/sources.ts`) lists it; the schema, both stores and the
 * compiler derive from it.
 */
import { byFieldCode, byScheme, categoryKey, i, t, valueKey } from '../../model/layout-parts.ts';
import {
  categoryRows,
  distinctIds,
  ids,
  joinNames,
  list,
  personIds,
  personName,
  text,
  valueRows,
  type LooseRecord,
  type SqlValue,
} from '../../model/record-values.ts';
import { defineSource } from '../../model/source-module.ts';
import type { InternedValues, LinkHolds } from '../../model/storage-types.ts';
import { PATENT_LONG_DESCRIPTIONS, PATENTS } from './fields.ts';

/**
 * The stored codes of `patent_values` fields (`SourceStorage.valueFieldCodes`). New fields
 * take codes of the block 40–59; `funder_countries` keeps the code it was first given (13,
 * the publications' and grants' before they read it through their funders).
 */
const VALUE_FIELD_CODES = {
  cpc: '40',
  ipcr: '41',
  inventor_names: '42',
  assignee_names: '43',
  original_assignee_names: '44',
  current_assignee_names: '45',
  assignee_cities: '46',
  assignee_countries: '47',
  assignee_state_codes: '48',
  funder_countries: '13',
  additional_filters: '49',
};

/** The role of a `patent_assignee_orgs` row: who owned the patent when. */
const ASSIGNEE_ROLES = { original_assignees: 'o', current_assignees: 'c' } as const;

/** The category schemes patents carry: all but `category_sdg` and `category_uoa` (§7.5). */
const PATENT_FIELDS = new Set<string>(PATENTS.fields.map(([name]) => name));
const bySchemeOfPatents: LinkHolds = {
  discriminator: 'scheme',
  fields: Object.fromEntries(
    'fields' in byScheme ? Object.entries(byScheme.fields).filter(([field]) => PATENT_FIELDS.has(field)) : [],
  ),
};

/**
 * The patents' cited patents, interned: 20–90 citations a grant in the samples, each id
 * (`US-11617522-B2`) in every row and again in the reverse index otherwise. Their own
 * vocabulary, apart from the publications' `cited_ids`: a patent and a publication id never
 * name the same record.
 */
const CITED_PATENT_IDS: InternedValues = { table: 'cited_patent_ids', column: 'cited_id', replaced: 'cited_id' };

/** The names of the assignees, as written: current and original, each once. */
function assigneeNames(record: LooseRecord): string[] {
  const names = new Set<string>();
  for (const field of ['assignee_names', 'original_assignee_names', 'current_assignee_names'])
    for (const name of list(record[field])) if (text(name) !== '') names.add(text(name));
  return [...names];
}

/** The inventors' names: from the `inventors` objects, else `inventor_names`. */
function inventorNames(record: LooseRecord): string[] {
  const people = list(record['inventors']).map(personName);
  return people.some((n) => n !== '') ? people : list(record['inventor_names']).map(text);
}

/** The year of a `YYYY-MM-DD` date, for a record that gives the date without its year. */
const yearOf =
  (field: string) =>
  (record: LooseRecord): number | null | undefined =>
    typeof record[field] === 'string' ? Number(record[field].slice(0, 4)) || null : undefined;

export const patents = defineSource({
  name: 'patents',
  singular: 'patent',
  refersTo: ['categories', 'organizations', 'researchers', 'grants', 'publications'],
  fieldTable: PATENTS,
  longDescriptions: PATENT_LONG_DESCRIPTIONS,
  requiredFields: [
    ['title', 'string'],
    ['publication_date', 'string'],
  ],
  importFormats: {
    uspto: 'USPTO patent XML: weekly grant or application zips (ipgb*.zip, ipg*.zip, ipa*.zip) or .xml files',
    patentsview: 'PatentsView bulk tables (g_patent.tsv and the others, plain, .gz or .zip), read together',
  },
  storage: {
    table: {
      table: 'patents',
      packedText: ['abstract'],
      keptApart: { abstract: 'patent_abstracts' },
      columns: [
        t('title'),
        t('abstract'),
        t('jurisdiction'),
        t('kind'),
        t('filing_status'),
        t('application_number'),
        t('date'),
        i('year'),
        t('priority_date'),
        i('priority_year'),
        t('publication_date'),
        i('publication_year'),
        t('granted_date'),
        i('granted_year'),
        t('expiration_date'),
        t('legal_status'),
        i('family_id'),
        i('family_count'),
        i('claims_amount'),
        // Derived by finish() where the record has none: held patents citing it.
        i('times_cited'),
        t('date_inserted'),
        t('dimensions_url'),
      ],
      indexes: [
        ['publication_date', 'id'],
        ['year'],
        ['publication_year'],
        ['granted_year'],
        ['priority_year'],
        ['jurisdiction'],
        ['kind'],
        ['family_id'],
        ['times_cited'],
        ['application_number'],
      ],
      // Whole-source facets of these read their counts (at 1M patents, 200-300 ms grouping
      // the narrow rows otherwise); family_id, about one family per two patents, does not.
      valueCounts: {
        year: 'patent_year_counts',
        publication_year: 'patent_publication_year_counts',
        priority_year: 'patent_priority_year_counts',
        family_count: 'patent_family_count_counts',
        times_cited: 'patent_times_cited_counts',
      },
      narrow: {
        table: 'patents_narrow',
        columns: [
          'id',
          'year',
          'publication_year',
          'granted_year',
          'priority_year',
          'publication_date',
          'jurisdiction',
          'kind',
          'times_cited',
          'family_id',
          'family_count',
        ],
        counts: {
          researchers: 'n_researchers',
          assignees: 'n_assignees',
          funders: 'n_funders',
          reference_ids: 'n_reference_ids',
          publication_ids: 'n_publication_ids',
        },
        indexes: [['year'], ['publication_year'], ['granted_year'], ['jurisdiction'], ['kind']],
      },
    },
    links: [
      {
        table: 'patent_researchers',
        key: [t('researcher_id')],
        extra: [],
        reverse: ['researcher_id'],
        holds: { field: 'researchers' },
        postings: { table: 'patent_researchers_postings', column: 'patent_pks' },
      },
      {
        // The union of the original and the current assignees (the schema's `assignees`).
        table: 'patent_assignees',
        key: [t('org_id')],
        extra: [],
        reverse: ['org_id'],
        holds: { field: 'assignees' },
      },
      {
        table: 'patent_assignee_orgs',
        key: [t('role'), t('org_id')],
        extra: [],
        reverse: ['role', 'org_id'],
        holds: { discriminator: 'role', fields: ASSIGNEE_ROLES },
      },
      {
        table: 'patent_funders',
        key: [t('org_id')],
        extra: [],
        reverse: ['org_id'],
        holds: { field: 'funders' },
      },
      {
        table: 'patent_grants',
        key: [t('grant_id')],
        extra: [],
        reverse: ['grant_id'],
        holds: { field: 'associated_grant_ids' },
      },
      {
        table: 'patent_publications',
        key: [t('publication_id')],
        extra: [],
        reverse: ['publication_id'],
        holds: { field: 'publication_ids', idsOf: 'publications' },
      },
      {
        table: 'patent_categories',
        key: categoryKey,
        extra: [],
        reverse: ['scheme', 'category_id'],
        holds: bySchemeOfPatents,
      },
      {
        table: 'patent_references',
        key: [i('cited_key')],
        extra: [],
        reverse: ['cited_key'],
        holds: { field: 'reference_ids' },
        interned: CITED_PATENT_IDS,
        postings: { table: 'patent_references_postings', column: 'patent_pks' },
        listed: { table: 'patent_references_lists', column: 'cited_keys' },
      },
      {
        table: 'patent_values',
        key: valueKey,
        extra: [],
        reverse: ['field', 'value'],
        holds: byFieldCode(VALUE_FIELD_CODES),
      },
    ],
    fullText: {
      table: 'patents_fts',
      columns: ['title', 'abstract', 'claims', 'assignees', 'inventors', 'federal_support'],
      indexes: {
        full_data: ['title', 'abstract', 'claims', 'assignees', 'inventors', 'federal_support'],
        title_only: ['title'],
        title_abstract_only: ['title', 'abstract'],
        title_abstract_claims: ['title', 'abstract', 'claims'],
        assignees: ['assignees'],
        inventors: ['inventors'],
      },
    },
    valueFieldCodes: VALUE_FIELD_CODES,
  },
  rows: {
    links: (record) => {
      const roles: SqlValue[][] = Object.entries(ASSIGNEE_ROLES).flatMap(([field, role]) =>
        distinctIds(record[field]).map((id) => [role, id]),
      );
      return {
        patent_researchers: ids(distinctIds(record['researchers'], personIds(list(record['inventors'])))),
        patent_assignees: ids(
          distinctIds(record['assignees'], record['original_assignees'], record['current_assignees']),
        ),
        patent_assignee_orgs: roles,
        patent_funders: ids(distinctIds(record['funders'])),
        patent_grants: ids(distinctIds(record['associated_grant_ids'])),
        // The held publications it cites: by id, and the ids of its `publications` links.
        patent_publications: ids(distinctIds(record['publication_ids'], record['publications'])),
        patent_categories: categoryRows(record),
        patent_references: ids(distinctIds(record['reference_ids'])),
        patent_values: valueRows(record, VALUE_FIELD_CODES),
      };
    },
    fullText: (record) => [
      text(record['title']),
      text(record['abstract']),
      text(record['claims_text']),
      assigneeNames(record).join(' ; '),
      joinNames(inventorNames(record)),
      list(record['federal_support']).map(text).join(' ; '),
    ],
    columnFallbacks: {
      year: yearOf('date'),
      priority_year: yearOf('priority_date'),
      publication_year: yearOf('publication_date'),
      granted_year: yearOf('granted_date'),
    },
    // References are held only in their link table (and shown from it); the claims' text only
    // in the full text; `unmatched` is the matchers' input, no field.
    notInDoc: ['reference_ids', 'claims_text', 'unmatched'],
    namedCategories: true,
  },
});
