/**
 * CSV for one result list, written with the client library's CSV functions
 * (src/client/output.ts): RFC 4180, columns in order of first appearance. Entities are
 * flattened to one column per sub-field (`journal.title`, as dimcli's dataframes show them)
 * and lists kept as JSON text, so nothing is lost.
 *
 * @example toCsv([{ id: 2020, count: 3 }]) // 'id,count\r\n2020,3\r\n'
 */
import { columnsOf, csvLine, csvRows } from '../../client/output.ts';
import { flattenRecord } from '../../client/flatten.ts';

export function toCsv(rows: readonly Readonly<Record<string, unknown>>[]): string {
  const flat = rows.map((row) => flattenRecord(row, 'json'));
  const columns = columnsOf(flat);
  return csvLine(columns) + csvRows(flat, columns);
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
