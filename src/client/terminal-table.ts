/**
 * Plain-text tables for a terminal. Nested values read as people read them (an entity by
 * its name, a list joined with `; `, as flatten.ts writes them), facet rows lead with what identifies them and the
 * indicators asked, and a table wider than the terminal is narrowed: the widest columns are
 * cut first (with `…`), and columns that still do not fit are left out and named below.
 */
import { entityLabel, listText } from './flatten.ts';
import { cellText } from './output.ts';

type Row = Record<string, unknown>;

export interface TableOptions {
  /** The columns, in order; default every key in order of first appearance. */
  readonly columns?: readonly string[];
  /** Columns moved to the front in this order when present (an id, a name, `count`, indicators). */
  readonly leading?: readonly string[] | undefined;
  /** The terminal's width in characters; undefined leaves the width free. */
  readonly width?: number | undefined;
  /** The widest a cell is shown (default 40). */
  readonly maxWidth?: number;
}

/** A column is never narrowed below this (or its header, when shorter). */
const MIN_COLUMN = 8;
const SEPARATOR = ' | ';

const isRow = (value: unknown): value is Row => typeof value === 'object' && value !== null && !Array.isArray(value);

/** A value as a table shows it: entities by their labels, lists joined with `; `. */
export function displayText(value: unknown): string {
  if (Array.isArray(value)) return listText(value);
  if (isRow(value)) return entityLabel(value);
  return cellText(value);
}

/** Every key of the rows in order of first appearance. */
function keysOf(rows: readonly unknown[]): string[] {
  const seen = new Set<string>();
  for (const row of rows) if (isRow(row)) for (const key of Object.keys(row)) seen.add(key);
  return [...seen];
}

const length = (text: string): number => [...text].length;

function cut(text: string, width: number): string {
  const chars = [...text.replace(/\s+/g, ' ')];
  return chars.length > width ? `${chars.slice(0, Math.max(1, width - 1)).join('')}…` : chars.join('');
}

/**
 * A table of rows.
 *
 * @example
 * table([{ id: 2020, count: 5 }])
 * // id   | count
 * // -----+------
 * // 2020 | 5
 */
export function table(rows: readonly unknown[], options: TableOptions = {}): string {
  const all = options.columns ?? keysOf(rows);
  const leading = (options.leading ?? []).filter((column) => all.includes(column));
  let columns = [...new Set([...leading, ...all])];
  if (columns.length === 0) return rows.length === 0 ? '(no records)\n' : `${rows.length} empty records\n`;
  const maxWidth = options.maxWidth ?? 40;
  const texts = rows.map((row) => columns.map((column) => displayText(isRow(row) ? row[column] : undefined)));
  let widths = columns.map((column, i) =>
    Math.min(maxWidth, Math.max(length(column), ...texts.map((cells) => length(cells[i] ?? '')))),
  );
  const total = () => widths.reduce((sum, w) => sum + w, 0) + SEPARATOR.length * (widths.length - 1);
  const left: string[] = [];
  if (options.width !== undefined) {
    const limit = options.width;
    const minimums = widths.map((w) => Math.min(w, MIN_COLUMN));
    // Narrow the widest column one character at a time until the table fits or none can give.
    while (total() > limit) {
      let widest = -1;
      for (let i = 0; i < widths.length; i++)
        if ((widths[i] ?? 0) > (minimums[i] ?? 0) && (widest < 0 || (widths[i] ?? 0) > (widths[widest] ?? 0)))
          widest = i;
      if (widest < 0) break;
      widths[widest] = (widths[widest] ?? 0) - 1;
    }
    // Still too wide: leave out the last columns (never the first), naming them below.
    while (total() > limit && columns.length > 1) {
      left.unshift(columns[columns.length - 1] ?? '');
      columns = columns.slice(0, -1);
      widths = widths.slice(0, -1);
    }
  }
  const line = (cells: readonly string[]) =>
    cells
      .map((cell, i) => cut(cell, widths[i] ?? 0).padEnd(widths[i] ?? 0))
      .join(SEPARATOR)
      .trimEnd();
  const body = [
    line(columns),
    widths.map((w) => '-'.repeat(w)).join('-+-'),
    ...texts.map((cells) => line(cells.slice(0, columns.length))),
  ];
  if (left.length > 0)
    body.push(
      `(${left.length} more column${left.length === 1 ? '' : 's'}: ${left.join(', ')}; --format csv or json shows all)`,
    );
  return `${body.join('\n')}\n`;
}
