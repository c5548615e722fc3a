/**
 * What patents bring to the data layer (listed in `src/data/sources.ts`): the recognition and
 * reader of each import format `model.ts` names, and the generator.
 */
import { defineSourceData } from '../../data/source-data.ts';
import { recordsGenerator } from '../../data/generate/source-generator.ts';
import { makePatent, planPatents } from './generate.ts';
import { patentsViewFormat, usptoFormat } from './import-formats.ts';
import type { PatentRecord } from './native.ts';
import { patentsViewRecordSource } from './patentsview-staging.ts';
import { usptoRecordSource } from './uspto-files.ts';

export const patentData = defineSourceData({
  kind: 'patents',
  formats: {
    uspto: { ...usptoFormat, reader: usptoRecordSource },
    patentsview: { ...patentsViewFormat, reader: patentsViewRecordSource },
  },
  generator: recordsGenerator<PatentRecord>({
    afterwards: (ctx, count) => {
      const run = planPatents(ctx, count);
      return { count: run.patents, make: (k) => makePatent(ctx, run, k) };
    },
    shares: [
      { name: 'patents_us_share', has: (p) => p.jurisdiction === 'US', target: 0.45, tolerance: 0.04 },
      // 25% of the patents filed since the first publication year; a few were filed before.
      {
        name: 'patents_citing_papers_share',
        has: (p) => p.publication_ids !== undefined,
        target: 0.245,
        tolerance: 0.03,
      },
    ],
  }),
});
