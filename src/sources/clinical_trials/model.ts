/**
 * The clinical_trials source (spec/schema-2026.md §7.6): its field table (`fields.ts`), its
 * storage as `LAYOUT.md` proposes it, and how a trial record (`native.ts`) becomes rows,
 * declared once. The registry (`model/sources.ts`) lists it; the schema, both stores and the
 * compiler derive from it.
 */
import {
  CATEGORY_SCHEMES,
  FUNDER_FIELDS,
  byFieldCode,
  categoryKey,
  i,
  r,
  t,
  valueKey,
} from '../../model/layout-parts.ts';
import {
  affiliationIds,
  categoryRows,
  distinctIds,
  ids,
  joinNames,
  list,
  personIds,
  personName,
  text,
  valueRows,
  type LooseRecord,
} from '../../model/record-values.ts';
import { defineSource } from '../../model/source-module.ts';
import type { LinkHolds } from '../../model/storage-types.ts';
import { CLINICAL_TRIALS, CLINICAL_TRIALS_LONG_DESCRIPTIONS } from './fields.ts';

/**
 * The stored codes of `clinical_trial_values` fields (`SourceStorage.valueFieldCodes`), from
 * the block 60–79 the clinical trials took; `mesh_terms` keeps the code publications gave it
 * (2), since a field has one code whichever sources hold it. Codes are stored data: never
 * change or reuse one.
 */
const VALUE_FIELD_CODES = {
  active_years: '60',
  conditions: '61',
  mesh_terms: '2',
  study_arms: '62',
  study_designs: '63',
};

/** The `category_<scheme>` fields of trials: every scheme but SDGs and units of assessment (§7.6). */
const TRIAL_SCHEMES: LinkHolds = {
  discriminator: 'scheme',
  fields: Object.fromEntries(
    CATEGORY_SCHEMES.filter((scheme) => scheme !== 'sdg' && scheme !== 'uoa').map((scheme) => [
      `category_${scheme}`,
      scheme,
    ]),
  ),
};

/** The string values of a field of each object of a list (`interventions[].name`). */
function textsOf(items: unknown, ...keys: readonly string[]): string[] {
  const out: string[] = [];
  for (const item of list(items)) {
    if (item === null || typeof item !== 'object') continue;
    for (const key of keys)
      for (const value of list((item as LooseRecord)[key])) if (text(value) !== '') out.push(text(value));
  }
  return out;
}

/** Distinct non-empty texts joined for one full-text column. */
const joined = (texts: readonly string[]): string => [...new Set(texts.filter((s) => s !== ''))].join(' ; ');

/**
 * The organizations a trial names by name, as the registry writes them: its sponsors and
 * collaborators, then its investigators' affiliations (the `raw_affiliations` index).
 */
function affiliationNames(record: LooseRecord): string[] {
  return [
    ...textsOf(record['sponsors'], 'name'),
    ...list(record['investigators']).flatMap((p) =>
      p !== null && typeof p === 'object' ? textsOf((p as LooseRecord)['affiliations'], 'name') : [],
    ),
  ];
}

export const clinicalTrials = defineSource({
  name: 'clinical_trials',
  singular: 'clinical_trial',
  // Grants and publications last: an import writes them before the trials naming them.
  refersTo: ['categories', 'organizations', 'researchers', 'grants', 'publications'],
  fieldTable: CLINICAL_TRIALS,
  longDescriptions: CLINICAL_TRIALS_LONG_DESCRIPTIONS,
  requiredFields: [['title', 'string']],
  importFormats: {
    ctgov:
      'ClinicalTrials.gov API v2 studies: the bulk ctg-studies.json.zip, API pages, the JSON download, or JSON Lines of studies',
  },
  storage: {
    table: {
      table: 'clinical_trials',
      // Both long (about 1 KB each in the ClinicalTrials.gov sample): only a page showing
      // them reads them.
      packedText: ['abstract', 'study_eligibility_criteria'],
      keptApart: { abstract: 'clinical_trial_abstracts', study_eligibility_criteria: 'clinical_trial_criteria' },
      columns: [
        t('title'),
        t('brief_title'),
        t('acronym'),
        t('abstract'),
        t('study_eligibility_criteria'),
        t('overall_status'),
        t('phase'),
        t('study_type'),
        t('gender'),
        t('study_minimum_age'),
        t('study_maximum_age'),
        i('study_participants'),
        t('start_date'),
        t('end_date'),
        t('date_inserted'),
        t('registry'),
        t('linkout'),
        t('dimensions_url'),
        r('altmetric'),
      ],
      indexes: [['start_date', 'id'], ['overall_status'], ['study_type']],
      // No per-year tables: trials are far fewer than publications. The participants' facet
      // reads its counts (150 ms grouping 300k trials otherwise); the others group fast.
      valueCounts: { study_participants: 'clinical_trial_study_participants_counts' },
      narrow: {
        table: 'clinical_trials_narrow',
        columns: [
          'id',
          'start_date',
          'overall_status',
          'phase',
          'study_type',
          'study_participants',
          'study_minimum_age',
          'study_maximum_age',
        ],
        counts: {
          researchers: 'n_researchers',
          research_orgs: 'n_research_orgs',
          funders: 'n_funders',
          publication_ids: 'n_publication_ids',
          associated_grant_ids: 'n_associated_grant_ids',
        },
        indexes: [['overall_status'], ['study_type'], ['phase']],
      },
    },
    links: [
      {
        table: 'clinical_trial_researchers',
        key: [t('researcher_id')],
        extra: [],
        reverse: ['researcher_id'],
        holds: { field: 'researchers' },
        postings: { table: 'clinical_trial_researchers_postings', column: 'clinical_trial_pks' },
      },
      {
        table: 'clinical_trial_research_orgs',
        key: [t('org_id')],
        extra: [],
        reverse: ['org_id'],
        holds: { field: 'research_orgs' },
      },
      {
        table: 'clinical_trial_funders',
        key: [t('org_id')],
        extra: [],
        reverse: ['org_id'],
        holds: { field: 'funders' },
        readThrough: FUNDER_FIELDS,
      },
      {
        table: 'clinical_trial_grants',
        key: [t('grant_id')],
        extra: [],
        reverse: ['grant_id'],
        holds: { field: 'associated_grant_ids' },
      },
      {
        // The held publications the trial names: by id, and the ids of its `publications`
        // links (the `publications` field itself stays in the document, with its DOIs and PMIDs).
        table: 'clinical_trial_publications',
        key: [t('publication_id')],
        extra: [],
        reverse: ['publication_id'],
        holds: { field: 'publication_ids', idsOf: 'publications' },
      },
      {
        table: 'clinical_trial_categories',
        key: categoryKey,
        extra: [],
        reverse: ['scheme', 'category_id'],
        holds: TRIAL_SCHEMES,
      },
      {
        table: 'clinical_trial_values',
        key: valueKey,
        extra: [],
        reverse: ['field', 'value'],
        holds: byFieldCode(VALUE_FIELD_CODES),
      },
    ],
    fullText: {
      table: 'clinical_trials_fts',
      // `investigators` third: PostgreSQL reads the first three columns by weight label from
      // the one vector (`model/postgres-full-text.ts`), so only `raw_affiliations` needs a
      // vector of its own.
      columns: [
        'title',
        'abstract',
        'investigators',
        'conditions',
        'interventions',
        'outcomes',
        'criteria',
        'affiliations',
      ],
      indexes: {
        full_data: [
          'title',
          'abstract',
          'investigators',
          'conditions',
          'interventions',
          'outcomes',
          'criteria',
          'affiliations',
        ],
        title_only: ['title'],
        title_abstract_only: ['title', 'abstract'],
        investigators: ['investigators'],
        raw_affiliations: ['affiliations'],
      },
    },
    valueFieldCodes: VALUE_FIELD_CODES,
  },
  rows: {
    links: (record) => {
      const investigators = list(record['investigators']);
      return {
        clinical_trial_researchers: ids(distinctIds(record['researchers'], personIds(investigators))),
        // The record's, and the sponsors and affiliations a matcher has given an id.
        clinical_trial_research_orgs: ids(
          distinctIds(record['research_orgs'], record['sponsors'], affiliationIds(investigators)),
        ),
        clinical_trial_funders: ids(distinctIds(record['funders'])),
        clinical_trial_grants: ids(distinctIds(record['associated_grant_ids'])),
        clinical_trial_publications: ids(distinctIds(record['publication_ids'], record['publications'])),
        clinical_trial_categories: categoryRows(record),
        clinical_trial_values: valueRows(record, VALUE_FIELD_CODES),
      };
    },
    fullText: (record) => [
      joined([text(record['title']), text(record['brief_title']), text(record['acronym'])]),
      text(record['abstract']),
      joinNames(list(record['investigators']).map(personName)),
      joined([...list(record['conditions']).map(text), ...list(record['mesh_terms']).map(text)]),
      joined(textsOf(record['interventions'], 'name', 'other_names', 'description')),
      joined(textsOf(record['study_outcome_measures'], 'measure', 'description')),
      text(record['study_eligibility_criteria']),
      joined(affiliationNames(record)),
    ],
    namedCategories: true,
  },
});
