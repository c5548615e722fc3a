/**
 * Reading a native record's values as the rows the layout holds: ids of entity references,
 * distinct id lists, people's names, concepts, categories and `<owner>_values` rows. Pure
 * functions of the record, shared by the store's row builder (`store/rows.ts`) and the row
 * hooks of each source's declaration (`src/sources/<name>/model.ts`).
 */

/** A value of a stored column. */
export type SqlValue = string | number | null;

/** A native record as the row builders read it: any JSON object. */
export type LooseRecord = Readonly<Record<string, unknown>>;

/**
 * Separates two people's names in a person-name column. A private-use character is a token
 * to the unicode61 tokenizer but can never come from a real name, and repeating it puts
 * NAME_GAP_TOKENS positions between the last word of one name and the first of the next, so
 * a NEAR group of up to NAME_GAP_TOKENS - 1 words never spans two people.
 */
export const NAME_GAP_TOKENS = 8;
export const NAME_GAP = ` ${Array.from({ length: NAME_GAP_TOKENS }, () => '\uE000').join(' ')} `;

/** The id of an entity reference: a plain id string or an object with `id`. */
export function idOf(value: unknown): string | undefined {
  if (typeof value === 'string') return value.length > 0 ? value : undefined;
  if (typeof value === 'number') return String(value);
  if (value !== null && typeof value === 'object') {
    const id = (value as LooseRecord)['id'];
    if (typeof id === 'string' && id.length > 0) return id;
    if (typeof id === 'number') return String(id);
  }
  return undefined;
}

/** A value as a list: itself when it is one, else a list of it (none for undefined or null). */
export function list(value: unknown): readonly unknown[] {
  return Array.isArray(value) ? value : value === undefined || value === null ? [] : [value];
}

/** The distinct ids of the entity references in the values (each a reference or a list of them), in order. */
export function distinctIds(...sources: unknown[]): string[] {
  const out = new Set<string>();
  for (const source of sources)
    for (const item of list(source)) {
      const id = idOf(item);
      if (id !== undefined) out.add(id);
    }
  return [...out];
}

/** A value a column can hold: strings and numbers as they are, booleans as 1 or 0, anything else NULL. */
export function scalar(value: unknown): SqlValue {
  if (value === undefined || value === null) return null;
  if (typeof value === 'string' || typeof value === 'number') return value;
  if (typeof value === 'boolean') return value ? 1 : 0;
  return null;
}

/** A string value, or '' for anything else. */
export function text(value: unknown): string {
  return typeof value === 'string' ? value : '';
}

/** One-column rows of ids. */
export const ids = (values: readonly string[]): SqlValue[][] => values.map((v) => [v]);

/** A person's name as `first last` from the shapes records use. */
export function personName(person: unknown): string {
  if (person === null || typeof person !== 'object') return typeof person === 'string' ? person : '';
  const p = person as LooseRecord;
  const first = text(p['first_name']) || text(p['given_name']);
  const last = text(p['last_name']) || text(p['family_name']);
  const full = `${first} ${last}`.trim();
  return full.length > 0 ? full : text(p['name']) || text(p['raw_name']);
}

/** Person names joined with a gap that NEAR groups never span (see NAME_GAP). */
export function joinNames(names: readonly string[]): string {
  return names.filter((n) => n.length > 0).join(NAME_GAP);
}

/** The organizations of people's affiliations (`authors`, `investigators`), as references. */
export function affiliationIds(people: readonly unknown[]): unknown[] {
  const out: unknown[] = [];
  for (const p of people) {
    if (p !== null && typeof p === 'object') {
      const person = p as LooseRecord;
      out.push(...list(person['affiliations']), ...list(person['research_orgs']));
    }
  }
  return out;
}

/**
 * People's affiliation strings as the source prints them (`authors`, `investigators`), for
 * the `raw_affiliations` search indexes: each person's `raw_affiliation` list, and each
 * affiliation's `raw_affiliation`, or its `name` as the record writes it when the person has
 * no printed string (an affiliation known by name alone, as NIH gives its investigators').
 * Empty strings are left out; the caller joins and de-duplicates.
 *
 * @example rawAffiliationTexts([{ affiliations: [{ name: 'Univ. Y', raw_affiliation: 'Dept. X, Univ. Y, Oslo' }] }])
 * // ['Dept. X, Univ. Y, Oslo']
 */
export function rawAffiliationTexts(people: unknown): string[] {
  const texts: string[] = [];
  for (const p of list(people)) {
    if (p === null || typeof p !== 'object') continue;
    const person = p as LooseRecord;
    const printed = list(person['raw_affiliation']).map(text);
    texts.push(...printed);
    for (const a of list(person['affiliations'])) {
      if (a === null || typeof a !== 'object') continue;
      const affiliation = a as LooseRecord;
      texts.push(text(affiliation['raw_affiliation']) || (printed.length === 0 ? text(affiliation['name']) : ''));
    }
  }
  return texts.filter((t) => t !== '');
}

/** The researcher ids of people (`authors`, `investigators`). */
export function personIds(people: readonly unknown[]): unknown[] {
  const out: unknown[] = [];
  for (const p of people) {
    if (p !== null && typeof p === 'object') {
      const person = p as LooseRecord;
      out.push(person['researcher_id'] ?? person['id']);
    }
  }
  return out;
}

/** The concepts a record lists (`concepts`, else the names in `concepts_scores`), for search. */
export function conceptTexts(record: LooseRecord): string[] {
  const out: string[] = [];
  for (const c of list(record['concepts'])) {
    if (typeof c === 'string') out.push(c);
    else if (c !== null && typeof c === 'object')
      out.push(text((c as LooseRecord)['concept']) || text((c as LooseRecord)['name']));
  }
  if (out.length === 0) {
    for (const c of list(record['concepts_scores']))
      if (c !== null && typeof c === 'object') out.push(text((c as LooseRecord)['concept']));
  }
  return out.filter((c) => c.length > 0);
}

/** The concepts a record names, in its scores and in its list (the scores themselves stay in `doc`). */
export function conceptRows(record: LooseRecord): SqlValue[][] {
  const concepts = new Set<string>();
  for (const c of list(record['concepts_scores'])) {
    if (c === null || typeof c !== 'object') continue;
    const concept = text((c as LooseRecord)['concept']);
    if (concept.length > 0) concepts.add(concept);
  }
  for (const c of conceptTexts(record)) concepts.add(c);
  return [...concepts].map((concept) => [concept]);
}

/** The `<owner>_categories` rows of a record: (scheme, category id) of every `category_<scheme>` field, once each. */
export function categoryRows(record: LooseRecord): SqlValue[][] {
  const rows: SqlValue[][] = [];
  const seen = new Set<string>();
  for (const [key, value] of Object.entries(record)) {
    const m = /^category_(.+)$/.exec(key);
    if (m === null) continue;
    const scheme = m[1] as string;
    for (const id of distinctIds(value)) {
      const k = `${scheme}\u0000${id}`;
      if (seen.has(k)) continue;
      seen.add(k);
      rows.push([scheme, id]);
    }
  }
  return rows;
}

/** Named categories a record carries, so the category table can show names without a separate list. */
export function namedCategories(record: LooseRecord): [string, string, string][] {
  const out: [string, string, string][] = [];
  for (const [key, value] of Object.entries(record)) {
    const m = /^category_(.+)$/.exec(key);
    if (m === null) continue;
    for (const item of list(value)) {
      const id = idOf(item);
      const name = item !== null && typeof item === 'object' ? (item as LooseRecord)['name'] : undefined;
      if (id !== undefined && typeof name === 'string') out.push([id, name, m[1] as string]);
    }
  }
  return out;
}

/**
 * The `<owner>_values` rows of a record: (stored code, value) for each value of each field
 * of `codes` (field → stored code), distinct per field, in the order of `codes`. A value
 * that is an object is its id.
 */
export function valueRows(record: LooseRecord, codes: Readonly<Record<string, string>>): SqlValue[][] {
  const rows: SqlValue[][] = [];
  for (const [field, code] of Object.entries(codes)) {
    const seen = new Set<SqlValue>();
    for (const item of list(record[field])) {
      const v = typeof item === 'object' && item !== null ? (idOf(item) ?? null) : scalar(item);
      if (v === null || seen.has(v)) continue;
      seen.add(v);
      rows.push([code, v]);
    }
  }
  return rows;
}
