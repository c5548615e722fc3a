/**
 * The import formats that source folders declare (`src/sources/<name>/import-formats.ts`,
 * record sources: `record-source.ts`), in the order detection asks them, after the built-in
 * line formats. A source with an import format of its own adds its list here and its readers
 * to `source-readers.ts` (whose type asks for one per format): `--format`, `quarry import
 * --help`, the search of folders, the detection of files and zip archives and the reading
 * all take them from there.
 */
import { clinicalTrialImportFormats } from '../../sources/clinical_trials/import-formats.ts';
import { datasetImportFormats } from '../../sources/datasets/import-formats.ts';
import { patentImportFormats } from '../../sources/patents/import-formats.ts';

export const SOURCE_IMPORT_FORMATS = [
  ...patentImportFormats,
  ...datasetImportFormats,
  ...clinicalTrialImportFormats,
] as const;

export type SourceFormatName = (typeof SOURCE_IMPORT_FORMATS)[number]['name'];
