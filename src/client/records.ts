/**
 * Typed results for the four sources of spec/data-model.md (DSL version 2). Every field is
 * optional: a record holds only the fields the query asked for (`basics` when no list is
 * given), and missing values are absent or null.
 *
 * @example
 * const pubs = await client.all('search publications where year = 2020 return publications[id + title + year]');
 * pubs[0]?.year; // number | null | undefined
 */

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

/** One investigator of a grant. */
export interface Investigator extends Author {
  readonly role?: string;
}

/** One concept with its relevance score (`concepts_scores`). */
export interface ConceptScore {
  readonly concept?: string;
  readonly relevance?: number;
}

/** A `publications` record as the service returns it: only the requested fields are present. */
export interface Publication {
  readonly abstract?: string | null;
  readonly acknowledgements?: string | null;
  readonly altmetric?: number | null;
  readonly altmetric_id?: number | null;
  readonly arxiv_id?: string | null;
  readonly authors?: readonly Author[] | null;
  readonly authors_count?: number | null;
  readonly book_doi?: string | null;
  readonly book_series_title?: string | null;
  readonly book_title?: string | null;
  readonly category_bra?: readonly CategoryRef[] | null;
  readonly category_for?: readonly CategoryRef[] | null;
  readonly category_hra?: readonly CategoryRef[] | null;
  readonly category_hrcs_hc?: readonly CategoryRef[] | null;
  readonly category_hrcs_rac?: readonly CategoryRef[] | null;
  readonly category_icrp_cso?: readonly CategoryRef[] | null;
  readonly category_icrp_ct?: readonly CategoryRef[] | null;
  readonly category_rcdc?: readonly CategoryRef[] | null;
  readonly category_sdg?: readonly CategoryRef[] | null;
  readonly category_uoa?: readonly CategoryRef[] | null;
  readonly clinical_trial_ids?: readonly string[] | null;
  readonly concepts?: readonly string[] | null;
  readonly concepts_scores?: readonly ConceptScore[] | null;
  readonly date?: string | null;
  readonly date_inserted?: string | null;
  readonly date_online?: string | null;
  readonly date_print?: string | null;
  readonly dimensions_url?: string | null;
  readonly doi?: string | null;
  readonly field_citation_ratio?: number | null;
  readonly funder_countries?: readonly PlaceRef[] | null;
  readonly funders?: readonly OrganizationRef[] | null;
  readonly id?: string | null;
  readonly issn?: readonly string[] | null;
  readonly issue?: string | null;
  readonly journal?: JournalRef | null;
  readonly journal_lists?: readonly string[] | null;
  readonly journal_title_raw?: string | null;
  readonly linkout?: string | null;
  readonly mesh_terms?: readonly string[] | null;
  readonly open_access?: readonly string[] | null;
  readonly pages?: string | null;
  readonly pmcid?: string | null;
  readonly pmid?: string | null;
  readonly proceedings_title?: string | null;
  readonly publisher?: string | null;
  readonly recent_citations?: number | null;
  readonly reference_ids?: readonly string[] | null;
  readonly referenced_pubs?: readonly PublicationLink[] | null;
  readonly relative_citation_ratio?: number | null;
  readonly research_org_cities?: readonly PlaceRef[] | null;
  readonly research_org_countries?: readonly PlaceRef[] | null;
  readonly research_org_country_names?: readonly string[] | null;
  readonly research_org_names?: readonly string[] | null;
  readonly research_org_state_codes?: readonly PlaceRef[] | null;
  readonly research_org_state_names?: readonly string[] | null;
  readonly research_orgs?: readonly OrganizationRef[] | null;
  readonly researchers?: readonly ResearcherRef[] | null;
  readonly resulting_publication_doi?: string | null;
  readonly source_title?: JournalRef | null;
  readonly subtitles?: readonly string[] | null;
  readonly supporting_grant_ids?: readonly string[] | null;
  readonly times_cited?: number | null;
  readonly title?: string | null;
  readonly type?: string | null;
  readonly volume?: string | null;
  readonly year?: number | null;
}

/** A `grants` record as the service returns it: only the requested fields are present. */
export interface Grant {
  readonly abstract?: string | null;
  readonly active_year?: readonly number[] | null;
  readonly category_bra?: readonly CategoryRef[] | null;
  readonly category_for?: readonly CategoryRef[] | null;
  readonly category_hra?: readonly CategoryRef[] | null;
  readonly category_hrcs_hc?: readonly CategoryRef[] | null;
  readonly category_hrcs_rac?: readonly CategoryRef[] | null;
  readonly category_icrp_cso?: readonly CategoryRef[] | null;
  readonly category_icrp_ct?: readonly CategoryRef[] | null;
  readonly category_rcdc?: readonly CategoryRef[] | null;
  readonly category_sdg?: readonly CategoryRef[] | null;
  readonly category_uoa?: readonly CategoryRef[] | null;
  readonly concepts?: readonly string[] | null;
  readonly concepts_scores?: readonly ConceptScore[] | null;
  readonly date_inserted?: string | null;
  readonly dimensions_url?: string | null;
  readonly end_date?: string | null;
  readonly foa_number?: string | null;
  readonly funder_countries?: readonly PlaceRef[] | null;
  readonly funders?: readonly OrganizationRef[] | null;
  readonly funding_aud?: number | null;
  readonly funding_cad?: number | null;
  readonly funding_chf?: number | null;
  readonly funding_currency?: string | null;
  readonly funding_eur?: number | null;
  readonly funding_gbp?: number | null;
  readonly funding_jpy?: number | null;
  readonly funding_nzd?: number | null;
  readonly funding_org_acronym?: string | null;
  readonly funding_org_city?: string | null;
  readonly funding_org_name?: string | null;
  readonly funding_usd?: number | null;
  readonly grant_number?: string | null;
  readonly id?: string | null;
  readonly investigators?: readonly Investigator[] | null;
  readonly language?: string | null;
  readonly language_title?: string | null;
  readonly linkout?: string | null;
  readonly original_title?: string | null;
  readonly research_org_cities?: readonly PlaceRef[] | null;
  readonly research_org_countries?: readonly PlaceRef[] | null;
  readonly research_org_names?: readonly string[] | null;
  readonly research_org_state_codes?: readonly PlaceRef[] | null;
  readonly research_orgs?: readonly OrganizationRef[] | null;
  readonly researchers?: readonly ResearcherRef[] | null;
  readonly start_date?: string | null;
  readonly start_year?: number | null;
  readonly title?: string | null;
}

/** A `researchers` record as the service returns it: only the requested fields are present. */
export interface Researcher {
  readonly current_research_org?: OrganizationRef | null;
  readonly dimensions_url?: string | null;
  readonly first_grant_year?: number | null;
  readonly first_name?: string | null;
  readonly first_publication_year?: number | null;
  readonly id?: string | null;
  readonly last_grant_year?: number | null;
  readonly last_name?: string | null;
  readonly last_publication_year?: number | null;
  readonly nih_ppid?: string | null;
  readonly obsolete?: number | null;
  readonly orcid_id?: readonly string[] | null;
  readonly redirect?: readonly string[] | null;
  readonly research_orgs?: readonly OrganizationRef[] | null;
  readonly total_grants?: number | null;
  readonly total_publications?: number | null;
}

/** A `organizations` record as the service returns it: only the requested fields are present. */
export interface Organization {
  readonly acronym?: string | null;
  readonly city_name?: string | null;
  readonly cnrs_ids?: readonly string[] | null;
  readonly country_name?: string | null;
  readonly dimensions_url?: string | null;
  readonly established?: number | null;
  readonly external_ids_fundref?: readonly string[] | null;
  readonly hesa_ids?: readonly string[] | null;
  readonly id?: string | null;
  readonly isni_ids?: readonly string[] | null;
  readonly latitude?: number | null;
  readonly linkout?: readonly string[] | null;
  readonly longitude?: number | null;
  readonly name?: string | null;
  readonly nuts_level1_code?: string | null;
  readonly nuts_level1_name?: string | null;
  readonly nuts_level2_code?: string | null;
  readonly nuts_level2_name?: string | null;
  readonly nuts_level3_code?: string | null;
  readonly nuts_level3_name?: string | null;
  readonly organization_child_ids?: readonly string[] | null;
  readonly organization_parent_ids?: readonly string[] | null;
  readonly organization_related_ids?: readonly string[] | null;
  readonly orgref_ids?: readonly string[] | null;
  readonly redirect?: string | null;
  readonly ror_ids?: readonly string[] | null;
  readonly state_name?: string | null;
  readonly status?: string | null;
  readonly types?: readonly string[] | null;
  readonly ucas_ids?: readonly string[] | null;
  readonly ukprn_ids?: readonly string[] | null;
  readonly wikidata_ids?: readonly string[] | null;
  readonly wikipedia_url?: string | null;
}

/** The record type of each source, by the name queries use. */
export interface SourceRecords {
  readonly publications: Publication;
  readonly grants: Grant;
  readonly researchers: Researcher;
  readonly organizations: Organization;
}

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
