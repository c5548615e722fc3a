/**
 * The names of the import formats, apart from their readers, so that the command line can
 * list them without loading the readers (and the zip reader they use): the line formats read
 * by `formats/` and the sources' formats, named in their declarations (`importFormats`, read
 * from the registry; `source-formats.ts` adds how they are recognised and read).
 */
import { SOURCE_FORMAT_NAMES, type SourceFormatName } from '../../model/sources.ts';

/** The formats whose records are lines or CSV rows, read by a `FormatReader` of `formats/`. */
export const LINE_FORMATS = ['quarry', 'openalex', 'ror', 'crossref', 'nih', 'anzsrc'] as const;
export type LineFormat = (typeof LINE_FORMATS)[number];

export type ImportFormat = LineFormat | SourceFormatName;

export const IMPORT_FORMATS: readonly ImportFormat[] = [...LINE_FORMATS, ...SOURCE_FORMAT_NAMES.map((f) => f.name)];

/** What each format reads, for `quarry import --help`. */
export const FORMAT_SUMMARIES: Readonly<Record<ImportFormat, string>> = {
  quarry: 'Quarry JSON Lines shards (<kind>-NNNN.jsonl, a `quarry generate` folder with its manifest.json)',
  openalex: 'the OpenAlex snapshot (a folder, or its part_NNN.gz partitions), works as JSON Lines, merged ids CSV',
  ror: 'the ROR data dump (its zip, a v2 JSON array or JSON Lines)',
  crossref: 'Crossref works, JSON Lines of work messages',
  nih: 'NIH RePORTER award CSV, ExPORTER projects and abstracts CSV (or their yearly zips)',
  anzsrc: 'ANZSRC FoR 2020 codes (code,level,label,parent_code CSV)',
  ...(Object.fromEntries(SOURCE_FORMAT_NAMES.map((f) => [f.name, f.summary])) as Record<SourceFormatName, string>),
};

/** True when `format` is a source folder's format, read by a record source. */
export const isSourceFormat = (format: ImportFormat): format is SourceFormatName =>
  !(LINE_FORMATS as readonly string[]).includes(format);

/** The formats `--format` takes, for messages that tell the user to name one. */
export const formatList = (): string => IMPORT_FORMATS.join(', ');
