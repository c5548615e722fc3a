/**
 * The rows of a title list published as CSV (DOAJ's journal CSV, Crossref's title file, a
 * title-metrics file), each with its header's names and the line it starts on, read within
 * the import's limits: a quoted field may span lines, but no row is held past
 * `maxLineBytes`. A header without a column the layout needs refuses the file whole
 * (`DATA_CSV_MISSING_COLUMN`); a row of another width is reported at its line.
 */
import { CsvLineReader } from '../../data/csv.ts';
import { MalformedRecord } from '../../data/import/formats/common.ts';
import type { ImportInput } from '../../data/import/inputs.ts';
import { LimitExceeded, type ImportLimits } from '../../data/import/limits.ts';
import { readLines, recordTooLong } from '../../data/import/lines.ts';
import type { SourceItem } from '../../data/import/record-source.ts';
import type { NativeKind, NativeRecord } from '../../model/native-records.ts';
import { QuarryError } from '../../errors/index.ts';

/** A row by its header's column names. */
export type CsvRow = Readonly<Record<string, string>>;

/** How one title list is read: its name in messages, the columns it needs, and the record a row becomes. */
export interface CsvLayout {
  /** As problems name it: `DOAJ journal CSV`. */
  readonly label: string;
  /** The kind of the records its rows become. */
  readonly kind: NativeKind;
  /** Columns the header must have (compared ignoring case and surrounding spaces). */
  readonly required: readonly string[];
  /** The record of a row, or undefined for a row that holds none; MalformedRecord for one that cannot be used. */
  map(row: CsvRow): NativeRecord | undefined;
}

/** A header cell as compared: trimmed, lower case, without a byte-order mark. */
export const headerName = (cell: string): string =>
  cell
    .replace(/^\uFEFF/, '')
    .trim()
    .toLowerCase();

/** The items of one CSV input of `layout`, in file order, each a record of its kind. */
export async function* csvTitleItems(
  layout: CsvLayout,
  input: ImportInput,
  limits: ImportLimits,
  onBytes: (bytes: number) => void,
): AsyncGenerator<SourceItem> {
  const csv = new CsvLineReader();
  let header: string[] | undefined;
  let start = 0;
  let held = 0;
  let reached = 0;
  try {
    for await (const { text, line } of readLines(input, onBytes, limits)) {
      reached = line;
      if (!csv.open) {
        start = line;
        held = 0;
        if (text.trim() === '') continue;
      }
      held += text.length + 1;
      if (held > limits.maxLineBytes) throw recordTooLong(limits.maxLineBytes, start);
      const fields = csv.push(text);
      if (fields === undefined) continue;
      if (header === undefined) {
        header = fields.map(headerName);
        const missing = layout.required.find((column) => !header?.includes(column));
        if (missing !== undefined) {
          const params = { file: input.name, format: layout.label, column: missing, found: fields.join(', ') };
          yield { line: 1, refused: QuarryError.of('DATA_CSV_MISSING_COLUMN', { params }) };
          return;
        }
        continue;
      }
      if (fields.length !== header.length) {
        yield { line: start, malformed: `expected ${header.length} fields, found ${fields.length}` };
        continue;
      }
      const row: Record<string, string> = {};
      header.forEach((name, k) => (row[name] = fields[k] as string));
      try {
        const record = layout.map(row);
        yield { line: start, mapped: record === undefined ? [] : [{ kind: layout.kind, record }] };
      } catch (err) {
        if (!(err instanceof MalformedRecord)) throw err;
        yield { line: start, malformed: err.message };
      }
    }
    if (csv.open) yield { line: start, malformed: 'a quoted field is never closed' };
  } catch (err) {
    if (err instanceof LimitExceeded) throw err.at(input.name, reached);
    throw err;
  }
}
