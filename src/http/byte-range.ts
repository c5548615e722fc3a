/**
 * One byte range of a `Range` header (RFC 9110 §14): what a download continued after an
 * interruption asks for. Several ranges in one header are answered with the whole file
 * (allowed: a server may ignore Range), as is a range sent with an `If-Range` that no
 * longer matches the file.
 */

export interface ByteRange {
  /** First byte, inclusive. */
  readonly start: number;
  /** Last byte, inclusive. */
  readonly end: number;
}

/**
 * The range to send of a file of `size` bytes: undefined for the whole file, or
 * `'unsatisfiable'` (416) when the range starts past its end.
 *
 * @example byteRange('bytes=100-', 1000) // { start: 100, end: 999 }
 * @example byteRange('bytes=-10', 1000)  // { start: 990, end: 999 }
 * @example byteRange('bytes=5000-', 1000) // 'unsatisfiable'
 */
export function byteRange(
  header: string | undefined,
  size: number,
  ifRange?: string,
  etag?: string,
): ByteRange | 'unsatisfiable' | undefined {
  if (header === undefined) return undefined;
  if (ifRange !== undefined && ifRange !== etag) return undefined;
  const match = /^\s*bytes\s*=\s*(\d*)\s*-\s*(\d*)\s*$/i.exec(header);
  if (match === null) return undefined; // several ranges, or another unit: the whole file
  const [, first = '', last = ''] = match;
  if (first === '' && last === '') return undefined;
  if (first === '') {
    // A suffix: the last N bytes.
    const length = Number(last);
    if (length === 0) return 'unsatisfiable';
    return { start: Math.max(0, size - length), end: size - 1 };
  }
  const start = Number(first);
  if (start >= size) return 'unsatisfiable';
  const end = last === '' ? size - 1 : Math.min(Number(last), size - 1);
  if (end < start) return undefined; // invalid: ignored, as RFC 9110 allows
  return { start, end };
}
