/**
 * The import's readers of the source titles' formats (`import-formats.ts`): each input is one
 * CSV file (plain, gzip or a zip entry) read row by row (`csv-rows.ts`).
 */
import type { RecordSourceReader } from '../../data/import/record-source.ts';
import { csvTitleItems, type CsvLayout } from './csv-rows.ts';
import { CROSSREF_TITLES, DOAJ_CSV } from './import-title-lists.ts';
import { TITLE_METRICS_CSV } from './import-title-metrics.ts';

const csvReader = (layout: CsvLayout): RecordSourceReader => ({
  read: (input, limits, onBytes) => csvTitleItems(layout, input, limits, onBytes),
});

export const doajRecordSource = csvReader(DOAJ_CSV);
export const crossrefTitlesRecordSource = csvReader(CROSSREF_TITLES);
export const titleMetricsRecordSource = csvReader(TITLE_METRICS_CSV);
