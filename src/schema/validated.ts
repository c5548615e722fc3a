/**
 * The validated query: what `schema/` hands to the compiler once a query has passed every
 * rule. It is self-sufficient: every name is resolved to its descriptor, every default is
 * filled, every value is normalised to the field's type. The compiler needs the raw syntax
 * tree only for the full-text expression, which is carried here as the parser built it.
 *
 * Plain frozen data, so it crosses worker threads unchanged.
 *
 * Ordering, documented once here for the compiler:
 * - A records return with full text and no `sort by` orders by relevance, best first
 *   (`sort: { by: 'relevance', direction: 'desc', explicit: false }`), ties by id ascending.
 * - Without full text and without `sort by`, the source's default order applies
 *   (`SourceDescriptor.defaultOrder`): publications `date` desc, grants `start_date` desc,
 *   researchers `last_name` asc, organizations `name` asc; records lacking the field come
 *   last; ties by `id` ascending. It arrives resolved: `{ by: 'field', field, direction,
 *   explicit: false }`.
 * - An explicit `sort by FIELD [asc|desc]` (default desc) arrives with `explicit: true`;
 *   ties by id ascending, records lacking the field last.
 * - Facet rows order by `sortBy` (default `count`) descending, ties by id ascending.
 *
 * Version-1 fields that version 2 removed (only under `dslVersion: 1`) arrive as their own
 * descriptors with `deprecated` set: read the data of `deprecated.readsFrom` (derived as
 * `deprecated.derivation` says) and return it under the old name.
 *
 * `json` fields (`authors`, `investigators`, `concepts`) take `=`, `!=`, `in` and
 * emptiness: `authors = "smith"` is meant to match a record one of whose authors has that
 * last name, full name or researcher id (case-insensitively); `concepts = "x"` one with
 * that concept.
 *
 * Compatibility: the compiler codes against these types. Add kinds and optional
 * properties; never rename or remove.
 */
import type { FullTextNode, Span } from '../dsl/ast.ts';
import type { SearchFunction } from './search-functions.ts';
import type {
  DslVersion,
  EntityDescriptor,
  EntityFieldDescriptor,
  FieldDescriptor,
  IndicatorName,
  ScalarType,
  SearchIndexDescriptor,
  SourceDescriptor,
  SourceName,
} from './types.ts';

export type ValidatedQuery = ValidatedSearch | ValidatedDescribe | ValidatedStatement;

/**
 * A statement answered by a statement function (`extract_grants(...)`, and any statement
 * whose validation names one, such as `identify experts ...`): the function's registry name
 * and the arguments its check returned. The engine looks the function up by `name` and runs
 * it with `args` (`engine/run-query.ts`).
 */
export interface ValidatedStatement {
  readonly kind: 'statement';
  readonly dslVersion: DslVersion;
  /** The name in the statement function registry. */
  readonly name: string;
  /** Sources it reads (already checked against the caller's subscription). */
  readonly reads: readonly SourceName[];
  /** What the function's check returned; the function's own type. */
  readonly args: unknown;
  readonly span: Span;
}

/**
 * `identify experts ...`, checked (the `args` of its ValidatedStatement): the queries that answer it, as canonical DSL text (each
 * already validated), for `functions/identify-experts.ts` to run through a FunctionContext.
 */
export interface ValidatedIdentifyExperts {
  readonly kind: 'identify_experts';
  readonly dslVersion: DslVersion;
  /** `publications` or `grants`: the documents whose authors (investigators) are ranked. */
  readonly using: 'publications' | 'grants';
  /**
   * The matching documents, without its return clause:
   * `search publications in concepts for "..." where ...`.
   */
  readonly documents: string;
  /** The researcher fields asked for, as a `researchers[...]` field list (`basics + extras`). */
  readonly fields: string;
  /** `docs_found` and `score` are answered unless the field list leaves them out. */
  readonly docsFound: boolean;
  readonly score: boolean;
  readonly limit: number;
  readonly skip: number;
  readonly annotate?: {
    readonly coauthorship: boolean;
    readonly organizational: boolean;
    /** Researcher (`ur.`) and organization (`grid.`, …) ids, as written. */
    readonly ids: readonly string[];
  };
}

/** `describe version | schema | source X | entity X`; answer it with `describeQuery`. */
export interface ValidatedDescribe {
  readonly kind: 'describe';
  readonly dslVersion: DslVersion;
  readonly target: 'version' | 'schema' | 'source' | 'entity';
  /** The resolved source or entity name for `source` / `entity`. */
  readonly name?: string;
  /**
   * For `schema`, when the caller's subscription does not include every source: the sources
   * it includes, the only ones described (with the functions returned from them).
   */
  readonly sources?: readonly SourceName[];
}

export interface ValidatedSearch {
  readonly kind: 'search';
  readonly dslVersion: DslVersion;
  /** The searched source, resolved (its descriptor carries fields, indexes, default order). */
  readonly source: SourceDescriptor;
  readonly fullText?: ValidatedFullText;
  readonly filter?: ValidatedFilter;
  /** One per `return` phrase, in query order. At least one. */
  readonly returns: readonly ValidatedReturn[];
  /** `_warnings` text from validation (deprecated version-1 fields used, ...). */
  readonly warnings: readonly string[];
}

/** `[in INDEX] for "..."`. */
export interface ValidatedFullText {
  /** The resolved index (`full_data` when the query named none). */
  readonly index: SearchIndexDescriptor;
  readonly isPersonNameIndex: boolean;
  /** The full-text expression as the parser built it (spans point into the query text). */
  readonly ast: FullTextNode;
  /** The decoded string the expression was parsed from. */
  readonly text: string;
  /** `for min_should_match("...", N)` / `for complex("...", N)`: how the expression is applied. */
  readonly fn?: SearchFunction;
}

// ---------------------------------------------------------------------------------------
// Filters
// ---------------------------------------------------------------------------------------

/** A normalised filter value: numbers for integer/float fields, `YYYY-MM-DD` for dates, strings otherwise. */
export type FilterValue = string | number;

/**
 * What a filter condition reads: a field of the source, or one sub-field of an entity
 * field. A bare entity (`research_orgs = "grid.1"`) arrives as its `id` sub-field.
 */
export interface FilterTarget {
  readonly field: FieldDescriptor;
  /** Set for entity fields: the sub-field compared (`id` for a bare entity). */
  readonly subfield?: EntityFieldDescriptor;
  /** The type of the value compared (the sub-field's type for entities). */
  readonly valueType: ScalarType;
  /** True when the field holds several values: `=` means "contains", `!=` "does not contain". */
  readonly multi: boolean;
  /** The path as written (`research_orgs.name`), for messages. */
  readonly path: string;
}

export type ComparisonOp = '=' | '!=' | '>' | '<' | '>=' | '<=';

export type ValidatedFilter =
  | { readonly kind: 'and'; readonly operands: readonly ValidatedFilter[] }
  | { readonly kind: 'or'; readonly operands: readonly ValidatedFilter[] }
  | { readonly kind: 'not'; readonly operand: ValidatedFilter }
  | { readonly kind: 'compare'; readonly target: FilterTarget; readonly op: ComparisonOp; readonly value: FilterValue }
  /**
   * `field ~ "words"`: every word occurs in the value, any order, case-insensitively.
   * `words` is `text` split on whitespace.
   */
  | { readonly kind: 'words'; readonly target: FilterTarget; readonly text: string; readonly words: readonly string[] }
  | { readonly kind: 'in'; readonly target: FilterTarget; readonly values: readonly FilterValue[] }
  /** Inclusive. */
  | { readonly kind: 'range'; readonly target: FilterTarget; readonly low: FilterValue; readonly high: FilterValue }
  /** `is empty` (empty: true) / `is not empty` (empty: false). */
  | { readonly kind: 'empty'; readonly target: FilterTarget; readonly empty: boolean }
  /** `count(field) op N` on a multi-value field. */
  | { readonly kind: 'count'; readonly field: FieldDescriptor; readonly op: ComparisonOp; readonly value: number };

// ---------------------------------------------------------------------------------------
// Returns
// ---------------------------------------------------------------------------------------

export type ValidatedReturn = RecordsReturn | FacetReturn | FunctionReturn;

/** One field of a records return, in output order. */
export interface ReturnedField {
  readonly field: FieldDescriptor;
  /**
   * `unnest(field)`: one output row per value of this multi-value field, its sub-fields as
   * dotted keys (`researchers.id`, `researchers.first_name`). Several in one return give
   * the cartesian product of their values.
   */
  readonly unnest: boolean;
}

export type RecordsSort =
  | { readonly by: 'relevance'; readonly direction: 'desc' | 'asc'; readonly explicit: boolean }
  | {
      readonly by: 'field';
      readonly field: FieldDescriptor;
      readonly direction: 'asc' | 'desc';
      readonly explicit: boolean;
    };

/** The searched source's own records (`return publications[id + title] sort by year limit 5`). */
export interface RecordsReturn {
  readonly kind: 'records';
  /** The top-level key: the source name, or the `as` alias. */
  readonly key: string;
  /** `return in "g" ...`: the result goes into `{"g": {key: [...]}}`. */
  readonly group?: string;
  /** Resolved, ordered, without duplicates; fieldsets expanded, exclusions applied. */
  readonly fields: readonly ReturnedField[];
  readonly sort: RecordsSort;
  /** Default 20, at most 1000. `limit` counts source records, also when unnesting. */
  readonly limit: number;
  /** Default 0; `skip + limit` at most 50,000. */
  readonly skip: number;
  /** The query wrote `limit` / `skip`: `_stats` then carries `limit` / `offset`. */
  readonly limitGiven: boolean;
  readonly skipGiven: boolean;
  readonly span: Span;
}

/**
 * Rows grouped by a facet field over the matching records
 * (`return funders aggregate funding sort by funding limit 5`).
 */
export interface FacetReturn {
  readonly kind: 'facet';
  readonly key: string;
  readonly group?: string;
  readonly field: FieldDescriptor;
  /** `entity`: rows carry the entity's display fields; `value`: only `id` (typed) and `count`. */
  readonly facetKind: 'entity' | 'value';
  /** For entity facets. */
  readonly entity?: EntityDescriptor;
  /**
   * The query's field list of an entity facet (`return researchers[basics + current_research_org]`):
   * `source` when the entity is itself a source (each row shows those fields of the entity's
   * record, as `search <source> return <source>[...]` would, lists of entities as ids),
   * `entity` for other entities (those sub-fields). Absent: the entity's display fields.
   */
  readonly fieldList?:
    | { readonly kind: 'source'; readonly source: SourceDescriptor; readonly fields: readonly FieldDescriptor[] }
    | { readonly kind: 'entity'; readonly fields: readonly EntityFieldDescriptor[] };
  /** The type of the row id: `string` for entities, the field's type for value facets (`integer` for `year`). */
  readonly idType: ScalarType;
  /** `count` first, then the aggregated indicators in query order, without duplicates. */
  readonly indicators: readonly IndicatorName[];
  /** `count` unless the query sorted by an aggregated indicator. */
  readonly sortBy: IndicatorName;
  /** Default desc. */
  readonly direction: 'asc' | 'desc';
  /** Default 20, at most 1000. */
  readonly limit: number;
  readonly limitGiven: boolean;
  readonly span: Span;
}

/**
 * A per-year function offered by this deployment; both answer an object keyed by year
 * (`{"2010": 12, "2011": 0}`), one key per year from `from` to `to` (zero included):
 * - `citations_per_year(from, to)` on publications: how many citations the matching
 *   publications received in each year, counted in the year of the citing publication (a
 *   held publication whose `reference_ids` contain the cited one);
 * - `funding_per_year(from, to, "CURRENCY")` on grants: the matching grants' funding in
 *   that currency (`funding_<currency>`), each grant's amount spread evenly over its
 *   active years (its start year when it lists none).
 */
export interface FunctionReturn {
  readonly kind: 'function';
  /** The top-level key: the function name, or the `as` alias. */
  readonly key: string;
  readonly group?: string;
  readonly name: 'citations_per_year' | 'funding_per_year';
  /** `currency` (upper case) for `funding_per_year` only. */
  readonly args: { readonly from: number; readonly to: number; readonly currency?: string };
  readonly span: Span;
}
