/**
 * The field table of `clinical_trials` (spec/schema-2026.md §7.6): every field of the current
 * schema with the hosted service's descriptions (`Dimensions` and `GRID` left out, the ones
 * the spec cuts short completed), fieldsets (§5), search indexes (§3) and indicators (§4).
 */
import { CATEGORY_FIELDS } from '../../model/shared-fields.ts';
import type { FieldRow, SourceTable } from '../../model/field-table.ts';

/** Trials are classified like grants, but by neither SDGs nor units of assessment. */
const TRIAL_CATEGORY_FIELDS: readonly FieldRow[] = CATEGORY_FIELDS.filter(
  ([name]) => name !== 'category_sdg' && name !== 'category_uoa',
);

export const CLINICAL_TRIALS = {
  description: 'Clinical trials as registered (ClinicalTrials.gov and other registries).',
  fields: [
    ['abstract', 'string', '', 'Abstract or description of the clinical trial.'],
    ['acronym', 'string', 'f', 'Acronym of the clinical trial.'],
    ['active_years', 'integer', 'fcm', 'List of active years for a clinical trial.'],
    ['altmetric', 'float', 'f', 'Altmetric Attention Score.'],
    ['associated_grant_ids', 'string', 'fm', 'Identifiers of the grants associated to the clinical trial.'],
    ['brief_title', 'string', 'f', 'Brief title of the clinical trial.'],
    ...TRIAL_CATEGORY_FIELDS,
    ['conditions', 'string', 'fm', "List of medical conditions names, e.g. 'Breast cancer' or 'Obesity'."],
    [
      'date_inserted',
      'date',
      'f',
      'Date the record was added (for ClinicalTrials.gov, when the registry first posted it).',
    ],
    ['dimensions_url', 'string', '', 'Link to the record on the web.'],
    ['end_date', 'date', 'f', 'End date of the clinical trial.'],
    ['funder_countries', 'countries', 'fcm', 'The countries of the funding organisations.'],
    ['funders', 'organizations', 'fcm', 'Funding organisations that are involved with the clinical trial.'],
    ['gender', 'string', 'f', "The gender of the clinical trial subjects e.g. 'Male', 'Female' or 'All'."],
    ['id', 'string', 'f', 'Quarry clinical trial identifier: the registry id (e.g. NCT01234567).'],
    [
      'interventions',
      'json',
      'fm',
      "Structured JSON object containing information about the clinical trial's interventions according to the research plan or protocol created by the investigators.",
    ],
    ['investigators', 'json', 'fm', 'Additional details about investigators, including affiliations and roles.'],
    ['linkout', 'string', '', 'Original URL for the clinical trial.'],
    ['mesh_terms', 'string', 'fcm', 'Medical Subject Heading terms as used in PubMed.'],
    ['overall_status', 'string', 'fc', 'Status of the trial as provided by the registry.'],
    ['phase', 'string', 'f', 'Phase of the clinical trial, as a string.'],
    [
      'publication_ids',
      'string',
      'fm',
      'Publications mentioned in clinical trials (excluding resulting publications), as a list of publication identifiers.',
    ],
    [
      'publications',
      'publication_links',
      'fcm',
      'Publications mentioned in clinical trials (excluding resulting publications), as a structured entity.',
    ],
    [
      'registry',
      'string',
      'f',
      "The platform where the clinical trial has been registered, e.g. 'ClinicalTrials.gov' or 'EU-CTR'.",
    ],
    ['research_orgs', 'organizations', 'fcm', 'Organizations involved, e.g. as sponsors or collaborators.'],
    ['researchers', 'researchers', 'fcm', 'Researchers associated to the clinical trial.'],
    [
      'score',
      'float',
      'n',
      'Relevance of the record to the query\'s full-text search, higher is more relevant (only with `for "..."`; `sort by score` is `sort by relevance`).',
    ],
    ['start_date', 'date', 'f', 'Start date of the clinical trial.'],
    ['study_arms', 'string', 'fcm', 'The study arms.'],
    ['study_designs', 'string', 'fcm', 'The study design methods.'],
    ['study_eligibility_criteria', 'string', '', 'The eligibility criteria.'],
    ['study_maximum_age', 'string', 'fc', 'The maximum age.'],
    ['study_minimum_age', 'string', 'fc', 'The minimum age.'],
    ['study_outcome_measures', 'json', 'fm', 'The study outcomes.'],
    ['study_participants', 'integer', 'fc', 'The number of participants.'],
    ['study_type', 'string', 'fc', 'The type of study.'],
    ['title', 'string', '', 'The title of the clinical trial.'],
  ],
  aliases: [
    {
      row: ['category_for_2020', 'categories', 'fcm', 'Fields of Research (ANZSRC 2020) codes.'],
      readsFrom: 'category_for',
    },
  ],
  removedInV2: [
    {
      row: ['investigator_details', 'json', 'f', 'Investigators with their details (version 1).'],
      replacement: 'investigators',
      readsFrom: 'investigators',
    },
    {
      // Gone from the schema with DSL 2.6, when start_date and end_date came.
      row: ['date', 'date', 'f', 'Date of the clinical trial (version 1).'],
      replacement: 'start_date',
      readsFrom: 'start_date',
    },
  ],
  fieldsets: [
    {
      name: 'basics',
      description: 'Returned when no field list is given (the current schema basics).',
      fields: ['id', 'title', 'active_years', 'investigators'],
    },
    {
      name: 'extras',
      description: 'Scalar fields, dates and identifiers.',
      fields: [
        'brief_title',
        'acronym',
        'overall_status',
        'phase',
        'start_date',
        'end_date',
        'registry',
        'altmetric',
        'date_inserted',
        'dimensions_url',
        'linkout',
      ],
    },
    {
      name: 'categories',
      description: 'Every category_* field.',
      fields: [...TRIAL_CATEGORY_FIELDS.map(([name]) => name), 'category_for_2020'],
    },
    {
      name: 'studies',
      description: 'Every study_* field: the design of the study.',
      fields: [
        'study_arms',
        'study_designs',
        'study_eligibility_criteria',
        'study_maximum_age',
        'study_minimum_age',
        'study_outcome_measures',
        'study_participants',
        'study_type',
      ],
    },
  ],
  searchIndexes: [
    { name: 'title_only', description: 'Titles (official and brief) and acronyms.' },
    { name: 'title_abstract_only', description: 'Titles and abstracts.' },
    {
      name: 'raw_affiliations',
      description:
        "Sponsors' and collaborators' names and the investigators' affiliations, as the registry writes them.",
    },
    {
      name: 'investigators',
      description: 'Investigator names, matched as phrases in either order.',
      personNames: true,
    },
    { name: 'full_data', description: 'All text fields (the default).' },
  ],
  defaultIndex: 'full_data',
  indicators: ['count'],
  // Newest first by the trial's start, as grants are ordered: every ClinicalTrials.gov record
  // has a start date (planned or actual; 536 of the 536 sampled), while the completion date
  // is missing or only planned for running trials.
  defaultOrder: { field: 'start_date', direction: 'desc' },
} as const satisfies SourceTable;

/**
 * The `long_description` of the json fields (as the other sources' declarations have them,
 * `SourceDeclaration.longDescriptions`): the shape of each returned object.
 */
export const CLINICAL_TRIALS_LONG_DESCRIPTIONS: Readonly<Record<string, string>> = {
  interventions:
    'Returned objects contain: `type` (DRUG, DEVICE, BEHAVIORAL, PROCEDURE, BIOLOGICAL, ... as the registry ' +
    'writes it), `name`, `description`, `arm_group_labels` and `other_names`. Missing values are left out.',
  investigators:
    'Returned objects contain: `first_name`, `last_name`, `raw_name` (the name as the registry gives it, with ' +
    'degrees, when it says more), `role` (PRINCIPAL_INVESTIGATOR, STUDY_CHAIR, STUDY_DIRECTOR, SUB_INVESTIGATOR ' +
    'or SPONSOR_INVESTIGATOR), `researcher_id`, `orcid` and `affiliations` (each with `id` once resolved, ' +
    '`name`, `city`, `country`, ...). Missing values are left out.',
  study_outcome_measures:
    'Returned objects contain: `type` (primary, secondary or other), `measure`, `description` and ' +
    '`time_frame`. Missing values are left out.',
};
