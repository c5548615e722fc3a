/**
 * The native record types: what `quarry generate` writes (one JSON object per JSONL line)
 * and what every importer produces. Field names are the data model's field names
 * (spec/data-model.md), so a record reads like the API's answer for it.
 *
 * References to other records are ids (strings), except where the model says the field
 * holds an object (`journal`, `category_*`, `authors`, `investigators`): display data of
 * organizations and researchers is looked up from their own records by the store.
 * Optional fields are left out, never written as `null`.
 *
 * @example
 *   {"id":"pub.1900000001","title":"...","type":"article","year":2011,"date":"2011-03-14",
 *    "authors":[{"first_name":"Ana","last_name":"Silva","researcher_id":"ur.0100000001.41",
 *    "affiliations":[{"id":"grid.900001.a","name":"...","city":"Porto","country":"Portugal"}]}],
 *    "research_orgs":["grid.900001.a"],"funders":[],"supporting_grant_ids":[],"reference_ids":[],
 *    "times_cited":0,"recent_citations":0,"category_for":[{"id":"3101","name":"Biochemistry and cell biology"}],
 *    "concepts":["cell"],"open_access":["closed"]}
 */
import type { SourceTitleRecord } from '../sources/source_titles/native.ts';
import type { NativeKind } from './sources.ts';

/** The record kinds, one JSONL shard family each (same names as the store's tables): the registry's. */
export { NATIVE_KINDS, type NativeKind } from './sources.ts';

/** An entity named with its display name: categories (`{id, name}`). */
export interface NamedRef {
  /** Category code, e.g. `"3101"` (FoR group) or `"31"` (division). */
  readonly id: string;
  readonly name: string;
}

/** An organization as one author's affiliation (as the source names it). */
export interface Affiliation {
  /** Organization id (`grid.…`) when the affiliation is resolved to a record. */
  readonly id?: string;
  /** The affiliation's name as written. */
  readonly name: string;
  readonly city?: string;
  /** GeoNames id of the city (a number, as the hosted service gives it). */
  readonly city_id?: number;
  readonly country?: string;
  readonly country_code?: string;
  readonly state?: string;
  /** ISO 3166-2 code (`US-CA`). */
  readonly state_code?: string;
  /** The affiliation string as printed in the publication. */
  readonly raw_affiliation?: string;
}

/** One author of a publication, in byline order. */
export interface Author {
  readonly first_name: string;
  readonly last_name: string;
  /** Researcher id (`ur.…`) when the author is an identified person; absent for name-only slots. */
  readonly researcher_id?: string;
  /** ORCID iD without the URL prefix, e.g. `0000-0002-1825-0097`. */
  readonly orcid?: string;
  /** Is this the corresponding author. */
  readonly corresponding?: boolean;
  /** The author's current organization id (the hosted service marks it deprecated; kept for its clients). */
  readonly current_organization_id?: string;
  readonly affiliations: readonly Affiliation[];
  /** The author's affiliation strings as printed. */
  readonly raw_affiliation?: readonly string[];
}

/** One investigator of a grant. */
export interface Investigator {
  readonly first_name: string;
  readonly last_name: string;
  readonly researcher_id?: string;
  readonly orcid?: string;
  /** `PI` or `Co-PI` (free text from real sources). */
  readonly role: string;
  readonly affiliations: readonly Affiliation[];
}

/** A concept with its relevance score in [0, 1]. */
export interface ConceptScore {
  readonly concept: string;
  readonly relevance: number;
}

/** The category fields records may carry, by scheme (`category_for` is the one generated). */
export interface CategoryFields {
  /** Fields of Research 2020: divisions (2 digits) and groups (4 digits). */
  readonly category_for?: readonly NamedRef[];
  readonly category_bra?: readonly NamedRef[];
  readonly category_hra?: readonly NamedRef[];
  readonly category_hrcs_hc?: readonly NamedRef[];
  readonly category_hrcs_rac?: readonly NamedRef[];
  readonly category_icrp_cso?: readonly NamedRef[];
  readonly category_icrp_ct?: readonly NamedRef[];
  readonly category_rcdc?: readonly NamedRef[];
  readonly category_sdg?: readonly NamedRef[];
  readonly category_uoa?: readonly NamedRef[];
}

/** A publication (article, chapter, book, proceeding, preprint, monograph, ...). */
/** One identifier of a grant (`project_numbers`): what kind of number it is, and the number. */
export interface ProjectNumber {
  readonly label: string;
  readonly value: string;
}

export interface PublicationRecord extends CategoryFields {
  /** `pub.19` + 8 digits when generated; importers keep a stable id from the source. */
  readonly id: string;
  readonly title: string;
  readonly abstract?: string;
  /** Lower-case DOI without URL prefix. */
  readonly doi?: string;
  /** article | chapter | book | proceeding | preprint | monograph | ... */
  readonly type: string;
  /** Predicted document type (current schema): research_article, review_article, research_chapter, ... */
  readonly document_type?: string;
  readonly year: number;
  /** Publication date, `YYYY-MM-DD` (month/day `01` when the source gives less). */
  readonly date: string;
  readonly date_inserted?: string;
  readonly date_online?: string;
  readonly date_print?: string;
  readonly journal?: { readonly id: string; readonly title: string };
  readonly journal_title_raw?: string;
  readonly volume?: string;
  readonly issue?: string;
  readonly pages?: string;
  readonly publisher?: string;
  readonly issn?: readonly string[];
  readonly authors: readonly Author[];
  /** Distinct organization ids of the authors' affiliations. */
  readonly research_orgs: readonly string[];
  /** Organization ids of the funders. */
  readonly funders: readonly string[];
  /** Grant ids (`grant.…`) that supported the work. */
  readonly supporting_grant_ids: readonly string[];
  /** Ids of cited publications (only those held; a generator never cites outside its set). */
  readonly reference_ids: readonly string[];
  /** Held publications citing this one (computed consistently by the generator; the store may recount). */
  readonly times_cited: number;
  /** Of those, citations from the last two years of the data. */
  readonly recent_citations: number;
  readonly concepts: readonly string[];
  readonly concepts_scores?: readonly ConceptScore[];
  /** Open-access labels: `oa_all` plus one of gold/hybrid/bronze/green, or `closed`. */
  readonly open_access: readonly string[];
  readonly mesh_terms?: readonly string[];
  readonly altmetric?: number;
  readonly altmetric_id?: number;
  readonly relative_citation_ratio?: number;
  readonly field_citation_ratio?: number;
  readonly acknowledgements?: string;
  readonly pmid?: string;
  readonly pmcid?: string;
  readonly arxiv_id?: string;
  readonly clinical_trial_ids?: readonly string[];
  readonly book_doi?: string;
  readonly book_title?: string;
  readonly book_series_title?: string;
  readonly proceedings_title?: string;
  /** ISBNs of the book or volume, digits only (a chapter carries its book's). */
  readonly isbn?: readonly string[];
  /** Editors of the book or proceedings volume as printed, names joined by `; `. */
  readonly editors?: string;
  /** The funding statement as printed (the `funding` search index). */
  readonly funding_section?: string;
  readonly linkout?: string;
}

/** A research grant. */
export interface GrantRecord extends CategoryFields {
  /** `grant.9` + 6 digits when generated. */
  readonly id: string;
  readonly title: string;
  readonly abstract?: string;
  readonly original_title?: string;
  /** Organization ids of the funders (the first is the funding organization). */
  readonly funders: readonly string[];
  readonly funding_usd?: number;
  /** Amount in the original currency when not USD, under `funding_<cur>` (e.g. funding_eur). */
  readonly funding_eur?: number;
  readonly funding_gbp?: number;
  readonly funding_aud?: number;
  readonly funding_cad?: number;
  readonly funding_chf?: number;
  readonly funding_jpy?: number;
  readonly funding_nzd?: number;
  /** ISO 4217 code of the original amount. */
  readonly funding_currency?: string;
  readonly start_date?: string;
  readonly end_date?: string;
  readonly start_year?: number;
  /** Every calendar year from start to end. */
  readonly active_year?: readonly number[];
  readonly investigators: readonly Investigator[];
  /** Distinct organization ids of the investigators' affiliations. */
  readonly research_orgs: readonly string[];
  readonly grant_number?: string;
  readonly foa_number?: string;
  /** The day the record was added to the index (YYYY-MM-DD). */
  readonly date_inserted?: string;
  /** Identifiers of the grant as its sources give them (NIH: the project number and the core project number). */
  readonly project_numbers?: readonly ProjectNumber[];
  /** The funding organization's display data, when a source gives it without a record. */
  readonly funding_org_name?: string;
  readonly funding_org_acronym?: string;
  readonly funding_org_city?: string;
  /** ISO 639-1 language code of the title. */
  readonly language?: string;
  readonly language_title?: string;
  readonly concepts?: readonly string[];
  readonly concepts_scores?: readonly ConceptScore[];
  readonly linkout?: string;
  /** `Active` while the grant runs, `Closed` after its end date (current schema). */
  readonly active_status?: string;
  /** Keywords the funder gives. */
  readonly keywords?: readonly string[];
  /** Funding schemes, programmes or mechanisms the funder files the grant under. */
  readonly funding_schemes?: readonly string[];
  readonly funding_cny?: number;
}

/** An identified person. */
export interface ResearcherRecord {
  /** `ur.0` + 9 digits + `.` + 2 check digits when generated. */
  readonly id: string;
  readonly first_name: string;
  readonly last_name: string;
  /** ORCID iDs (without URL prefix). */
  readonly orcid_id?: readonly string[];
  /** Every organization id the person has been affiliated with. */
  readonly research_orgs: readonly string[];
  /** The most recent affiliation's organization id. */
  readonly current_research_org?: string;
  readonly first_publication_year?: number;
  readonly last_publication_year?: number;
  readonly first_grant_year?: number;
  readonly last_grant_year?: number;
  /** Counted from authorships in the data. */
  readonly total_publications: number;
  /** Counted from investigator slots in the data. */
  readonly total_grants: number;
  readonly nih_ppid?: string;
  readonly obsolete?: number;
  readonly redirect?: readonly string[];
}

/** An organization; funders are organizations whose `types` include `funder`. */
export interface OrganizationRecord {
  /** `grid.` + 6 digits (≥ 900000 when generated) + `.` + hex check character. */
  readonly id: string;
  readonly name: string;
  readonly acronym?: string;
  /** Other names (labels, aliases) for search. */
  readonly aliases?: readonly string[];
  /** education | funder | facility | company | nonprofit | government | healthcare | other | archive */
  readonly types: readonly string[];
  /** GeoNames id of the city when known. */
  readonly city_id?: string;
  readonly city_name?: string;
  readonly state_code?: string;
  readonly state_name?: string;
  /** ISO 3166-1 alpha-2. */
  readonly country_code?: string;
  readonly country_name?: string;
  readonly latitude?: number;
  readonly longitude?: number;
  readonly established?: number;
  /** active | inactive | withdrawn */
  readonly status: string;
  /** Real ROR ids (URLs) of the organization the record is drawn from. */
  readonly ror_ids?: readonly string[];
  readonly wikidata_ids?: readonly string[];
  readonly isni_ids?: readonly string[];
  readonly external_ids_fundref?: readonly string[];
  readonly organization_parent_ids?: readonly string[];
  readonly organization_child_ids?: readonly string[];
  readonly organization_related_ids?: readonly string[];
  readonly linkout?: readonly string[];
  readonly wikipedia_url?: string;
  /** Registry ids: CNRS units, UK providers (UKPRN, HESA, UCAS), OrgRef. */
  readonly cnrs_ids?: readonly string[];
  readonly ukprn_ids?: readonly string[];
  readonly hesa_ids?: readonly string[];
  readonly ucas_ids?: readonly string[];
  readonly orgref_ids?: readonly string[];
}

/** A category of a classification scheme. */
export interface CategoryRecord {
  /** The scheme's code, e.g. `"46"` or `"4611"`. */
  readonly id: string;
  readonly name: string;
  /** The scheme: `for` (Fields of Research 2020), ... */
  readonly scheme: string;
  /** Code as written by the scheme when the id differs. */
  readonly code?: string;
}

/**
 * The SJR and SNIP of the journal with an ISSN, for a year (a row of a title-metrics file):
 * `finish()` gives each source title the values of the latest year of any of its ISSNs.
 */
export interface TitleMetricRecord {
  /** `<issn>:<year>` (`<issn>:` without a year). */
  readonly id: string;
  /** `NNNN-NNNX`. */
  readonly issn: string;
  readonly year?: number;
  readonly sjr?: number;
  readonly snip?: number;
}

/** Record type by kind, for the kinds with a type written here. */
export interface NativeRecordByKind {
  publications: PublicationRecord;
  grants: GrantRecord;
  researchers: ResearcherRecord;
  organizations: OrganizationRecord;
  categories: CategoryRecord;
  source_titles: SourceTitleRecord;
  title_metrics: TitleMetricRecord;
}

/**
 * The record type of a kind: its type here, or for a source without one any JSON object with
 * an id (what the row hooks of its declaration read).
 */
export type NativeRecordOf<Kind extends NativeKind> = Kind extends keyof NativeRecordByKind
  ? NativeRecordByKind[Kind]
  : { readonly id: string; readonly [field: string]: unknown };

export type NativeRecord = NativeRecordOf<NativeKind>;
