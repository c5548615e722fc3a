/**
 * The native patent record: what the patent importers produce and the generator writes (one
 * JSON object per JSONL line), named as the fields of spec/schema-2026.md §7.5 so a record
 * reads like the API's answer for it. As in `model/native-records.ts`: references to other
 * records are ids, optional fields are left out (never `null`).
 *
 * A patent is keyed `<jurisdiction>-<number>-<kind>` as the hosted service keys it, the
 * number without the zeros USPTO pads it with (`US-11617522-B2`, `US-D967598-S1`,
 * `US-RE49257-E1`); `reference_ids` name cited patents the same way, so a citation of a held
 * patent is its id.
 *
 * @example
 *   {"id":"US-11617522-B2","title":"Sensor inserter with disposal lockout state","jurisdiction":"US",
 *    "kind":"B2","filing_status":"Grant","application_number":"16533534","date":"2019-08-06","year":2019,
 *    "priority_date":"2019-08-06","priority_year":2019,"publication_date":"2023-04-04","publication_year":2023,
 *    "granted_date":"2023-04-04","granted_year":2023,"cpc":["A61B5/14532"],"ipcr":["A61B5/145"],
 *    "claims_amount":20,"inventor_names":["Xin X. Li"],"inventors":[{"first_name":"Xin X.","last_name":"Li",
 *    "city":"Shanghai","country_code":"CN"}],"researchers":[],"assignee_names":["MEDTRONIC MINIMED, INC."],
 *    "original_assignee_names":["MEDTRONIC MINIMED, INC."],"assignees":[],"original_assignees":[],
 *    "assignee_cities":["Northridge"],"assignee_countries":["US"],"assignee_state_codes":["US-CA"],
 *    "reference_ids":["US-4755173-A"],"funders":[]}
 */
import type { CategoryFields } from '../../model/native-records.ts';

/** One inventor, in the order the document lists them (the `inventors` JSON field). */
export interface PatentInventor {
  readonly first_name: string;
  readonly last_name: string;
  /** Researcher id (`ur.…`) when the inventor is an identified person. */
  readonly researcher_id?: string;
  readonly city?: string;
  /** ISO 3166-2 (`US-CA`), as organizations' `state_code`. */
  readonly state_code?: string;
  /** ISO 3166-1 alpha-2. */
  readonly country_code?: string;
}

/** A publication a patent cites (the `publication_links` entity: `{id, doi, pmid, pmcid}`). */
export interface PublicationLink {
  /** Publication id when the publication is held. */
  readonly id?: string;
  readonly doi?: string;
  readonly pmid?: string;
  readonly pmcid?: string;
}

/**
 * What an importer found but could not resolve to ids: the inputs of the matchers that come
 * later (funder names to organizations, contract numbers to grants). Not a schema field: the
 * store keeps it out of the answers.
 */
export interface PatentUnmatched {
  /** Federal agencies named by the government-interest statement, as written. */
  readonly funder_names?: readonly string[];
  /** Contract and award numbers the statement names (PatentsView `g_gov_interest_contracts`). */
  readonly contract_numbers?: readonly string[];
}

/** Patents classify by the schemes of §7.5: no `category_sdg`, no `category_uoa`. */
export type PatentCategoryFields = Omit<CategoryFields, 'category_sdg' | 'category_uoa'>;

/** A patent grant or a published application. */
export interface PatentRecord extends PatentCategoryFields {
  /** `US-11617522-B2`: jurisdiction, number without padding zeros, kind code. */
  readonly id: string;
  readonly title: string;
  readonly abstract?: string;
  /** Country code of the office: `US`. */
  readonly jurisdiction: string;
  /** Kind code: `B1`, `B2` (utility grants), `S1` (design), `P2`/`P3` (plant), `E1` (reissue), `A1`/`A2`/`A9` (applications). */
  readonly kind: string;
  /** `Grant` or `Application`. */
  readonly filing_status: string;
  readonly application_number?: string;
  /** Filing date `YYYY-MM-DD` (the schema's `date`; `filing_date` answers with it). */
  readonly date?: string;
  /** Filing year. */
  readonly year?: number;
  /** The earliest priority claimed, else the filing date. */
  readonly priority_date?: string;
  readonly priority_year?: number;
  readonly publication_date: string;
  readonly publication_year: number;
  /** A grant's issue date (its publication date); absent for an application. */
  readonly granted_date?: string;
  readonly granted_year?: number;
  readonly expiration_date?: string;
  readonly legal_status?: string;
  /** EPO DOCDB simple family (not in the USPTO or PatentsView data). */
  readonly family_id?: number;
  readonly family_count?: number;
  /** CPC symbols, main first, as `A61B5/14532`. */
  readonly cpc: readonly string[];
  /** IPC symbols, first the one in first position, as `A61B5/145`. */
  readonly ipcr: readonly string[];
  readonly claims_amount?: number;
  /** "First Last" of each inventor, in document order. */
  readonly inventor_names: readonly string[];
  readonly inventors: readonly PatentInventor[];
  /** Distinct researcher ids among the inventors. */
  readonly researchers: readonly string[];
  /** Names of the assignees as written: current and original (`assignees` is their union). */
  readonly assignee_names: readonly string[];
  /** The assignees on the document when it was published. */
  readonly original_assignee_names: readonly string[];
  /** From assignment records (none in the USPTO or PatentsView grant data). */
  readonly current_assignee_names?: readonly string[];
  /** Organization ids of the assignees, current and original, as the source gives them (`finish()` links the names of a patent without any: `store/organization-links.ts`). */
  readonly assignees: readonly string[];
  readonly original_assignees: readonly string[];
  readonly current_assignees?: readonly string[];
  /** Assignee places as the document gives them (not the organizations'): city names, ISO codes, `US-CA`. */
  readonly assignee_cities?: readonly string[];
  readonly assignee_countries?: readonly string[];
  readonly assignee_state_codes?: readonly string[];
  /** Ids of cited patents (same form as `id`), whether held or not. */
  readonly reference_ids: readonly string[];
  /** Held patents citing this one: counted by the store from the held patents' `reference_ids`. */
  readonly times_cited?: number;
  /** Ids of held publications the patent cites. */
  readonly publication_ids?: readonly string[];
  readonly publications?: readonly PublicationLink[];
  /** Government-interest statements, as written. */
  readonly federal_support?: readonly string[];
  /** Organization ids of the funders: filled by the funder matcher from `unmatched.funder_names`. */
  readonly funders: readonly string[];
  /** Countries of the funders (`US` for a US government-interest statement). */
  readonly funder_countries?: readonly string[];
  /** Grant ids (`grant.…`) the patent names. */
  readonly associated_grant_ids?: readonly string[];
  /** e.g. `Research Organisation`, `Orange Book`. */
  readonly additional_filters?: readonly string[];
  /** FDA Orange Book patent rows naming the patent (`Appl_No`, `Product_No`, `Patent_Expire_Date_Text`, ...). */
  readonly orange_book?: readonly Readonly<Record<string, string>>[];
  readonly date_inserted?: string;
  readonly dimensions_url?: string;
  /**
   * The claims' text, for the `title_abstract_claims` and `full_data` search indexes: not a
   * schema field (the hosted service returns no claims text).
   */
  readonly claims_text?: string;
  readonly unmatched?: PatentUnmatched;
}
