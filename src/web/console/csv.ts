/**
 * CSV for one result list (RFC 4180: comma-separated, CRLF line ends, fields quoted when
 * they hold a comma, quote or line break, quotes doubled). Columns are the keys of the rows
 * in order of first appearance; numbers and strings are written as they are, missing and
 * null values as empty cells, entity objects and lists as their JSON text so nothing is lost.
 *
 * @example toCsv([{ id: 2020, count: 3 }]) // 'id,count\r\n2020,3\r\n'
 */
export function toCsv(rows: readonly unknown[]): string {
  const columns: string[] = [];
  const seen = new Set<string>();
  for (const row of rows) {
    if (row === null || typeof row !== 'object') continue;
    for (const key of Object.keys(row)) {
      if (!seen.has(key)) {
        seen.add(key);
        columns.push(key);
      }
    }
  }
  const lines = [columns.map(csvField).join(',')];
  for (const row of rows) {
    const record = (row ?? {}) as Record<string, unknown>;
    lines.push(columns.map((c) => csvField(cellText(record[c]))).join(','));
  }
  return lines.join('\r\n') + '\r\n';
}

/** The text a value gets in a table cell or a CSV field. */
export function cellText(value: unknown): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  return JSON.stringify(value);
}

function csvField(text: string): string {
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/** Parses CSV written by `toCsv` (and any RFC 4180 text) into rows of fields. */
export function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i];
    if (quoted) {
      if (ch === '"' && text[i + 1] === '"') {
        field += '"';
        i++;
      } else if (ch === '"') quoted = false;
      else field += ch;
    } else if (ch === '"') quoted = true;
    else if (ch === ',') {
      row.push(field);
      field = '';
    } else if (ch === '\n' || ch === '\r') {
      if (ch === '\r' && text[i + 1] === '\n') i++;
      row.push(field);
      rows.push(row);
      row = [];
      field = '';
    } else field += ch;
  }
  if (field !== '' || row.length > 0) {
    row.push(field);
    rows.push(row);
  }
  return rows;
}
