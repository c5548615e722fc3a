/**
 * What an import reads: a file on disk (plain or gzip), or one entry of a zip archive (the
 * ROR data dump is published as a zip of JSON); for a source folder's format also a zip read
 * whole by its reader, or files read together (`parts`). Zip archives are read with yauzl,
 * which reads the central directory at the end of the file and streams one entry at a time.
 */
import { createReadStream, statSync } from 'node:fs';
import { pipeline, type Readable, type Transform } from 'node:stream';
import { createGunzip, createInflateRaw } from 'node:zlib';
import yauzl from 'yauzl';
import { QuarryError } from '../../errors/index.ts';
import type { ImportFormat } from './format-names.ts';
import { DEFAULT_IMPORT_LIMITS, type ImportLimits } from './limits.ts';
import { UnpackGuard, unpackedTooFar } from './unpack-guard.ts';

export interface ImportInput {
  /** How problems name it: the file, or `archive.zip!entry`. */
  readonly name: string;
  /** The file on disk. */
  readonly file: string;
  /** The zip entry, for an input inside an archive. */
  readonly entry?: string;
  /** Bytes on disk (for an entry, its compressed size): what progress counts. */
  readonly size: number;
  /** An entry's uncompressed size, as the archive gives it: an entry past the limits is refused unread. */
  readonly unpacked?: number;
  /**
   * The format the file's layout already showed (a zip archive a source format recognised by
   * its entries), so detection need not look again.
   */
  readonly format?: ImportFormat;
  /**
   * The files read together as this one input, for a format whose records are joined across
   * files (PatentsView's tables): `file` is the first of them and `size` their sum.
   */
  readonly parts?: readonly ImportInput[];
}

/** An input for a file on disk. */
export function fileInput(file: string): ImportInput {
  return { name: file, file, size: statSync(file).size };
}

const isGzip = (name: string): boolean => /\.gz$/i.test(name);

function openZip(file: string): Promise<yauzl.ZipFile> {
  return new Promise((resolve, reject) =>
    yauzl.open(file, { lazyEntries: true, autoClose: false }, (err, zip) => {
      if (err !== null || zip === undefined) {
        reject(
          QuarryError.of(
            'DATA_ZIP_UNREADABLE',
            { params: { file, reason: err?.message ?? 'no archive' } },
            { cause: err },
          ),
        );
      } else resolve(zip);
    }),
  );
}

/** The file entries of a zip archive (folders left out), in archive order. */
export async function zipEntries(file: string): Promise<{ name: string; size: number; unpacked: number }[]> {
  const zip = await openZip(file);
  try {
    return await new Promise((resolve, reject) => {
      const out: { name: string; size: number; unpacked: number }[] = [];
      zip.on('entry', (e: yauzl.Entry) => {
        if (!e.fileName.endsWith('/'))
          out.push({ name: e.fileName, size: e.compressedSize, unpacked: e.uncompressedSize });
        zip.readEntry();
      });
      zip.on('end', () => resolve(out));
      // yauzl refuses an archive naming an entry outside it (`../x`, `/etc/x`) here.
      zip.on('error', (err: Error) =>
        reject(QuarryError.of('DATA_ZIP_UNREADABLE', { params: { file, reason: err.message } }, { cause: err })),
      );
      zip.readEntry();
    });
  } finally {
    zip.close();
  }
}

/** Zip compression methods. */
const STORED = 0;
const DEFLATED = 8;

/**
 * A stream of one zip entry's bytes as stored, and whether they are deflated; the archive
 * closes when the stream ends. The entry is inflated by `openInput`, not by yauzl, so that
 * the bytes read from the archive can be counted against the bytes unpacked.
 */
async function openZipEntry(file: string, entry: string): Promise<{ stream: Readable; deflated: boolean }> {
  const zip = await openZip(file);
  return new Promise((resolve, reject) => {
    let settled = false;
    const fail = (reason: string, cause?: unknown): void => {
      if (settled) return;
      settled = true;
      zip.close();
      reject(QuarryError.of('DATA_ZIP_UNREADABLE', { params: { file, reason } }, { cause }));
    };
    zip.on('entry', (e: yauzl.Entry) => {
      if (e.fileName !== entry) {
        zip.readEntry();
        return;
      }
      if (e.isEncrypted()) {
        fail(`${entry} is encrypted`);
        return;
      }
      if (e.compressionMethod !== STORED && e.compressionMethod !== DEFLATED) {
        fail(`${entry} is compressed with method ${e.compressionMethod}; only stored and deflated entries are read`);
        return;
      }
      zip.openReadStream(e, { decodeFileData: false }, (err, stream) => {
        if (err !== null || (stream as Readable | undefined) === undefined) {
          fail(err?.message ?? `cannot read ${entry}`, err);
          return;
        }
        settled = true;
        stream.on('close', () => zip.close());
        resolve({ stream, deflated: e.compressionMethod === DEFLATED });
      });
    });
    zip.on('end', () => fail(`it has no entry ${entry}`));
    zip.on('error', (err: Error) => fail(err.message, err));
    zip.readEntry();
  });
}

/**
 * The decompressed bytes of an input; `onBytes` receives the bytes read from disk so far.
 * A compressed input (gzip, a deflated zip entry, a gzip inside a zip) ends in an
 * `UnpackGuard`, which fails it with `LimitExceeded` past `limits`; a zip entry whose own
 * sizes already break them is refused before it is read.
 */
export async function openInput(
  input: ImportInput,
  onBytes?: (bytes: number) => void,
  limits: ImportLimits = DEFAULT_IMPORT_LIMITS,
): Promise<Readable> {
  let packed = 0;
  const count = (chunk: Buffer | string): void => {
    packed += chunk.length;
    onBytes?.(packed);
  };
  const guarded = (source: Readable, ...unpack: Transform[]): Readable => {
    if (unpack.length === 0) return source;
    const guard = new UnpackGuard(() => packed, limits);
    // Any stage's error (an unreadable file, gzip data cut short) comes out of the guard, and
    // the reader destroying the guard closes every stage and the file.
    pipeline([source, ...unpack, guard], () => undefined);
    return guard;
  };
  if (input.entry !== undefined) {
    const declared = unpackedTooFar(input.unpacked ?? 0, input.size, limits);
    if (declared !== undefined) throw declared;
    const { stream, deflated } = await openZipEntry(input.file, input.entry);
    stream.on('data', count);
    return guarded(stream, ...(deflated ? [createInflateRaw()] : []), ...(isGzip(input.entry) ? [createGunzip()] : []));
  }
  const raw = createReadStream(input.file, { highWaterMark: 1 << 20 });
  raw.on('data', count);
  return guarded(raw, ...(isGzip(input.file) ? [createGunzip()] : []));
}
