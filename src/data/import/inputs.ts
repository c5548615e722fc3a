/**
 * What an import reads: a file on disk (plain or gzip), or one entry of a zip archive (the
 * ROR data dump is published as a zip of JSON). Zip archives are read with yauzl, which
 * reads the central directory at the end of the file and streams one entry at a time.
 */
import { createReadStream, statSync } from 'node:fs';
import type { Readable } from 'node:stream';
import { createGunzip } from 'node:zlib';
import yauzl from 'yauzl';
import { QuarryError } from '../../errors/index.ts';

export interface ImportInput {
  /** How problems name it: the file, or `archive.zip!entry`. */
  readonly name: string;
  /** The file on disk. */
  readonly file: string;
  /** The zip entry, for an input inside an archive. */
  readonly entry?: string;
  /** Bytes on disk (for an entry, its compressed size): what progress counts. */
  readonly size: number;
  /** An entry's uncompressed size, to turn bytes read into bytes of the archive. */
  readonly unpacked?: number;
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

/** A stream of one zip entry's bytes (uncompressed); the archive closes when the stream ends. */
async function openZipEntry(file: string, entry: string): Promise<Readable> {
  const zip = await openZip(file);
  return new Promise((resolve, reject) => {
    zip.on('entry', (e: yauzl.Entry) => {
      if (e.fileName !== entry) {
        zip.readEntry();
        return;
      }
      zip.openReadStream(e, (err, stream) => {
        if (err !== null || stream === undefined) {
          zip.close();
          reject(err ?? new Error(`cannot read ${entry}`));
          return;
        }
        stream.on('close', () => zip.close());
        resolve(stream);
      });
    });
    zip.on('end', () => {
      zip.close();
      reject(new Error(`${file} has no entry ${entry}`));
    });
    zip.on('error', reject);
    zip.readEntry();
  });
}

/**
 * The decompressed bytes of an input; `onBytes` receives the bytes read from disk so far
 * (for a zip entry, the decompressed bytes scaled to its compressed size).
 */
export async function openInput(input: ImportInput, onBytes?: (bytes: number) => void): Promise<Readable> {
  if (input.entry !== undefined) {
    const stream = await openZipEntry(input.file, input.entry);
    const inner = isGzip(input.entry) ? stream.pipe(createGunzip()) : stream;
    if (onBytes !== undefined) {
      let bytes = 0;
      const scale = input.size / Math.max(1, input.unpacked ?? input.size);
      stream.on('data', (chunk: Buffer) => onBytes(Math.round((bytes += chunk.length) * scale)));
    }
    return inner;
  }
  const raw = createReadStream(input.file, { highWaterMark: 1 << 20 });
  if (onBytes !== undefined) {
    let bytes = 0;
    raw.on('data', (chunk) => onBytes((bytes += chunk.length)));
  }
  if (!isGzip(input.file)) return raw;
  const gunzip = createGunzip();
  // The file stream's errors (unreadable file) reach the reader through the gunzip stream.
  raw.on('error', (err) => gunzip.destroy(err));
  return raw.pipe(gunzip);
}
