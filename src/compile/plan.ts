/**
 * The dialect-neutral plan of one search query: what to read, which rows qualify, and what
 * to hand back, with every name already resolved by the schema. The base compiler
 * (`compile-search.ts`) turns it into SQL with a dialect's hooks (`dialect.ts`). Plain
 * frozen data, so a plan crosses worker threads unchanged.
 */
import type { TextExpr } from './text-expr.ts';

export type { TextExpr } from './text-expr.ts';

/** A scalar value a filter compares with; dates are `YYYY-MM-DD` strings. */
export type PlanValue = string | number;

/** The value type of a field as stored. */
export type PlanFieldType = 'string' | 'integer' | 'float' | 'date' | 'json' | 'entity';

/**
 * A field of the searched source, as far as a filter or an ordering needs it. `subfield`
 * is the part after the dot for entity fields (`research_orgs.name` → field
 * `research_orgs`, subfield `name`); a bare entity compares its id (`subfield: 'id'`).
 */
export interface PlanField {
  readonly name: string;
  readonly subfield?: string;
  readonly type: PlanFieldType;
  readonly multi: boolean;
  /** The entity kind for entity-typed fields (`organizations`, `categories`, ...). */
  readonly entity?: string;
}

export type CompareOp = '=' | '!=' | '>' | '<' | '>=' | '<=';

export type FilterPlan =
  | { readonly kind: 'and'; readonly items: readonly FilterPlan[] }
  | { readonly kind: 'or'; readonly items: readonly FilterPlan[] }
  | { readonly kind: 'not'; readonly item: FilterPlan }
  /** `=` on a multi-value field means "contains". */
  | { readonly kind: 'compare'; readonly field: PlanField; readonly op: CompareOp; readonly value: PlanValue }
  | { readonly kind: 'in'; readonly field: PlanField; readonly values: readonly PlanValue[] }
  /** Inclusive range. */
  | { readonly kind: 'range'; readonly field: PlanField; readonly low: PlanValue; readonly high: PlanValue }
  /** `~`: every word occurs in the value, in any order, case-insensitively. */
  | { readonly kind: 'words'; readonly field: PlanField; readonly words: readonly string[] }
  | { readonly kind: 'empty'; readonly field: PlanField; readonly empty: boolean }
  | { readonly kind: 'count'; readonly field: PlanField; readonly op: CompareOp; readonly value: number };

/** `for "..."` on one of the source's search indexes. */
export interface FullTextPlan {
  readonly index: string;
  readonly expr: TextExpr;
}

export type OrderPlan =
  /** bm25 relevance, best first (the default with full text); ties by id ascending. */
  | { readonly by: 'relevance' }
  /** The source's documented default order (publications: newest first, then id). */
  | { readonly by: 'default' }
  /** Records without the field come last; ties by id ascending. */
  | { readonly by: 'field'; readonly field: string; readonly direction: 'asc' | 'desc' };

/**
 * A returned field: `key` in the output, read from `field` (they differ for version-1
 * names answered from their replacement), with an optional derivation of the value.
 */
export interface ReturnedFieldPlan {
  readonly key: string;
  readonly field: string;
  /**
   * `first-level`: only two-digit category codes; `affiliations-of-authors`: the authors as
   * one list inside a list (version 1's `author_affiliations`).
   */
  readonly derivation?: 'first-level' | 'affiliations-of-authors';
  /**
   * `authors`: the value is a list of publications' author objects, answered with every key
   * the hosted service sends (engine/author-objects.ts). `open-access-categories`: version
   * 1's objects for the held open access values (engine/open-access-categories.ts).
   */
  readonly objects?: 'authors' | 'open-access-categories';
}

/** The searched source's own records, one page of them. */
export interface RecordsOutput {
  readonly kind: 'records';
  /** The top-level key: the source name or the `as` alias. */
  readonly key: string;
  /** `return in "g"`: the records go into `{g: {key: [...]}}`. */
  readonly group?: string;
  /** Fields to return, in order. */
  readonly fields: readonly ReturnedFieldPlan[];
  /** `unnest(key)`: one row per value of this multi-value field, with dotted keys. */
  readonly unnest?: string;
  /** Every unnested field in query order (the first is `unnest`): rows are their cartesian product. */
  readonly unnests?: readonly string[];
  readonly order: OrderPlan;
  readonly limit: number;
  readonly skip: number;
  /** The query wrote `limit`/`skip`: `_stats` echoes them. */
  readonly pagingGiven: boolean;
}

/** Publications: counts and citation indicators; grants: funding. */
export type Indicator =
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

/** Rows grouped by a facet field (`funders`, `year`) over the matching records. */
export interface FacetOutput {
  readonly kind: 'facet';
  readonly key: string;
  readonly group?: string;
  /** The facet field of the source. */
  readonly field: string;
  /** Entity facets carry display fields; value facets only id and count. */
  readonly entity?: string;
  /**
   * A field list over an entity that is a source (`return researchers[basics + current_research_org]`):
   * each row shows these fields of the entity's record in `source`, read by id; `idLists`
   * are the fields whose entity lists the row gives as ids (`research_orgs`).
   */
  readonly entityRecords?: {
    readonly source: string;
    readonly fields: readonly ReturnedFieldPlan[];
    readonly idLists: readonly string[];
  };
  /** A field list over another entity (`return category_for[name]`): the display keys shown. */
  readonly displayKeys?: readonly string[];
  /** `open-access-categories`: version 1's facet rows by the v1 ids (engine/open-access-categories.ts). */
  readonly objects?: 'open-access-categories';
  /** Value type of the id for value facets (integer for `year`). */
  readonly valueType: PlanFieldType;
  readonly multi: boolean;
  /** Aggregated indicators besides `count` (which is always computed). */
  readonly indicators: readonly Indicator[];
  readonly sortBy: Indicator;
  /** Default descending; ties by id ascending. */
  readonly direction: 'asc' | 'desc';
  readonly limit: number;
}

/**
 * `citations_per_year(from, to)`: citations the matching publications received per year
 * (the year of the citing held publication), one value per year, zeros included.
 */
export interface CitationsPerYearOutput {
  readonly kind: 'citations_per_year';
  readonly key: string;
  readonly group?: string;
  readonly from: number;
  readonly to: number;
}

/**
 * `return funding_per_year(from, to, "USD")` on grants: the matching grants' `funding_<currency>`,
 * each grant's amount spread evenly over its active years (its start year when it lists
 * none), summed per year; one value per year, zeros included.
 */
export interface FundingPerYearOutput {
  readonly kind: 'funding_per_year';
  readonly key: string;
  readonly group?: string;
  readonly from: number;
  readonly to: number;
  /** Upper case, one of the held currencies (`USD`, `EUR`, ...). */
  readonly currency: string;
}

export type PerYearOutput = CitationsPerYearOutput | FundingPerYearOutput;

export type OutputPlan = RecordsOutput | FacetOutput | PerYearOutput;

export interface SearchPlan {
  readonly kind: 'search';
  readonly source: string;
  readonly filter?: FilterPlan;
  readonly fullText?: FullTextPlan;
  readonly outputs: readonly OutputPlan[];
  /** Warnings from validation, passed through to `_warnings`. */
  readonly warnings: readonly string[];
  /**
   * The caller needs no `_stats.total_count` (a bulk export's chunks after the first): the
   * count over every match is left out and the total reads -1, so a chunk deep into a large
   * result costs its page, not a count of everything after it.
   */
  readonly uncounted?: boolean;
}
