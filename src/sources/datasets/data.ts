/**
 * What datasets bring to the data layer (listed in `src/data/sources.ts`): the recognition and
 * reader of the import format `model.ts` names, and the generator.
 */
import { defineSourceData } from '../../data/source-data.ts';
import { recordsGenerator } from '../../data/generate/source-generator.ts';
import { datasetsOfPublication, makeStandaloneDataset, standaloneDatasetCount } from './generate.ts';
import { dataciteRecordSource } from './import-datacite-files.ts';
import { dataciteFormat } from './import-formats.ts';
import type { DatasetRecord } from './native.ts';

export const datasetData = defineSourceData({
  kind: 'datasets',
  formats: {
    datacite: { ...dataciteFormat, reader: dataciteRecordSource },
  },
  generator: recordsGenerator<DatasetRecord>({
    ofPublication: datasetsOfPublication,
    afterwards: (ctx, count) => ({
      count: count ?? standaloneDatasetCount(ctx.plan.publications),
      make: (k) => makeStandaloneDataset(ctx, k),
    }),
    shares: [
      {
        name: 'datasets_with_paper_share',
        has: (d) => d.associated_publication_id !== undefined,
        target: 0.3,
        tolerance: 0.05,
        atRunScale: true,
      },
    ],
  }),
});
