/**
 * The entity kinds of the data model (spec/data-model.md, "Entities"): each one's
 * sub-fields (what `field.sub` may name) and the fields a facet row or a returned entity
 * shows. `schema/` turns them into descriptors; the storage layout reads which of them are
 * columns of the entity's table.
 */
import type { EntityName, ScalarType } from './types.ts';

/** `[name, type, multi-value, description]` of one sub-field. */
export type SubRow = readonly [name: string, type: ScalarType, multi: boolean, description: string];

export interface EntitySpec {
  readonly description: string;
  readonly fields: readonly SubRow[];
  /**
   * Shown beside `id` (and `count`) in a facet row, and in a returned entity. May name
   * lists kept in the entity's link tables (organization `linkout`, researcher
   * `research_orgs`) that are not sub-fields (filters use the entity's own source for them).
   */
  readonly display: readonly string[];
}

export const ENTITY_SPECS: Readonly<Record<EntityName, EntitySpec>> = {
  categories: {
    description: 'A category of a classification system.',
    fields: [
      ['id', 'string', false, 'Category identifier.'],
      ['name', 'string', false, 'Category code and name ("16 Studies in Human Society").'],
    ],
    display: ['name'],
  },
  cities: {
    description: 'A city.',
    fields: [
      ['id', 'string', false, 'City identifier (GeoNames).'],
      ['name', 'string', false, 'City name.'],
    ],
    display: ['name'],
  },
  countries: {
    description: 'A country.',
    fields: [
      ['id', 'string', false, 'ISO 3166-1 alpha-2 code.'],
      ['name', 'string', false, 'Country name.'],
    ],
    display: ['name'],
  },
  journals: {
    description: 'A journal.',
    fields: [
      ['id', 'string', false, 'Journal identifier.'],
      ['title', 'string', false, 'Journal title.'],
    ],
    display: ['title'],
  },
  open_access: {
    description: 'An open access category.',
    fields: [
      ['description', 'string', false, 'What the category means.'],
      ['id', 'string', false, 'Category identifier (oa_all, gold, green, bronze, hybrid, closed).'],
      ['name', 'string', false, 'Category name.'],
    ],
    display: ['name'],
  },
  publication_links: {
    description: 'A link to a publication by its identifiers.',
    fields: [
      ['doi', 'string', false, 'DOI.'],
      ['id', 'string', false, 'Publication identifier.'],
      ['pmcid', 'string', false, 'PubMed Central identifier.'],
      ['pmid', 'string', false, 'PubMed identifier.'],
    ],
    display: ['doi'],
  },
  states: {
    description: 'A state or region.',
    fields: [
      ['id', 'string', false, 'ISO 3166-2 code.'],
      ['name', 'string', false, 'State name.'],
    ],
    display: ['name'],
  },
  organizations: {
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
  researchers: {
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
  source_titles: {
    description: 'A journal, book series or proceedings a publication appeared in.',
    fields: [
      ['id', 'string', false, 'Source title identifier.'],
      ['title', 'string', false, 'Title.'],
    ],
    display: ['title'],
  },
};
