/** A half-open range of UTF-16 offsets into the query text: `text.slice(start, end)`. */
export interface Span {
  readonly start: number;
  readonly end: number;
}

/** A 1-based line and column, as editors and the protocol's error body show them. */
export interface Position {
  readonly line: number;
  readonly column: number;
}

/**
 * Turns an offset into a 1-based line and column.
 *
 * @example locate('search\npubs', 8) // { line: 2, column: 2 }
 */
export function locate(text: string, offset: number): Position {
  let line = 1;
  let lineStart = 0;
  const end = Math.max(0, Math.min(offset, text.length));
  for (let i = 0; i < end; i++) {
    if (text.charCodeAt(i) === 10) {
      line++;
      lineStart = i + 1;
    }
  }
  return { line, column: end - lineStart + 1 };
}
