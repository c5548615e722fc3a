/**
 * The researchers source (spec/data-model.md, "researchers"), also the `researchers` entity
 * kind other sources' fields hold: its field table, its storage and how a researcher record
 * becomes rows, declared once. The registry (`model/sources.ts`) lists it.
 */
import type { SourceTable } from '../../model/field-table.ts';
import { byFieldCode, i, t, valueKey } from '../../model/layout-parts.ts';
import { distinctIds, idOf, ids, joinNames, text, valueRows } from '../../model/record-values.ts';
import { defineSource } from '../../model/source-module.ts';

/** spec/data-model.md, "researchers". */
const FIELDS = {
  description: 'Disambiguated researchers, with their affiliations and activity.',
  fields: [
    ['current_research_org', 'organizations', 'fc', 'The most recent affiliation.'],
    ['dimensions_url', 'string', '', 'Link to the record on the web.'],
    ['first_grant_year', 'integer', 'fc', 'Start year of the first grant.'],
    ['first_name', 'string', 'f', 'First name.'],
    ['first_publication_year', 'integer', 'fc', 'Year of the first publication.'],
    ['id', 'string', 'f', 'Quarry researcher identifier.'],
    ['last_grant_year', 'integer', 'fc', 'Start year of the last grant.'],
    ['last_name', 'string', 'f', 'Last name.'],
    ['last_publication_year', 'integer', 'fc', 'Year of the last publication.'],
    ['nih_ppid', 'string', 'f', 'NIH principal investigator profile identifier.'],
    ['obsolete', 'integer', 'fn', '1 when the record was merged into another (see redirect), else 0.'],
    ['orcid_id', 'string', 'fm', 'ORCID identifiers.'],
    ['redirect', 'string', 'fm', 'Identifiers of the records this one was merged into.'],
    ['research_orgs', 'organizations', 'fcm', 'Organizations the researcher has been affiliated with.'],
    [
      'score',
      'float',
      'n',
      'Relevance of the record to the query\'s full-text search, higher is more relevant (only with `for "..."`; `sort by score` is `sort by relevance`).',
    ],
    ['total_grants', 'integer', 'fcn', 'Number of held grants.'],
    ['total_publications', 'integer', 'fcn', 'Number of held publications.'],
  ],
  removedInV2: [],
  fieldsets: [
    {
      name: 'basics',
      description: 'Returned when no field list is given.',
      fields: ['id', 'first_name', 'last_name', 'orcid_id', 'research_orgs'],
    },
    {
      name: 'extras',
      description: 'Scalar indicators and identifiers.',
      fields: [
        'total_publications',
        'total_grants',
        'first_publication_year',
        'last_publication_year',
        'first_grant_year',
        'last_grant_year',
        'current_research_org',
        'nih_ppid',
        'dimensions_url',
      ],
    },
  ],
  searchIndexes: [{ name: 'full_data', description: 'Names and identifiers ("\\"Ana Silva\\"" matches the person).' }],
  defaultIndex: 'full_data',
  indicators: ['count'],
  defaultOrder: { field: 'last_name', direction: 'asc' },
} as const satisfies SourceTable;

/** The stored codes of `researcher_values` fields (`SourceStorage.valueFieldCodes`). */
const VALUE_FIELD_CODES = { orcid_id: '15', redirect: '16' };

export const researchers = defineSource({
  name: 'researchers',
  singular: 'researcher',
  refersTo: ['organizations'],
  fieldTable: FIELDS,
  storage: {
    table: {
      table: 'researchers',
      columns: [
        t('first_name'),
        t('last_name'),
        t('nih_ppid'),
        i('obsolete'),
        t('current_research_org_id'),
        i('first_publication_year'),
        i('last_publication_year'),
        i('first_grant_year'),
        i('last_grant_year'),
        i('total_publications'),
        i('total_grants'),
        t('dimensions_url'),
        // Derived by finish(): held publications / grants naming the researcher (facet shortcut).
        i('n_publications'),
        i('n_grants'),
      ],
      indexes: [['last_name'], ['current_research_org_id'], ['n_publications'], ['n_grants']],
      entityColumns: { current_research_org: { column: 'current_research_org_id', entity: 'organizations' } },
    },
    links: [
      {
        table: 'researcher_research_orgs',
        key: [t('org_id')],
        extra: [],
        reverse: ['org_id'],
        holds: { field: 'research_orgs' },
        postings: { table: 'researcher_research_orgs_postings', column: 'researcher_pks' },
      },
      {
        table: 'researcher_values',
        key: valueKey,
        extra: [],
        reverse: ['field', 'value'],
        holds: byFieldCode(VALUE_FIELD_CODES),
      },
    ],
    fullText: {
      table: 'researchers_fts',
      columns: ['names'],
      indexes: { full_data: ['names'] },
    },
    valueFieldCodes: VALUE_FIELD_CODES,
  },
  rows: {
    links: (record) => ({
      researcher_research_orgs: ids(distinctIds(record['research_orgs'], record['current_research_org'])),
      researcher_values: valueRows(record, VALUE_FIELD_CODES),
    }),
    fullText: (record) => {
      const first = text(record['first_name']);
      const last = text(record['last_name']);
      // Both orders, so a phrase search finds "Ana Silva" and "Silva Ana".
      return [joinNames([`${first} ${last}`.trim(), `${last} ${first}`.trim()])];
    },
    columnFallbacks: { current_research_org_id: (record) => idOf(record['current_research_org']) },
  },
  entity: {
    description: 'A researcher (see the researchers source).',
    fields: [
      ['first_name', 'string', false, 'First name.'],
      ['id', 'string', false, 'Researcher identifier.'],
      ['last_name', 'string', false, 'Last name.'],
      ['orcid_id', 'string', false, 'ORCID identifier, when known.'],
    ],
    // As the hosted service's researcher facet rows: research_orgs as organization ids.
    display: ['first_name', 'last_name', 'orcid_id', 'research_orgs'],
  },
});
