/**
 * Organization links for the records whose sources name organizations by name only:
 * clinical trials' sponsors and investigators' affiliations, patents' assignees, datasets'
 * and publications' author affiliations without an id (and a publication author's printed
 * affiliation strings when none of the author's affiliations has one). `finish()` matches
 * them against the organizations held (`analytics/affiliations/`) and adds the ids found to
 * the link tables that answer the fields, filters and facets (`research_orgs`, `funders`,
 * `assignees`, `original_assignees`, `current_assignees`), on both engines alike: each store
 * reads the rows by the statements below, this computes, and each store writes.
 *
 * - Only entries without an id from the source are matched, and an id the source gave is
 *   never replaced: a trial's sponsor with an `id`, a patent whose source gave assignee ids,
 *   an affiliation with an `id` are left as they are. A link row the source's ids already
 *   made is not added again (nor recorded as matched).
 * - A name gives a link only when it is one organization's name entire and no other's
 *   (`analytics/affiliations/whole-name.ts`: no answer rather than a doubtful one); a
 *   printed affiliation string gives every organization the matcher finds in it, as
 *   `extract_affiliations` answers.
 * - Order-independent: the writers note every record written or removed of the kinds below
 *   (`LINK_PENDING_TABLE`), and any write of organizations as "all records"
 *   (`ALL_RECORDS_KIND`). `finish()` forgets the links matched for records written since
 *   (their link rows went with the rewrite), and when organizations changed takes back every
 *   link it added before; then it matches those records again. `MATCHED_LINKS_TABLE` keeps
 *   each added row, so nothing stale remains whatever came first.
 * - The matched ids are not written into the record's document: a page shows them through
 *   the link fields (`research_orgs`, `funders`, `assignees`), not in `sponsors[].id` or
 *   `authors[].affiliations[].id`.
 */
import { buildAffiliationIndex, type AffiliationIndex } from '../analytics/affiliations/index.ts';
import { matchAffiliation } from '../analytics/affiliations/match.ts';
import type { MatchableOrganization } from '../analytics/affiliations/organization.ts';
import { fromOrganizationRecord } from '../analytics/affiliations/records.ts';
import { buildWholeNames, matchWholeName, type WholeNames } from '../analytics/affiliations/whole-name.ts';
import { LINK_TABLES, ownerKey, SOURCE_TABLES, valueFieldCode, type RecordKind } from '../model/storage.ts';

/** The kinds whose records name organizations by name. */
export const NAMING_KINDS = ['clinical_trials', 'patents', 'datasets', 'publications'] as const;
export type NamingKind = (typeof NAMING_KINDS)[number];

export const isNamingKind = (kind: RecordKind): kind is NamingKind =>
  (NAMING_KINDS as readonly string[]).includes(kind);

/** Records written or removed since the last `finish()`, `(kind, pk)`; `(organizations, 0)`: every record. */
export const LINK_PENDING_TABLE = 'organization_link_pending';
/** The pending row that asks for every record of every naming kind: organizations changed. */
export const ALL_RECORDS_KIND = 'organizations';
/** Each link row the matcher added: `(kind, pk, link_table, role, org_id)`, role `''` in a table without one. */
export const MATCHED_LINKS_TABLE = 'organization_matched_links';

/** The two tables, created by the records migration "organization links matched by name in finish()". */
export const ORGANIZATION_LINK_TABLES_SQL = {
  sqlite: [
    `CREATE TABLE ${LINK_PENDING_TABLE} (kind TEXT NOT NULL, pk INTEGER NOT NULL, PRIMARY KEY (kind, pk)) WITHOUT ROWID`,
    `CREATE TABLE ${MATCHED_LINKS_TABLE} (kind TEXT NOT NULL, pk INTEGER NOT NULL, link_table TEXT NOT NULL, role TEXT NOT NULL, org_id TEXT NOT NULL, PRIMARY KEY (kind, pk, link_table, role, org_id)) WITHOUT ROWID`,
  ],
  postgres: [
    `CREATE TABLE ${LINK_PENDING_TABLE} (kind text NOT NULL, pk bigint NOT NULL, PRIMARY KEY (kind, pk))`,
    `CREATE TABLE ${MATCHED_LINKS_TABLE} (kind text NOT NULL, pk bigint NOT NULL, link_table text NOT NULL, role text NOT NULL, org_id text NOT NULL, PRIMARY KEY (kind, pk, link_table, role, org_id))`,
  ],
};

export const PENDING_SQL = `SELECT kind, pk FROM ${LINK_PENDING_TABLE}`;
export const CLEAR_PENDING_SQL = `DELETE FROM ${LINK_PENDING_TABLE}`;
/** The links matched for records written or removed since: their link rows went with the write. */
export const FORGET_REWRITTEN_SQL = `DELETE FROM ${MATCHED_LINKS_TABLE} WHERE EXISTS (SELECT 1 FROM ${LINK_PENDING_TABLE} p
  WHERE p.kind = ${MATCHED_LINKS_TABLE}.kind AND p.pk = ${MATCHED_LINKS_TABLE}.pk)`;

/** One link table the matcher fills, with its role (a `patent_assignee_orgs` discriminator) if any. */
interface Target {
  readonly table: string;
  readonly owner: NamingKind;
  readonly role?: string;
}

const TRIAL_RESEARCH_ORGS: Target = { table: 'clinical_trial_research_orgs', owner: 'clinical_trials' };
const TRIAL_FUNDERS: Target = { table: 'clinical_trial_funders', owner: 'clinical_trials' };
const PATENT_ASSIGNEES: Target = { table: 'patent_assignees', owner: 'patents' };
const PATENT_ORIGINAL: Target = { table: 'patent_assignee_orgs', owner: 'patents', role: 'o' };
const PATENT_CURRENT: Target = { table: 'patent_assignee_orgs', owner: 'patents', role: 'c' };
const DATASET_RESEARCH_ORGS: Target = { table: 'dataset_research_orgs', owner: 'datasets' };
const PUBLICATION_RESEARCH_ORGS: Target = { table: 'publication_research_orgs', owner: 'publications' };

/** The link tables matched links go to, each once. */
export const LINKED_TABLES: readonly string[] = [
  ...new Set(
    [
      TRIAL_RESEARCH_ORGS,
      TRIAL_FUNDERS,
      PATENT_ASSIGNEES,
      PATENT_ORIGINAL,
      DATASET_RESEARCH_ORGS,
      PUBLICATION_RESEARCH_ORGS,
    ].map((t) => t.table),
  ),
];

/** One link row to add: `org_id` for the record `pk` in `table` (with `role` where the table has one). */
export interface MatchedLink {
  readonly kind: NamingKind;
  readonly pk: number;
  readonly table: string;
  readonly role: string;
  readonly orgId: string;
}

/** The columns of a link table the matcher writes: the owner's key, the role if any, the id, and the owner's copied columns. */
export function linkColumns(table: string): {
  owner: NamingKind;
  key: string;
  role?: string;
  carried: readonly string[];
} {
  const spec = LINK_TABLES.find((l) => l.table === table);
  if (spec === undefined || !isNamingKind(spec.owner)) throw new Error(`no link table ${table} of a naming kind`);
  const role = spec.key.length > 1 ? spec.key[0]?.name : undefined;
  return {
    owner: spec.owner,
    key: ownerKey(spec.owner),
    ...(role === undefined ? {} : { role }),
    carried: spec.ownerColumns ?? [],
  };
}

/**
 * The statement taking back the rows of `table` the matcher added (when organizations
 * changed): row values, which both engines compare.
 */
export function unlinkMatchedSql(table: string): string {
  const { key, role } = linkColumns(table);
  const mine = role === undefined ? `(${key}, org_id)` : `(${key}, ${role}, org_id)`;
  const held = role === undefined ? 'pk, org_id' : 'pk, role, org_id';
  return `DELETE FROM ${table} WHERE ${mine} IN (SELECT ${held} FROM ${MATCHED_LINKS_TABLE} WHERE link_table = '${table}')`;
}

// ---------------------------------------------------------------------------------------------
// The organizations

/** The organization columns the matcher reads (`records.ts` of the matcher names them as fields). */
export const ORGANIZATION_COLUMNS_SQL = `SELECT pk, id, name, acronym, city_name, state_name, country_code, country_name, status, redirect FROM ${SOURCE_TABLES.organizations.table}`;
const TYPES = valueFieldCode('types');
const ALIASES = valueFieldCode('aliases');
/** Their types and aliases. */
export const ORGANIZATION_VALUES_SQL = `SELECT organization_pk AS pk, field, value FROM organization_values WHERE field IN ('${TYPES}', '${ALIASES}')`;

type Cell = string | number | bigint | null;

/** The organizations of the rows the two statements read. */
export function organizationsFromRows(
  columns: readonly Readonly<Record<string, Cell>>[],
  values: readonly { readonly pk: Cell; readonly field: string; readonly value: Cell }[],
): MatchableOrganization[] {
  const lists = new Map<string, { types: string[]; aliases: string[] }>();
  for (const v of values) {
    const key = String(v.pk);
    let held = lists.get(key);
    if (held === undefined) lists.set(key, (held = { types: [], aliases: [] }));
    (v.field === TYPES ? held.types : held.aliases).push(String(v.value));
  }
  const out: MatchableOrganization[] = [];
  for (const row of columns) {
    const held = lists.get(String(row['pk']));
    const org = fromOrganizationRecord({ ...row, types: held?.types ?? [], aliases: held?.aliases ?? [] });
    if (org !== undefined) out.push(org);
  }
  return out;
}

/** Memoised answers beyond this many strings are dropped (a pass over a million publications). */
const MEMO_LIMIT = 200_000;

/** The matcher over the organizations held, remembering its answer for each string. */
export class OrganizationMatcher {
  readonly index: AffiliationIndex;
  private readonly names: WholeNames;
  private readonly single = new Map<string, MatchableOrganization | null>();
  private readonly every = new Map<string, readonly string[]>();

  constructor(organizations: Iterable<MatchableOrganization>) {
    this.index = buildAffiliationIndex(organizations);
    this.names = buildWholeNames(this.index);
  }

  /** The one organization a name given alone (with its place, when known) stands for; undefined when none or several. */
  one(
    name: string,
    place: { city?: string; state?: string; country?: string } = {},
  ): MatchableOrganization | undefined {
    const key = [name, place.city ?? '', place.state ?? '', place.country ?? ''].join('\u0000');
    let found = this.single.get(key);
    if (found === undefined) {
      found = matchWholeName(this.index, this.names, name, place) ?? null;
      if (this.single.size >= MEMO_LIMIT) this.single.clear();
      this.single.set(key, found);
    }
    return found ?? undefined;
  }

  /** Every organization a printed affiliation string names. */
  all(text: string): readonly string[] {
    let found = this.every.get(text);
    if (found === undefined) {
      found = matchAffiliation(this.index, text).map((m) => m.organization.id);
      if (this.every.size >= MEMO_LIMIT) this.every.clear();
      this.every.set(text, found);
    }
    return found;
  }
}

// ---------------------------------------------------------------------------------------------
// The records

type Loose = Record<string, unknown>;
const objects = (v: unknown): Loose[] =>
  Array.isArray(v) ? v.filter((x): x is Loose => x !== null && typeof x === 'object' && !Array.isArray(x)) : [];
const str = (v: unknown): string | undefined => (typeof v === 'string' && v.trim() !== '' ? v : undefined);
const strings = (v: unknown): string[] =>
  Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string' && x.trim() !== '') : [];

/** A structured affiliation's place, as the matcher takes it. */
function placeOf(affiliation: Loose): { city?: string; state?: string; country?: string } {
  const city = str(affiliation['city']);
  const state = str(affiliation['state']);
  const country = str(affiliation['country']) ?? str(affiliation['country_code']);
  return {
    ...(city === undefined ? {} : { city }),
    ...(state === undefined ? {} : { state }),
    ...(country === undefined ? {} : { country }),
  };
}

/** The ids of the affiliations of `people` that have no id, one organization each. */
function affiliationMatches(people: readonly Loose[], matcher: OrganizationMatcher, printed: boolean): string[] {
  const out: string[] = [];
  for (const person of people) {
    const affiliations = objects(person['affiliations']);
    let identified = false;
    for (const affiliation of affiliations) {
      if (str(affiliation['id']) !== undefined) {
        identified = true;
        continue;
      }
      const name = str(affiliation['name']);
      if (name === undefined) continue;
      const org = matcher.one(name, placeOf(affiliation));
      if (org !== undefined) out.push(org.id);
    }
    // The printed strings of an author none of whose affiliations the source identified.
    if (printed && !identified) for (const text of strings(person['raw_affiliation'])) out.push(...matcher.all(text));
  }
  return out;
}

/** Agency classes of ClinicalTrials.gov whose sponsors fund the trial (LAYOUT.md, "Organizations"). */
const FUNDING_CLASSES: ReadonlySet<string> = new Set(['NIH', 'FED', 'OTHER_GOV']);

/** Agency classes of US federal sponsors. */
const US_CLASSES: ReadonlySet<string> = new Set(['NIH', 'FED']);

const isFunder = (org: MatchableOrganization): boolean => org.types.some((t) => t.toLowerCase() === 'funder');

/** A record as the store reads it for matching: its document, and for patents its names and whether its source gave assignee ids. */
export interface NamingRecord {
  readonly pk: number;
  readonly doc?: string;
  readonly names?: readonly { readonly field: string; readonly value: string }[];
  /** The roles of the assignee link rows the source gave (`''` for `patent_assignees`). */
  readonly assigneeRows?: ReadonlySet<string>;
}

const ASSIGNEE_NAMES = valueFieldCode('assignee_names');
const ORIGINAL_NAMES = valueFieldCode('original_assignee_names');
const CURRENT_NAMES = valueFieldCode('current_assignee_names');

/** The link rows the matcher gives one record of `kind`, each once. */
export function linksOf(kind: NamingKind, record: NamingRecord, matcher: OrganizationMatcher): MatchedLink[] {
  const out = new Map<string, MatchedLink>();
  const add = (target: Target, orgId: string): void => {
    const role = target.role ?? '';
    const key = `${target.table}\u0000${role}\u0000${orgId}`;
    if (!out.has(key)) out.set(key, { kind, pk: record.pk, table: target.table, role, orgId });
  };
  const doc = record.doc === undefined ? {} : (JSON.parse(record.doc) as Loose);
  switch (kind) {
    case 'clinical_trials': {
      for (const sponsor of objects(doc['sponsors'])) {
        const name = str(sponsor['name']);
        if (name === undefined || str(sponsor['id']) !== undefined) continue;
        // NIH and other federal sponsors are agencies of the United States.
        const org = matcher.one(name, US_CLASSES.has(String(sponsor['class'])) ? { country: 'US' } : {});
        if (org === undefined) continue;
        add(TRIAL_RESEARCH_ORGS, org.id);
        if (isFunder(org) || FUNDING_CLASSES.has(String(sponsor['class']))) add(TRIAL_FUNDERS, org.id);
      }
      for (const id of affiliationMatches(objects(doc['investigators']), matcher, false)) add(TRIAL_RESEARCH_ORGS, id);
      break;
    }
    case 'patents': {
      // A patent whose source gave assignee ids keeps them as they are.
      if ((record.assigneeRows?.size ?? 0) > 0) break;
      for (const { field, value } of record.names ?? []) {
        const org = matcher.one(value);
        if (org === undefined) continue;
        add(PATENT_ASSIGNEES, org.id);
        if (field === ORIGINAL_NAMES) add(PATENT_ORIGINAL, org.id);
        if (field === CURRENT_NAMES) add(PATENT_CURRENT, org.id);
      }
      break;
    }
    case 'datasets':
      for (const id of affiliationMatches(objects(doc['authors']), matcher, false)) add(DATASET_RESEARCH_ORGS, id);
      break;
    case 'publications':
      for (const id of affiliationMatches(objects(doc['authors']), matcher, true)) add(PUBLICATION_RESEARCH_ORGS, id);
      break;
  }
  return [...out.values()];
}

/** The statements that read a batch of records of `kind` for matching, given how the engine reads a document and binds a list of pks. */
export function namingRecordsSql(
  kind: NamingKind,
  { docText, inPks }: { readonly docText: (column: string) => string; readonly inPks: string },
): { docs?: string; names?: string; assignees?: string } {
  const table = SOURCE_TABLES[kind].table;
  if (kind !== 'patents') return { docs: `SELECT pk, ${docText('doc')} AS doc FROM ${table} WHERE pk ${inPks}` };
  const key = ownerKey('patents');
  return {
    names: `SELECT ${key} AS pk, field, value FROM patent_values WHERE field IN ('${ASSIGNEE_NAMES}', '${ORIGINAL_NAMES}', '${CURRENT_NAMES}') AND ${key} ${inPks}`,
    assignees: `SELECT ${key} AS pk, '' AS role FROM patent_assignees WHERE ${key} ${inPks}
      UNION ALL SELECT ${key} AS pk, role FROM patent_assignee_orgs WHERE ${key} ${inPks}`,
  };
}

/** The records of a batch from the rows of `namingRecordsSql`. */
export function namingRecordsFromRows(
  pks: readonly number[],
  rows: {
    readonly docs?: readonly { readonly pk: Cell; readonly doc: string | null }[] | undefined;
    readonly names?: readonly { readonly pk: Cell; readonly field: string; readonly value: Cell }[] | undefined;
    readonly assignees?: readonly { readonly pk: Cell; readonly role: string }[] | undefined;
  },
): NamingRecord[] {
  const byPk = new Map<
    number,
    { pk: number; doc?: string; names: { field: string; value: string }[]; assigneeRows: Set<string> }
  >();
  const of = (
    pk: Cell,
  ): { pk: number; doc?: string; names: { field: string; value: string }[]; assigneeRows: Set<string> } => {
    const n = Number(pk);
    let held = byPk.get(n);
    if (held === undefined) byPk.set(n, (held = { pk: n, names: [], assigneeRows: new Set() }));
    return held;
  };
  for (const pk of pks) of(pk);
  for (const row of rows.docs ?? []) if (row.doc !== null) of(row.pk).doc = row.doc;
  for (const row of rows.names ?? []) of(row.pk).names.push({ field: row.field, value: String(row.value) });
  for (const row of rows.assignees ?? []) of(row.pk).assigneeRows.add(row.role);
  return [...byPk.values()];
}

/** Records read per batch when matching. */
export const MATCH_BATCH = 2000;

/** What one linking pass did, for `finish()`'s report. */
export interface LinkingReport {
  /** Records matched (read). */
  readonly records: number;
  /** Link rows added. */
  readonly links: number;
  /** Whether every record was matched (organizations changed) rather than those written since. */
  readonly all: boolean;
}
