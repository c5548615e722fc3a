/**
 * The names of Quarry's data model (spec/data-model.md): the sources, the entity kinds and
 * the value types of fields. `schema/`, `compile/`, `store/`, `data/` and `client/` all
 * read these from here.
 */

/** The sources Quarry holds: the registry's (`sources.ts`). */
export { SOURCE_NAMES, type SourceName } from './sources.ts';

/** The entity kinds a field can hold (spec/data-model.md, "Entities"). */
export const ENTITY_NAMES = [
  'categories',
  'cities',
  'countries',
  'journals',
  'open_access',
  'publication_links',
  'repositories',
  'states',
  'organizations',
  'researchers',
  'source_titles',
] as const;
export type EntityName = (typeof ENTITY_NAMES)[number];

/** Value types of non-entity fields. `json` holds structured values (`authors`, `concepts`). */
export type ScalarType = 'string' | 'integer' | 'float' | 'date' | 'json';

/** A field's type as `describe` shows it: a scalar type or the name of an entity. */
export type FieldType = ScalarType | EntityName;
