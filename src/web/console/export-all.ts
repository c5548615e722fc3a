/**
 * "Export all" in the console: every record of a search, fetched page by page through the
 * console's endpoint and written as CSV or JSON lines with the client library's paging and
 * output functions (src/client/paging.ts, src/client/output.ts), as `quarry export` does.
 * The query's own `limit`/`skip` are dropped first; paging stops at the service's depth
 * limit (`MAX_DEPTH` records).
 */
import { MAX_DEPTH, MAX_PAGE_SIZE, pageablePlan, pageText } from '../../client/paging.ts';
import { columnsOf, csvLine, csvRows, jsonLines } from '../../client/output.ts';
import { flattenRecord } from '../../client/flatten.ts';
import { withoutPaging } from './query-edit.ts';

export type ExportAllFormat = 'csv' | 'jsonl';

export interface ExportAllOptions {
  readonly format: ExportAllFormat;
  /** Runs one page's query and answers its JSON. */
  readonly run: (text: string) => Promise<Readonly<Record<string, unknown>>>;
  readonly pageSize?: number;
  readonly onProgress?: (done: number, total: number) => void;
}

export interface ExportAllResult {
  readonly text: string;
  readonly records: number;
  readonly total: number;
  /** CSV only: columns first seen after the header was written, left out. */
  readonly droppedColumns: readonly string[];
}

/**
 * @example
 * const { text } = await exportAll('search grants return grants[id] limit 5', { format: 'jsonl', run });
 * // every grant, one JSON object a line
 */
export async function exportAll(query: string, options: ExportAllOptions): Promise<ExportAllResult> {
  const plan = pageablePlan(withoutPaging(query));
  if (plan.recordsKey === undefined) throw new Error('the query could not be read; run it once to see the error');
  const pageSize = options.pageSize ?? MAX_PAGE_SIZE;
  const parts: string[] = [];
  let columns: string[] | undefined;
  const dropped = new Set<string>();
  let records = 0;
  let total = Infinity;
  for (let skip = 0; skip < Math.min(total, MAX_DEPTH); skip += pageSize) {
    const answer = await options.run(pageText(plan, Math.min(pageSize, MAX_DEPTH - skip), skip));
    const rows = (answer[plan.recordsKey] ?? []) as Readonly<Record<string, unknown>>[];
    total = (answer._stats as { total_count?: number } | undefined)?.total_count ?? records + rows.length;
    if (options.format === 'jsonl') parts.push(jsonLines(rows));
    else {
      const flat = rows.map((row) => flattenRecord(row, 'json'));
      if (columns === undefined && flat.length > 0) {
        columns = columnsOf(flat);
        parts.push(csvLine(columns));
      }
      if (columns) {
        for (const column of columnsOf(flat)) if (!columns.includes(column)) dropped.add(column);
        parts.push(csvRows(flat, columns));
      }
    }
    records += rows.length;
    options.onProgress?.(records, Math.min(total, MAX_DEPTH));
    if (rows.length === 0) break;
  }
  return { text: parts.join(''), records, total: total === Infinity ? records : total, droppedColumns: [...dropped] };
}
