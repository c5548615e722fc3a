/**
 * The entity kinds of the data model (spec/data-model.md, "Entities"): each one's
 * sub-fields (what `field.sub` may name) and the fields a facet row or a returned entity
 * shows. `schema/` turns them into descriptors; the storage layout reads which of them are
 * columns of the entity's table. An entity kind that is also a source (organizations,
 * researchers, source_titles) is declared with the source (`SourceDeclaration.entity`).
 */
import { SOURCE_MODULES } from './sources.ts';
import { ENTITY_NAMES, type EntityName, type ScalarType } from './types.ts';

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

/** The entity kinds that are no source. */
const ENTITY_ONLY_SPECS: Readonly<Partial<Record<EntityName, EntitySpec>>> = {
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
  // Held in the source_titles table (the source declares it): the `{id, title}` a record names.
  journals: {
    description: 'A journal (a source title, named by its id and title).',
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
  repositories: {
    description: 'A data repository holding datasets (a DataCite repository).',
    fields: [
      ['id', 'string', false, 'Repository identifier (the DataCite repository id, e.g. cern.zenodo).'],
      ['name', 'string', false, 'Repository name.'],
    ],
    display: ['name'],
  },
  states: {
    description: 'A state or region.',
    fields: [
      ['id', 'string', false, 'ISO 3166-2 code.'],
      ['name', 'string', false, 'State name.'],
    ],
    display: ['name'],
  },
};

/** Every entity kind, in the order of `ENTITY_NAMES`. */
export const ENTITY_SPECS: Readonly<Record<EntityName, EntitySpec>> = Object.fromEntries(
  ENTITY_NAMES.map((name) => {
    const source = SOURCE_MODULES.find((m) => m.name === name);
    const spec = source?.entity ?? ENTITY_ONLY_SPECS[name];
    if (spec === undefined) throw new Error(`entity kind ${name} is declared neither here nor by a source`);
    return [name, spec];
  }),
) as Record<EntityName, EntitySpec>;
