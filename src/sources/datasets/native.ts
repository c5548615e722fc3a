/**
 * The native record of a dataset: what the DataCite importer produces and the generator
 * writes (one JSON object per JSONL line), following the conventions of
 * `model/native-records.ts`: field names are the schema's (spec/schema-2026.md §7.7),
 * references to other records are ids, json fields are objects, and optional fields are left
 * out, never `null`. One field the schema does not have, `funder_details`, keeps each funding
 * reference in the source's words until a matcher can turn it into links (LAYOUT.md says
 * where it plugs in); it is stored, never exposed.
 *
 * @example
 *   {"id":"doi:10.5061/dryad.8515","doi":"10.5061/dryad.8515",
 *    "title":"Data from: A new malaria agent in African hominids.","description":"Plasmodium ...",
 *    "year":2011,"date":"2011-02-01","date_created":"2011-11-22","date_modified":"2026-01-27",
 *    "authors":[{"name":"Benjamin Ollomo","first_name":"Benjamin","last_name":"Ollomo",
 *      "affiliations":[{"name":"Centre International de Recherches Médicales de Franceville"}]}, ...],
 *    "research_orgs":[],"funders":[],"keywords":["mitochondrial genome","Parasites"],
 *    "language_title":"en","language_desc":"en","license_name":"CC0 1.0",
 *    "license_url":"https://creativecommons.org/publicdomain/zero/1.0/legalcode",
 *    "repository":{"id":"dryad.dryad","name":"Dryad"},
 *    "associated_publication":{"doi":"10.1371/journal.ppat.1000446"}}
 */
import type { Affiliation, CategoryFields } from '../../model/native-records.ts';

/** One author (a DataCite creator), in the source's order. */
export interface DatasetAuthor {
  /** The name as shown: `Given Family` for a person the source splits, else as the source writes it. */
  readonly name: string;
  readonly first_name?: string;
  readonly last_name?: string;
  /** ORCID iD without the URL prefix. */
  readonly orcid?: string;
  /** Researcher id (`ur.…`) when the author is an identified person (generated data). */
  readonly researcher_id?: string;
  /** The affiliations as named; `id` is the organization's id (a ROR URL from DataCite) when identified. */
  readonly affiliations: readonly Affiliation[];
}

/**
 * The publication a dataset is linked to (entity `publication_links`). Importers know its
 * DOI (or PMID); `id` is the held publication's id once it is found by them (LAYOUT.md,
 * "Associated publication").
 */
export interface DatasetPublicationLink {
  readonly id?: string;
  /** Lower-case DOI without URL prefix. */
  readonly doi?: string;
  readonly pmid?: string;
  readonly pmcid?: string;
}

/** The repository holding the dataset (entity `repositories`, which Quarry lacks so far). */
export interface DatasetRepository {
  /** The DataCite repository (client) id, e.g. `cern.zenodo`; else the publisher's name, lower-cased. */
  readonly id: string;
  readonly name: string;
}

/** One funding reference as the source gives it (DataCite `fundingReferences`). */
export interface DatasetFunding {
  /** The funder's name as written. */
  readonly name: string;
  /** The funder's organization id when the reference names one Quarry keys (ROR URL, `doi:10.13039/…`). */
  readonly id?: string;
  /** Another identifier of the funder (ISNI, GRID, ...) with its type, kept for a later matcher. */
  readonly identifier?: string;
  readonly identifier_type?: string;
  readonly award_number?: string;
  readonly award_title?: string;
  readonly award_uri?: string;
}

/** Datasets are classified like publications, but by no units of assessment. */
export type DatasetCategoryFields = Omit<CategoryFields, 'category_uoa'>;

/** A dataset. */
export interface DatasetRecord extends DatasetCategoryFields {
  /** `doi:` + the lower-case DOI, as Crossref works are keyed (generated ones use prefix 10.99999). */
  readonly id: string;
  /** Lower-case DOI without URL prefix. */
  readonly doi: string;
  readonly title: string;
  readonly description?: string;
  /** Year of publication, as the source gives it (real data has odd ones: 1734, 2549). */
  readonly year: number;
  /** Publication date `YYYY-MM-DD` (the year's first day when the source gives only the year). */
  readonly date: string;
  readonly date_created?: string;
  readonly date_modified?: string;
  readonly date_embargo?: string;
  readonly date_inserted?: string;
  readonly authors: readonly DatasetAuthor[];
  /** Distinct organization ids of the authors' affiliations (ROR URLs from DataCite). */
  readonly research_orgs: readonly string[];
  /** Organization ids of the funders (ROR URLs, or `doi:10.13039/…` for Crossref funder ids). */
  readonly funders: readonly string[];
  /** Every funding reference in the source's words (not a schema field: see the file's comment). */
  readonly funder_details?: readonly DatasetFunding[];
  /** Identified researchers (`ur.…`) among the authors or of the associated publication. */
  readonly researchers?: readonly string[];
  /** Free-text subjects. */
  readonly keywords?: readonly string[];
  /** ISO 639-1 codes. */
  readonly language_title?: string;
  readonly language_desc?: string;
  readonly license_name?: string;
  readonly license_url?: string;
  readonly repository?: DatasetRepository;
  readonly figshare_url?: string;
  readonly associated_publication?: DatasetPublicationLink;
  /** The associated publication's id, when it is known (generated data, or found by DOI on writing). */
  readonly associated_publication_id?: string;
  /** Grants (`grant.…`) of the associated publication. */
  readonly associated_grant_ids?: readonly string[];
  /** The associated publication's journal. */
  readonly journal?: { readonly id: string; readonly title: string };
  readonly dimensions_url?: string;
}
