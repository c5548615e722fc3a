/**
 * The compressors behind packed text (`packed-text.ts`). A value's dictionary says which one
 * packed it, so a stored value needs no other marker:
 *
 * - zstd, for dictionaries trained by zstd (the third release on): such a dictionary begins
 *   with zstd's dictionary magic number. Each thread digests a dictionary once and keeps it,
 *   so a value costs only its own compression. Measured on 5,000 documents of the 1M
 *   benchmark database (2026-11-27): 5.8 µs and 342 bytes a document at level 3, against
 *   62 µs and 431 bytes for deflate at level 6 (zlib hashes a 16 KiB preset dictionary again
 *   for every value, most of those 62 µs); reading one back takes about 4 µs against 33.
 *   The frame is stored without zstd's 4-byte magic number (byte 0 of the value already says
 *   what follows), and without a checksum or dictionary id.
 * - raw deflate (RFC 1951) with the dictionary as preset history, for the first two releases'
 *   dictionaries (plain text). Values packed with them keep reading; nothing packs with them
 *   now that newer releases cover every packed column.
 *
 * @example
 *   const body = compressText(Buffer.from(doc), dictionary.bytes);
 *   decompressText(body, dictionary.bytes).toString('utf8') === doc; // true
 */
import { createRequire } from 'node:module';
import { deflateRawSync, inflateRawSync } from 'node:zlib';
import type * as ZstdBinding from 'zstd-napi/binding.js';

// zstd-napi's binding module is CommonJS with its classes on `module.exports`.
const zstd = createRequire(import.meta.url)('zstd-napi/binding') as typeof ZstdBinding;

export type TextCodec = 'zstd' | 'deflate';

/** zstd's dictionary magic number, little-endian: the first four bytes of a trained dictionary. */
const ZSTD_DICTIONARY_MAGIC = [0x37, 0xa4, 0x30, 0xec] as const;
/** zstd's frame magic number, little-endian: left out of stored values and put back to read them. */
const ZSTD_FRAME_MAGIC = Buffer.from([0x28, 0xb5, 0x2f, 0xfd]);

/** Deflate's level: level 6 packs a document 6% smaller than level 1 for about 15 µs more. */
export const DEFLATE_LEVEL = 6;
/**
 * zstd's level. Measured as above: level 6 packs a document in 308 bytes instead of 342 but
 * takes 22.7 µs instead of 5.8; the import's reading threads pay that for every document and
 * abstract, and the 1M database is within its size goal either way.
 */
export const ZSTD_LEVEL = 3;

/** Which compressor a dictionary belongs to. Deflate dictionaries are UTF-8 text, which never begins with byte 0xA4 second. */
export function codecOf(dictionary: Uint8Array): TextCodec {
  return ZSTD_DICTIONARY_MAGIC.every((byte, k) => dictionary[k] === byte) ? 'zstd' : 'deflate';
}

/** What a thread made of a zstd dictionary: its compression and decompression contexts, digested once. */
interface ZstdContexts {
  compressor?: { readonly level: number; readonly cctx: ZstdBinding.CCtx };
  decompressor?: { readonly dctx: ZstdBinding.DCtx; readonly ddict: ZstdBinding.DDict };
}

/** Keyed by the dictionary's bytes: each thread and connection holds its dictionaries for good. */
const contexts = new WeakMap<Uint8Array, ZstdContexts>();

function contextsOf(dictionary: Uint8Array): ZstdContexts {
  let made = contexts.get(dictionary);
  if (made === undefined) contexts.set(dictionary, (made = {}));
  return made;
}

/** Scratch output of the compressor, grown as needed (one a thread). */
let scratch = Buffer.allocUnsafe(64 * 1024);

/**
 * `raw` compressed with `dictionary`, as stored after the dictionary id byte. The result may
 * share memory with the next call's: copy it before compressing again.
 */
export function compressText(raw: Buffer, dictionary: Uint8Array, level?: number): Buffer {
  if (codecOf(dictionary) === 'deflate') return deflateRawSync(raw, { level: level ?? DEFLATE_LEVEL, dictionary });
  const wanted = level ?? ZSTD_LEVEL;
  const made = contextsOf(dictionary);
  if (made.compressor?.level !== wanted) {
    const cctx = new zstd.CCtx();
    cctx.setParameter(zstd.CParameter.compressionLevel, wanted);
    cctx.setParameter(zstd.CParameter.checksumFlag, 0);
    cctx.setParameter(zstd.CParameter.dictIDFlag, 0);
    // The content size stays in the frame: reading sizes its output by it.
    cctx.setParameter(zstd.CParameter.contentSizeFlag, 1);
    cctx.loadDictionary(dictionary);
    made.compressor = { level: wanted, cctx };
  }
  const bound = zstd.compressBound(raw.length);
  if (scratch.length < bound) scratch = Buffer.allocUnsafe(Math.max(bound, scratch.length * 2));
  const written = made.compressor.cctx.compress2(scratch, raw);
  return scratch.subarray(ZSTD_FRAME_MAGIC.length, written);
}

/** The bytes `compressText` was given, from what it returned (without the dictionary id byte). */
export function decompressText(body: Uint8Array, dictionary: Uint8Array): Buffer {
  if (codecOf(dictionary) === 'deflate') return inflateRawSync(body, { dictionary });
  const made = contextsOf(dictionary);
  made.decompressor ??= { dctx: new zstd.DCtx(), ddict: new zstd.DDict(dictionary) };
  const frame = Buffer.allocUnsafe(ZSTD_FRAME_MAGIC.length + body.length);
  ZSTD_FRAME_MAGIC.copy(frame, 0);
  frame.set(body, ZSTD_FRAME_MAGIC.length);
  const size = zstd.getFrameContentSize(frame);
  if (size === null) throw new Error('a packed text value does not say its size');
  const out = Buffer.allocUnsafe(size);
  const written = made.decompressor.dctx.decompressUsingDDict(out, frame, made.decompressor.ddict);
  if (written !== size) throw new Error(`a packed text value unpacked to ${written} bytes, not the ${size} it names`);
  return out;
}
