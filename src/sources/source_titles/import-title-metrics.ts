/**
 * Journal metrics a user supplies (`title-metrics`): SJR (SCImago Journal Rank) and SNIP
 * (CWTS Journal Indicators) are free to view but not openly licensed, so no open list gives
 * them and Quarry never fetches them; a deployment that holds a licence imports them from a
 * CSV of its own, one row per ISSN and year:
 *
 *     issn,year,sjr,snip
 *     0028-0836,2023,18.509,7.645
 *     1476-4687,2023,18.509,7.645
 *
 * `issn` is required (written with or without its hyphen); `year`, `sjr` and `snip` may be
 * blank (a row needs one of the two values); other columns are passed over. Each row is a
 * `title_metrics` record keyed by ISSN and year; `finish()` gives each source title the values
 * of the latest year of any of its ISSNs (`store/title-metrics.ts`).
 */
import { MalformedRecord } from '../../data/import/formats/common.ts';
import type { TitleMetricRecord } from '../../model/native-records.ts';
import type { CsvLayout } from './csv-rows.ts';
import { normalIssn } from './issn.ts';

/** A metric cell: blank is unknown; anything but a non-negative number is refused (a decimal point, not a comma). */
function metricOf(row: Readonly<Record<string, string>>, column: string): number | undefined {
  const text = row[column]?.trim() ?? '';
  if (text === '') return undefined;
  const value = Number(text);
  if (!/^\d+(\.\d+)?$/.test(text) || !Number.isFinite(value))
    throw new MalformedRecord(`${column} is not a number with a decimal point: ${text}`);
  return value;
}

export const TITLE_METRICS_CSV: CsvLayout = {
  label: 'title-metrics',
  kind: 'title_metrics',
  required: ['issn'],
  map(row): TitleMetricRecord {
    const written = row['issn']?.trim() ?? '';
    const issn = normalIssn(written);
    if (issn === undefined) throw new MalformedRecord(`issn is not an ISSN: ${written || 'empty'}`);
    const yearText = row['year']?.trim() ?? '';
    const year = yearText === '' ? undefined : Number(yearText);
    if (year !== undefined && !(Number.isInteger(year) && year >= 1900 && year <= 2100))
      throw new MalformedRecord(`year is not a year: ${yearText}`);
    const sjr = metricOf(row, 'sjr');
    const snip = metricOf(row, 'snip');
    if (sjr === undefined && snip === undefined)
      throw new MalformedRecord(`the row of ${issn} has neither sjr nor snip`);
    return {
      id: `${issn}:${year ?? ''}`,
      issn,
      ...(year === undefined ? {} : { year }),
      ...(sjr === undefined ? {} : { sjr }),
      ...(snip === undefined ? {} : { snip }),
    };
  },
};
