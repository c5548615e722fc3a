/**
 * The second kind of import reader, beside the line readers of `formats/` (`FormatReader`,
 * one source record per line or CSV row, mapped by the importer): a record source reads a
 * whole input itself and yields records already mapped, each with the place it was read.
 * It is for the dumps whose records are not lines: XML documents one after another (USPTO),
 * tables joined across files (PatentsView), entries of a tar or a zip read in one pass
 * (DataCite's Public Data File, ClinicalTrials.gov's bulk zip), pages held whole.
 *
 * A source names each of its import formats in its declaration (`importFormats` of
 * `src/sources/<name>/model.ts`, with the summary the command line shows), and its `data.ts`
 * gives each one's recognition (`FormatRecognition`) and reader, listed once in
 * `src/data/sources.ts`; `source-formats.ts` gathers them (`SourceImportFormat`).
 * The importer (`read-inputs.ts`) reads them beside the line formats, with the same batches,
 * checkpoints, progress, problems and refusals.
 *
 * Resuming: an input is read again from its start and its items are counted in the order
 * they come; the journal's checkpoint of such an input (its `line`) is the number of items
 * committed, and the items up to it are passed over, not written or reported again. A
 * record source must therefore give the same items in the same order for the same files.
 */
import type { QuarryError } from '../../errors/index.ts';
import type { Mapped } from './formats/common.ts';
import type { ImportInput } from './inputs.ts';
import type { ImportLimits } from './limits.ts';

/** Where an item was read: `file:line` in a problem. */
interface ItemPlace {
  /**
   * 1-based line where the item starts in `where` (in a zip entry or tar entry, within the
   * entry); 1 for a document held whole.
   */
  readonly line: number;
  /** The file, `archive!entry`, or another name for the place (default: the input's name). */
  readonly where?: string;
}

/** One item of a record source, in input order. */
export type SourceItem = ItemPlace &
  (
    | {
        /** The native records one source record became (none for a record of a kind not imported). */
        readonly mapped: readonly Mapped[];
      }
    | {
        /** Why the source record at this place cannot be used (MalformedRecord's message). */
        readonly malformed: string;
      }
    | {
        /**
         * A part of the input refused whole (a table file without a column it needs), with
         * its coded error; the reader goes on with the other parts.
         */
        readonly refused: QuarryError;
      }
  );

/**
 * Reads one input. `onBytes` receives the bytes read from disk so far for the whole input
 * (all its parts). Past the import's limits it throws the coded `InputRefused` (a file cut
 * short: zlib's error, reported as `DATA_FILE_TRUNCATED`); any other coded error (an
 * unreadable archive) stops the import.
 */
export interface RecordSourceReader {
  read(input: ImportInput, limits: ImportLimits, onBytes: (bytes: number) => void): AsyncIterable<SourceItem>;
}

/** What detection sees of a file (or zip entry) that is not a zip: its name and its first lines. */
export interface FileProbe {
  /** The base name of the file or zip entry, lower case (`ipgb20221025.xml`). */
  readonly name: string;
  /** The first non-blank line, trimmed. */
  readonly first: string;
  /** The first line parsed, when it is a whole JSON object. */
  readonly record?: Readonly<Record<string, unknown>>;
  /** The first lines (from the first non-blank one) joined, some KiB: for a document that spans lines. */
  readonly head: string;
}

/** How a source format reads a zip archive it recognises: the archive as one input, or some entries, each an input. */
export type ZipClaim = { readonly whole: true } | { readonly entries: readonly string[] };

/**
 * How a source's import format recognises its files: what a folder is searched for, which file
 * and which zip archive is of the format, and whether its files are read together.
 */
export interface FormatRecognition {
  /** Names of files (base names, lower case) a folder is searched for, beside the JSON, CSV and zip files. */
  readonly files?: RegExp;
  /** True when the file (not a zip) is of this format. Formats are asked in registry order, after the built-in ones. */
  detect(probe: FileProbe): boolean;
  /** How it reads a zip archive with these entries (file entries only, in archive order), when it recognises one. */
  claimZip?(entries: readonly string[]): ZipClaim | undefined;
  /**
   * True when every input of this format in one import is read together as one input (its
   * `parts`): PatentsView's tables, which are joined across files.
   */
  readonly together?: boolean;
}

/** An import format as a source's `data.ts` gives it: its recognition and its reader. */
export interface FormatParts extends FormatRecognition {
  readonly reader: RecordSourceReader;
}

/** One import format of a source folder: what `--format <name>` names, detection recognises and the importer reads. */
export interface SourceImportFormat<Name extends string = string> extends FormatParts {
  readonly name: Name;
  /** For `quarry import --help`: the files it reads, as published (the source's `importFormats`). */
  readonly summary: string;
}
