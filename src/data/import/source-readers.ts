/**
 * The readers of the source folders' import formats (`source-formats.ts` declares them), one
 * a format: the type asks for every format declared. Apart from the declarations because the
 * readers load the archive, XML and database packages, which the command line must not load
 * to list the formats; and imported statically, since the import's reading thread, run from
 * the TypeScript sources, cannot load a module with `import()`.
 */
import { ctgovRecordSource } from '../../sources/clinical_trials/import-ctgov-files.ts';
import { dataciteRecordSource } from '../../sources/datasets/import-datacite-files.ts';
import { patentsViewRecordSource } from '../../sources/patents/patentsview-staging.ts';
import { usptoRecordSource } from '../../sources/patents/uspto-files.ts';
import type { RecordSourceReader } from './record-source.ts';
import type { SourceFormatName } from './source-formats.ts';

export const SOURCE_READERS: Readonly<Record<SourceFormatName, RecordSourceReader>> = {
  uspto: usptoRecordSource,
  patentsview: patentsViewRecordSource,
  datacite: dataciteRecordSource,
  ctgov: ctgovRecordSource,
};
