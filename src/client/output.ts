/**
 * Turning records into text: JSON lines and CSV. Nested values (entity objects, lists)
 * become compact JSON in a cell so nothing is lost. Tables for a terminal are
 * terminal-table.ts; rows per author, funder, ... are flatten.ts.
 */

export type OutputFormat = 'json' | 'jsonl' | 'csv' | 'table';

export const OUTPUT_FORMATS: readonly OutputFormat[] = ['json', 'jsonl', 'csv', 'table'];

/** A cell's text: strings as they are, null/undefined empty, anything else as JSON. */
export function cellText(value: unknown): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  return JSON.stringify(value);
}

/** The columns of some records: every key, in order of first appearance. */
export function columnsOf(records: readonly unknown[]): string[] {
  const seen = new Set<string>();
  for (const record of records) {
    if (typeof record === 'object' && record !== null) for (const key of Object.keys(record)) seen.add(key);
  }
  return [...seen];
}

/** What a spreadsheet reads as the start of a formula (OWASP, "CSV injection"). */
const FORMULA_START = /^[=+\-@\t\r]/;

/**
 * A CSV cell's text. Text that a spreadsheet would run as a formula (starting with `=`, `+`,
 * `-`, `@`, a tab or a carriage return, such as `=HYPERLINK(...)` in a title) gets a
 * leading `'`, which spreadsheets show as text. Only text is changed: a number (`-3`), a
 * boolean, or a list's or an entity's JSON text is written as it is, so numbers stay numbers.
 *
 * @example csvCell('=1+2') // "'=1+2"
 * @example csvCell(-3)     // '-3'
 */
export function csvCell(value: unknown): string {
  const text = cellText(value);
  return typeof value === 'string' && FORMULA_START.test(text) ? `'${text}` : text;
}

/**
 * One CSV line (RFC 4180): each field's text from `csvCell`; fields with a comma, quote or
 * line break are quoted, quotes doubled. Every CSV that Quarry writes goes through here.
 *
 * @example csvLine(['a', 'b,c', 'say "hi"', -3, '-x']) // 'a,"b,c","say ""hi""",-3,\'-x\r\n'
 */
export function csvLine(fields: readonly unknown[]): string {
  return `${fields
    .map((field) => {
      const text = csvCell(field);
      return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
    })
    .join(',')}\r\n`;
}

/** CSV rows (no header) of records under the given columns. */
export function csvRows(records: readonly unknown[], columns: readonly string[]): string {
  return records.map((r) => csvLine(columns.map((c) => (r as Record<string, unknown> | null)?.[c]))).join('');
}

/** JSON lines: one record per line. */
export function jsonLines(records: readonly unknown[]): string {
  return records.map((r) => `${JSON.stringify(r)}\n`).join('');
}
