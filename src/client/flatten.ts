/**
 * Flat rows from nested records, the way research-office users read them in a spreadsheet
 * or a data frame (and as the Python client's `as_dataframe_*` helpers give them):
 *
 * - `flattenRecord`: entity objects become dotted columns (`journal.id`, `journal.title`);
 *   lists stay lists (a table shows them joined, CSV and JSON keep them whole).
 * - `rowsOf(kind, ...)`: one row per nested item with its record's id: `authors` (one row
 *   per author of each publication), `affiliations` (per author and affiliation, the
 *   affiliation's fields prefixed `aff_`), `funders` (per funder of each record), and
 *   `investigators` (per investigator of each grant or trial).
 */

type Row = Record<string, unknown>;

const isObject = (value: unknown): value is Row => typeof value === 'object' && value !== null && !Array.isArray(value);

/** Nested objects as dotted columns, in the order of the record's keys; lists stay as they are. */
export function flattenRecord(record: Row, prefix = '', into: Row = {}): Row {
  for (const [key, value] of Object.entries(record)) {
    const column = prefix === '' ? key : `${prefix}.${key}`;
    if (isObject(value) && Object.keys(value).length > 0) flattenRecord(value, column, into);
    else into[column] = value;
  }
  return into;
}

/** The kinds of rows `rowsOf` makes. */
export const ROW_KINDS = ['authors', 'affiliations', 'funders', 'investigators'] as const;
export type RowKind = (typeof ROW_KINDS)[number];

/** The column naming a row's record: `pub_id` for publications (as the Python client names it), `grant_id`, ... */
const RECORD_ID_COLUMNS: Readonly<Record<string, string>> = {
  publications: 'pub_id',
  grants: 'grant_id',
  clinical_trials: 'trial_id',
  patents: 'patent_id',
  datasets: 'dataset_id',
  policy_documents: 'policy_id',
  reports: 'report_id',
};

export function recordIdColumn(source: string): string {
  return RECORD_ID_COLUMNS[source] ?? `${source}_id`;
}

/** The list of people a record holds: publications' and datasets' authors, grants' and trials' investigators. */
function peopleOf(record: Row, kind: 'authors' | 'investigators'): Row[] {
  const list = record[kind];
  return Array.isArray(list) ? list.filter(isObject) : [];
}

function withoutKey(row: Row, key: string): Row {
  const { [key]: _dropped, ...rest } = row;
  return rest;
}

/**
 * One row per nested item of `records` (of `source`), each with the record's id first.
 * Records without the nested field (not returned, or empty) give no rows; what each kind
 * needs returned is `requiredFields(kind)`.
 */
export function rowsOf(kind: RowKind, source: string, records: readonly unknown[]): Row[] {
  const idColumn = recordIdColumn(source);
  const rows: Row[] = [];
  for (const record of records) {
    if (!isObject(record)) continue;
    const head: Row = { [idColumn]: record['id'] };
    switch (kind) {
      case 'authors':
      case 'investigators':
        for (const person of peopleOf(record, kind)) rows.push({ ...head, ...flattenRecord(person) });
        break;
      case 'affiliations':
        for (const person of [...peopleOf(record, 'authors'), ...peopleOf(record, 'investigators')]) {
          const who = withoutKey(withoutKey(flattenRecord(person), 'affiliations'), 'raw_affiliation');
          const affiliations = Array.isArray(person['affiliations']) ? person['affiliations'].filter(isObject) : [];
          for (const affiliation of affiliations) {
            const aff = Object.fromEntries(Object.entries(flattenRecord(affiliation)).map(([k, v]) => [`aff_${k}`, v]));
            rows.push({ ...head, ...who, ...aff });
          }
        }
        break;
      case 'funders': {
        const funders = record['funders'];
        if (Array.isArray(funders))
          for (const funder of funders.filter(isObject)) rows.push({ ...head, ...flattenRecord(funder) });
        break;
      }
    }
  }
  return rows;
}

/** The fields `rowsOf(kind, ...)` reads rows from (a record needs one of them returned). */
export function requiredFields(kind: RowKind): readonly string[] {
  return kind === 'affiliations' ? ['authors', 'investigators'] : [kind];
}
