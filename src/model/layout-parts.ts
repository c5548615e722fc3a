/**
 * Parts of the storage layout that several sources' declarations share: column helpers, the
 * category and `<owner>_values` link shapes, the concept vocabulary and the fields read
 * through organizations. Sources (`src/sources/<name>/model.ts`) and `storage.ts` import
 * them from here; nothing here knows which sources exist.
 */
import type { ColumnSpec, InternedValues, LinkHolds } from './storage-types.ts';

/** A text column. */
export const t = (name: string): ColumnSpec => ({ name, type: 'text' });
/** An integer column. */
export const i = (name: string): ColumnSpec => ({ name, type: 'integer' });
/** A real column. */
export const r = (name: string): ColumnSpec => ({ name, type: 'real' });
/** A text column holding JSON, returned parsed. */
export const j = (name: string): ColumnSpec => ({ name, type: 'text', json: true });
/** `column`, added to an existing table by a migration (`ColumnSpec.appended`). */
export const appended = (column: ColumnSpec): ColumnSpec => ({ ...column, appended: true });

/** The classification schemes of the `category_<scheme>` fields (spec/data-model.md). */
export const CATEGORY_SCHEMES = [
  'bra',
  'for',
  'hra',
  'hrcs_hc',
  'hrcs_rac',
  'icrp_cso',
  'icrp_ct',
  'rcdc',
  'sdg',
  'uoa',
] as const;

/**
 * Fields of a publication or grant read through its research organizations
 * (`LinkTableSpec.readThrough`): field → organizations column(s). A city without an id is
 * keyed by its name, as the `cities` table keys it.
 */
export const RESEARCH_ORGANIZATION_FIELDS = {
  research_org_countries: 'country_code',
  research_org_country_names: 'country_name',
  research_org_cities: ['city_id', 'city_name'],
  research_org_state_codes: 'state_code',
  research_org_state_names: 'state_name',
  research_org_names: 'name',
} as const;

/**
 * Read through the research organizations of a publication or grant (spec/schema-2026.md
 * §7.1, §7.2): their types, every type of every organization, from the organizations'
 * `types` list.
 */
export const RESEARCH_ORGANIZATION_TYPES = { research_org_types: { list: 'types' } } as const;

/** Read through the funders: their countries. */
export const FUNDER_FIELDS = { funder_countries: 'country_code' } as const;

/**
 * Read through a grant's funders: their countries, and (spec/schema-2026.md §7.2, since 2.6)
 * their cities and states, keyed as the research organizations' are.
 */
export const FUNDER_ORGANIZATION_FIELDS = {
  ...FUNDER_FIELDS,
  funder_org_cities: ['city_id', 'city_name'],
  funder_org_states: 'state_code',
} as const;

/** What a `<owner>_categories` table holds: each `category_<scheme>` field, told apart by `scheme`. */
export const byScheme: LinkHolds = {
  discriminator: 'scheme',
  fields: Object.fromEntries(CATEGORY_SCHEMES.map((scheme) => [`category_${scheme}`, scheme])),
};
/** The key columns of a `<owner>_categories` table. */
export const categoryKey = [t('scheme'), t('category_id')];
/** The key columns of a `<owner>_values` table: the field's stored code, then the value. */
export const valueKey = [t('field'), { name: 'value', type: 'any' } as const];
/** Concept names, shared by the concept links of publications and grants. */
export const CONCEPT_NAMES: InternedValues = { table: 'concept_names', column: 'name', replaced: 'concept' };

/**
 * What a `<owner>_values` table holds: each field of `codes` (field → stored code), told
 * apart by the `field` column holding its code; `unexposed` of them are no schema field
 * (written for search and display only).
 */
export function byFieldCode(codes: Readonly<Record<string, string>>, unexposed?: readonly string[]): LinkHolds {
  return {
    discriminator: 'field',
    fields: Object.fromEntries(Object.entries(codes).filter(([field]) => unexposed?.includes(field) !== true)),
    ...(unexposed === undefined ? {} : { unexposed }),
  };
}

/**
 * `<owner>_values` codes no longer written (`VALUE_FIELD_CODES`), kept so no new field takes
 * them: the places and names of publications' and grants' organizations, read through the
 * organizations (`readThrough`) since records migration 10 (SQLite) and 8 (PostgreSQL)
 * deleted their rows.
 */
export const RETIRED_VALUE_FIELD_CODES: Readonly<Record<string, string>> = {
  research_org_countries: '7',
  research_org_country_names: '8',
  research_org_cities: '9',
  research_org_state_codes: '10',
  research_org_state_names: '11',
  research_org_names: '12',
  funder_countries: '13',
};
