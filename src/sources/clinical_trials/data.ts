/**
 * What clinical trials bring to the data layer (listed in `src/data/sources.ts`): the
 * recognition and reader of the import format `model.ts` names, and the generator.
 */
import { defineSourceData } from '../../data/source-data.ts';
import { recordsGenerator } from '../../data/generate/source-generator.ts';
import { makeClinicalTrial, planClinicalTrials } from './generate.ts';
import { ctgovRecordSource } from './import-ctgov-files.ts';
import { ctgovFormat } from './import-formats.ts';
import type { ClinicalTrialRecord } from './native.ts';

export const clinicalTrialData = defineSourceData({
  kind: 'clinical_trials',
  formats: {
    ctgov: { ...ctgovFormat, reader: ctgovRecordSource },
  },
  generator: recordsGenerator<ClinicalTrialRecord>({
    afterwards: (ctx, count) => {
      const plan = planClinicalTrials(ctx, count);
      return { count: plan.count, make: (t) => makeClinicalTrial(ctx, plan, t) };
    },
    shares: [
      {
        name: 'trials_interventional_share',
        has: (t) => t.study_type === 'INTERVENTIONAL',
        target: 0.76,
        tolerance: 0.04,
      },
      // 30% draw publications; a few find none of a biomedical field in their years.
      {
        name: 'trials_citing_papers_share',
        has: (t) => t.publication_ids !== undefined,
        target: 0.3,
        tolerance: 0.05,
      },
    ],
  }),
});
