/**
 * Every record of a search through the service's bulk export (docs/exports.md), past the
 * 50,000-record paging window: submit the query, follow the job's progress, then download
 * the file, continuing an interrupted download with a `Range` request. The file is kept as
 * the service wrote it (gzip) when the output name ends in `.gz`, else unpacked.
 */
import { createReadStream, createWriteStream, existsSync, renameSync, rmSync, statSync } from 'node:fs';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { ReadableStream as WebReadableStream } from 'node:stream/web';
import { createGunzip } from 'node:zlib';
import { abortableSleep } from './transport.ts';
import { QuarryClientError } from './errors.ts';
import type { Session } from './session.ts';

export type ServerExportFormat = 'jsonl' | 'csv';

/** A job as the service reports it. */
export interface ServerExportJob {
  readonly id: string;
  readonly state: 'queued' | 'running' | 'done' | 'failed';
  readonly records: number;
  readonly total: number | null;
  readonly url: string;
  readonly error?: string;
}

export interface ServerExportOptions {
  readonly file: string;
  readonly format?: ServerExportFormat;
  /** Between looks at the job's state; default 1 s. */
  readonly pollMs?: number;
  readonly signal?: AbortSignal;
  readonly onProgress?: (job: ServerExportJob) => void;
  readonly fetch?: typeof fetch;
}

export interface ServerExportReport {
  readonly id: string;
  readonly file: string;
  readonly records: number;
}

/**
 * @example
 * await exportAll(session, 'search publications where year >= 2000 return publications[id + title]', { file: 'pubs.jsonl.gz' });
 */
export async function exportAll(
  session: Session,
  text: string,
  options: ServerExportOptions,
): Promise<ServerExportReport> {
  const format = options.format ?? 'jsonl';
  const submitted = (await session.call(
    'POST',
    `${session.exportsUrl}?format=${format}`,
    text,
    options.signal,
  )) as unknown as ServerExportJob;
  let job = submitted;
  options.onProgress?.(job);
  try {
    while (job.state === 'queued' || job.state === 'running') {
      await abortableSleep(options.pollMs ?? 1000, options.signal);
      job = (await session.call(
        'GET',
        `${session.exportsUrl}/${submitted.id}`,
        undefined,
        options.signal,
      )) as unknown as ServerExportJob;
      options.onProgress?.(job);
    }
  } catch (error) {
    // Interrupted here: the job is of no use to anyone else, so it is cancelled.
    if (options.signal?.aborted)
      await session.call('DELETE', `${session.exportsUrl}/${submitted.id}`).catch(() => undefined);
    throw error;
  }
  if (job.state !== 'done')
    throw QuarryClientError.client('CLIENT_EXPORT_FAILED', { id: job.id, reason: job.error ?? job.state });
  await download(session, job, options);
  return { id: job.id, file: options.file, records: job.records };
}

/** Downloads the job's file next to `file` (continuing a partial one with Range), then puts it in place. */
async function download(session: Session, job: ServerExportJob, options: ServerExportOptions): Promise<void> {
  const fetcher = options.fetch ?? fetch;
  const gz = options.file.endsWith('.gz') ? `${options.file}.part` : `${options.file}.gz.part`;
  for (let attempt = 0; ; attempt++) {
    const have = existsSync(gz) ? statSync(gz).size : 0;
    const response = await fetcher(`${session.baseUrl}${job.url}`, {
      headers: {
        Authorization: await session.authorization(options.signal),
        ...(have > 0 ? { Range: `bytes=${have}-` } : {}),
      },
      ...(options.signal ? { signal: options.signal } : {}),
    });
    if (response.status === 416) break; // already whole
    if ((response.status !== 200 && response.status !== 206) || response.body === null)
      throw QuarryClientError.client('CLIENT_EXPORT_FAILED', {
        id: job.id,
        reason: `the download answered HTTP ${response.status}`,
      });
    try {
      await pipeline(
        Readable.fromWeb(response.body as WebReadableStream<Uint8Array>),
        createWriteStream(gz, { flags: response.status === 206 ? 'a' : 'w' }),
      );
      break;
    } catch (error) {
      if (options.signal?.aborted || attempt >= 3) throw error;
    }
  }
  if (options.file.endsWith('.gz')) {
    renameSync(gz, options.file);
    return;
  }
  await pipeline(createReadStream(gz), createGunzip(), createWriteStream(options.file));
  rmSync(gz);
}
