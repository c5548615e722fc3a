/**
 * The reading half of an import: reads every input in order, maps its source records to
 * native records (reporting a bad one as file:line), prepares them for the database's writer
 * (store/row-preparation.ts) and hands them on in batches with the checkpoint each batch
 * reaches. It runs in a thread of its own beside the writer (read-worker.ts), or in the
 * importer's thread for small imports; either way `importFiles` receives the same events.
 *
 * Nothing here writes: an `abort` problem ends the reading with a last batch (every record
 * before the problem) and a `stop` event that the importer turns into its error.
 */
import { QuarryError, type Problem } from '../../errors/index.ts';
import type { NativeKind, NativeRecord } from '../../model/native-records.ts';
import type { InputCheckpoint } from '../../store/record-writer.ts';
import { ROW_PREPARATIONS, type PreparedRecord, type RowPreparation } from '../../store/row-preparation.ts';
import { CsvLineReader } from '../csv.ts';
import { snapshotManifestCounts } from './detect.ts';
import { formatList } from './format-names.ts';
import { isSourceFormat, type ImportFormat, type LineFormat } from './format-names.ts';
import { AnzsrcReader } from './formats/anzsrc.ts';
import { MalformedRecord, MissingColumn, type Mapped } from './formats/common.ts';
import { CrossrefReader } from './formats/crossref.ts';
import { kindOfShard, NativeReader } from './formats/native.ts';
import { NihReader } from './formats/nih.ts';
import { OpenAlexReader } from './formats/openalex.ts';
import { mergedKind, OpenAlexMergedIdsReader } from './formats/openalex-merged.ts';
import type { FormatReader } from './formats/reader.ts';
import { RorReader } from './formats/ror.ts';
import type { ImportInput } from './inputs.ts';
import { DEFAULT_IMPORT_LIMITS, InputRefused, LimitExceeded, type ImportLimits } from './limits.ts';
import { jsonArrayElements, readLines, recordTooLong } from './lines.ts';
import {
  isTruncation,
  prepareMapped,
  ReadBatches,
  Stopped,
  type InputCounts,
  type InputReading,
  type MappedSource,
} from './read-batches.ts';
import { readSourceInput } from './read-record-source.ts';

export type OnError = 'skip' | 'abort';

/** One skipped record, or a file refused or cut short (with its error code). */
export interface ImportProblem {
  readonly file: string;
  readonly line: number;
  readonly message: string;
  readonly code?: string;
}

export interface FileReport {
  readonly path: string;
  readonly format: ImportFormat;
  readonly records: number;
  readonly skipped: number;
}

/** What to read: plain data, so it can be handed to another thread. */
export interface ReadPlan {
  /** Every input in import order; `format` undefined for one refused before the run (left out). */
  readonly inputs: readonly {
    readonly input: ImportInput;
    readonly format?: ImportFormat;
    /** How far a resumed run had committed this input. */
    readonly checkpoint?: InputCheckpoint;
  }[];
  readonly onError: OnError;
  /** Records and removals per batch. */
  readonly batchSize: number;
  /** ExPORTER abstracts by APPLICATION_ID (for NIH inputs). */
  readonly abstracts: ReadonlyMap<string, string>;
  readonly preparation: RowPreparation;
  /**
   * The longest line and how far a compressed input may unpack (default
   * `DEFAULT_IMPORT_LIMITS`); a file past them is refused at file:line, as `onError` says.
   */
  readonly limits?: ImportLimits;
}

/** A batch to commit with input `position`'s checkpoint (`line` committed, `done` when the input is complete). */
export interface BatchEvent<Row> {
  readonly type: 'batch';
  readonly upserts: ReadonlyMap<NativeKind, readonly Row[]>;
  readonly removals: readonly { readonly kind: NativeKind; readonly id: string }[];
  readonly position: number;
  readonly line: number;
  readonly done: boolean;
}

export type ReadEvent<Row> =
  | BatchEvent<Row>
  | { readonly type: 'problem'; readonly problem: ImportProblem }
  | { readonly type: 'file'; readonly report: FileReport }
  | { readonly type: 'progress'; readonly done: number; readonly records: number; readonly file: string }
  /** The run stops with this error (after the batch before it is committed). */
  | { readonly type: 'stop'; readonly problems: readonly Problem[] };

/**
 * Receives the events in order. A batch's returned promise settles when the reader may go
 * on (the writer has room for another batch), which bounds how far reading runs ahead.
 */
export type ReadSink<Row> = (event: ReadEvent<Row>) => void | Promise<void>;

const isCsv = (input: ImportInput): boolean => /\.csv(\.gz)?$/i.test(input.entry ?? input.file);

/** The line reader of a line format for one input. */
export function readerFor(
  format: LineFormat,
  input: ImportInput,
  abstracts: ReadonlyMap<string, string>,
): FormatReader {
  switch (format) {
    case 'quarry': {
      const kind = kindOfShard(input.entry ?? input.file);
      if (kind === undefined)
        throw QuarryError.of('DATA_UNKNOWN_FORMAT', { params: { path: input.name, formats: formatList() } });
      return new NativeReader(kind);
    }
    case 'openalex':
      return isCsv(input) ? new OpenAlexMergedIdsReader(mergedKind(input.name)) : new OpenAlexReader();
    case 'ror':
      return new RorReader(/\.json(\.gz)?$/i.test(input.entry ?? input.file) ? 'json-array' : 'jsonl');
    case 'crossref':
      return new CrossrefReader();
    case 'nih':
      return new NihReader(abstracts);
    case 'anzsrc':
      return new AnzsrcReader();
  }
}

type SourceItem =
  | { source: string | Record<string, string>; line: number }
  | { error: string; line: number }
  | { missing: MissingColumn; header: readonly string[] };

/**
 * Source records of an input as (text or CSV row, line) pairs; `at.line` follows the lines
 * read. A record spanning lines is held up to the line limit (`LimitExceeded` past it).
 */
async function* sourceRecords(
  reader: FormatReader,
  input: ImportInput,
  onBytes: (b: number) => void,
  at: { line: number; blank: boolean },
  limits: ImportLimits,
): AsyncGenerator<SourceItem> {
  const lines = (async function* () {
    for await (const l of readLines(input, onBytes, limits)) {
      at.line = l.line;
      if (l.text.trim() !== '') at.blank = false;
      yield l;
    }
  })();
  if (reader.container === 'jsonl') {
    for await (const { text, line } of lines) if (text.trim() !== '') yield { source: text, line };
  } else if (reader.container === 'json-array') {
    for await (const { text, line } of jsonArrayElements(lines, limits.maxLineBytes)) yield { source: text, line };
  } else {
    const csv = new CsvLineReader();
    let header: string[] | undefined;
    let start = 0;
    // Characters of the record in progress, line breaks counted (a quoted field may run over
    // many lines); characters, not bytes, for a record spanning lines.
    let held = 0;
    for await (const l of lines) {
      if (!csv.open) {
        start = l.line;
        held = 0;
        if (l.text.trim() === '') continue;
      } else held++;
      held += l.text.length;
      if (held > limits.maxLineBytes) throw recordTooLong(limits.maxLineBytes, start);
      const row = csv.push(l.text);
      if (row === undefined) continue;
      if (header === undefined) {
        header = row.map((h) => h.trim().replace(/^\uFEFF/, ''));
        try {
          reader.header?.(header);
        } catch (err) {
          if (!(err instanceof MissingColumn)) throw err;
          yield { missing: err, header };
          return;
        }
        continue;
      }
      if (row.length !== header.length) {
        yield { error: `expected ${header.length} fields, found ${row.length}`, line: start };
        continue;
      }
      const record: Record<string, string> = {};
      header.forEach((h, k) => (record[h] = row[k] as string));
      yield { source: record, line: start };
    }
    if (csv.open) yield { error: 'a quoted field is never closed', line: start };
  }
}

/** Maps one source record and prepares what it maps to; throws only what a bug throws. */
export function mapAndPrepare<Row>(
  reader: FormatReader,
  source: string | Readonly<Record<string, string>>,
  prepare: (kind: NativeKind, record: NativeRecord) => Row,
): MappedSource<Row> {
  let mapped: Mapped[];
  try {
    mapped = reader.map(source);
  } catch (err) {
    if (!(err instanceof MalformedRecord)) throw err;
    return { malformed: err.message };
  }
  return prepareMapped(mapped, prepare);
}

/**
 * Threads that map and prepare source records of a pure format reader (its `map` depends on
 * the source record alone) beside the reading thread: `helpers` of them take a share of each
 * group of records and answer in the same order.
 */
export interface SourceMapper {
  readonly helpers: number;
  map(
    format: LineFormat,
    input: ImportInput,
    preparation: RowPreparation,
    sources: readonly string[],
  ): Promise<readonly MappedSource<unknown>[]>;
}

/** Source records mapped together: the helpers' share of a group is one task each. */
const GROUP = 1000;

/**
 * Reads the plan's inputs and sends their records to `sink`. Returns when every input is
 * read or a `stop` was sent; throws what it did not expect (a bug in a format reader), with
 * `where` kept at the file and line it was reading.
 */
export async function readInputs<P extends RowPreparation>(
  plan: ReadPlan & { readonly preparation: P },
  sink: ReadSink<PreparedRecord<P>>,
  where: { file: string; line: number } = { file: '', line: 0 },
  mapper?: SourceMapper,
): Promise<void> {
  type Row = PreparedRecord<P>;
  const prepare = ROW_PREPARATIONS[plan.preparation] as (kind: NativeKind, record: NativeRecord) => Row;
  const batches = new ReadBatches<Row>(sink, plan.batchSize);
  let bytesBefore = 0;
  try {
    for (const [position, { input, format, checkpoint }] of plan.inputs.entries()) {
      if (format === undefined || checkpoint?.done === true) {
        bytesBefore += input.size;
        continue;
      }
      where.file = input.name;
      where.line = 0;
      let lastReport = 0;
      const reading: InputReading<Row> = {
        input,
        position,
        resumeAt: checkpoint?.line ?? 0,
        onError: plan.onError,
        limits: plan.limits ?? DEFAULT_IMPORT_LIMITS,
        batches,
        prepare,
        onBytes: (b) => {
          const now = performance.now();
          if (now - lastReport > 200) {
            lastReport = now;
            void sink({ type: 'progress', done: bytesBefore + b, records: batches.total, file: input.name });
          }
        },
        where,
      };
      const { records, skipped } = isSourceFormat(format)
        ? await readSourceInput(reading, format)
        : await readLineInput(reading, format, plan, mapper);
      bytesBefore += input.size;
      await sink({ type: 'file', report: { path: input.name, format, records, skipped } });
    }
  } catch (err) {
    if (!(err instanceof Stopped)) throw err;
  }
}

/**
 * Reads one input of a line format: its source records, mapped here (or, for a pure reader,
 * partly by the helper threads), each reported at its line. The checkpoint is the line of
 * the last record added: on resume the lines up to it are read again (readers gather state
 * across a file, such as OpenAlex authors) but not written again.
 */
async function readLineInput<Row>(
  reading: InputReading<Row>,
  format: LineFormat,
  plan: ReadPlan,
  mapper: SourceMapper | undefined,
): Promise<InputCounts> {
  const { input, position, resumeAt: resumeLine, onError, limits, batches, prepare, onBytes, where } = reading;
  const reader = readerFor(format, input, plan.abstracts);
  let fileRecords = 0;
  let fileSkipped = 0;
  let lastLine = resumeLine;
  /** A problem with a whole file: stops the import (every earlier record committed) or is noted. */
  const refuse = async (problem: QuarryError, line: number): Promise<void> => {
    if (onError === 'abort') {
      await batches.flush(position, lastLine, false);
      await batches.stop(problem);
    }
    await batches.note({ file: input.name, line, message: problem.message, code: problem.code });
  };
  const fail = async (line: number, message: string): Promise<void> => {
    if (line <= resumeLine) return;
    if (onError === 'abort') {
      await batches.flush(position, lastLine, false);
      await batches.stop(
        QuarryError.of('DATA_IMPORT_ABORTED', {
          params: { file: input.name, line, reason: message, committed: batches.total },
        }),
      );
    }
    fileSkipped++;
    await batches.note({ file: input.name, line, message });
  };
  /** Takes the outcome of the source record at `line`, in file order. */
  const apply = async (line: number, result: MappedSource<Row>): Promise<void> => {
    if ('malformed' in result) {
      await fail(line, result.malformed);
      return;
    }
    if (line <= resumeLine) {
      fileRecords++;
      return;
    }
    if ('unprepared' in result) {
      // A record the writer cannot place (no id): as malformed as one that does not parse.
      await fail(line, result.unprepared);
      return;
    }
    fileRecords++;
    batches.add(result);
    lastLine = line;
    if (batches.full) await batches.flush(position, lastLine, false);
  };
  // A pure reader's records are mapped in groups, shared with the helper threads.
  const shared = reader.pure === true && mapper !== undefined && mapper.helpers > 0 ? mapper : undefined;
  let group: { source: string; line: number }[] = [];
  const applyGroup = async (): Promise<void> => {
    if (group.length === 0 || shared === undefined) return;
    const items = group;
    group = [];
    const ways = shared.helpers + 1;
    // Item k goes to helper k % ways - 1; this thread maps those with k % ways = 0.
    const tasks = Array.from({ length: shared.helpers }, (_, h) =>
      shared.map(
        format,
        input,
        plan.preparation,
        items.filter((_, k) => k % ways === h + 1).map((i) => i.source),
      ),
    );
    const own = items.filter((_, k) => k % ways === 0).map((i) => mapAndPrepare(reader, i.source, prepare));
    const theirs = (await Promise.all(tasks)) as (readonly MappedSource<Row>[])[];
    for (let k = 0; k < items.length; k++) {
      const slot = Math.floor(k / ways);
      const result = k % ways === 0 ? own[slot] : theirs[(k % ways) - 1]?.[slot];
      if (result === undefined) throw new Error(`no mapping came back for line ${items[k]?.line}`);
      await apply((items[k] as { line: number }).line, result);
    }
  };
  const at = { line: 0, blank: true };
  // The file was refused part-way (cut short, or past a limit): it is not also empty.
  let refused = false;
  try {
    for await (const item of sourceRecords(reader, input, onBytes, at, limits)) {
      where.line = at.line;
      if (!('source' in item)) await applyGroup(); // what was read before it comes first
      if ('missing' in item) {
        await refuse(
          QuarryError.of('DATA_CSV_MISSING_COLUMN', {
            params: {
              file: input.name,
              format: item.missing.layout,
              column: item.missing.column,
              found: item.header.join(', '),
            },
          }),
          1,
        );
        break;
      }
      if ('error' in item) {
        await fail(item.line, item.error);
        continue;
      }
      if (shared !== undefined && typeof item.source === 'string') {
        group.push({ source: item.source, line: item.line });
        if (group.length >= GROUP) await applyGroup();
      } else await apply(item.line, mapAndPrepare(reader, item.source, prepare));
    }
    await applyGroup();
  } catch (caught) {
    const err = caught instanceof LimitExceeded ? caught.at(input.name, at.line + 1) : caught;
    let refusal: QuarryError;
    let line = at.line + 1;
    if (err instanceof InputRefused) {
      refusal = err;
      line = err.line;
    } else if (!(err instanceof Stopped) && !(err instanceof QuarryError) && isTruncation(err)) {
      refusal = QuarryError.of('DATA_FILE_TRUNCATED', {
        params: { file: input.name, line, reason: (err as Error).message, committed: batches.total },
      });
    } else throw err;
    // Everything read before the break is kept: committed now, before the report or the stop.
    await applyGroup();
    await batches.flush(position, lastLine, false);
    refused = true;
    await refuse(refusal, line);
  }
  if (at.blank && !refused && format !== 'quarry')
    await refuse(QuarryError.of('DATA_FILE_EMPTY', { params: { file: input.name } }), 1);
  // One at a time: a record gathered across the file that cannot be prepared loses only itself.
  for (const m of reader.end()) {
    if ('remove' in m) continue;
    const result = prepareMapped([m], prepare);
    if (!batches.add(result) && 'unprepared' in result) await fail(lastLine, result.unprepared);
  }
  await batches.flush(position, lastLine, true);
  const listed = format === 'openalex' ? snapshotManifestCounts(input.file).get(input.file) : undefined;
  if (listed !== undefined && listed !== fileRecords)
    await batches.note({
      file: input.name,
      line: 0,
      message: `the snapshot manifest lists ${listed} records for this partition; ${fileRecords} were read`,
    });
  return { records: fileRecords, skipped: fileSkipped };
}
