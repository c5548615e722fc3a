/**
 * The files DataCite records come in, read as source records for `import-datacite.ts`:
 *
 * - JSON Lines of REST API items or Public Data File lines (`.jsonl`, `.jsonl.gz`): one record a line;
 * - REST API answers saved as files (`.json`, `.json.gz`): one page, held whole (a page is at
 *   most 1,000 DOIs; past the line limit it is refused as a record spanning lines would be);
 * - the DataCite Public Data File (`.tar`, `.tar.gz`, `.tgz`): a tar of JSON Lines files,
 *   `<prefix>/part_NNNNN.jsonl` (or `.jsonl.gz`), read entry by entry with tar-stream
 *   (Node has no tar reader), every other entry passed over.
 *
 * Every input is read within the import's limits (`data/import/limits.ts`): the tar's gzip
 * and each gzipped entry end in an `UnpackGuard`, no line is held past `maxLineBytes`, and a
 * limit passed becomes the coded `InputRefused` at `file!entry:line`, as zip entries are
 * named. A tar that cannot be read is `DATA_TAR_UNREADABLE`.
 */
import { closeSync, createReadStream, openSync, readSync } from 'node:fs';
import { PassThrough, pipeline, type Readable } from 'node:stream';
import { createGunzip } from 'node:zlib';
import tarStream from 'tar-stream';
import { QuarryError } from '../../errors/index.ts';
import { MalformedRecord } from '../../data/import/formats/common.ts';
import { fileInput, openInput, type ImportInput } from '../../data/import/inputs.ts';
import type { RecordSourceReader } from '../../data/import/record-source.ts';
import { DEFAULT_IMPORT_LIMITS, LimitExceeded, type ImportLimits } from '../../data/import/limits.ts';
import { readLines, recordTooLong, splitLines } from '../../data/import/lines.ts';
import { UnpackGuard } from '../../data/import/unpack-guard.ts';
import { dataciteApiPage, dataciteToDataset, isDataset, mapDataciteLine } from './import-datacite.ts';
import type { DatasetRecord } from './native.ts';

/** How a file holds DataCite records. */
export type DataciteLayout = 'jsonl' | 'api-page' | 'public-data-file';

/** The layout a file's name says, or undefined for a name none of them has. */
export function dataciteLayoutOf(path: string): DataciteLayout | undefined {
  if (/\.(tar|tar\.gz|tgz)$/i.test(path)) return 'public-data-file';
  if (/\.jsonl(\.gz)?$/i.test(path)) return 'jsonl';
  if (/\.json(\.gz)?$/i.test(path)) return 'api-page';
  return undefined;
}

/** A line of a JSON Lines entry of a tar archive. */
export interface ArchiveLine {
  /** The entry's path in the archive, as stored (`./10.5281/part_00001.jsonl`). */
  readonly entry: string;
  /** 1-based, within the entry. */
  readonly line: number;
  readonly text: string;
}

/** Entries whose lines are records: JSON Lines, plain or gzip. */
const RECORD_ENTRY = /\.jsonl(\.gz)?$/i;

/** True when the file starts with the gzip magic bytes (a `.tar` may be gzipped whatever its name). */
function startsGzipped(file: string): boolean {
  const fd = openSync(file, 'r');
  try {
    const head = Buffer.alloc(2);
    return readSync(fd, head, 0, 2, 0) === 2 && head[0] === 0x1f && head[1] === 0x8b;
  } finally {
    closeSync(fd);
  }
}

interface TarEntry {
  readonly header: tarStream.Headers;
  readonly stream: Readable;
  readonly next: (error?: unknown) => void;
}

/**
 * The entries of a tar stream one at a time: tar-stream hands the next entry only once the
 * current one's `next` is called, so at most one is ever waiting. `take` gives undefined at
 * the end of the archive and rejects with the first error of any stage.
 */
function entryQueue(extract: tarStream.Extract): {
  take(): Promise<TarEntry | undefined>;
  fail(err: unknown): void;
  /** The first error of a stage, once one has failed. */
  failure(): { readonly error: unknown } | undefined;
} {
  const waiting: TarEntry[] = [];
  let ended = false;
  let failure: { error: unknown } | undefined;
  let wake: { resolve: (e: TarEntry | undefined) => void; reject: (err: unknown) => void } | undefined;
  const settle = (): void => {
    if (wake === undefined) return;
    const w = wake;
    if (failure !== undefined) {
      wake = undefined;
      w.reject(failure.error);
    } else if (waiting.length > 0) {
      wake = undefined;
      w.resolve(waiting.shift());
    } else if (ended) {
      wake = undefined;
      w.resolve(undefined);
    }
  };
  extract.on('entry', (header: tarStream.Headers, stream: Readable, next: (error?: unknown) => void) => {
    waiting.push({ header, stream, next });
    settle();
  });
  extract.on('finish', () => {
    ended = true;
    settle();
  });
  return {
    take: () =>
      new Promise((resolve, reject) => {
        wake = { resolve, reject };
        settle();
      }),
    fail: (error: unknown) => {
      failure ??= { error };
      settle();
    },
    failure: () => failure,
  };
}

/** A stage's error as the import reports it: limits and gzip errors as they are, a tar-stream error coded. */
function archiveError(err: unknown, file: string): unknown {
  if (err instanceof LimitExceeded || err instanceof QuarryError) return err;
  // zlib (Z_BUF_ERROR, ...) and file system (ENOENT, ...) errors carry a code; tar-stream's do not.
  if (typeof (err as { code?: unknown }).code === 'string') return err;
  const reason = err instanceof Error ? err.message : String(err);
  return QuarryError.of('DATA_TAR_UNREADABLE', { params: { file, reason } }, { cause: err });
}

/**
 * The lines of the JSON Lines entries of a tar archive (plain or gzip), entry by entry in
 * archive order; `onBytes` receives the bytes read from disk so far. Past one of `limits` it
 * throws `InputRefused` at `file!entry:line`; a tar that cannot be read throws
 * `DATA_TAR_UNREADABLE`; gzip data cut short throws zlib's error (the importer reports it
 * as `DATA_FILE_TRUNCATED`).
 */
export async function* tarJsonLines(
  file: string,
  limits: ImportLimits = DEFAULT_IMPORT_LIMITS,
  onBytes?: (bytes: number) => void,
): AsyncGenerator<ArchiveLine> {
  let packed = 0;
  const raw = createReadStream(file, { highWaterMark: 1 << 20 });
  raw.on('data', (chunk: Buffer | string) => {
    packed += chunk.length;
    onBytes?.(packed);
  });
  const extract = tarStream.extract();
  const queue = entryQueue(extract);
  const stages: (NodeJS.ReadableStream | NodeJS.WritableStream)[] = startsGzipped(file)
    ? [raw, createGunzip(), new UnpackGuard(() => packed, limits), extract]
    : [raw, extract];
  // The first stage to fail says why: the others fail after it (an entry's stream as closed
  // early), so every stage's error is noted as it happens and the first one kept.
  for (const stage of stages) stage.on('error', (err: unknown) => queue.fail(err));
  pipeline(stages, (err) => {
    if (err) queue.fail(err);
  });
  let current: TarEntry | undefined;
  let entryName = file;
  let line = 0;
  try {
    for (;;) {
      current = await queue.take();
      if (current === undefined) return;
      const { header, stream } = current;
      if (header.type !== 'file' || !RECORD_ENTRY.test(header.name)) {
        stream.resume();
        await new Promise<void>((resolve, reject) => stream.on('end', resolve).on('error', reject));
      } else {
        entryName = `${file}!${header.name}`;
        line = 0;
        let entryPacked = 0;
        stream.on('data', (chunk: Buffer) => (entryPacked += chunk.length));
        // The lines are read from a stream of Node's own: tar-stream's entry stream never
        // calls back from `destroy`, so an iterator over it that stops early (a line past the
        // limit) would wait for ever.
        const body = /\.gz$/i.test(header.name) ? new UnpackGuard(() => entryPacked, limits) : new PassThrough();
        pipeline([stream, ...(body instanceof UnpackGuard ? [createGunzip()] : []), body], () => undefined);
        for await (const text of splitLines(body, limits.maxLineBytes)) {
          line++;
          if (text.trim() !== '') yield { entry: header.name, line, text };
        }
      }
      const done = current;
      current = undefined;
      done.next();
    }
  } catch (err) {
    const cause = queue.failure()?.error ?? err;
    if (cause instanceof LimitExceeded) throw cause.at(entryName, line + 1);
    throw archiveError(cause, file);
  } finally {
    current?.stream.resume();
    extract.destroy();
    raw.destroy();
  }
}

/**
 * The text of a file held whole (a REST API answer), plain or gzip, within the import's
 * limits: a file past `maxLineBytes` is refused as a record spanning lines would be.
 */
export async function wholeText(
  target: string | ImportInput,
  limits: ImportLimits = DEFAULT_IMPORT_LIMITS,
  onBytes?: (bytes: number) => void,
): Promise<string> {
  const input = typeof target === 'string' ? fileInput(target) : target;
  const stream = await openInput(input, onBytes, limits);
  const parts: Buffer[] = [];
  let bytes = 0;
  try {
    for await (const chunk of stream as AsyncIterable<Buffer>) {
      bytes += chunk.length;
      if (bytes > limits.maxLineBytes) throw recordTooLong(limits.maxLineBytes, 1);
      parts.push(chunk);
    }
  } catch (err) {
    if (err instanceof LimitExceeded) throw err.at(input.name, 1);
    throw err;
  } finally {
    stream.destroy();
  }
  return Buffer.concat(parts).toString('utf8');
}

/**
 * One source record of a file: where it is (for an item of an API page, line 1 and its
 * position in the page, from 1), and the dataset it maps to or why it cannot.
 */
export type DataciteSourceRecord = { readonly where: string; readonly line: number; readonly item?: number } & (
  { readonly record: DatasetRecord } | { readonly malformed: string }
);

/**
 * The datasets of a DataCite file of the given layout, in file order, with where each came
 * from (`file`, or `file!entry` in a tar; the line, and for an API page the item's position).
 * Records of other resource types are passed over; a record that cannot be mapped is given
 * as `malformed` (the MalformedRecord's message), for the importer to report or stop at.
 * `onBytes` receives the bytes read from disk so far. A tar is read from a file on disk,
 * the other layouts also from a zip entry.
 */
export async function* dataciteDatasets(
  target: string | ImportInput,
  layout: DataciteLayout,
  limits: ImportLimits = DEFAULT_IMPORT_LIMITS,
  onBytes?: (bytes: number) => void,
): AsyncGenerator<DataciteSourceRecord> {
  const input = typeof target === 'string' ? fileInput(target) : target;
  const file = input.name;
  const mapLine = (where: string, line: number, text: string): DataciteSourceRecord | undefined => {
    try {
      const record = mapDataciteLine(text);
      return record === undefined ? undefined : { where, line, record };
    } catch (err) {
      if (!(err instanceof MalformedRecord)) throw err;
      return { where, line, malformed: err.message };
    }
  };
  if (layout === 'api-page') {
    let page;
    try {
      page = dataciteApiPage(await wholeText(input, limits, onBytes));
    } catch (err) {
      if (!(err instanceof MalformedRecord)) throw err;
      yield { where: file, line: 1, malformed: err.message };
      return;
    }
    for (const [k, item] of page.items.entries()) {
      if (!isDataset(item.attributes)) continue;
      try {
        yield { where: file, line: 1, item: k + 1, record: dataciteToDataset(item) };
      } catch (err) {
        if (!(err instanceof MalformedRecord)) throw err;
        yield { where: file, line: 1, item: k + 1, malformed: err.message };
      }
    }
    return;
  }
  const lines =
    layout === 'jsonl'
      ? (async function* () {
          for await (const { text, line } of readLines(input, onBytes, limits))
            if (text.trim() !== '') yield { where: file, line, text };
        })()
      : (async function* () {
          for await (const { entry, line, text } of tarJsonLines(input.file, limits, onBytes))
            yield { where: `${file}!${entry}`, line, text };
        })();
  for await (const { where, line, text } of lines) {
    const mapped = mapLine(where, line, text);
    if (mapped !== undefined) yield mapped;
  }
}

/**
 * The import's reader of the `datacite` format (`import-formats.ts`), the layout told by the
 * file's name. An item of an API page that cannot be used is reported at the page's line 1
 * with its position in the page.
 */
export const dataciteRecordSource: RecordSourceReader = {
  async *read(input, limits, onBytes) {
    const layout = dataciteLayoutOf(input.entry ?? input.file) ?? 'jsonl';
    for await (const r of dataciteDatasets(input, layout, limits, onBytes)) {
      const place = { where: r.where, line: r.line };
      if ('record' in r) yield { ...place, mapped: [{ kind: 'datasets', record: r.record }] };
      else
        yield {
          ...place,
          malformed: r.item === undefined ? r.malformed : `item ${r.item} of the page: ${r.malformed}`,
        };
    }
  },
};
