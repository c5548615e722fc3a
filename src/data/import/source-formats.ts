/**
 * The import formats of the sources, as the importer uses them (`SourceImportFormat`): each
 * named with its summary in its source's declaration (`importFormats`, `model/sources.ts`),
 * recognised and read by the parts its `data.ts` gives (`src/data/sources.ts`), in the order
 * detection asks them: registry order, after the built-in line formats. The search of folders,
 * the detection of files and zip archives, the inputs read together and the reading all take
 * them from here; `--format` and `quarry import --help` take the names from the registry alone
 * (`format-names.ts`), which loads no reader.
 */
import { SOURCE_FORMAT_NAMES, type SourceFormatName } from '../../model/sources.ts';
import { SOURCE_DATA } from '../sources.ts';
import type { FormatParts, RecordSourceReader, SourceImportFormat } from './record-source.ts';

export type { SourceFormatName } from '../../model/sources.ts';

export const SOURCE_IMPORT_FORMATS: readonly SourceImportFormat<SourceFormatName>[] = SOURCE_FORMAT_NAMES.map(
  ({ kind, name, summary }) => {
    // SOURCE_DATA has refused a declared format without parts.
    const parts = SOURCE_DATA.find((d) => d.kind === kind)?.formats?.[name] as FormatParts;
    return { ...parts, name, summary };
  },
);

/** The reader of each source format. */
export const SOURCE_READERS: Readonly<Record<SourceFormatName, RecordSourceReader>> = Object.fromEntries(
  SOURCE_IMPORT_FORMATS.map((f) => [f.name, f.reader]),
) as Record<SourceFormatName, RecordSourceReader>;
