/**
 * One patent from its rows in the PatentsView tables (all joined by `patent_id`), as a
 * native patent record: a pure function of the rows, so the reader can gather them however
 * it likes (`patentsview-staging.ts`). The mapping follows the USPTO XML one field by field
 * (`uspto-xml.ts`), so a grant imported from either source is the same record:
 * - `g_patent`: id (`US-<patent_id>-<wipo_kind>`), title, abstract (or `g_patent_abstract`),
 *   grant date as publication and granted date, `num_claims`; `withdrawn` = 1 is kept with
 *   `legal_status` `Withdrawn`.
 * - `g_application`: application number, filing date; `g_foreign_priority`: the priority date.
 * - `g_inventor_disambiguated`, `g_assignee_disambiguated` (in sequence order), with their
 *   places from `g_location_disambiguated`.
 * - `g_cpc_current` (`cpc_group`), `g_ipc_at_issue` (its parts), in sequence order.
 * - `g_us_patent_citation`: `reference_ids`, keyed as ids are.
 * - `g_gov_interest`: `federal_support`; `g_gov_interest_org` (agency names) and
 *   `g_gov_interest_contracts` (award numbers) go to `unmatched` for the matchers.
 * PatentsView's disambiguated assignee and inventor ids are its own, not ROR or researcher
 * ids: `finish()` matches the names to organizations (`store/organization-links.ts`).
 */
import { MalformedRecord } from '../../data/import/formats/common.ts';
import type { PatentInventor, PatentRecord } from './native.ts';
import { patentId } from './patent-ids.ts';

export type Row = Readonly<Record<string, string>>;

/** The rows of one patent, by table (lists in any order: they are sorted by their sequence). */
export interface PatentRows {
  readonly patent: Row;
  readonly abstract?: Row;
  readonly application?: Row;
  readonly inventors?: readonly Row[];
  readonly assignees?: readonly Row[];
  readonly cpc?: readonly Row[];
  readonly ipc?: readonly Row[];
  readonly citations?: readonly Row[];
  readonly priority?: readonly Row[];
  readonly govInterest?: readonly Row[];
  readonly govOrgs?: readonly Row[];
  readonly contracts?: readonly Row[];
}

/** A row of `g_location_disambiguated` by its `location_id`. */
export type LocationLookup = (locationId: string) => Row | undefined;

/** A cell's value: undefined for empty or NULL (`NULL`, `\N`). */
export function cell(row: Row | undefined, column: string): string | undefined {
  const v = row?.[column]?.trim();
  return v === undefined || v === '' || v === 'NULL' || v === '\\N' ? undefined : v;
}

/** A `YYYY-MM-DD` date cell (a time after it dropped), or undefined. */
function dateCell(row: Row | undefined, column: string): string | undefined {
  const m = /^(\d{4})-(\d{2})-(\d{2})/.exec(cell(row, column) ?? '');
  if (m === null || m[2] === '00' || m[3] === '00') return undefined;
  return `${m[1]}-${m[2]}-${m[3]}`;
}

const yearOf = (date: string): number => Number(date.slice(0, 4));
const distinct = (values: readonly (string | undefined)[]): string[] => [
  ...new Set(values.filter((v): v is string => v !== undefined && v !== '')),
];

/** Rows in their table's sequence order (a number; rows without one last, in given order). */
function inOrder(rows: readonly Row[] | undefined, column: string): Row[] {
  const seq = (r: Row): number => {
    const n = Number(cell(r, column));
    return Number.isFinite(n) ? n : Number.POSITIVE_INFINITY;
  };
  return [...(rows ?? [])].sort((a, b) => seq(a) - seq(b));
}

/** A place as the XML mapping writes it: city, `US-CA`, `US`. */
function placeOf(row: Row | undefined, places: LocationLookup): { city?: string; state?: string; country?: string } {
  const id = cell(row, 'location_id');
  const loc = id === undefined ? undefined : places(id);
  const city = cell(loc, 'disambig_city');
  const country = cell(loc, 'disambig_country');
  const state = cell(loc, 'disambig_state');
  return {
    ...(city === undefined ? {} : { city }),
    ...(country === undefined ? {} : { country }),
    ...(state === undefined || country === undefined ? {} : { state: `${country}-${state}` }),
  };
}

/** A classification symbol without spaces (`A61B 5/14532` -> `A61B5/14532`). */
const compact = (s: string | undefined): string | undefined => s?.replace(/\s+/g, '');

function ipcSymbol(r: Row): string | undefined {
  const parts = ['section', 'ipc_class', 'subclass', 'main_group'].map((c) => cell(r, c));
  if (parts.some((p) => p === undefined)) return undefined;
  const [section, cls, subclass, main] = parts as [string, string, string, string];
  const sub = cell(r, 'subgroup') ?? '00';
  return `${section}${cls.padStart(2, '0')}${subclass}${main.replace(/^0+(?=\d)/, '')}/${sub}`;
}

/** `{[name]: values}`, or nothing for an empty list (optional fields are left out). */
function listField<K extends string>(name: K, values: readonly string[]): { [P in K]?: readonly string[] } {
  return (values.length === 0 ? {} : { [name]: values }) as { [P in K]?: readonly string[] };
}

/** Maps one patent's rows to a patent; MalformedRecord when `g_patent` lacks what an id, a title or a date needs. */
export function patentsViewToPatent(rows: PatentRows, places: LocationLookup): PatentRecord {
  const p = rows.patent;
  const number = cell(p, 'patent_id');
  const kind = cell(p, 'wipo_kind');
  const id = patentId('US', number, kind);
  if (id === undefined || kind === undefined)
    throw new MalformedRecord(`patent ${number ?? '(no patent_id)'} has no kind code (wipo_kind)`);
  const published = dateCell(p, 'patent_date');
  if (published === undefined) throw new MalformedRecord(`${id} has no valid patent_date`);
  const title = cell(p, 'patent_title');
  if (title === undefined) throw new MalformedRecord(`${id} has no patent_title`);
  const abstract = cell(p, 'patent_abstract') ?? cell(rows.abstract, 'patent_abstract');
  const claims = Number(cell(p, 'num_claims'));
  const applicationNumber = cell(rows.application, 'application_id')?.replace(/[^0-9A-Za-z]/g, '');
  const filed = dateCell(rows.application, 'filing_date');
  const priority = [...(rows.priority ?? []).map((r) => dateCell(r, 'filing_date')), filed]
    .filter((d): d is string => d !== undefined)
    .sort()[0];

  const inventors: PatentInventor[] = inOrder(rows.inventors, 'inventor_sequence').map((r) => {
    const place = placeOf(r, places);
    return {
      first_name: cell(r, 'disambig_inventor_name_first') ?? '',
      last_name: cell(r, 'disambig_inventor_name_last') ?? '',
      ...(place.city === undefined ? {} : { city: place.city }),
      ...(place.state === undefined ? {} : { state_code: place.state }),
      ...(place.country === undefined ? {} : { country_code: place.country }),
    };
  });
  const assignees = inOrder(rows.assignees, 'assignee_sequence').map((r) => ({
    name:
      cell(r, 'disambig_assignee_organization') ??
      [cell(r, 'disambig_assignee_individual_name_first'), cell(r, 'disambig_assignee_individual_name_last')]
        .filter((n) => n !== undefined)
        .join(' '),
    ...placeOf(r, places),
  }));
  const assigneeNames = distinct(assignees.map((a) => a.name));
  const statements = distinct((rows.govInterest ?? []).map((r) => cell(r, 'gi_statement')));
  const funderNames = distinct(
    (rows.govOrgs ?? []).map(
      (r) => cell(r, 'fedagency_name') ?? cell(r, 'level_three') ?? cell(r, 'level_two') ?? cell(r, 'level_one'),
    ),
  );
  const contracts = distinct((rows.contracts ?? []).map((r) => cell(r, 'contract_award_number')));
  const federal = statements.length > 0 || funderNames.length > 0;
  return {
    id,
    title,
    ...(abstract === undefined ? {} : { abstract }),
    jurisdiction: 'US',
    kind,
    filing_status: 'Grant',
    ...(applicationNumber === undefined || applicationNumber === '' ? {} : { application_number: applicationNumber }),
    ...(filed === undefined ? {} : { date: filed, year: yearOf(filed) }),
    ...(priority === undefined ? {} : { priority_date: priority, priority_year: yearOf(priority) }),
    publication_date: published,
    publication_year: yearOf(published),
    granted_date: published,
    granted_year: yearOf(published),
    ...(cell(p, 'withdrawn') === '1' ? { legal_status: 'Withdrawn' } : {}),
    cpc: distinct(inOrder(rows.cpc, 'cpc_sequence').map((r) => compact(cell(r, 'cpc_group')))),
    ipcr: distinct(inOrder(rows.ipc, 'ipc_sequence').map(ipcSymbol)),
    ...(Number.isInteger(claims) && claims > 0 ? { claims_amount: claims } : {}),
    inventor_names: inventors.map((i) => `${i.first_name} ${i.last_name}`.trim()),
    inventors,
    researchers: [],
    assignee_names: assigneeNames,
    original_assignee_names: assigneeNames,
    assignees: [],
    original_assignees: [],
    ...listField('assignee_cities', distinct(assignees.map((a) => a.city))),
    ...listField('assignee_countries', distinct(assignees.map((a) => a.country))),
    ...listField('assignee_state_codes', distinct(assignees.map((a) => a.state))),
    reference_ids: distinct(
      inOrder(rows.citations, 'citation_sequence').map((r) =>
        patentId('US', cell(r, 'citation_patent_id'), cell(r, 'wipo_kind')),
      ),
    ),
    ...listField('federal_support', statements),
    funders: [],
    ...(federal ? { funder_countries: ['US'] } : {}),
    ...(funderNames.length === 0 && contracts.length === 0
      ? {}
      : {
          unmatched: {
            ...(funderNames.length === 0 ? {} : { funder_names: funderNames }),
            ...(contracts.length === 0 ? {} : { contract_numbers: contracts }),
          },
        }),
  };
}
