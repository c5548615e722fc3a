/**
 * The native record of a report: what the OpenAlex and Crossref importers produce for works
 * typed as reports and what the generator writes (one JSON object per JSONL line of
 * `reports-NNNN.jsonl`), following the conventions of `model/native-records.ts`: field
 * names are the schema's (spec/schema-2026.md §7.9), references to other records are ids,
 * json fields are objects, and optional fields are left out, never `null`. The places of
 * the organizations (`research_org_countries`, `publisher_orgs_countries`, ...) are not in
 * the record: they are read through the organizations held.
 *
 * @example
 *   {"id":"W194118789","doi":"10.2172/843087","title":"COMPARISON OF THREE METHODS ...",
 *    "year":2005,"date":"2005-07-14","abstract":"Deforestation of temperate rainforests ...",
 *    "authors":[{"first_name":"Patrick","last_name":"Gonzalez","researcher_id":"A5109070406","affiliations":[]}],
 *    "research_orgs":[],"concepts":["Deforestation (computer science)","Temperate rainforest"],
 *    "concepts_scores":[{"concept":"Deforestation (computer science)","relevance":0.657}],
 *    "keywords":"Deforestation; Temperate rainforest","linkout":"https://doi.org/10.2172/843087",
 *    "external_ids":{"doi":"10.2172/843087","mag":"194118789","openalex":"W194118789"}}
 */
import type { Author, CategoryFields, ConceptScore } from '../../model/native-records.ts';

/** An organization as the source names it (`publisher_details`, `responsible_orgs_details`). */
export interface NamedOrganization {
  /** The name as written. */
  readonly name: string;
  /** The organization's id (a ROR URL, `grid.…`) when it is identified. */
  readonly id?: string;
}

/** A funder as the source names it (`funder_details`). */
export interface ReportFunder extends NamedOrganization {
  /** The award numbers the source gives for this funder. */
  readonly award?: readonly string[];
}

/** A report. */
export interface ReportRecord extends CategoryFields {
  /** The source's stable id: the OpenAlex work id (`W…`), `doi:` + the DOI (Crossref), `report.…` (generated). */
  readonly id: string;
  readonly title: string;
  readonly abstract?: string;
  /** Lower-case DOI without URL prefix. */
  readonly doi?: string;
  readonly year: number;
  /** Publication date `YYYY-MM-DD` (the year's first day when the source gives only the year). */
  readonly date: string;
  readonly date_inserted?: string;
  /** In byline order, as publications' authors. */
  readonly authors: readonly Author[];
  /** Organizations associated with the report: the responsible ones and the authors' affiliations. */
  readonly research_orgs: readonly string[];
  readonly responsible_orgs?: readonly string[];
  readonly responsible_orgs_details?: readonly NamedOrganization[];
  readonly publisher_orgs?: readonly string[];
  readonly publisher_details?: readonly NamedOrganization[];
  readonly funder_orgs?: readonly string[];
  readonly funder_details?: readonly ReportFunder[];
  readonly concepts?: readonly string[];
  readonly concepts_scores?: readonly ConceptScore[];
  /** Keywords as the source gives them, joined by `; ` (the schema's field is one string). */
  readonly keywords?: string;
  /** Identifier type → identifier (`{"doi": ..., "osti": ...}`). */
  readonly external_ids?: Readonly<Record<string, string>>;
  readonly linkout?: string;
}
