/**
 * Records as flat rows, the way dimcli's `as_dataframe()` (pandas `json_normalize`) shows
 * them, for the console's table and CSV, the CLI's tables and `--rows`, and exports: a nested
 * entity becomes one column per sub-field (`journal.id`, `journal.title`), so no cell holds
 * an object's JSON text. Lists, which `json_normalize` leaves whole, are written readably
 * (scalars joined with "; ", entities by their names: a person's first and last name, else
 * `name`, `title`, or `id`), as JSON text for files, or kept whole.
 *
 * `rowsOf(kind, ...)` makes one row per nested item with its record's id, as the Python
 * client's `as_dataframe_*` helpers do: `authors` (per author of each publication),
 * `affiliations` (per author and affiliation, the affiliation's fields prefixed `aff_`),
 * `funders` (per funder of each record), and `investigators` (per investigator of each
 * grant or trial).
 *
 * @example
 * flattenRecord({ id: 'pub.1', journal: { id: 'j1', title: 'J' }, authors: [{ first_name: 'A', last_name: 'B' }] })
 * // { id: 'pub.1', 'journal.id': 'j1', 'journal.title': 'J', authors: 'A B' }
 */

export type FlatValue = string | number | boolean | null;
export type FlatRow = Readonly<Record<string, FlatValue>>;

type Row = Record<string, unknown>;

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/** A readable name for one entity: a person's name, its `name`, `title`, or `id`. */
export function entityLabel(entity: Readonly<Record<string, unknown>>): string {
  const text = (v: unknown) => (typeof v === 'string' && v.trim() !== '' ? v : undefined);
  const person = [text(entity.first_name), text(entity.last_name)].filter(Boolean).join(' ');
  return (
    (person || undefined) ??
    text(entity.name) ??
    text(entity.title) ??
    (typeof entity.id === 'string' || typeof entity.id === 'number' ? String(entity.id) : JSON.stringify(entity))
  );
}

/** A list as a cell shows it: entities by their labels, everything joined with "; ". */
export function listText(list: readonly unknown[]): string {
  return list
    .map((item) => (isPlainObject(item) ? entityLabel(item) : Array.isArray(item) ? listText(item) : String(item)))
    .join('; ');
}

/** How lists are written: readable names for a table, JSON text for CSV files, or kept whole (JSON answers). */
export type ListStyle = 'labels' | 'json' | 'keep';

function flattenInto(out: Record<string, FlatValue>, prefix: string, value: unknown, lists: ListStyle): void {
  if (isPlainObject(value)) {
    const entries = Object.entries(value);
    if (entries.length === 0) out[prefix] = null;
    for (const [key, inner] of entries) flattenInto(out, `${prefix}.${key}`, inner, lists);
  } else if (Array.isArray(value)) {
    // 'keep' leaves the list itself; only `flattenEntities` asks for it, and says so in its type.
    out[prefix] = lists === 'labels' ? listText(value) : lists === 'json' ? JSON.stringify(value) : (value as never);
  } else if (value === undefined) {
    out[prefix] = null;
  } else {
    out[prefix] = value as FlatValue;
  }
}

/** One record as a flat row (see the module comment). */
export function flattenRecord(record: Readonly<Record<string, unknown>>, lists: ListStyle = 'labels'): FlatRow {
  const out: Record<string, FlatValue> = {};
  for (const [key, value] of Object.entries(record)) flattenInto(out, key, value, lists);
  return out;
}

/** One record with its entities as dotted columns and its lists left whole (rows for JSON and CSV output). */
export function flattenEntities(record: Readonly<Record<string, unknown>>): Record<string, unknown> {
  return flattenRecord(record, 'keep');
}

/** The columns of flat rows, in order of first appearance. */
export function flatColumns(rows: readonly FlatRow[]): string[] {
  const seen = new Set<string>();
  for (const row of rows) for (const key of Object.keys(row)) seen.add(key);
  return [...seen];
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
  return Array.isArray(list) ? list.filter(isPlainObject) : [];
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
    if (!isPlainObject(record)) continue;
    const head: Row = { [idColumn]: record['id'] };
    switch (kind) {
      case 'authors':
      case 'investigators':
        for (const person of peopleOf(record, kind)) rows.push({ ...head, ...flattenEntities(person) });
        break;
      case 'affiliations':
        for (const person of [...peopleOf(record, 'authors'), ...peopleOf(record, 'investigators')]) {
          const who = withoutKey(withoutKey(flattenEntities(person), 'affiliations'), 'raw_affiliation');
          const affiliations = Array.isArray(person['affiliations'])
            ? person['affiliations'].filter(isPlainObject)
            : [];
          for (const affiliation of affiliations) {
            const aff = Object.fromEntries(
              Object.entries(flattenEntities(affiliation)).map(([k, v]) => [`aff_${k}`, v]),
            );
            rows.push({ ...head, ...who, ...aff });
          }
        }
        break;
      case 'funders': {
        const funders = record['funders'];
        if (Array.isArray(funders))
          for (const funder of funders.filter(isPlainObject)) rows.push({ ...head, ...flattenEntities(funder) });
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
