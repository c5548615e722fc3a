/**
 * NIH award data as grants, keyed `nih.<project number>`, funded by the NIH (its ROR id):
 * award actions (`award_date, project_number, award_amount, award_type`) or per-project
 * outputs (`project_num, n_pubs, n_patents, total_cost`).
 */
import type { GrantRecord } from '../../../model/native-records.ts';
import { MalformedRecord, type Mapped } from './common.ts';
import type { FormatReader } from './reader.ts';

/** The NIH's ROR id, as imported organizations are keyed. */
export const NIH_ORG_ID = 'https://ror.org/01cwqze88';

/** The activity code of an NIH project number (`5R01AI130470-05` -> `R01`). */
export function activityCode(project: string): string | undefined {
  return /^\d?([A-Z]\d{2}|[A-Z]{2}\d|[A-Z]\d[A-Z])/.exec(project)?.[1];
}

/** Maps one CSV row (by header name) to a grant. */
export function nihToGrant(row: Readonly<Record<string, string>>): GrantRecord {
  const project = (row['project_number'] ?? row['project_num'] ?? '').trim();
  if (project === '') throw new MalformedRecord('a row without a project number');
  const amountText = (row['award_amount'] ?? row['total_cost'] ?? '').trim();
  const amount = Number(amountText);
  if (amountText === '' || !Number.isFinite(amount) || amount < 0)
    throw new MalformedRecord(`project ${project} has no valid amount (${JSON.stringify(amountText)})`);
  const date = (row['award_date'] ?? '').trim();
  if (date !== '' && !/^\d{4}-\d{2}-\d{2}$/.test(date))
    throw new MalformedRecord(`project ${project} has a bad award date ${JSON.stringify(date)}`);
  const activity = activityCode(project);
  const year = date === '' ? undefined : Number(date.slice(0, 4));
  return {
    id: `nih.${project}`,
    title: `NIH ${activity ?? ''} award ${project}`.replace(/\s+/g, ' '),
    funders: [NIH_ORG_ID],
    funding_usd: amount,
    funding_currency: 'USD',
    ...(year === undefined ? {} : { start_date: date, start_year: year, active_year: [year] }),
    investigators: [],
    research_orgs: [],
    grant_number: project,
    ...(row['award_type'] === undefined ? {} : { foa_number: `type ${row['award_type'].trim()}` }),
    funding_org_name: 'National Institutes of Health',
    language: 'en',
  };
}

export class NihReader implements FormatReader {
  readonly container = 'csv' as const;

  map(source: string | Readonly<Record<string, string>>): Mapped[] {
    if (typeof source === 'string') throw new MalformedRecord('not a CSV row');
    return [{ kind: 'grants', record: nihToGrant(source) }];
  }

  end(): Mapped[] {
    return [];
  }
}
