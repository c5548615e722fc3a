import {
  closeSync,
  existsSync,
  fsyncSync,
  ftruncateSync,
  openSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
  writeSync,
} from 'node:fs';
import type { QuarryClient } from './client.ts';
import { QuarryClientError, isQuarryClientError } from './errors.ts';
import { columnsOf, csvLine, csvRows, jsonLines } from './output.ts';

export type ExportFormat = 'jsonl' | 'csv' | 'json';

export interface ExportOptions {
  readonly file: string;
  readonly format: ExportFormat;
  readonly pageSize?: number;
  readonly maxRecords?: number;
  /** Continue an interrupted export into `file` from where its checkpoint says. */
  readonly resume?: boolean;
  readonly signal?: AbortSignal;
  /** After each page is safely on disk. */
  readonly onProgress?: (progress: { readonly done: number; readonly total: number | undefined }) => void;
}

export interface ExportReport {
  readonly file: string;
  /** Records in the file (those of earlier runs included when resumed). */
  readonly records: number;
  readonly total: number | undefined;
  readonly resumedAt: number | undefined;
  readonly warnings: readonly string[];
  /** CSV only: keys that appeared after the header was written, left out. */
  readonly droppedColumns: readonly string[];
}

/** What is on disk after each page, next to the export: enough to continue exactly. */
interface Checkpoint {
  readonly query: string;
  readonly format: ExportFormat;
  /** The offset of the next page to fetch. */
  readonly nextSkip: number;
  readonly records: number;
  /** The file's length after the last complete page; anything after it is cut on resume. */
  readonly bytes: number;
  readonly total: number | undefined;
  readonly columns?: readonly string[];
}

/** The checkpoint file of an export. */
export function checkpointPath(file: string): string {
  return `${file}.resume.json`;
}

/**
 * Exports every record of a search into a file, page by page, writing as it goes. After
 * each page the file is flushed to disk and a checkpoint (`FILE.resume.json`) records the
 * next offset and the file's length, so an interrupted export keeps what it has and
 * `resume: true` continues exactly: the file is cut back to the last complete page and
 * paging restarts at the offset after it (nothing lost, nothing twice). The checkpoint is
 * removed when the export completes.
 *
 * @example
 * await exportToFile(client, 'search publications where year = 2020 return publications[id + title]', { file: 'pubs.jsonl', format: 'jsonl' });
 */
export async function exportToFile(client: QuarryClient, query: string, options: ExportOptions): Promise<ExportReport> {
  const { file, format } = options;
  const stateFile = checkpointPath(file);
  let checkpoint: Checkpoint | undefined;
  if (options.resume) {
    checkpoint = readCheckpoint(stateFile, file);
    const mismatch =
      checkpoint.query !== query
        ? 'the query differs from the one being exported'
        : checkpoint.format !== format
          ? `the export is in ${checkpoint.format}, not ${format}`
          : undefined;
    if (mismatch !== undefined) throw QuarryClientError.client('CLIENT_RESUME_MISMATCH', { file, reason: mismatch });
    if (!existsSync(file) || statSync(file).size < checkpoint.bytes)
      throw QuarryClientError.client('CLIENT_RESUME_MISMATCH', {
        file,
        reason: 'the file is shorter than its checkpoint says',
      });
  }
  const stream = client.iterate(query, {
    ...(options.pageSize !== undefined ? { pageSize: options.pageSize } : {}),
    ...(options.maxRecords !== undefined
      ? { maxRecords: Math.max(0, options.maxRecords - (checkpoint?.records ?? 0)) }
      : {}),
    ...(options.signal ? { signal: options.signal } : {}),
    startAt: checkpoint?.nextSkip ?? 0,
  });

  const fd = openSync(file, checkpoint ? 'r+' : 'w');
  let bytes = checkpoint?.bytes ?? 0;
  let records = checkpoint?.records ?? 0;
  let columns = checkpoint?.columns;
  let total = checkpoint?.total;
  const dropped = new Set<string>();
  const write = (text: string) => {
    if (text === '') return;
    const buffer = Buffer.from(text, 'utf8');
    writeSync(fd, buffer, 0, buffer.length, bytes);
    bytes += buffer.length;
  };
  let completed = false;
  try {
    if (checkpoint) ftruncateSync(fd, checkpoint.bytes);
    else if (format === 'json') write('[');
    try {
      for await (const page of stream.pages()) {
        if (format === 'csv' && columns === undefined && page.records.length > 0) {
          columns = columnsOf(page.records);
          write(csvLine(columns));
        }
        if (format === 'csv' && columns !== undefined) {
          for (const c of columnsOf(page.records)) if (!columns.includes(c)) dropped.add(c);
          write(csvRows(page.records, columns));
        } else if (format === 'jsonl') write(jsonLines(page.records));
        else if (format === 'json')
          write(page.records.map((r, i) => `${records + i === 0 ? '\n' : ',\n'}${JSON.stringify(r)}`).join(''));
        records += page.records.length;
        total = page.total;
        fsyncSync(fd);
        saveCheckpoint(stateFile, {
          query,
          format,
          nextSkip: page.nextSkip,
          records,
          bytes,
          total,
          ...(columns ? { columns } : {}),
        });
        options.onProgress?.({ done: records, total });
      }
      completed = true;
    } catch (error) {
      // At the depth limit the file holds everything reachable: finish it, then say so.
      if (isQuarryClientError(error) && error.code === 'CLIENT_DEPTH_LIMIT_REACHED') completed = true;
      throw error;
    } finally {
      if (completed) {
        if (format === 'json') write(records === 0 ? ']\n' : '\n]\n');
        ftruncateSync(fd, bytes);
        fsyncSync(fd);
        rmSync(stateFile, { force: true });
      }
    }
  } finally {
    closeSync(fd);
  }
  return {
    file,
    records,
    total,
    resumedAt: checkpoint?.nextSkip,
    warnings: stream.summary.warnings,
    droppedColumns: [...dropped],
  };
}

function readCheckpoint(stateFile: string, file: string): Checkpoint {
  if (!existsSync(stateFile))
    throw QuarryClientError.client('CLIENT_RESUME_MISMATCH', {
      file,
      reason: `there is no unfinished export (no ${stateFile})`,
    });
  try {
    const parsed = JSON.parse(readFileSync(stateFile, 'utf8')) as Checkpoint;
    if (
      typeof parsed.query !== 'string' ||
      !Number.isInteger(parsed.nextSkip) ||
      !Number.isInteger(parsed.bytes) ||
      !Number.isInteger(parsed.records)
    )
      throw new Error('fields missing');
    return parsed;
  } catch (error) {
    throw QuarryClientError.client('CLIENT_RESUME_MISMATCH', {
      file,
      reason: `its checkpoint ${stateFile} is damaged (${error instanceof Error ? error.message : String(error)})`,
    });
  }
}

/** Written to a temporary name and renamed, so a kill never leaves half a checkpoint. */
function saveCheckpoint(stateFile: string, checkpoint: Checkpoint): void {
  const temp = `${stateFile}.tmp`;
  writeFileSync(temp, JSON.stringify(checkpoint));
  renameSync(temp, stateFile);
}
