/**
 * The native record of a clinical trial: what the ClinicalTrials.gov importer produces and
 * the generator writes (one JSON object per JSONL line), following the conventions of
 * `model/native-records.ts`: field names are the schema's (spec/schema-2026.md §7.6),
 * references to other records are ids, json fields are objects, and optional fields are
 * left out, never `null`. A few fields the schema does not have (`sponsors`,
 * `secondary_ids`) keep what the registry says in its own words until a matcher can turn it
 * into links (LAYOUT.md says where each one plugs in); they are stored, never exposed.
 *
 * @example
 *   {"id":"NCT06576635","title":"LUNG-05: Investigating Chemotherapy Effectiveness for NSCLC Metastatic Patients",
 *    "brief_title":"LUNG-05: ...","acronym":"LUNG-05","registry":"ClinicalTrials.gov",
 *    "linkout":"https://clinicaltrials.gov/study/NCT06576635","overall_status":"RECRUITING",
 *    "start_date":"2024-12-16","end_date":"2026-09-01","active_years":[2024,2025,2026],
 *    "phase":"Not Applicable","study_type":"INTERVENTIONAL","conditions":["NSCLC"],
 *    "investigators":[{"first_name":"Frank","last_name":"Weinberg","raw_name":"Frank Weinberg, MD, PhD",
 *      "role":"PRINCIPAL_INVESTIGATOR","affiliations":[{"name":"University of Illinois at Chicago"}]}],
 *    "research_orgs":[],"funders":[],
 *    "sponsors":[{"name":"University of Illinois at Chicago","role":"lead_sponsor","class":"OTHER"}]}
 */
import type { Affiliation, CategoryFields } from '../../model/native-records.ts';

/** One investigator of a trial (the registry's overall officials and responsible investigator). */
export interface TrialInvestigator {
  readonly first_name: string;
  readonly last_name: string;
  /** The name as the registry gives it, degrees and all (`Frank Weinberg, MD, PhD`), when it says more. */
  readonly raw_name?: string;
  /** Researcher id (`ur.…`) when the investigator is an identified person. */
  readonly researcher_id?: string;
  readonly orcid?: string;
  /**
   * The registry's role, as it writes it: `PRINCIPAL_INVESTIGATOR`, `STUDY_CHAIR`,
   * `STUDY_DIRECTOR`, `SUB_INVESTIGATOR`, or `SPONSOR_INVESTIGATOR` for a responsible party.
   */
  readonly role: string;
  /** The affiliation as named; `id` once an affiliation matcher resolves it. */
  readonly affiliations: readonly Affiliation[];
}

/** One intervention of the protocol (spec/schema-2026.md §6.4). */
export interface TrialIntervention {
  /** DRUG, DEVICE, BEHAVIORAL, PROCEDURE, BIOLOGICAL, ... as the registry writes it. */
  readonly type?: string;
  readonly name: string;
  readonly description?: string;
  readonly arm_group_labels?: readonly string[];
  readonly other_names?: readonly string[];
}

/** One outcome measure, of the primary, secondary or other outcomes. */
export interface TrialOutcomeMeasure {
  readonly type: 'primary' | 'secondary' | 'other';
  readonly measure: string;
  readonly description?: string;
  readonly time_frame?: string;
}

/**
 * A sponsor or collaborator by name, as the registry gives it (no identifier in the dump).
 * `id` when the source gives one. `finish()` matches the names of the others to
 * organizations and adds them to the trial's `research_orgs` and, for those that fund, its
 * `funders`, as link rows (`store/organization-links.ts`; LAYOUT.md, "Organizations").
 */
export interface TrialSponsor {
  readonly name: string;
  readonly role: 'lead_sponsor' | 'collaborator';
  /** The registry's agency class: NIH, FED, OTHER_GOV, INDUSTRY, NETWORK, INDIV, OTHER, UNKNOWN. */
  readonly class?: string;
  readonly id?: string;
}

/** Another identifier of the trial: a grant number, another registry's id, the sponsor's protocol id. */
export interface TrialSecondaryId {
  readonly id: string;
  /** NIH, FDA, VA, CDC, AHRQ, SAMHSA, OTHER_GRANT, EUDRACT_NUMBER, CTIS, REGISTRY, OTHER. */
  readonly type?: string;
  /** Who issued it (a funder for OTHER_GRANT, a registry for REGISTRY). */
  readonly domain?: string;
}

/** A publication the trial names, by the identifiers it gives (the `publication_links` entity). */
export interface PublicationLink {
  /** The held publication's id, once found by its PMID or DOI. */
  readonly id?: string;
  readonly doi?: string;
  readonly pmid?: string;
  readonly pmcid?: string;
}

/** The classification fields of trials: those of publications and grants but SDGs and units of assessment. */
export type TrialCategoryFields = Omit<CategoryFields, 'category_sdg' | 'category_uoa'>;

/** A clinical trial. */
export interface ClinicalTrialRecord extends TrialCategoryFields {
  /** The registry's id as it gives it (`NCT01234567`); generated ones are `NCT9` + 7 digits. */
  readonly id: string;
  /** The official title, or the brief title when there is no other. */
  readonly title: string;
  readonly brief_title?: string;
  readonly acronym?: string;
  /** The brief summary, then the detailed description. */
  readonly abstract?: string;
  readonly conditions?: readonly string[];
  /** MeSH terms of the conditions, then of the interventions. */
  readonly mesh_terms?: readonly string[];
  /** As the registry writes it: RECRUITING, COMPLETED, TERMINATED, ... */
  readonly overall_status?: string;
  /** `YYYY-MM-DD` (month and day `01` when the registry gives less). */
  readonly start_date?: string;
  /** The completion date, else the primary completion date, as `start_date`. */
  readonly end_date?: string;
  /** Every calendar year from the start to the end. */
  readonly active_years?: readonly number[];
  /** `Phase 2`, `Phase 1/Phase 2`, `Early Phase 1`, `Not Applicable`. */
  readonly phase?: string;
  /** As the registry writes it: INTERVENTIONAL, OBSERVATIONAL, EXPANDED_ACCESS. */
  readonly study_type?: string;
  /** `Allocation: Randomized`, `Intervention Model: Parallel`, `Masking: Double`, ... */
  readonly study_designs?: readonly string[];
  /** Labels of the arms or groups. */
  readonly study_arms?: readonly string[];
  readonly interventions?: readonly TrialIntervention[];
  readonly study_outcome_measures?: readonly TrialOutcomeMeasure[];
  readonly study_eligibility_criteria?: string;
  /** `All`, `Female` or `Male`. */
  readonly gender?: string;
  /** As the registry writes it: `18 Years`, `6 Months`. */
  readonly study_minimum_age?: string;
  readonly study_maximum_age?: string;
  /** Enrolment, actual or planned. */
  readonly study_participants?: number;
  readonly investigators: readonly TrialInvestigator[];
  /** Organization ids of the sponsors, collaborators and investigators' affiliations. */
  readonly research_orgs: readonly string[];
  /** Organization ids of the sponsors and collaborators that fund the trial. */
  readonly funders: readonly string[];
  /** Stored, not a schema field: the sponsors and collaborators by name. */
  readonly sponsors?: readonly TrialSponsor[];
  /** Held grant ids (`nih.<full project number>` for NIH projects). */
  readonly associated_grant_ids?: readonly string[];
  /** Stored, not a schema field: the trial's other identifiers, as the registry lists them. */
  readonly secondary_ids?: readonly TrialSecondaryId[];
  /** Held publication ids of `publications` (filled where a PMID or DOI finds one). */
  readonly publication_ids?: readonly string[];
  readonly publications?: readonly PublicationLink[];
  /** `ClinicalTrials.gov`. */
  readonly registry: string;
  readonly linkout?: string;
  /** When the registry first posted the trial (`YYYY-MM-DD`). */
  readonly date_inserted?: string;
  readonly altmetric?: number;
}
