/**
 * `importFiles()`: streams records from files of any supported format into a record
 * database, in transactions of bounded size, idempotently (records are upserted by id).
 * A malformed record is reported as file:line and skipped, or stops the import with every
 * record before it committed, as `onError` says.
 *
 * @example
 *   const report = await importFiles({ paths: ['/tmp/q1k'], dbPath: '/tmp/q.db', format: 'auto', onError: 'skip' });
 *   report.records.publications; // 1000
 */
import { existsSync, statSync } from 'node:fs';
import { QuarryError } from '../../errors/index.ts';
import type { NativeKind, NativeRecord } from '../../model/native-records.ts';
import { openRecordStore, type RecordStore } from '../../store/sqlite/records-store.ts';
import { CsvLineReader } from '../csv.ts';
import { detectFormat, expandPaths, IMPORT_FORMATS, type ImportFormat } from './detect.ts';
import { MalformedRecord } from './formats/common.ts';
import { CrossrefReader } from './formats/crossref.ts';
import { kindOfShard, NativeReader } from './formats/native.ts';
import { NihReader } from './formats/nih.ts';
import { OpenAlexReader } from './formats/openalex.ts';
import type { FormatReader } from './formats/reader.ts';
import { RorReader } from './formats/ror.ts';
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

export interface ImportOptions {
  readonly paths: readonly string[];
  readonly dbPath: string;
  readonly format?: ImportFormat | 'auto';
  readonly onError?: OnError;
  readonly onProgress?: (progress: ImportProgress) => void;
  /** Records per transaction (default 5000). */
  readonly batchSize?: number;
  /** Rebuild derived data and indexes at the end (default true). */
  readonly finish?: boolean;
}

/** One skipped record. */
export interface ImportProblem {
  readonly file: string;
  readonly line: number;
  readonly message: string;
}

export interface ImportReport {
  readonly files: readonly { path: string; format: ImportFormat; records: number; skipped: number }[];
  /** Records written, per kind. */
  readonly records: Readonly<Partial<Record<NativeKind, number>>>;
  readonly skipped: number;
  /** The first 1000 problems (all are counted in `skipped`). */
  readonly problems: readonly ImportProblem[];
  readonly ms: number;
}

const MAX_PROBLEMS = 1000;

function readerFor(format: ImportFormat, path: string): FormatReader {
  switch (format) {
    case 'quarry': {
      const kind = kindOfShard(path);
      if (kind === undefined) throw QuarryError.of('DATA_UNKNOWN_FORMAT', { params: { path } });
      return new NativeReader(kind);
    }
    case 'openalex':
      return new OpenAlexReader();
    case 'ror':
      return new RorReader(/\.json(\.gz)?$/i.test(path) ? 'json-array' : 'jsonl');
    case 'crossref':
      return new CrossrefReader();
    case 'nih':
      return new NihReader();
  }
}

/** Source records of a file as (text or CSV row, line) pairs. */
async function* sourceRecords(
  reader: FormatReader,
  path: string,
  onBytes: (b: number) => void,
): AsyncGenerator<{ source: string | Record<string, string>; line: number } | { error: string; line: number }> {
  const lines = readLines(path, onBytes);
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
        header = row.map((h) => h.trim());
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

/** Imports the files into `dbPath` (created when missing) and returns what was written. */
export async function importFiles(options: ImportOptions): Promise<ImportReport> {
  const started = performance.now();
  const onError = options.onError ?? 'abort';
  if (onError !== 'skip' && onError !== 'abort')
    throw QuarryError.of('DATA_BAD_ON_ERROR_OPTION', { params: { value: String(onError) } });
  const requested = options.format ?? 'auto';
  if (requested !== 'auto' && !IMPORT_FORMATS.includes(requested))
    throw QuarryError.of('DATA_BAD_FORMAT_OPTION', { params: { value: String(requested) } });
  const files = expandPaths(options.paths);
  const formats: ImportFormat[] = [];
  for (const f of files) formats.push(requested === 'auto' ? await detectFormat(f) : requested);
  const totalBytes = files.reduce((s, f) => s + statSync(f).size, 0);
  const batchSize = Math.max(1, options.batchSize ?? 5000);
  const report = options.onProgress ?? ((): void => undefined);

  // A new database loads in bulk (indexes rebuilt by finish()); an existing one stays queryable.
  const fresh = !existsSync(options.dbPath);
  const store: RecordStore = openRecordStore(options.dbPath, { bulk: fresh, batchSize });
  const written: Partial<Record<NativeKind, number>> = {};
  const problems: ImportProblem[] = [];
  let skipped = 0;
  let total = 0;
  let bytesBefore = 0;
  const pending = new Map<NativeKind, NativeRecord[]>();
  const flush = (kind: NativeKind): void => {
    const batch = pending.get(kind);
    if (batch === undefined || batch.length === 0) return;
    store.transaction(() => store.upsert(kind, batch));
    written[kind] = (written[kind] ?? 0) + batch.length;
    pending.set(kind, []);
  };
  const flushAll = (): void => {
    for (const kind of pending.keys()) flush(kind);
  };
  const add = (kind: NativeKind, record: NativeRecord): void => {
    let batch = pending.get(kind);
    if (batch === undefined) {
      batch = [];
      pending.set(kind, batch);
    }
    batch.push(record);
    total++;
    if (batch.length >= batchSize) flush(kind);
  };
  const fileReports: { path: string; format: ImportFormat; records: number; skipped: number }[] = [];
  const finishStore = (): void => {
    report({ phase: 'finish', done: totalBytes, total: totalBytes, records: total });
    if (options.finish !== false) store.finish();
  };
  try {
    for (let k = 0; k < files.length; k++) {
      const path = files[k] as string;
      const format = formats[k] as ImportFormat;
      const reader = readerFor(format, path);
      let fileRecords = 0;
      let fileSkipped = 0;
      let lastReport = 0;
      const onBytes = (b: number): void => {
        const now = performance.now();
        if (now - lastReport > 200) {
          lastReport = now;
          report({ phase: 'import', done: bytesBefore + b, total: totalBytes, records: total, file: path });
        }
      };
      const fail = (line: number, message: string): void => {
        if (onError === 'abort') {
          flushAll();
          finishStore();
          throw QuarryError.of('DATA_IMPORT_ABORTED', {
            params: { file: path, line, reason: message, committed: total },
          });
        }
        skipped++;
        fileSkipped++;
        if (problems.length < MAX_PROBLEMS) problems.push({ file: path, line, message });
      };
      for await (const item of sourceRecords(reader, path, onBytes)) {
        if ('error' in item) {
          fail(item.line, item.error);
          continue;
        }
        let mapped;
        try {
          mapped = reader.map(item.source);
        } catch (err) {
          if (!(err instanceof MalformedRecord)) throw err;
          fail(item.line, err.message);
          continue;
        }
        for (const m of mapped) add(m.kind, m.record);
        fileRecords++;
      }
      for (const m of reader.end()) add(m.kind, m.record);
      flushAll();
      bytesBefore += statSync(path).size;
      fileReports.push({ path, format, records: fileRecords, skipped: fileSkipped });
    }
    flushAll();
    finishStore();
  } finally {
    store.close();
  }
  return { files: fileReports, records: written, skipped, problems, ms: Math.round(performance.now() - started) };
}
