/**
 * What reports bring to the data layer (listed in `src/data/sources.ts`): the generator.
 * They are imported from the native format and, filed by type, from OpenAlex and Crossref
 * works (`src/data/import/formats/`).
 */
import { defineSourceData } from '../../data/source-data.ts';
import { recordsGenerator } from '../../data/generate/source-generator.ts';
import { makeReport, planReports } from './generate.ts';
import type { ReportRecord } from './native.ts';

export const reportData = defineSourceData({
  kind: 'reports',
  generator: recordsGenerator<ReportRecord>({
    afterwards: (ctx, count) => {
      const plan = planReports(ctx, count);
      return { count: plan.count, make: (k) => makeReport(ctx, plan, k) };
    },
    shares: [
      {
        name: 'reports_with_funder_share',
        has: (r) => r.funder_orgs !== undefined,
        target: 0.3,
        tolerance: 0.05,
      },
    ],
  }),
});
