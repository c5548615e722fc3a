/**
 * What source titles bring to the data layer (listed in `src/data/sources.ts`): the
 * recognition and reader of each import format `model.ts` names. The OpenAlex snapshot's
 * `sources/` partitions are read by the OpenAlex format; the generator makes titles with the
 * first four sources (`src/data/generate/source-titles.ts`).
 */
import { defineSourceData } from '../../data/source-data.ts';
import { crossrefTitlesRecordSource, doajRecordSource, titleMetricsRecordSource } from './import-files.ts';
import { crossrefTitlesFormat, doajFormat, titleMetricsFormat } from './import-formats.ts';

export const sourceTitleData = defineSourceData({
  kind: 'source_titles',
  formats: {
    doaj: { ...doajFormat, reader: doajRecordSource },
    'crossref-titles': { ...crossrefTitlesFormat, reader: crossrefTitlesRecordSource },
    'title-metrics': { ...titleMetricsFormat, reader: titleMetricsRecordSource },
  },
});
