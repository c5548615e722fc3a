/**
 * The format of long text values (a record's `doc` JSON, abstracts) in the SQLite record
 * store: compressed with a preset dictionary, so a 3.5 KB document takes about 0.35 KB.
 *
 * A stored value is either:
 * - TEXT: the value itself (databases written before packing, values too short to pack,
 *   values packing does not shrink, `''`); or
 * - a BLOB: byte 0 is the id of the dictionary (a row of `text_dictionaries`), the rest is
 *   the UTF-8 text compressed with that dictionary by the compressor it belongs to
 *   (`text-codecs.ts`: zstd, or raw deflate for the first two releases' dictionaries).
 *
 * SQLite's storage class is the format marker, so no rewrite of old rows is needed and a
 * NULL or empty value never changes: `abstract IS NULL OR abstract = ''` is right on the
 * stored column without unpacking. Everything here is pure (no connection): row preparation
 * can run anywhere, given the dictionaries.
 */
import { compressText, decompressText, utf8Of } from './text-codecs.ts';

/** A preset dictionary, as kept in `text_dictionaries`. */
export interface TextDictionary {
  /** 1–255: byte 0 of every value packed with it. */
  readonly id: number;
  readonly bytes: Uint8Array;
}

/** Shorter values stay text: the dictionary id and the compressor's headers eat the gain. */
export const MIN_PACKED_BYTES = 32;

/**
 * The stored form of `text`: a packed BLOB when that is smaller, otherwise the text itself.
 *
 * @example packText('{"authors":[...]}', { id: 1, bytes }) // Uint8Array [1, 0x8d, ...]
 */
export function packText(text: string, dictionary: TextDictionary): string | Uint8Array {
  if (text.length < MIN_PACKED_BYTES) return text;
  const raw = utf8Of(text);
  const body = compressText(raw, dictionary.bytes);
  if (body.length + 1 >= raw.length) return text;
  const out = Buffer.allocUnsafe(body.length + 1);
  out[0] = dictionary.id;
  out.set(body, 1);
  return out;
}

/**
 * The text of a stored value: text and NULL as they are, a packed BLOB unpacked with its
 * dictionary. Throws when the dictionary is not among `dictionaries` (a database written by
 * a newer Quarry, or a damaged value): returning the bytes as text would be silently wrong.
 */
export function unpackText(
  value: string | Uint8Array | null,
  dictionaries: ReadonlyMap<number, Uint8Array>,
): string | null {
  if (value === null || typeof value === 'string') return value;
  return unpackUtf8(value, dictionaries).toString('utf8');
}

/** The UTF-8 bytes of a packed value's text (`unpackText` without decoding them). */
export function unpackUtf8(packed: Uint8Array, dictionaries: ReadonlyMap<number, Uint8Array>): Buffer {
  const id = packed[0];
  const dictionary = id === undefined ? undefined : dictionaries.get(id);
  if (dictionary === undefined)
    throw new Error(`a packed text value names dictionary ${String(id)}, which this database does not hold`);
  if (guard === undefined) return decompressText(packed.subarray(1), dictionary);
  guard.enter();
  try {
    return decompressText(packed.subarray(1), dictionary);
  } finally {
    guard.leave();
  }
}

/**
 * Brackets each unpacking. A thread that may be terminated while it runs (a query worker)
 * installs one, so that it is never terminated inside zlib or zstd: see engine/stop-handshake.ts.
 * `enter` may throw to refuse the call.
 */
export interface NativeCallGuard {
  enter(): void;
  leave(): void;
}

let guard: NativeCallGuard | undefined;

/** Installs (or, with undefined, removes) this thread's guard around unpacking. */
export function setNativeCallGuard(next: NativeCallGuard | undefined): void {
  guard = next;
}
