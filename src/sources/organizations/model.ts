/**
 * The organizations source (spec/data-model.md, "organizations"; funders are organizations
 * too), also the `organizations` entity kind other sources' fields hold: its field table,
 * its storage and how an organization record becomes rows, declared once. The registry
 * (`model/sources.ts`) lists it.
 */
import type { SourceTable } from '../../model/field-table.ts';
import { appended, byFieldCode, i, j, r, t, valueKey } from '../../model/layout-parts.ts';
import { idOf, list, text, valueRows, type LooseRecord } from '../../model/record-values.ts';
import { defineSource } from '../../model/source-module.ts';

/** spec/data-model.md, "organizations" (funders are organizations too). */
const FIELDS = {
  description: 'Research organizations and funders.',
  fields: [
    ['acronym', 'string', 'f', 'Acronym.'],
    ['aliases', 'string', 'fm', 'Other names the organization goes by (ROR aliases); not in the hosted schema.'],
    ['city_name', 'string', 'fc', 'City.'],
    ['cnrs_ids', 'string', 'fm', 'CNRS identifiers.'],
    ['country_code', 'string', 'fc', 'Country, as its ISO 3166-1 alpha-2 (GeoNames) code.'],
    ['country_name', 'string', 'fc', 'Country.'],
    ['dimensions_url', 'string', '', 'Link to the record on the web.'],
    ['established', 'integer', 'f', 'Year established.'],
    ['external_ids_fundref', 'string', 'fm', 'Funder Registry identifiers.'],
    ['hesa_ids', 'string', 'fm', 'HESA identifiers.'],
    [
      'hierarchy_details',
      'json',
      '',
      "The organization's place in the parent/child hierarchy: parent_ids, child_ids, ancestor_ids (the parent chain up to ultimate_parent_id, top first), descendant_ids (level by level) and depth (0 without parents).",
    ],
    ['id', 'string', 'f', 'Organization identifier (GRID or ROR style).'],
    ['isni_ids', 'string', 'fm', 'ISNI identifiers.'],
    ['latitude', 'float', '', 'Latitude.'],
    ['linkout', 'string', 'm', 'Web sites.'],
    ['longitude', 'float', '', 'Longitude.'],
    ['name', 'string', 'f', 'Name.'],
    ['nuts_level1_code', 'string', 'fc', 'NUTS level 1 code.'],
    ['nuts_level1_name', 'string', 'fc', 'NUTS level 1 name.'],
    ['nuts_level2_code', 'string', 'fc', 'NUTS level 2 code.'],
    ['nuts_level2_name', 'string', 'fc', 'NUTS level 2 name.'],
    ['nuts_level3_code', 'string', 'fc', 'NUTS level 3 code.'],
    ['nuts_level3_name', 'string', 'fc', 'NUTS level 3 name.'],
    ['organization_child_ids', 'string', 'fm', 'Identifiers of child organizations.'],
    ['organization_parent_ids', 'string', 'fm', 'Identifiers of parent organizations.'],
    ['organization_related_ids', 'string', 'fm', 'Identifiers of related organizations.'],
    ['orgref_ids', 'string', 'fm', 'OrgRef identifiers.'],
    ['redirect', 'string', 'f', 'Identifier of the record this one was merged into.'],
    ['ror_ids', 'string', 'fm', 'ROR identifiers.'],
    [
      'score',
      'float',
      'n',
      'Relevance of the record to the query\'s full-text search, higher is more relevant (only with `for "..."`; `sort by score` is `sort by relevance`).',
    ],
    ['state_name', 'string', 'fc', 'State or region.'],
    ['status', 'string', 'fc', 'Status (active, inactive, withdrawn).'],
    ['types', 'string', 'fcm', 'Types (Education, Healthcare, Company, Funder, ...).'],
    ['ucas_ids', 'string', 'fm', 'UCAS identifiers.'],
    ['ukprn_ids', 'string', 'fm', 'UKPRN identifiers.'],
    [
      'ultimate_parent_id',
      'string',
      'f',
      "Identifier of the top of the organization's parent chain (through the smallest parent id where there are several); the organization's own identifier when it has no parent.",
    ],
    ['wikidata_ids', 'string', 'fm', 'Wikidata identifiers.'],
    ['wikipedia_url', 'string', '', 'Wikipedia page.'],
  ],
  removedInV2: [],
  fieldsets: [
    {
      name: 'basics',
      description: 'Returned when no field list is given.',
      fields: ['id', 'name', 'acronym', 'types', 'city_name', 'country_name'],
    },
    {
      name: 'nuts',
      description: 'NUTS region codes and names.',
      fields: [
        'nuts_level1_code',
        'nuts_level1_name',
        'nuts_level2_code',
        'nuts_level2_name',
        'nuts_level3_code',
        'nuts_level3_name',
      ],
    },
  ],
  searchIndexes: [{ name: 'full_data', description: 'Names, acronyms, places and identifiers.' }],
  defaultIndex: 'full_data',
  indicators: ['count'],
  defaultOrder: { field: 'name', direction: 'asc' },
} as const satisfies SourceTable;

/** The stored codes of `organization_values` fields (`SourceStorage.valueFieldCodes`). */
const VALUE_FIELD_CODES = {
  types: '17',
  ror_ids: '18',
  isni_ids: '19',
  external_ids_fundref: '20',
  cnrs_ids: '21',
  hesa_ids: '22',
  linkout: '23',
  orgref_ids: '24',
  ucas_ids: '25',
  ukprn_ids: '26',
  wikidata_ids: '27',
  organization_child_ids: '28',
  organization_parent_ids: '29',
  organization_related_ids: '30',
  aliases: '31',
};

export const organizations = defineSource({
  name: 'organizations',
  singular: 'organization',
  // Parents, children and related organizations are organizations too.
  refersTo: [],
  fieldTable: FIELDS,
  requiredFields: [['name', 'string']],
  storage: {
    table: {
      table: 'organizations',
      columns: [
        t('name'),
        t('acronym'),
        t('city_id'),
        t('city_name'),
        t('state_code'),
        t('state_name'),
        t('country_code'),
        t('country_name'),
        t('status'),
        i('established'),
        r('latitude'),
        r('longitude'),
        t('nuts_level1_code'),
        t('nuts_level1_name'),
        t('nuts_level2_code'),
        t('nuts_level2_name'),
        t('nuts_level3_code'),
        t('nuts_level3_name'),
        t('redirect'),
        t('wikipedia_url'),
        t('dimensions_url'),
        // Derived by finish(): held publications / grants / funded publications and grants linking the organization.
        i('n_publications'),
        i('n_grants'),
        i('n_funded_publications'),
        i('n_funded_grants'),
        // Derived by finish() from the parent/child relationships (store/organization-hierarchy.ts).
        appended(t('ultimate_parent_id')),
        appended(j('hierarchy_details')),
      ],
      indexes: [
        ['name'],
        ['country_code'],
        ['city_name'],
        ['n_publications'],
        ['n_grants'],
        ['n_funded_publications'],
        ['n_funded_grants'],
        ['ultimate_parent_id'],
      ],
    },
    links: [
      {
        table: 'organization_values',
        key: valueKey,
        extra: [],
        reverse: ['field', 'value'],
        holds: byFieldCode(VALUE_FIELD_CODES),
      },
    ],
    fullText: {
      table: 'organizations_fts',
      columns: ['name', 'aliases', 'place'],
      indexes: { full_data: ['name', 'aliases', 'place'] },
    },
    valueFieldCodes: VALUE_FIELD_CODES,
  },
  rows: {
    links: (record) => ({ organization_values: valueRows(record, VALUE_FIELD_CODES) }),
    fullText: (record) => [
      [text(record['name']), text(record['acronym'])].join(' ; '),
      list(record['aliases'])
        .map(text)
        .concat(list(record['labels']).map((l) => text(idOf(l) ?? (l as LooseRecord | null)?.['label'])))
        .join(' ; '),
      [text(record['city_name']), text(record['state_name']), text(record['country_name'])].join(' ; '),
    ],
  },
  entity: {
    description: 'A research organization or funder (see the organizations source).',
    fields: [
      ['acronym', 'string', false, 'Acronym.'],
      ['city_name', 'string', false, 'City.'],
      ['country_name', 'string', false, 'Country.'],
      ['id', 'string', false, 'Organization identifier.'],
      ['latitude', 'float', false, 'Latitude of the organization.'],
      ['longitude', 'float', false, 'Longitude of the organization.'],
      ['name', 'string', false, 'Name.'],
      ['state_name', 'string', false, 'State or region.'],
      ['types', 'string', true, 'Types (Education, Healthcare, Company, Funder, ...).'],
    ],
    // The organizations basics of the current schema (spec/schema-2026.md §5).
    display: [
      'name',
      'acronym',
      'city_name',
      'state_name',
      'country_name',
      'latitude',
      'longitude',
      'linkout',
      'types',
    ],
  },
});
