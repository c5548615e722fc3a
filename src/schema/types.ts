/**
 * The shapes of Quarry's data model (spec/data-model.md) as plain data: sources, their
 * fields, entities, fieldsets, search indexes and indicators. Everything here is frozen
 * plain objects, so a descriptor can travel inside a validated query across worker threads
 * and the compiler can read it without calling back into `schema/`. No SQL lives here.
 */

/** The language versions Quarry serves (spec/dsl.md §7). */
export type DslVersion = 1 | 2;

export { ENTITY_NAMES, SOURCE_NAMES } from '../model/types.ts';
export type { EntityName, FieldType, ScalarType, SourceName } from '../model/types.ts';
import type { EntityName, FieldType, ScalarType, SourceName } from '../model/types.ts';

/**
 * What a filter may do with a field (spec/dsl.md §4). `in` covers `in [a, b]`, `range`
 * covers `in [low:high]`, `empty` covers `is empty` and `is not empty`, `count` covers
 * `count(field) op N`.
 */
export type FilterOperator = '=' | '!=' | '>' | '<' | '>=' | '<=' | '~' | 'in' | 'range' | 'empty' | 'count';

/** A version-1 field that version 2 removed, with what replaces it. */
export interface Deprecation {
  /** The version-2 name to use instead (a field, or for `[all]` the advice `basics + extras`). */
  readonly replacement: string;
  /**
   * The held field whose data answers for the removed one (`FOR` reads `category_for`,
   * `FOR_first` the top-level (two-digit) codes among `category_for`, `author_affiliations` the affiliations
   * of `authors`). The compiler reads this field and returns it under the old name.
   */
  readonly readsFrom: string;
  /** How the old value is derived from `readsFrom` when it is not the same value. */
  readonly derivation?: 'first-level' | 'affiliations-of-authors';
}

/** A sub-field of an entity (`research_orgs.name`, `journal.title`). */
export interface EntityFieldDescriptor {
  readonly name: string;
  readonly type: ScalarType;
  readonly isMultivalue: boolean;
  readonly description: string;
  /** The filter operators the sub-field supports when written as `field.sub`. */
  readonly operators: readonly FilterOperator[];
}

export interface EntityDescriptor {
  readonly name: EntityName;
  readonly description: string;
  /** Sub-fields, in `describe` order; always includes `id`. */
  readonly fields: readonly EntityFieldDescriptor[];
  /** Extra keys of a facet row of this entity besides `id` and `count`. */
  readonly displayFields: readonly string[];
}

/**
 * One field of a source, as plain data the compiler can use.
 *
 * @example
 * // publications.research_orgs
 * { name: 'research_orgs', type: 'organizations', entity: 'organizations', isEntity: true,
 *   isFilter: true, isFacet: true, isMultivalue: true, facetKind: 'entity',
 *   operators: ['=', '!=', 'in', 'empty', 'count'], sortable: false, ... }
 */
export interface FieldDescriptor {
  readonly name: string;
  /** The source the field belongs to. */
  readonly source: SourceName;
  readonly type: FieldType;
  /** Set for entity-typed fields. */
  readonly entity?: EntityName;
  readonly isEntity: boolean;
  readonly isFilter: boolean;
  readonly isFacet: boolean;
  readonly isMultivalue: boolean;
  /**
   * A count that every record has (`times_cited`, `authors_count`, `total_grants`) or a
   * 0/1 flag (`obsolete`): `is empty` makes no sense on it.
   */
  readonly isCounter: boolean;
  /** For facets: entity rows (with display fields) or value rows (typed id). */
  readonly facetKind?: 'entity' | 'value';
  /** Filter operators on the field itself (for entities: comparing the id). */
  readonly operators: readonly FilterOperator[];
  /** Usable in `sort by` of a records return: single-valued scalars. */
  readonly sortable: boolean;
  readonly description: string;
  /** The shape of structured values (`authors`), for `describe`'s `long_description`; else absent. */
  readonly longDescription?: string;
  /**
   * Present on version-1 fields that version 2 removed, and on fields of both versions the
   * hosted service dropped that are still answered (`SourceTable.deprecatedFields`).
   */
  readonly deprecated?: Deprecation;
  /**
   * Present on current-schema names of held fields (grants `funder_orgs` reads `funders`):
   * the compiler reads this field's data and returns it under `name`.
   */
  readonly readsFrom?: string;
}

export interface SearchIndexDescriptor {
  readonly name: string;
  readonly description: string;
  /** Person-name indexes match names as phrases in either order (spec/dsl.md §3). */
  readonly isPersonNameIndex: boolean;
}

/** The aggregate indicators facets can carry (spec/dsl.md §5). */
export type IndicatorName =
  | 'count'
  | 'citations_total'
  | 'citations_avg'
  | 'citations_median'
  | 'recent_citations_total'
  | 'altmetric_avg'
  | 'altmetric_median'
  | 'rcr_avg'
  | 'fcr_gavg'
  | 'funding';

export interface IndicatorDescriptor {
  readonly name: IndicatorName;
  readonly type: 'integer' | 'float';
  readonly description: string;
  /** The source field it is computed from; absent for `count`. */
  readonly field?: string;
  /** How the values are combined over the matching records of one facet row. */
  readonly aggregation: 'count' | 'sum' | 'avg' | 'median' | 'geometric_mean';
}

export interface FieldsetDescriptor {
  readonly name: string;
  readonly description: string;
  /** Field names, in return order. */
  readonly fields: readonly string[];
  /** Present on version-1 fieldsets that version 2 removed (`all`). */
  readonly deprecated?: { readonly replacement: string };
}

/** The documented order of records when a query names no sort and has no full text. */
export interface DefaultOrder {
  readonly field: string;
  readonly direction: 'asc' | 'desc';
  /** Ties (and records without the field, which come last) are ordered by id ascending. */
  readonly tieBreak: 'id';
}

export interface SourceDescriptor {
  readonly name: SourceName;
  readonly description: string;
  /** Every field, in name order; version 1 also holds the deprecated ones. */
  readonly fields: readonly FieldDescriptor[];
  readonly fieldsets: readonly FieldsetDescriptor[];
  readonly searchIndexes: readonly SearchIndexDescriptor[];
  readonly defaultIndex: string;
  readonly indicators: readonly IndicatorDescriptor[];
  readonly defaultOrder: DefaultOrder;
}

/** A function a `return` clause may call (`citations_per_year(2010, 2020)`). */
export interface FunctionDescriptor {
  readonly name: string;
  readonly description: string;
  /** Sources whose searches may return it. */
  readonly sources: readonly SourceName[];
  readonly parameters: readonly {
    readonly name: string;
    readonly type: 'integer' | 'string';
    readonly description: string;
  }[];
}

/**
 * The whole schema of one language version, with lookup maps. Build it with
 * `schemaFor(version)`; it is cached and frozen.
 */
export interface Schema {
  readonly version: DslVersion;
  readonly sources: ReadonlyMap<SourceName, SourceDescriptor>;
  readonly entities: ReadonlyMap<EntityName, EntityDescriptor>;
  readonly functions: ReadonlyMap<string, FunctionDescriptor>;
  /** Field lookup: `fieldsBySource.get('publications')?.get('year')`. */
  readonly fieldsBySource: ReadonlyMap<SourceName, ReadonlyMap<string, FieldDescriptor>>;
  /** Fieldset lookup by source and name (validation's hot path: maps, not array scans). */
  readonly fieldsetsBySource: ReadonlyMap<SourceName, ReadonlyMap<string, FieldsetDescriptor>>;
  /** Search index lookup by source and name. */
  readonly indexesBySource: ReadonlyMap<SourceName, ReadonlyMap<string, SearchIndexDescriptor>>;
  /** Entity sub-field lookup by entity and name. */
  readonly entityFields: ReadonlyMap<EntityName, ReadonlyMap<string, EntityFieldDescriptor>>;
  /**
   * Version 2 only: what version 2 removed, by source and name, with the replacement
   * (fields: `FOR` → `category_for`; fieldsets: `all` → `basics + extras`). Empty in version 1,
   * which still has them.
   */
  readonly removedBySource: ReadonlyMap<
    SourceName,
    ReadonlyMap<string, { readonly kind: 'field' | 'fieldset'; readonly replacement: string }>
  >;
}
