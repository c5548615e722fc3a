/**
 * How the console reads a query result (spec/protocol.md §3): every top-level key that is
 * not metadata is a list of rows (or, for `return in "g"`, a group of lists). Facet rows
 * carry an `id` and a numeric `count`; everything else is a list of records.
 */

const METADATA_KEYS: ReadonlySet<string> = new Set(['_stats', '_warnings', '_notes', '_version', '_copyright']);

export interface ResultList {
  /** The result key (`publications`, `year`, `g.funders` for a group member). */
  readonly name: string;
  readonly rows: readonly Record<string, unknown>[];
  readonly isFacet: boolean;
}

function isRowList(value: unknown): value is Record<string, unknown>[] {
  return Array.isArray(value) && value.every((row) => row !== null && typeof row === 'object' && !Array.isArray(row));
}

function isFacetRows(rows: readonly Record<string, unknown>[]): boolean {
  return rows.length > 0 && rows.every((row) => 'id' in row && typeof row.count === 'number');
}

/** The lists of a result, in the order the server wrote them. */
export function resultLists(result: Readonly<Record<string, unknown>>): ResultList[] {
  const lists: ResultList[] = [];
  for (const [name, value] of Object.entries(result)) {
    if (METADATA_KEYS.has(name)) continue;
    if (isRowList(value)) {
      lists.push({ name, rows: value, isFacet: isFacetRows(value) });
    } else if (value !== null && typeof value === 'object' && !Array.isArray(value)) {
      for (const [member, inner] of Object.entries(value as Record<string, unknown>)) {
        if (isRowList(inner)) lists.push({ name: `${name}.${member}`, rows: inner, isFacet: isFacetRows(inner) });
      }
    }
  }
  return lists;
}

/**
 * The editor offset of a 1-based line and column in `text`, clamped to the text.
 *
 * @example offsetOf('ab\ncd', 2, 2) // 4
 */
export function offsetOf(text: string, line: number, column: number): number {
  let offset = 0;
  for (let l = 1; l < line; l++) {
    const next = text.indexOf('\n', offset);
    if (next < 0) return text.length;
    offset = next + 1;
  }
  const lineEnd = text.indexOf('\n', offset);
  const end = lineEnd < 0 ? text.length : lineEnd;
  return Math.min(offset + Math.max(0, column - 1), end);
}
