/**
 * The compressors behind packed text (`packed-text.ts`). A value's dictionary says which one
 * packed it, so a stored value needs no other marker:
 *
 * - zstd, for dictionaries trained by zstd (the third release on): such a dictionary begins
 *   with zstd's dictionary magic number. Each thread digests a dictionary once and keeps it,
 *   so a value costs only its own compression. Measured on 5,000 publications of the 1M
 *   benchmark database, one run (2026-11-27): a document packs in 12.8 µs and 403 bytes with
 *   the third release, against 101.6 µs and 432 bytes with the second (deflate at level 6: zlib
 *   hashes the 16 KiB preset dictionary again for every value, most of that time); an abstract
 *   in 10.6 µs and 456 bytes against 98.7 µs and 485. Reading back: 12.0 against 27.7 µs a
 *   document, 4.4 against 22.4 an abstract. The frame is stored without zstd's 4-byte magic
 *   number (byte 0 of the value already says what follows), a checksum or a dictionary id.
 * - raw deflate (RFC 1951) with the dictionary as preset history, for the first two releases'
 *   dictionaries (plain text). Values packed with them keep reading; nothing packs with them
 *   now that newer releases cover every packed column.
 *
 * @example
 *   const body = compressText(utf8Of(doc), dictionary.bytes);
 *   decompressText(body, dictionary.bytes).toString('utf8') === doc; // true
 */
import { deflateRawSync, inflateRawSync } from 'node:zlib';
// zstd-napi's binding is CommonJS that sets `module.exports` at run time: Node gives an ES
// module its default export only (no named exports to detect).
import zstd from 'zstd-napi/binding.js';

export type TextCodec = 'zstd' | 'deflate';

/** zstd's dictionary magic number, little-endian: the first four bytes of a trained dictionary. */
const ZSTD_DICTIONARY_MAGIC = [0x37, 0xa4, 0x30, 0xec] as const;
/** zstd's frame magic number, little-endian: left out of stored values and put back to read them. */
const ZSTD_FRAME_MAGIC = Buffer.from([0x28, 0xb5, 0x2f, 0xfd]);

/**
 * Deflate's level (the second release's: level 6 packed a document of the 1M benchmark in 431
 * bytes instead of 459 at level 3, for about 15 µs more; docs/storage.md, "Packed text").
 */
export const DEFLATE_LEVEL = 6;
/**
 * zstd's level. Measured as above (µs and bytes a document): level 1 8.7 and 452, level 3 9.1
 * and 403, level 5 21.6 and 380, level 6 39.7 and 365. Past 3 the time doubles for a few
 * percent; the import's reading threads pay it for every document and abstract.
 */
export const ZSTD_LEVEL = 3;

/** Which compressor a dictionary belongs to. Deflate dictionaries are UTF-8 text, which never begins with byte 0xA4 second. */
export function codecOf(dictionary: Uint8Array): TextCodec {
  return ZSTD_DICTIONARY_MAGIC.every((byte, k) => dictionary[k] === byte) ? 'zstd' : 'deflate';
}

/** What a thread made of a zstd dictionary: its compression and decompression contexts, digested once. */
interface ZstdContexts {
  cctx?: zstd.CCtx;
  decompressor?: { readonly dctx: zstd.DCtx; readonly ddict: zstd.DDict };
}

/** Keyed by the dictionary's bytes: each thread and connection holds its dictionaries for good. */
const contexts = new WeakMap<Uint8Array, ZstdContexts>();

function contextsOf(dictionary: Uint8Array): ZstdContexts {
  let made = contexts.get(dictionary);
  if (made === undefined) contexts.set(dictionary, (made = {}));
  return made;
}

function compressorOf(dictionary: Uint8Array): zstd.CCtx {
  const made = contextsOf(dictionary);
  if (made.cctx !== undefined) return made.cctx;
  const cctx = new zstd.CCtx();
  cctx.setParameter(zstd.CParameter.compressionLevel, ZSTD_LEVEL);
  cctx.setParameter(zstd.CParameter.checksumFlag, 0);
  cctx.setParameter(zstd.CParameter.dictIDFlag, 0);
  // The content size stays in the frame: reading sizes its output by it.
  cctx.setParameter(zstd.CParameter.contentSizeFlag, 1);
  cctx.loadDictionary(dictionary);
  return (made.cctx = cctx);
}

/**
 * The compressor's input and output, and a frame put back together to be read (magic number
 * first). Buffers of 4 KiB or more never come from Node's shared pool blocks.
 */
const scratch = {
  text: Buffer.allocUnsafe(64 * 1024),
  packed: Buffer.allocUnsafe(64 * 1024),
  frame: Buffer.allocUnsafe(64 * 1024),
};

/** A scratch buffer of this thread, of at least `size` bytes (grown as needed; the contents are the caller's until its next use). */
function scratchOf(which: keyof typeof scratch, size: number): Buffer {
  let buffer = scratch[which];
  if (buffer.length < size) scratch[which] = buffer = Buffer.allocUnsafe(Math.max(size, buffer.length * 2));
  return buffer;
}

/**
 * The UTF-8 bytes of `text` for `compressText`, valid until the next call. Written into this
 * thread's scratch rather than made by `Buffer.from`, which takes values under 4 KiB from
 * Node's shared 8 KiB pool blocks, beside the packed values made next; a message to another
 * thread copies every block a value it carries touches, whole. Measured on the prepared rows
 * of 5,000 generated publications (`structuredClone`, as the importer hands a batch to the
 * writer): their packed values (3.4 MiB) took 21.4 MiB of blocks with them, and 3.5 MiB now.
 * The import's CPU and wall time at 100k moved within run-to-run noise (2026-11-27).
 */
export function utf8Of(text: string): Buffer {
  // A UTF-16 code unit takes at most 3 bytes in UTF-8.
  const buffer = scratchOf('text', text.length * 3);
  return buffer.subarray(0, buffer.write(text, 0, 'utf8'));
}

/**
 * `raw` compressed with `dictionary`, as stored after the dictionary id byte. The result may
 * share memory with the next call's: copy it before compressing again.
 */
export function compressText(raw: Buffer, dictionary: Uint8Array): Buffer {
  if (codecOf(dictionary) === 'deflate') return deflateRawSync(raw, { level: DEFLATE_LEVEL, dictionary });
  const out = scratchOf('packed', zstd.compressBound(raw.length));
  const written = compressorOf(dictionary).compress2(out, raw);
  return out.subarray(ZSTD_FRAME_MAGIC.length, written);
}

/** The bytes `compressText` was given, from what it returned (without the dictionary id byte). */
export function decompressText(body: Uint8Array, dictionary: Uint8Array): Buffer {
  if (codecOf(dictionary) === 'deflate') return inflateRawSync(body, { dictionary });
  const made = contextsOf(dictionary);
  made.decompressor ??= { dctx: new zstd.DCtx(), ddict: new zstd.DDict(dictionary) };
  const length = ZSTD_FRAME_MAGIC.length + body.length;
  const frame = scratchOf('frame', length).subarray(0, length);
  ZSTD_FRAME_MAGIC.copy(frame, 0);
  frame.set(body, ZSTD_FRAME_MAGIC.length);
  const size = zstd.getFrameContentSize(frame);
  if (size === null) throw new Error('a packed text value does not say its size');
  const out = Buffer.allocUnsafe(size);
  const written = made.decompressor.dctx.decompressUsingDDict(out, frame, made.decompressor.ddict);
  if (written !== size) throw new Error(`a packed text value unpacked to ${written} bytes, not the ${size} it names`);
  return out;
}
