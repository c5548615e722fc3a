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
import type { NativeKind } from '../../model/native-records.ts';
import type { FinishStepListener, ImportRun, RecordTarget } from '../../store/record-writer.ts';
import type { PreparedRecord, RowPreparation } from '../../store/row-preparation.ts';
import { CsvLineReader } from '../csv.ts';
import { detectFormat, expandInputs, IMPORT_FORMATS, type ImportFormat } from './detect.ts';
import { nihLayout } from './formats/nih.ts';
import type { ImportInput } from './inputs.ts';
import { readLines } from './lines.ts';
import { importLimits, InputRefused, type ImportLimits } from './limits.ts';
import { ReadingFailed, runReading } from './read-pipeline.ts';
import { isTruncation } from './read-batches.ts';
import { readTogether } from './read-together.ts';
import type { FileReport, ImportProblem, OnError, ReadEvent, ReadPlan } from './read-inputs.ts';
import { pickUnfinished, refuseBesideUnfinished } from './unfinished.ts';

export { IMPORT_FORMATS, type ImportFormat } from './detect.ts';
export type { ImportProblem, OnError } from './read-inputs.ts';
export { discardUnfinished, type DiscardOptions } from './unfinished.ts';
export { DEFAULT_IMPORT_LIMITS, type ImportLimits } from './limits.ts';

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
  /** Told each step of the finish (derived data, indexes, statistics) as it ends, with its wall time. */
  readonly onFinishStep?: FinishStepListener;
  /** Records per transaction (default 5000). */
  readonly batchSize?: number;
  /** Rebuild derived data and indexes at the end (default true). */
  readonly finish?: boolean;
  /**
   * Complete an unfinished import of the database (its paths and options; the others given
   * are ignored): `true` for the only one, or the number of the run when several did not finish.
   */
  readonly resume?: boolean | number;
  /**
   * Import although an earlier import into the database did not finish; it stays unfinished
   * (to resume or discard later). Without this, such an import is refused.
   */
  readonly keepUnfinished?: boolean;
  /**
   * Read and prepare the records in a worker thread beside the writer (default: when the
   * inputs hold `WORKER_THRESHOLD_BYTES` or more, where the second core pays for the thread's start).
   */
  readonly readInWorker?: boolean;
  /**
   * The longest line (or record spanning lines) and how far one compressed file or zip entry
   * may unpack, in all and per byte read (default `DEFAULT_IMPORT_LIMITS`); a file past one
   * is refused at file:line, as `onError` says.
   */
  readonly limits?: Partial<ImportLimits>;
}

export interface ImportReport {
  readonly files: readonly FileReport[];
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

/** Inputs of this many bytes or more are read in a worker thread unless `readInWorker` says otherwise. */
export const WORKER_THRESHOLD_BYTES = 8 * 2 ** 20;

/**
 * ExPORTER abstracts by APPLICATION_ID, from the NIH inputs whose header is the abstracts
 * layout. A file past the limits, or cut short (a truncated gzip), is read up to there: the
 * main pass refuses it with its coded error, as `onError` says.
 */
async function readNihAbstracts(inputs: readonly ImportInput[], limits: ImportLimits): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  for (const input of inputs) {
    try {
      await readNihAbstractsOf(input, limits, out);
    } catch (err) {
      if (!(err instanceof InputRefused) && !isTruncation(err)) throw err;
    }
  }
  return out;
}

/** Adds the abstracts of one input to `out`. */
async function readNihAbstractsOf(input: ImportInput, limits: ImportLimits, out: Map<string, string>): Promise<void> {
  const csv = new CsvLineReader();
  let header: string[] | undefined;
  // Characters of the record in progress (a quoted field may run over many lines).
  let held = 0;
  for await (const l of readLines(input, undefined, limits)) {
    held = csv.open ? held + 1 + l.text.length : l.text.length;
    if (held > limits.maxLineBytes) return;
    const row = csv.push(l.text);
    if (row === undefined || (header === undefined && l.text.trim() === '')) continue;
    if (header === undefined) {
      header = row.map((h) => h.trim().replace(/^\uFEFF/, ''));
      let layout;
      try {
        layout = nihLayout(header);
      } catch {
        return; // the main pass reports the missing column
      }
      if (layout !== 'abstracts') return;
      continue;
    }
    const id = row[header.indexOf('APPLICATION_ID')]?.trim();
    const text = row[header.indexOf('ABSTRACT_TEXT')];
    if (id !== undefined && id !== '' && text !== undefined) out.set(id, text);
  }
}

/** What a run was asked, kept in the import journal so `--resume` repeats it exactly. */
interface ImportRequest {
  readonly paths: readonly string[];
  readonly format: ImportFormat | 'auto';
  readonly onError: OnError;
  readonly batchSize: number;
  readonly finish: boolean;
  readonly bulk: boolean;
  /** Absent in the journal of a run before the limits: the defaults. */
  readonly limits?: ImportLimits;
}

/** The unfinished run to resume and its request, or a coded error saying why there is none. */
async function resumable(
  target: RecordTarget,
  which: true | number,
): Promise<{ request: ImportRequest; run: ImportRun }> {
  const run = await pickUnfinished(target, which === true ? undefined : which, 'resume');
  return { request: run.request as ImportRequest, run };
}

/**
 * Imports the files into the database `open` names (a SQLite file is created when missing)
 * and returns what was written.
 * Records and the journal's checkpoint commit together, batch by batch; with `resume` an
 * unfinished run of the database is completed from its checkpoints. A new import into a
 * database where one did not finish is refused unless `keepUnfinished` says otherwise.
 */
export async function importFiles(options: ImportOptions): Promise<ImportReport> {
  const started = performance.now();
  const target = options.open;
  const resuming =
    options.resume === undefined || options.resume === false ? undefined : await resumable(target, options.resume);
  if (resuming === undefined && options.keepUnfinished !== true) await refuseBesideUnfinished(target);
  const fresh = resuming === undefined && (await target.isNew());
  const request: ImportRequest = resuming?.request ?? {
    paths: options.paths,
    format: options.format ?? 'auto',
    onError: options.onError ?? 'abort',
    batchSize: Math.max(1, options.batchSize ?? 5000),
    finish: options.finish !== false,
    // A new database loads in bulk (indexes rebuilt by finish()); an existing one stays queryable.
    bulk: fresh,
    limits: importLimits(options.limits),
  };
  const limits = importLimits(request.limits);
  const { onError, batchSize } = request;
  if (onError !== 'skip' && onError !== 'abort')
    throw QuarryError.of('DATA_BAD_ON_ERROR_OPTION', { params: { value: String(onError) } });
  const requested = request.format;
  if (requested !== 'auto' && !IMPORT_FORMATS.includes(requested))
    throw QuarryError.of('DATA_BAD_FORMAT_OPTION', {
      params: { value: String(requested), formats: IMPORT_FORMATS.join(', ') },
    });
  const found = await expandInputs(request.paths);
  const problems: ImportProblem[] = [];
  let skipped = 0;
  const note = (problem: ImportProblem): void => {
    skipped++;
    if (problems.length < MAX_PROBLEMS) problems.push(problem);
  };
  // An empty file, or one whose first line is past the limits, is refused up front (nothing
  // is written for a run that would abort on it).
  const detected = new Map<ImportInput, ImportFormat>();
  for (const input of found) {
    try {
      detected.set(input, requested === 'auto' ? await detectFormat(input, limits) : requested);
    } catch (err) {
      const refused = err instanceof InputRefused || (err instanceof QuarryError && err.code === 'DATA_FILE_EMPTY');
      if (onError !== 'skip' || !refused) throw err;
      const line = err instanceof InputRefused ? err.line : 1;
      if (resuming === undefined) note({ file: input.name, line, message: err.message, code: err.code });
    }
  }
  // The journal names the inputs as read: PatentsView's tables as one.
  const { inputs, formats } = readTogether(found, detected);
  if (resuming !== undefined) {
    const was = resuming.run.inputs.map((i) => i.name).join('\n');
    if (was !== inputs.map((i) => i.name).join('\n'))
      throw QuarryError.of('DATA_RESUME_INPUTS_CHANGED', { params: { db: target.name } });
  }
  const totalBytes = inputs.reduce((sum, i) => sum + (formats.has(i) ? i.size : 0), 0);
  const report = options.onProgress ?? ((): void => undefined);
  const abstracts = await readNihAbstracts(
    inputs.filter((i) => formats.get(i) === 'nih'),
    limits,
  );

  const store = await target.open({ bulk: request.bulk, batchSize });
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
  let committed = 0;
  const fileReports: FileReport[] = [];
  const finishStore = async (): Promise<void> => {
    report({ phase: 'finish', done: totalBytes, total: totalBytes, records: committed });
    if (request.finish) await store.finish(options.onFinishStep);
  };
  /** The writing half: commits each batch with its checkpoint, and ends the run on a stop. */
  const handle = async (event: ReadEvent<PreparedRecord<RowPreparation>>): Promise<void> => {
    switch (event.type) {
      case 'batch': {
        const { upserts, removals, position, line, done } = event;
        // The rows were prepared for this target (`plan.preparation` below).
        const gone = await store.commit(runId, { upserts, removals }, { position, line, done });
        for (const [kind, rows] of upserts) {
          written[kind] = (written[kind] ?? 0) + rows.length;
          committed += rows.length;
        }
        for (const [kind, n] of Object.entries(gone) as [NativeKind, number][])
          removed[kind] = (removed[kind] ?? 0) + n;
        return;
      }
      case 'problem':
        note(event.problem);
        return;
      case 'file':
        fileReports.push(event.report);
        return;
      case 'progress':
        report({ phase: 'import', done: event.done, total: totalBytes, records: event.records, file: event.file });
        return;
      case 'stop':
        // Ends the run early: what is committed gets its derived data, and the run is marked stopped.
        await finishStore();
        await store.end(runId, 'stopped');
        throw new QuarryError(event.problems);
    }
  };
  const plan: ReadPlan = {
    inputs: inputs.map((input, position) => {
      const format = formats.get(input);
      const checkpoint = resuming?.run.inputs[position];
      return {
        input,
        ...(format === undefined ? {} : { format }),
        ...(checkpoint === undefined ? {} : { checkpoint }),
      };
    }),
    onError,
    batchSize,
    abstracts,
    preparation: target.preparation,
    limits,
  };
  try {
    try {
      await runReading(plan, handle, {
        inWorker: options.readInWorker ?? totalBytes >= WORKER_THRESHOLD_BYTES,
      });
    } catch (error) {
      if (!(error instanceof ReadingFailed)) throw error;
      // A bug, not the data: the run stays unfinished, so --resume goes on from the last batch.
      throw QuarryError.of(
        'DATA_IMPORT_READER_FAILED',
        { params: { file: error.file, line: error.line, reason: error.reason, committed, db: target.name } },
        { cause: error.cause ?? error },
      );
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
