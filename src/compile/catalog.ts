/**
 * What the lowering needs to know about sources and fields: types, multiplicity, entity
 * kinds and fieldsets. The engine builds it from the schema (`schema/`), so compile/ needs
 * no copy of the field tables.
 */

export interface CatalogField {
  readonly name: string;
  /** `string`, `integer`, `float`, `date`, `json`, or an entity kind (`organizations`, ...). */
  readonly type: string;
  readonly multi: boolean;
  /** Sub-fields of an entity-typed field (`id`, `name`, ...); empty for scalar fields. */
  readonly isEntity: boolean;
}

export interface SourceCatalog {
  /** The field of a source, or undefined when the schema does not know it. */
  field(source: string, name: string): CatalogField | undefined;
  /** True for a source this deployment holds. */
  isSource(name: string): boolean;
  /** The full-text indexes of a source. */
  searchIndexes(source: string): readonly string[];
  /** True when an entity kind (`organizations`, `categories`) has this sub-field. */
  hasSubfield(entity: string, name: string): boolean;
  /** The fields of a fieldset (`basics`, `extras`, `all`), or undefined when it is not one. */
  fieldset(source: string, name: string): readonly string[] | undefined;
}

/** Entity kinds a field type can name. */
export const ENTITY_TYPES: ReadonlySet<string> = new Set([
  'categories',
  'organizations',
  'researchers',
  'journals',
  'countries',
  'cities',
  'states',
  'source_titles',
  'publication_links',
  'open_access',
]);
