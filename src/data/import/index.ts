/**
 * `importFiles()`: streams records from files of any supported format into a record
 * database, in transactions of bounded size, idempotently (records are upserted by id).
 * A malformed record is reported as file:line and skipped, or stops the import with every
 * record before it committed, as `onError` says.
 *
 * @example
 *   const report = await importFiles({ paths: ['/tmp/q1k'], open: recordWriterFor('/tmp/q.db'), format: 'auto', onError: 'skip' });
 *   report.records.publications; // 1000
 */
import { QuarryError } from '../../errors/index.ts';
import type { NativeKind, NativeRecord } from '../../model/native-records.ts';
import type { ImportRun, RecordTarget, RecordWriter } from '../../store/record-writer.ts';
import { CsvLineReader } from '../csv.ts';
import { detectFormat, expandInputs, IMPORT_FORMATS, snapshotManifestCounts, type ImportFormat } from './detect.ts';
import { AnzsrcReader } from './formats/anzsrc.ts';
import { MalformedRecord, MissingColumn } from './formats/common.ts';
import { CrossrefReader } from './formats/crossref.ts';
import { kindOfShard, NativeReader } from './formats/native.ts';
import { nihLayout, NihReader } from './formats/nih.ts';
import { OpenAlexReader } from './formats/openalex.ts';
import { mergedKind, OpenAlexMergedIdsReader } from './formats/openalex-merged.ts';
import type { FormatReader } from './formats/reader.ts';
import { RorReader } from './formats/ror.ts';
import type { ImportInput } from './inputs.ts';
import { jsonArrayElements, readLines } from './lines.ts';

export { IMPORT_FORMATS, type ImportFormat } from './detect.ts';

export type OnError = 'skip' | 'abort';

export interface ImportProgress {
  readonly phase: 'import' | 'finish';
  /** Bytes read from disk so far (all files). */
  readonly done: number;
  readonly total: number;
  readonly records: number;
  readonly file?: string;
}

export type { RecordTarget } from '../../store/record-writer.ts';

export interface ImportOptions {
  readonly paths: readonly string[];
  /** The database to import into, from the composition root (`recordWriterFor()` in src/backends.ts). */
  readonly open: RecordTarget;
  readonly format?: ImportFormat | 'auto';
  readonly onError?: OnError;
  readonly onProgress?: (progress: ImportProgress) => void;
  /** Records per transaction (default 5000). */
  readonly batchSize?: number;
  /** Rebuild derived data and indexes at the end (default true). */
  readonly finish?: boolean;
  /** Complete the database's last unfinished import (its paths and options; the others given are ignored). */
  readonly resume?: boolean;
}

/** One skipped record, or a file refused or cut short (with its error code). */
export interface ImportProblem {
  readonly file: string;
  readonly line: number;
  readonly message: string;
  readonly code?: string;
}

export interface ImportReport {
  readonly files: readonly { path: string; format: ImportFormat; records: number; skipped: number }[];
  /** Records written, per kind. */
  readonly records: Readonly<Partial<Record<NativeKind, number>>>;
  /** Records removed (OpenAlex merged ids), per kind. */
  readonly removed: Readonly<Partial<Record<NativeKind, number>>>;
  readonly skipped: number;
  /** The first 1000 problems (all are counted in `skipped`). */
  readonly problems: readonly ImportProblem[];
  readonly ms: number;
}

const MAX_PROBLEMS = 1000;

const isCsv = (input: ImportInput): boolean => /\.csv(\.gz)?$/i.test(input.entry ?? input.file);

function readerFor(format: ImportFormat, input: ImportInput, abstracts: ReadonlyMap<string, string>): FormatReader {
  switch (format) {
    case 'quarry': {
      const kind = kindOfShard(input.entry ?? input.file);
      if (kind === undefined) throw QuarryError.of('DATA_UNKNOWN_FORMAT', { params: { path: input.name } });
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

/** Source records of an input as (text or CSV row, line) pairs; `at.line` follows the lines read. */
async function* sourceRecords(
  reader: FormatReader,
  input: ImportInput,
  onBytes: (b: number) => void,
  at: { line: number; blank: boolean },
): AsyncGenerator<SourceItem> {
  const lines = (async function* () {
    for await (const l of readLines(input, onBytes)) {
      at.line = l.line;
      if (l.text.trim() !== '') at.blank = false;
      yield l;
    }
  })();
  if (reader.container === 'jsonl') {
    for await (const { text, line } of lines) if (text.trim() !== '') yield { source: text, line };
  } else if (reader.container === 'json-array') {
    for await (const { text, line } of jsonArrayElements(lines)) yield { source: text, line };
  } else {
    const csv = new CsvLineReader();
    let header: string[] | undefined;
    let start = 0;
    for await (const l of lines) {
      if (!csv.open) {
        start = l.line;
        if (l.text.trim() === '') continue;
      }
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

/** True for the error a gzip stream raises when its data ends early. */
function isTruncation(err: unknown): boolean {
  const code = (err as { code?: string }).code;
  return code === 'Z_BUF_ERROR' || code === 'Z_DATA_ERROR' || /unexpected end of file/i.test(String(err));
}

/** ExPORTER abstracts by APPLICATION_ID, from the NIH inputs whose header is the abstracts layout. */
async function readNihAbstracts(inputs: readonly ImportInput[]): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  for (const input of inputs) {
    const csv = new CsvLineReader();
    let header: string[] | undefined;
    for await (const l of readLines(input)) {
      const row = csv.push(l.text);
      if (row === undefined || (header === undefined && l.text.trim() === '')) continue;
      if (header === undefined) {
        header = row.map((h) => h.trim().replace(/^\uFEFF/, ''));
        let layout;
        try {
          layout = nihLayout(header);
        } catch {
          break; // the main pass reports the missing column
        }
        if (layout !== 'abstracts') break;
        continue;
      }
      const id = row[header.indexOf('APPLICATION_ID')]?.trim();
      const text = row[header.indexOf('ABSTRACT_TEXT')];
      if (id !== undefined && id !== '' && text !== undefined) out.set(id, text);
    }
  }
  return out;
}

/** What a run was asked, kept in the import journal so `--resume` repeats it exactly. */
interface ImportRequest {
  readonly paths: readonly string[];
  readonly format: ImportFormat | 'auto';
  readonly onError: OnError;
  readonly batchSize: number;
  readonly finish: boolean;
  readonly bulk: boolean;
}

/** The request of the unfinished run to resume, or a coded error saying there is none. */
async function resumable(target: RecordTarget): Promise<{ request: ImportRequest; run: ImportRun }> {
  const run = await target.unfinished();
  if (run === undefined) throw QuarryError.of('DATA_NOTHING_TO_RESUME', { params: { db: target.name } });
  return { request: run.request as ImportRequest, run };
}

/**
 * Imports the files into the database `open` names (a SQLite file is created when missing)
 * and returns what was written.
 * Records and the journal's checkpoint commit together, batch by batch; with `resume` the
 * last unfinished run of the database is completed from its checkpoints.
 */
export async function importFiles(options: ImportOptions): Promise<ImportReport> {
  const started = performance.now();
  const target = options.open;
  const resuming = options.resume === true ? await resumable(target) : undefined;
  const fresh = resuming === undefined && (await target.isNew());
  const request: ImportRequest = resuming?.request ?? {
    paths: options.paths,
    format: options.format ?? 'auto',
    onError: options.onError ?? 'abort',
    batchSize: Math.max(1, options.batchSize ?? 5000),
    finish: options.finish !== false,
    // A new database loads in bulk (indexes rebuilt by finish()); an existing one stays queryable.
    bulk: fresh,
  };
  const { onError, batchSize } = request;
  if (onError !== 'skip' && onError !== 'abort')
    throw QuarryError.of('DATA_BAD_ON_ERROR_OPTION', { params: { value: String(onError) } });
  const requested = request.format;
  if (requested !== 'auto' && !IMPORT_FORMATS.includes(requested))
    throw QuarryError.of('DATA_BAD_FORMAT_OPTION', { params: { value: String(requested) } });
  const inputs = await expandInputs(request.paths);
  if (resuming !== undefined) {
    const was = resuming.run.inputs.map((i) => i.name).join('\n');
    if (was !== inputs.map((i) => i.name).join('\n'))
      throw QuarryError.of('DATA_RESUME_INPUTS_CHANGED', { params: { db: target.name } });
  }
  const problems: ImportProblem[] = [];
  let skipped = 0;
  const note = (problem: ImportProblem): void => {
    skipped++;
    if (problems.length < MAX_PROBLEMS) problems.push(problem);
  };
  // An empty file is refused up front (nothing is written for a run that would abort on it).
  const formats = new Map<ImportInput, ImportFormat>();
  for (const input of inputs) {
    try {
      formats.set(input, requested === 'auto' ? await detectFormat(input) : requested);
    } catch (err) {
      if (onError === 'skip' && err instanceof QuarryError && err.code === 'DATA_FILE_EMPTY') {
        if (resuming === undefined) note({ file: input.name, line: 1, message: err.message, code: err.code });
      } else throw err;
    }
  }
  const totalBytes = inputs.reduce((sum, i) => sum + (formats.has(i) ? i.size : 0), 0);
  const report = options.onProgress ?? ((): void => undefined);
  const abstracts = await readNihAbstracts(inputs.filter((i) => formats.get(i) === 'nih'));

  const store: RecordWriter = await target.open({ bulk: request.bulk, batchSize });
  let runId: number;
  try {
    runId =
      resuming?.run.id ??
      (await store.begin(
        request,
        inputs.map((i) => i.name),
      ));
  } catch (error) {
    await store.close();
    throw error;
  }
  const written: Partial<Record<NativeKind, number>> = {};
  const removed: Partial<Record<NativeKind, number>> = {};
  let total = 0;
  let bytesBefore = 0;
  const pending = new Map<NativeKind, NativeRecord[]>();
  const removals: { kind: NativeKind; id: string }[] = [];
  let pendingCount = 0;
  /** Writes every pending record and removal with the input's checkpoint, in one transaction. */
  const commit = async (position: number, line: number, done: boolean): Promise<void> => {
    const gone = await store.commit(runId, { upserts: pending, removals }, { position, line, done });
    for (const [kind, batch] of pending) written[kind] = (written[kind] ?? 0) + batch.length;
    for (const [kind, n] of Object.entries(gone) as [NativeKind, number][]) removed[kind] = (removed[kind] ?? 0) + n;
    pending.clear();
    removals.length = 0;
    pendingCount = 0;
  };
  const add = (kind: NativeKind, record: NativeRecord): void => {
    let batch = pending.get(kind);
    if (batch === undefined) {
      batch = [];
      pending.set(kind, batch);
    }
    batch.push(record);
    pendingCount++;
    total++;
  };
  const fileReports: { path: string; format: ImportFormat; records: number; skipped: number }[] = [];
  const finishStore = async (): Promise<void> => {
    report({ phase: 'finish', done: totalBytes, total: totalBytes, records: total });
    if (request.finish) await store.finish();
  };
  /** Ends the run early: what is committed gets its derived data, and the run is marked stopped. */
  const stop = async (problem: QuarryError): Promise<never> => {
    await finishStore();
    await store.end(runId, 'stopped');
    throw problem;
  };
  try {
    for (const [position, input] of inputs.entries()) {
      const format = formats.get(input);
      const checkpoint = resuming?.run.inputs[position];
      if (format === undefined || checkpoint?.done === true) {
        bytesBefore += input.size;
        continue;
      }
      // Lines up to here are committed: they are read again (readers gather state across a
      // file, such as OpenAlex authors) but not written again.
      const resumeLine = checkpoint?.line ?? 0;
      const reader = readerFor(format, input, abstracts);
      let fileRecords = 0;
      let fileSkipped = 0;
      let lastReport = 0;
      let lastLine = resumeLine;
      const onBytes = (b: number): void => {
        const now = performance.now();
        if (now - lastReport > 200) {
          lastReport = now;
          report({ phase: 'import', done: bytesBefore + b, total: totalBytes, records: total, file: input.name });
        }
      };
      /** A problem with a whole file: stops the import (every earlier record committed) or is noted. */
      const refuse = async (problem: QuarryError, line: number): Promise<void> => {
        if (onError === 'abort') {
          await commit(position, lastLine, false);
          await stop(problem);
        }
        note({ file: input.name, line, message: problem.message, code: problem.code });
      };
      const fail = async (line: number, message: string): Promise<void> => {
        if (line <= resumeLine) return;
        if (onError === 'abort') {
          await commit(position, lastLine, false);
          await stop(
            QuarryError.of('DATA_IMPORT_ABORTED', {
              params: { file: input.name, line, reason: message, committed: total },
            }),
          );
        }
        fileSkipped++;
        note({ file: input.name, line, message });
      };
      const at = { line: 0, blank: true };
      try {
        for await (const item of sourceRecords(reader, input, onBytes, at)) {
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
          let mapped;
          try {
            mapped = reader.map(item.source);
          } catch (err) {
            if (!(err instanceof MalformedRecord)) throw err;
            await fail(item.line, err.message);
            continue;
          }
          fileRecords++;
          if (item.line <= resumeLine) continue;
          for (const m of mapped) {
            if ('remove' in m) {
              removals.push({ kind: m.kind, id: m.remove });
              pendingCount++;
            } else add(m.kind, m.record);
          }
          lastLine = item.line;
          if (pendingCount >= batchSize) await commit(position, lastLine, false);
        }
      } catch (err) {
        if (err instanceof QuarryError || !isTruncation(err)) throw err;
        // Everything read before the break is kept: committed now, before the report or the throw.
        await commit(position, lastLine, false);
        await refuse(
          QuarryError.of('DATA_FILE_TRUNCATED', {
            params: { file: input.name, line: at.line + 1, reason: (err as Error).message, committed: total },
          }),
          at.line + 1,
        );
      }
      if (at.blank && format !== 'quarry')
        await refuse(QuarryError.of('DATA_FILE_EMPTY', { params: { file: input.name } }), 1);
      for (const m of reader.end()) if (!('remove' in m)) add(m.kind, m.record);
      await commit(position, lastLine, true);
      const listed = format === 'openalex' ? snapshotManifestCounts(input.file).get(input.file) : undefined;
      if (listed !== undefined && listed !== fileRecords)
        note({
          file: input.name,
          line: 0,
          message: `the snapshot manifest lists ${listed} records for this partition; ${fileRecords} were read`,
        });
      bytesBefore += input.size;
      fileReports.push({ path: input.name, format, records: fileRecords, skipped: fileSkipped });
    }
    await finishStore();
    await store.end(runId, 'done');
  } finally {
    await store.close();
  }
  return {
    files: fileReports,
    records: written,
    removed,
    skipped,
    problems,
    ms: Math.round(performance.now() - started),
  };
}
