/**
 * One title from several lists: `finish()` first merges the source titles that share an ISSN
 * (written `NNNN-NNNX`, as the importers write them: `sources/source_titles/issn.ts`), on
 * both engines alike: each store reads the titles with an ISSN by the statements below
 * (lookups of the indexes on ISSN), this computes, and each store writes the merged records
 * and removes the others through its own record writes.
 *
 * - Which record survives: the one publications link to, an OpenAlex source (`S…`) or any
 *   other id that is no list's key (`jour.…` generated, `issn:…`); otherwise the first in the
 *   order Crossref (`crossref:…`), DOAJ (`doaj:…`), then by id. Two records of the first kind
 *   are never merged with each other (publications link to both): a list title whose ISSNs
 *   name several joins the smallest id.
 * - `journal_lists` and `issn` are the unions (sorted); `start_year` the earliest; every
 *   other field empty in the survivor is filled from the merged records in the same order.
 * - The merged records are removed; `source_title_merges` keeps each one's record as its list
 *   gave it, and the survivor's own, so a later import of any of them (in any order, or
 *   again) merges into the same title: the result depends on the latest record of each list.
 *
 * Linear in the titles read: ISSNs are looked up in maps, never compared pairwise.
 */
import { SOURCE_TABLES, valueFieldCode } from '../model/storage.ts';

/**
 * What the last merge kept (`HeldMerge`): every title of a group, with the record its list
 * gave, so that a later import of any of them, in any order, merges the same. Created by
 * the source's records migration "what the merge of titles several lists share keeps".
 */
export const MERGES_TABLE = 'source_title_merges';
export const MERGES_TABLE_SQL = {
  sqlite: `CREATE TABLE ${MERGES_TABLE} (id TEXT PRIMARY KEY, into_id TEXT NOT NULL, record TEXT NOT NULL, merged TEXT) WITHOUT ROWID`,
  postgres: `CREATE TABLE ${MERGES_TABLE} (id text PRIMARY KEY, into_id text NOT NULL, record text NOT NULL, merged text)`,
};
export const HELD_MERGES_SQL = `SELECT id, into_id, record, merged FROM ${MERGES_TABLE}`;

/**
 * A source title as the merge reads and writes it: the native record of
 * `sources/source_titles/native.ts` (the store may not import a source's module).
 */
export interface SourceTitleRecord {
  readonly id: string;
  readonly title: string;
  readonly type?: string;
  readonly issn?: readonly string[];
  readonly issn_print?: string;
  readonly issn_electronic?: string;
  readonly journal_lists?: readonly string[];
  readonly linkout?: string;
  readonly start_year?: number;
  readonly sjr?: number;
  readonly snip?: number;
  readonly publisher?: string;
}

/** A record's rank: 0 for those publications link to, then Crossref's, then DOAJ's. */
export function titleRank(id: string): number {
  if (id.startsWith('crossref:')) return 1;
  if (id.startsWith('doaj:')) return 2;
  return 0;
}

const before = (a: SourceTitleRecord, b: SourceTitleRecord): number =>
  titleRank(a.id) - titleRank(b.id) || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);

const FILLED = [
  'title',
  'type',
  'issn_print',
  'issn_electronic',
  'linkout',
  'publisher',
  'sjr',
  'snip',
] as const satisfies readonly (keyof SourceTitleRecord)[];

/** The merged record of `group`, its survivor first and the others in preference order. */
export function mergedTitle(group: readonly SourceTitleRecord[]): SourceTitleRecord {
  const [survivor, ...others] = group;
  if (survivor === undefined) throw new Error('an empty group of source titles');
  const merged: Record<string, unknown> = { ...survivor };
  for (const field of FILLED)
    if (merged[field] === undefined || merged[field] === '') {
      const value = others.map((o) => o[field]).find((v) => v !== undefined && v !== '');
      if (value !== undefined) merged[field] = value;
    }
  const issn = [...new Set(group.flatMap((t) => t.issn ?? []))].sort();
  if (issn.length > 0) merged['issn'] = issn;
  const lists = [...new Set(group.flatMap((t) => t.journal_lists ?? []))].sort();
  if (lists.length > 0) merged['journal_lists'] = lists;
  const years = group.flatMap((t) => (t.start_year === undefined ? [] : [t.start_year]));
  if (years.length > 0) merged['start_year'] = Math.min(...years);
  return merged as unknown as SourceTitleRecord;
}

/** A record's ISSNs: its list and its print and electronic ones. */
const issnsOf = (t: SourceTitleRecord): string[] =>
  [...new Set([...(t.issn ?? []), t.issn_print, t.issn_electronic])].filter((v): v is string => v !== undefined);

/** JSON with its keys sorted, to compare records whatever order their keys came in. */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) =>
    v !== null && typeof v === 'object' && !Array.isArray(v)
      ? Object.fromEntries(Object.entries(v as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : 1)))
      : v,
  );
}

/** The groups of `titles` that share an ISSN, each its survivor first and the others in preference order. */
export function titleGroups(titles: readonly SourceTitleRecord[]): SourceTitleRecord[][] {
  const sorted = [...titles].sort(before);
  // The records publications link to, by each ISSN (the first in order when several name it).
  const anchorOf = new Map<string, number>();
  // Union-find over the list titles (Crossref, DOAJ), joined by a shared ISSN.
  const parent = sorted.map((_, k) => k);
  const find = (k: number): number => {
    while (parent[k] !== k) {
      parent[k] = parent[parent[k]!]!;
      k = parent[k]!;
    }
    return k;
  };
  const listTitleOf = new Map<string, number>();
  sorted.forEach((t, k) => {
    for (const issn of issnsOf(t)) {
      if (titleRank(t.id) === 0) {
        if (!anchorOf.has(issn)) anchorOf.set(issn, k);
        continue;
      }
      const other = listTitleOf.get(issn);
      if (other === undefined) listTitleOf.set(issn, k);
      else {
        const [a, b] = [find(other), find(k)];
        // The root is the smaller index: the first in preference order.
        if (a !== b) parent[Math.max(a, b)] = Math.min(a, b);
      }
    }
  });
  // Each group of list titles joins the anchor its ISSNs name first, else stays under its root.
  const anchorOfRoot = new Map<number, number>();
  sorted.forEach((t, k) => {
    if (titleRank(t.id) === 0) return;
    const root = find(k);
    for (const issn of issnsOf(t)) {
      const anchor = anchorOf.get(issn);
      const held = anchorOfRoot.get(root);
      if (anchor !== undefined && (held === undefined || anchor < held)) anchorOfRoot.set(root, anchor);
    }
  });
  const groups = new Map<number, number[]>();
  sorted.forEach((t, k) => {
    const into = titleRank(t.id) === 0 ? k : (anchorOfRoot.get(find(k)) ?? find(k));
    const members = groups.get(into);
    if (members === undefined) groups.set(into, [k]);
    else members.push(k);
  });
  return [...groups].map(([into, members]) => [
    sorted[into]!,
    ...members
      .filter((k) => k !== into)
      .sort((a, b) => a - b)
      .map((k) => sorted[k]!),
  ]);
}

/**
 * What the stores keep of a merge (`source_title_merges`): the record of each title of a
 * group as its list gave it (`record`, JSON), the id it became part of (`into_id`, its own for
 * the survivor), and for the survivor the merged record written (`merged`): a survivor's row
 * that still holds it was not imported since, and its own record is `record`.
 */
export interface HeldMerge {
  readonly id: string;
  readonly into_id: string;
  readonly record: string;
  readonly merged: string | null;
}

export interface TitleMergePlan {
  /** The records to write: merged survivors, and titles whose group came apart, as their lists gave them. */
  readonly upserts: readonly SourceTitleRecord[];
  /** The ids of the rows merged away. */
  readonly removals: readonly string[];
  /** What `source_title_merges` holds after it. */
  readonly merges: readonly HeldMerge[];
}

/**
 * The merge of `rows` (the titles held with an ISSN) given what the last one kept (`held`):
 * computed from each title's own record, so the result depends only on the latest record
 * of each list, not on the order they came in or how often.
 */
export function planTitleMerge(rows: readonly SourceTitleRecord[], held: readonly HeldMerge[]): TitleMergePlan {
  const heldById = new Map(held.map((h) => [h.id, h]));
  const present = new Map<string, SourceTitleRecord>();
  const own: SourceTitleRecord[] = [];
  for (const row of rows) {
    present.set(row.id, row);
    const h = heldById.get(row.id);
    // A survivor not imported since keeps its own record in `held`; any other row is as imported.
    own.push(
      h !== undefined && h.into_id === h.id && h.merged === canonicalJson(row)
        ? (JSON.parse(h.record) as SourceTitleRecord)
        : row,
    );
  }
  // The titles merged away (their rows are gone); a survivor no longer held was removed.
  for (const h of held)
    if (!present.has(h.id) && h.into_id !== h.id) own.push(JSON.parse(h.record) as SourceTitleRecord);
  const upserts: SourceTitleRecord[] = [];
  const removals: string[] = [];
  const merges: HeldMerge[] = [];
  for (const group of titleGroups(own)) {
    const [survivor] = group;
    const written = group.length === 1 ? survivor! : mergedTitle(group);
    const current = present.get(written.id);
    if (current === undefined || canonicalJson(current) !== canonicalJson(written)) upserts.push(written);
    if (group.length === 1) continue;
    merges.push({
      id: written.id,
      into_id: written.id,
      record: canonicalJson(survivor),
      merged: canonicalJson(written),
    });
    for (const t of group.slice(1)) {
      if (present.has(t.id)) removals.push(t.id);
      merges.push({ id: t.id, into_id: written.id, record: canonicalJson(t), merged: null });
    }
  }
  return { upserts, removals, merges };
}

const titles = SOURCE_TABLES.source_titles.table;
const ISSN = valueFieldCode('issn');
const LISTS = valueFieldCode('journal_lists');

/** The pks of the titles with an ISSN (print, electronic or listed). */
const WITH_ISSN = `SELECT pk FROM ${titles} WHERE issn_print IS NOT NULL
  UNION SELECT pk FROM ${titles} WHERE issn_electronic IS NOT NULL
  UNION SELECT source_title_pk FROM source_title_values WHERE field = '${ISSN}'`;

/** The record columns of those titles. */
export const TITLE_COLUMNS_SQL = `SELECT pk, id, title, type, issn_print, issn_electronic, linkout, start_year, sjr, snip, publisher
  FROM ${titles} WHERE pk IN (${WITH_ISSN})`;

/** Their ISSNs and lists. */
export const TITLE_VALUES_SQL = `SELECT source_title_pk AS pk, field, value FROM source_title_values
  WHERE field IN ('${ISSN}', '${LISTS}') AND source_title_pk IN (${WITH_ISSN})`;

type Cell = string | number | bigint | null;

/** The records of the rows read by the two statements; the lists sorted. */
export function titlesFromRows(
  columns: readonly Readonly<Record<string, Cell>>[],
  values: readonly { readonly pk: Cell; readonly field: string; readonly value: string }[],
): SourceTitleRecord[] {
  const lists = new Map<string, { issn: string[]; journal_lists: string[] }>();
  for (const v of values) {
    const key = String(v.pk);
    let held = lists.get(key);
    if (held === undefined) lists.set(key, (held = { issn: [], journal_lists: [] }));
    (v.field === ISSN ? held.issn : held.journal_lists).push(v.value);
  }
  return columns.map((row) => {
    const record: Record<string, unknown> = {};
    for (const [name, value] of Object.entries(row)) {
      if (name === 'pk' || value === null || value === undefined) continue;
      record[name] = name === 'start_year' || name === 'sjr' || name === 'snip' ? Number(value) : value;
    }
    const held = lists.get(String(row['pk']));
    if (held !== undefined && held.issn.length > 0) record['issn'] = [...held.issn].sort();
    if (held !== undefined && held.journal_lists.length > 0) record['journal_lists'] = [...held.journal_lists].sort();
    return record as unknown as SourceTitleRecord;
  });
}

/**
 * Publications' `issn` and `journal_lists` are their journal's: `finish()` adds the journal's
 * to each publication's values (the field codes are the same in both tables), beside those
 * its own record gave, so a filter or facet on them finds the publications of a journal that
 * a list names. Values a journal lost are not taken back until the publication is written
 * again. One statement both engines run as written.
 */
export const PUBLICATION_JOURNAL_VALUES_SQL = `INSERT INTO publication_values (publication_pk, field, value)
  SELECT DISTINCT p.pk, v.field, v.value
  FROM source_title_values v
  JOIN ${titles} s ON s.pk = v.source_title_pk
  JOIN publications p ON p.journal_id = s.id
  WHERE v.field IN ('${ISSN}', '${LISTS}')
    AND NOT EXISTS (SELECT 1 FROM publication_values x WHERE x.publication_pk = p.pk AND x.field = v.field AND x.value = v.value)`;
