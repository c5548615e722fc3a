/**
 * The policy_documents source (spec/schema-2026.md §7.8): its field table (`fields.ts`), its
 * storage and how a policy document record (`native.ts`) becomes rows, declared once. The
 * registry (`model/sources.ts`) lists it; the schema, both stores and the compiler derive
 * from it.
 *
 * The publisher and its places are single entities, each an id column of the row: the
 * organization's display comes from `organizations`, the places' names from the tables
 * `finish()` derives from the organizations. The cited publications are a link table by id,
 * as patents' and clinical trials' are.
 */
import { CATEGORY_SCHEMES, categoryKey, i, t } from '../../model/layout-parts.ts';
import { categoryRows, distinctIds, idOf, ids, text } from '../../model/record-values.ts';
import { defineSource } from '../../model/source-module.ts';
import type { LinkHolds } from '../../model/storage-types.ts';
import { POLICY_DOCUMENTS } from './fields.ts';

/** The `category_<scheme>` fields of policy documents: every scheme but SDGs and units of assessment. */
const POLICY_SCHEMES: LinkHolds = {
  discriminator: 'scheme',
  fields: Object.fromEntries(
    CATEGORY_SCHEMES.filter((scheme) => scheme !== 'sdg' && scheme !== 'uoa').map((scheme) => [
      `category_${scheme}`,
      scheme,
    ]),
  ),
};

export const policyDocuments = defineSource({
  name: 'policy_documents',
  singular: 'policy_document',
  // Publications last: an import writes them before the documents citing them.
  refersTo: ['categories', 'organizations', 'publications'],
  fieldTable: POLICY_DOCUMENTS,
  requiredFields: [
    ['title', 'string'],
    ['year', 'number'],
  ],
  storage: {
    table: {
      table: 'policy_documents',
      columns: [
        t('title'),
        i('year'),
        t('date_inserted'),
        t('linkout'),
        t('dimensions_url'),
        t('publisher_org_id'),
        t('publisher_org_city_id'),
        t('publisher_org_country_id'),
        t('publisher_org_state_id'),
      ],
      indexes: [['year', 'id'], ['publisher_org_id'], ['publisher_org_country_id']],
      entityColumns: {
        publisher_org: { column: 'publisher_org_id', entity: 'organizations' },
        publisher_org_city: { column: 'publisher_org_city_id', entity: 'cities' },
        publisher_org_country: { column: 'publisher_org_country_id', entity: 'countries' },
        publisher_org_state: { column: 'publisher_org_state_id', entity: 'states' },
      },
      valueCounts: { year: 'policy_document_year_counts' },
    },
    links: [
      {
        // The held publications it cites: by id, and the ids of its `publications` links
        // (the links themselves stay in the document, with their DOIs and PMIDs).
        table: 'policy_document_publications',
        key: [t('publication_id')],
        extra: [],
        reverse: ['publication_id'],
        holds: { field: 'publication_ids', idsOf: 'publications' },
      },
      {
        table: 'policy_document_categories',
        key: categoryKey,
        extra: [],
        reverse: ['scheme', 'category_id'],
        holds: POLICY_SCHEMES,
      },
    ],
    fullText: {
      table: 'policy_documents_fts',
      columns: ['title', 'publisher'],
      indexes: {
        full_data: ['title', 'publisher'],
        title_only: ['title'],
      },
    },
  },
  rows: {
    links: (record) => ({
      policy_document_publications: ids(distinctIds(record['publication_ids'], record['publications'])),
      policy_document_categories: categoryRows(record),
    }),
    fullText: (record) => [text(record['title']), text(record['publisher_org_name'])],
    columnFallbacks: {
      publisher_org_id: (record) => idOf(record['publisher_org']),
      publisher_org_city_id: (record) => idOf(record['publisher_org_city']),
      publisher_org_country_id: (record) => idOf(record['publisher_org_country']),
      publisher_org_state_id: (record) => idOf(record['publisher_org_state']),
    },
    namedCategories: true,
  },
});
