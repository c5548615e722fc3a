/**
 * Records as flat rows for the console's table and CSV, the way dimcli's `as_dataframe()`
 * (pandas `json_normalize`) shows them: a nested entity becomes one column per sub-field
 * (`journal.id`, `journal.title`), so no cell holds an object's JSON text. Lists, which
 * `json_normalize` leaves whole, are written readably: scalars joined with "; ", entities by
 * their names (a person's first and last name, else `name`, `title`, or `id`).
 *
 * @example
 * flattenRecord({ id: 'pub.1', journal: { id: 'j1', title: 'J' }, authors: [{ first_name: 'A', last_name: 'B' }] })
 * // { id: 'pub.1', 'journal.id': 'j1', 'journal.title': 'J', authors: 'A B' }
 */

export type FlatValue = string | number | boolean | null;
export type FlatRow = Readonly<Record<string, FlatValue>>;

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

function listText(list: readonly unknown[]): string {
  return list
    .map((item) => (isPlainObject(item) ? entityLabel(item) : Array.isArray(item) ? listText(item) : String(item)))
    .join('; ');
}

/** How lists are written: readable names for the table, JSON text for files. */
export type ListStyle = 'labels' | 'json';

function flattenInto(out: Record<string, FlatValue>, prefix: string, value: unknown, lists: ListStyle): void {
  if (isPlainObject(value)) {
    const entries = Object.entries(value);
    if (entries.length === 0) out[prefix] = null;
    for (const [key, inner] of entries) flattenInto(out, `${prefix}.${key}`, inner, lists);
  } else if (Array.isArray(value)) {
    out[prefix] = lists === 'labels' ? listText(value) : JSON.stringify(value);
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

/** The columns of flat rows, in order of first appearance. */
export function flatColumns(rows: readonly FlatRow[]): string[] {
  const seen = new Set<string>();
  for (const row of rows) for (const key of Object.keys(row)) seen.add(key);
  return [...seen];
}
