/**
 * NIH grant data as grants, keyed `nih.<full project number>`, funded by the NIH (its ROR
 * id). Three published layouts, told apart by their header:
 * - RePORTER award actions (`award_date, project_number, award_amount, award_type`);
 * - per-project outputs (`project_num, n_pubs, n_patents, total_cost`);
 * - ExPORTER projects (`RePORTER_PRJ_C_FY*.csv`: `APPLICATION_ID, FULL_PROJECT_NUM,
 *   PROJECT_TITLE, FY, TOTAL_COST, PI_NAMEs, ORG_NAME, ...`), whose abstracts come from the
 *   ExPORTER abstracts file (`RePORTER_PRJABS_C_FY*.csv`: `APPLICATION_ID, ABSTRACT_TEXT`)
 *   imported in the same run. Recent years' project files call FOA_NUMBER `OPPORTUNITY
 *   NUMBER`; ExPORTER publishes each year's file zipped (`RePORTER_PRJ_C_FY2023.zip`), and
 *   the zip is read as it is.
 */
import type { GrantRecord, Investigator, ProjectNumber } from '../../../model/native-records.ts';
import { nihProjectNumber } from '../../../sources/clinical_trials/nih-project-number.ts';
import { MalformedRecord, MissingColumn, type Mapped } from './common.ts';
import type { FormatReader } from './reader.ts';

/** The NIH's ROR id, as imported organizations are keyed. */
export const NIH_ORG_ID = 'https://ror.org/01cwqze88';

/** The activity code of an NIH project number (`5R01AI130470-05` -> `R01`). */
export function activityCode(project: string): string | undefined {
  return /^\d?([A-Z]\d{2}|[A-Z]{2}\d|[A-Z]\d[A-Z])/.exec(project)?.[1];
}

/** The NIH layouts, each with the columns it cannot do without. */
export const NIH_LAYOUTS = {
  awards: ['award_date', 'project_number', 'award_amount'],
  outputs: ['project_num', 'total_cost'],
  projects: ['APPLICATION_ID', 'FULL_PROJECT_NUM', 'PROJECT_TITLE', 'FY'],
  abstracts: ['APPLICATION_ID', 'ABSTRACT_TEXT'],
} as const;
export type NihLayout = keyof typeof NIH_LAYOUTS;

/** The layout a header names, checking its required columns (MissingColumn when one lacks). */
export function nihLayout(columns: readonly string[]): NihLayout {
  const has = new Set(columns);
  const layout: NihLayout = has.has('APPLICATION_ID')
    ? has.has('ABSTRACT_TEXT') && !has.has('PROJECT_TITLE')
      ? 'abstracts'
      : 'projects'
    : has.has('project_num')
      ? 'outputs'
      : 'awards';
  const missing = NIH_LAYOUTS[layout].find((c) => !has.has(c));
  if (missing !== undefined) throw new MissingColumn(`NIH ${layout}`, missing);
  return layout;
}

const money = (text: string | undefined): number | undefined => {
  const t = (text ?? '').trim();
  const n = Number(t);
  return t !== '' && Number.isFinite(n) && n >= 0 ? n : undefined;
};

/** An ExPORTER date (`9/1/2015`, `2015-09-01` or `2015-09-01T00:00:00`) as `YYYY-MM-DD`. */
export function exporterDate(text: string | undefined): string | undefined {
  const t = (text ?? '').trim();
  const iso = /^(\d{4})-(\d{2})-(\d{2})/.exec(t);
  if (iso !== null) return `${iso[1]}-${iso[2]}-${iso[3]}`;
  const us = /^(\d{1,2})\/(\d{1,2})\/(\d{4})/.exec(t);
  if (us !== null) return `${us[3]}-${(us[1] as string).padStart(2, '0')}-${(us[2] as string).padStart(2, '0')}`;
  return undefined;
}

/**
 * A grant's `project_numbers`: its full project number, and the core project number that
 * names the project across its years (`CORE_PROJECT_NUM` where the file gives it, else read
 * from the full number).
 */
export function nihProjectNumbers(project: string, core?: string): ProjectNumber[] {
  const coreNumber = core?.trim() || nihProjectNumber(project)?.core;
  return [
    { label: 'project_number', value: project },
    ...(coreNumber === undefined || coreNumber === project
      ? []
      : [{ label: 'core_project_number', value: coreNumber }]),
  ];
}

/** Maps one award-action or project-output row (by header name) to a grant. */
export function nihToGrant(row: Readonly<Record<string, string>>): GrantRecord {
  const project = (row['project_number'] ?? row['project_num'] ?? '').trim();
  if (project === '') throw new MalformedRecord('a row without a project number');
  const amountText = (row['award_amount'] ?? row['total_cost'] ?? '').trim();
  const amount = money(amountText);
  if (amount === undefined)
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
    project_numbers: nihProjectNumbers(project),
    ...(row['award_type'] === undefined ? {} : { foa_number: `type ${row['award_type'].trim()}` }),
    ...(activity === undefined ? {} : { funding_schemes: [activity] }),
    funding_org_name: 'National Institutes of Health',
    language: 'en',
  };
}

/** `DOE, JANE A (contact); SMITH, JOHN` as principal investigators. */
function investigators(names: string | undefined, org: string | undefined): Investigator[] {
  return (names ?? '')
    .split(';')
    .map((n) => n.replace(/\(contact\)/i, '').trim())
    .filter((n) => n !== '')
    .map((n) => {
      const [last = '', first = ''] = n.split(',').map((p) => p.trim());
      return {
        first_name: first,
        last_name: last,
        role: 'PI',
        affiliations: org === undefined || org === '' ? [] : [{ name: org }],
      };
    });
}

/** Maps one ExPORTER project row to a grant, with its abstract when the abstracts file gave one. */
export function exporterToGrant(row: Readonly<Record<string, string>>, abstract?: string): GrantRecord {
  const project = (row['FULL_PROJECT_NUM'] ?? '').trim();
  const application = (row['APPLICATION_ID'] ?? '').trim();
  if (project === '') throw new MalformedRecord(`application ${application} has no FULL_PROJECT_NUM`);
  const fy = Number((row['FY'] ?? '').trim());
  if (!Number.isInteger(fy) || fy < 1900) throw new MalformedRecord(`project ${project} has a bad FY`);
  const total = money(row['TOTAL_COST']) ?? money(row['TOTAL_COST_SUB_PROJECT']);
  const start = exporterDate(row['BUDGET_START']) ?? exporterDate(row['PROJECT_START']);
  const end = exporterDate(row['BUDGET_END']) ?? exporterDate(row['PROJECT_END']);
  const startYear = start === undefined ? fy : Number(start.slice(0, 4));
  const endYear = end === undefined ? startYear : Math.max(startYear, Number(end.slice(0, 4)));
  const org = row['ORG_NAME']?.trim();
  const title = (row['PROJECT_TITLE'] ?? '').trim();
  const text = abstract?.trim();
  // Files of recent fiscal years name the FOA_NUMBER column `OPPORTUNITY NUMBER`.
  const foa = (row['FOA_NUMBER'] ?? row['OPPORTUNITY NUMBER'])?.trim();
  // The project's terms are its keywords; its activity code and mechanism its funding schemes.
  const keywords = [
    ...new Set(
      (row['PROJECT_TERMS'] ?? '')
        .split(';')
        .map((t) => t.trim())
        .filter((t) => t !== ''),
    ),
  ];
  const schemes = [row['ACTIVITY']?.trim() ?? activityCode(project), row['FUNDING_MECHANISM']?.trim()].filter(
    (x): x is string => x !== undefined && x !== '',
  );
  return {
    id: `nih.${project}`,
    title: title === '' ? `NIH award ${project}` : title,
    ...(text === undefined || text === '' ? {} : { abstract: text }),
    funders: [NIH_ORG_ID],
    ...(total === undefined ? {} : { funding_usd: total }),
    funding_currency: 'USD',
    ...(start === undefined ? {} : { start_date: start }),
    ...(end === undefined ? {} : { end_date: end }),
    start_year: startYear,
    active_year: Array.from({ length: endYear - startYear + 1 }, (_, k) => startYear + k),
    investigators: investigators(row['PI_NAMEs'], org),
    research_orgs: [],
    grant_number: project,
    project_numbers: nihProjectNumbers(project, row['CORE_PROJECT_NUM']),
    ...(foa === undefined || foa === '' ? {} : { foa_number: foa }),
    ...(keywords.length === 0 ? {} : { keywords }),
    ...(schemes.length === 0 ? {} : { funding_schemes: schemes }),
    funding_org_name: 'National Institutes of Health',
    funding_org_acronym: 'NIH',
    language: 'en',
    ...(application === '' ? {} : { linkout: `https://reporter.nih.gov/project-details/${application}` }),
  };
}

export class NihReader implements FormatReader {
  readonly container = 'csv' as const;
  private layout: NihLayout = 'awards';

  /** @param abstracts ExPORTER abstracts by APPLICATION_ID, read from the run's abstracts files first. */
  constructor(private readonly abstracts: ReadonlyMap<string, string> = new Map()) {}

  header(columns: readonly string[]): void {
    this.layout = nihLayout(columns);
  }

  map(source: string | Readonly<Record<string, string>>): Mapped[] {
    if (typeof source === 'string') throw new MalformedRecord('not a CSV row');
    switch (this.layout) {
      case 'abstracts':
        // Read in the abstracts pass before any project file; nothing to write on its own.
        return [];
      case 'projects':
        return [
          {
            kind: 'grants',
            record: exporterToGrant(source, this.abstracts.get((source['APPLICATION_ID'] ?? '').trim())),
          },
        ];
      case 'awards':
      case 'outputs':
        return [{ kind: 'grants', record: nihToGrant(source) }];
    }
  }

  end(): Mapped[] {
    return [];
  }
}
