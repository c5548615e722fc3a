import { isUtf8 } from 'node:buffer';
import { QuarryError } from '../errors/index.ts';

/**
 * The offset of the first byte that does not begin a well-formed UTF-8 sequence (Unicode
 * 15, table 3-7: no overlong forms, no surrogates, nothing above U+10FFFF), or -1 when
 * every byte is well formed.
 *
 * @example invalidUtf8Offset(Buffer.from([0x61, 0xc3, 0x28])) // 1: 0xC3 needs a continuation byte
 */
export function invalidUtf8Offset(bytes: Uint8Array): number {
  if (isUtf8(bytes)) return -1;
  let i = 0;
  while (i < bytes.length) {
    const lead = bytes[i] as number;
    const length = sequenceLength(bytes, i, lead);
    if (length === 0) return i;
    i += length;
  }
  return -1;
}

/** The length of the well-formed sequence starting at `i`, or 0 when it is ill-formed. */
function sequenceLength(bytes: Uint8Array, i: number, lead: number): number {
  if (lead <= 0x7f) return 1;
  const continuation = (offset: number, low = 0x80, high = 0xbf) => {
    const byte = bytes[i + offset];
    return byte !== undefined && byte >= low && byte <= high;
  };
  if (lead >= 0xc2 && lead <= 0xdf) return continuation(1) ? 2 : 0;
  if (lead >= 0xe0 && lead <= 0xef) {
    const [low, high] = lead === 0xe0 ? [0xa0, 0xbf] : lead === 0xed ? [0x80, 0x9f] : [0x80, 0xbf];
    return continuation(1, low, high) && continuation(2) ? 3 : 0;
  }
  if (lead >= 0xf0 && lead <= 0xf4) {
    const [low, high] = lead === 0xf0 ? [0x90, 0xbf] : lead === 0xf4 ? [0x80, 0x8f] : [0x80, 0xbf];
    return continuation(1, low, high) && continuation(2) && continuation(3) ? 4 : 0;
  }
  return 0;
}

/**
 * A request body as text. Bytes must be UTF-8 (spec/protocol.md §3): an ill-formed sequence
 * is refused with its byte offset rather than decoded as U+FFFD, which would run a query
 * other than the one the client meant.
 */
export function bodyText(body: unknown): string {
  if (typeof body === 'string') return body;
  if (!Buffer.isBuffer(body)) return '';
  const offset = invalidUtf8Offset(body);
  if (offset >= 0) {
    const byte = `0x${(body[offset] as number).toString(16).toUpperCase().padStart(2, '0')}`;
    throw QuarryError.of('SERVICE_BODY_NOT_UTF8', { params: { offset, byte } });
  }
  return body.toString('utf8');
}
