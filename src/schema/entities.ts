import { operatorsForScalar } from './operators.ts';
import type { EntityDescriptor, EntityFieldDescriptor, EntityName, ScalarType } from './types.ts';

type SubRow = readonly [name: string, type: ScalarType, multi: boolean, description: string];

function sub([name, type, multi, description]: SubRow): EntityFieldDescriptor {
  return Object.freeze({
    name,
    type,
    isMultivalue: multi,
    description,
    operators: Object.freeze(operatorsForScalar(type, { multi, counter: false, subfield: true })),
  });
}

const ENTITY_TABLE: Record<EntityName, { description: string; fields: readonly SubRow[]; display: readonly string[] }> =
  {
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
        ['name', 'string', false, 'Name.'],
        ['state_name', 'string', false, 'State or region.'],
        ['types', 'string', true, 'Types (Education, Healthcare, Company, Funder, ...).'],
      ],
      display: ['name', 'acronym', 'city_name', 'country_name', 'types'],
    },
    researchers: {
      description: 'A researcher (see the researchers source).',
      fields: [
        ['first_name', 'string', false, 'First name.'],
        ['id', 'string', false, 'Researcher identifier.'],
        ['last_name', 'string', false, 'Last name.'],
        ['orcid_id', 'string', false, 'ORCID identifier, when known.'],
      ],
      display: ['first_name', 'last_name', 'orcid_id'],
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

/** Every entity kind with its sub-fields and facet display fields. */
export const ENTITIES: ReadonlyMap<EntityName, EntityDescriptor> = new Map(
  Object.entries(ENTITY_TABLE).map(([name, e]) => [
    name as EntityName,
    Object.freeze({
      name: name as EntityName,
      description: e.description,
      fields: Object.freeze(e.fields.map(sub)),
      displayFields: Object.freeze([...e.display]),
    }),
  ]),
);
