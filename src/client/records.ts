/**
 * Typed results for the sources of spec/data-model.md (DSL version 2). Every field is
 * optional: a record holds only the fields the query asked for (`basics` when no list is
 * given), and missing values are absent or null.
 *
 * @example
 * const pubs = await client.all('search publications where year = 2020 return publications[id + title + year]');
 * pubs[0]?.year; // number | null | undefined
 */
import type { SourceModule } from '../model/sources.ts';

/** A category (`category_for`, `category_sdg`, ...). */
export interface CategoryRef {
  readonly id?: string;
  readonly name?: string;
}

/** A country, city or state. */
export interface PlaceRef {
  readonly id?: string;
  readonly name?: string;
}

/** A journal (or source title). */
export interface JournalRef {
  readonly id?: string;
  readonly title?: string;
}

/** A source title held by an entity field (`source_title`): a facet row or field list may ask for more of it. */
export interface SourceTitleRef extends JournalRef {
  readonly type?: string;
  readonly issn?: readonly string[];
  readonly start_year?: number;
}

/** A data repository (a dataset's `repository`). */
export interface RepositoryRef {
  readonly id?: string;
  readonly name?: string;
}

/** An organization held by an entity field (`research_orgs`, `funders`, ...). */
export interface OrganizationRef {
  readonly id?: string;
  readonly name?: string;
  readonly acronym?: string;
  readonly city_name?: string;
  readonly country_name?: string;
  readonly types?: readonly string[];
}

/** A researcher held by an entity field (`researchers`). */
export interface ResearcherRef {
  readonly id?: string;
  readonly first_name?: string;
  readonly last_name?: string;
  readonly orcid_id?: readonly string[] | string;
}

/** A reference between publications (`referenced_pubs`). */
export interface PublicationLink {
  readonly id?: string;
  readonly doi?: string;
  readonly pmid?: string;
  readonly pmcid?: string;
}

/** One affiliation of an author or investigator. */
export interface Affiliation {
  readonly id?: string;
  readonly name?: string;
  readonly city?: string;
  readonly city_id?: string | number;
  readonly country?: string;
  readonly country_code?: string;
  readonly state?: string;
  readonly state_code?: string;
}

/** One author of a publication, in byline order. */
export interface Author {
  readonly first_name?: string;
  readonly last_name?: string;
  readonly researcher_id?: string | null;
  readonly orcid?: string | readonly string[] | null;
  readonly corresponding?: boolean | string | null;
  readonly affiliations?: readonly Affiliation[];
}

/** One investigator of a grant or a clinical trial. */
export interface Investigator extends Author {
  readonly role?: string;
  /** A trial's investigator's name as the registry gives it, degrees and all, when it says more. */
  readonly raw_name?: string;
}

/** One intervention of a clinical trial (`interventions`). */
export interface TrialIntervention {
  readonly type?: string;
  readonly name?: string;
  readonly description?: string;
  readonly arm_group_labels?: readonly string[];
  readonly other_names?: readonly string[];
}

/** One outcome measure of a clinical trial (`study_outcome_measures`). */
export interface TrialOutcomeMeasure {
  readonly type?: string;
  readonly measure?: string;
  readonly description?: string;
  readonly time_frame?: string;
}

/** One concept with its relevance score (`concepts_scores`). */
export interface ConceptScore {
  readonly concept?: string;
  readonly relevance?: number;
}

/** Entity kinds (spec/data-model.md) → the type of one value as the service returns it. */
interface EntityValues {
  readonly categories: CategoryRef;
  readonly cities: PlaceRef;
  readonly countries: PlaceRef;
  readonly states: PlaceRef;
  readonly journals: JournalRef;
  readonly source_titles: SourceTitleRef;
  readonly organizations: OrganizationRef;
  readonly researchers: ResearcherRef;
  readonly publication_links: PublicationLink;
  readonly repositories: RepositoryRef;
  readonly open_access: string;
}

/** Structured (`json`) fields, whose shape the field table does not spell out. */
interface StructuredValues {
  readonly authors: readonly Author[];
  readonly investigators: readonly Investigator[];
  readonly concepts: readonly string[];
  readonly concepts_scores: readonly ConceptScore[];
  readonly interventions: readonly TrialIntervention[];
  readonly study_outcome_measures: readonly TrialOutcomeMeasure[];
}

type OneValue<Type> = Type extends 'string' | 'date'
  ? string
  : Type extends 'integer' | 'float'
    ? number
    : Type extends keyof EntityValues
      ? EntityValues[Type]
      : unknown;

/** A field's value: structured fields by name, lists for multi-value flags (`m`), else one value. */
type FieldValue<Name, Type, Flags> = Name extends keyof StructuredValues
  ? StructuredValues[Name]
  : Flags extends `${string}m${string}`
    ? readonly OneValue<Type>[]
    : OneValue<Type>;

/**
 * A source's record type, derived from its field table in its declaration
 * (`src/sources/<name>/model.ts`, the one place the data model is written): every field
 * optional, since a record holds only the fields the query asked for.
 */
type RecordOf<Rows extends ReadonlyArray<readonly [string, string, string, string]>> = {
  readonly [Row in Rows[number] as Row[0]]?: FieldValue<Row[0], Row[1], Row[2]> | null;
};

/**
 * The record type of each source, by the name queries use: one per source of the registry
 * (`model/sources.ts`), so a new source has its type here without an edit.
 */
export type SourceRecords = {
  readonly [Source in SourceModule as Source['name']]: RecordOf<Source['fieldTable']['fields']>;
};

/** A `publications` record as the service returns it: only the requested fields are present. */
export type Publication = SourceRecords['publications'];

/** A `grants` record as the service returns it: only the requested fields are present. */
export type Grant = SourceRecords['grants'];

/** A `researchers` record as the service returns it: only the requested fields are present. */
export type Researcher = SourceRecords['researchers'];

/** An `organizations` record as the service returns it: only the requested fields are present. */
export type Organization = SourceRecords['organizations'];

/** A `datasets` record as the service returns it: only the requested fields are present. */
export type Dataset = SourceRecords['datasets'];

/** A `clinical_trials` record as the service returns it: only the requested fields are present. */
export type ClinicalTrial = SourceRecords['clinical_trials'];

/** A `source_titles` record as the service returns it: only the requested fields are present. */
export type SourceTitle = SourceRecords['source_titles'];

export type SourceName = keyof SourceRecords;

/** A record of a source this client has no type for (or a row of a facet). */
export type QuarryRecord = Readonly<Record<string, unknown>>;

/**
 * One facet row (`return year`, `return funders aggregate funding`): `id`, `count`, the
 * entity's display fields and one number per aggregated indicator.
 */
export interface FacetRow {
  readonly id: string | number;
  readonly count: number;
  readonly [field: string]: unknown;
}

/** `_stats` of a result. */
export interface ResultStats {
  /** Records of the searched source that match, whatever was returned. */
  readonly total_count: number;
  readonly limit?: number;
  readonly offset?: number;
}

/** `describe version`, and `_version` of a result. */
export interface VersionInfo {
  readonly release: string;
  readonly version: string;
}

/**
 * A query result in the protocol's shape: one array per returned item kind, plus the
 * metadata keys. Every key that is not metadata is an array (spec/protocol.md §3).
 */
export interface QueryResult {
  readonly _stats?: ResultStats;
  readonly _warnings?: readonly string[];
  readonly _notes?: readonly string[];
  readonly _version?: VersionInfo;
  readonly _copyright?: unknown;
  readonly [key: string]: unknown;
}

/** The result of a search over source `S` returning that source. */
export type SearchResult<S extends SourceName> = QueryResult & { readonly [K in S]: readonly SourceRecords[K][] };

/** One field as `describe` lists it. */
export interface DescribedField {
  readonly type: string;
  readonly description?: string;
  readonly is_entity: boolean;
  readonly is_filter: boolean;
  readonly is_facet: boolean;
  readonly is_multivalue: boolean;
}

/** One source as `describe source NAME` (or a part of `describe schema`) lists it. */
export interface DescribedSource {
  readonly fields: Readonly<Record<string, DescribedField>>;
  readonly fieldsets?: readonly string[];
  readonly metrics?: Readonly<Record<string, unknown>>;
  readonly search_fields?: readonly string[];
}

/** `describe schema`. */
export interface DescribedSchema {
  readonly sources: Readonly<Record<string, DescribedSource>>;
  readonly entities: Readonly<Record<string, { readonly fields: Readonly<Record<string, DescribedField>> }>>;
}

/** The metadata keys of a result; every other key holds an array. */
export const METADATA_KEYS: ReadonlySet<string> = new Set(['_stats', '_warnings', '_notes', '_version', '_copyright']);
