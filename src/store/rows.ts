/**
 * Turns a native record (`model/native-records.ts`) into the rows the layout holds: its scalar columns,
 * its `doc` JSON (every other field, as the record has it), its link-table rows and its
 * full-text column texts. What is particular to a source (which rows each link table gets,
 * the full-text texts, columns a record spells otherwise) is in its declaration's row hooks
 * (`SourceRows`, `src/sources/<name>/model.ts`); the rest is the same for every source.
 * Dialect-neutral: both the SQLite and a PostgreSQL writer use it.
 */
import { idOf, namedCategories, scalar, type LooseRecord as Loose, type SqlValue } from '../model/record-values.ts';
import { DECLARED_SOURCES, declaredSource } from '../model/sources.ts';
import { LINK_TABLES, SOURCE_TABLES, type RecordKind } from '../model/storage.ts';

export type { SqlValue } from '../model/record-values.ts';

/** Everything the store writes for one record. */
export interface RecordRows {
  readonly id: string;
  /** Values of `SOURCE_TABLES[kind].columns`, in that order. */
  readonly columns: readonly SqlValue[];
  readonly doc: string;
  /** Link table name -> rows of (key columns..., extra columns...) without the owner pk. */
  readonly links: ReadonlyMap<string, readonly (readonly SqlValue[])[]>;
  /** Texts of the kind's FTS columns, in order; absent when the kind has no full-text table. */
  readonly fullText?: readonly string[];
  /** Journals named by a publication (`journal: {id, title}`), kept in source_titles so facets can show titles. */
  readonly journals?: readonly (readonly [string, string | null])[];
  /** Categories named with a name (`category_for: [{id, name}]`): (id, name, scheme). */
  readonly categories?: readonly (readonly [string, string, string])[];
}

/** Per kind, the fields never copied to `doc` (`SourceRows.notInDoc`: held only in a link table). */
const NOT_IN_DOC = new Map<RecordKind, ReadonlySet<string>>(
  DECLARED_SOURCES.map((source) => [source.name as RecordKind, new Set(source.rows.notInDoc ?? [])]),
);

/** Link table name → its rows, for every link table of the kind (a re-import clears old rows with empty ones). */
function linksFor(kind: RecordKind, record: Loose): Map<string, SqlValue[][]> {
  const links = new Map<string, SqlValue[][]>();
  const source = declaredSource(kind);
  if (source === undefined) return links;
  const rows = source.rows.links(record);
  for (const link of source.storage.links) links.set(link.table, rows[link.table] ?? []);
  return links;
}

/** The texts of the kind's full-text columns, in order; undefined when it has no full-text table. */
function fullTextFor(kind: RecordKind, record: Loose): string[] | undefined {
  const source = declaredSource(kind);
  return source?.storage.fullText === undefined ? undefined : source.rows.fullText?.(record);
}

/** Column values in layout order, with the few that records spell otherwise (`SourceRows.columnFallbacks`). */
function columnsFor(kind: RecordKind, record: Loose): SqlValue[] {
  const spec = SOURCE_TABLES[kind];
  const fallbacks = declaredSource(kind)?.rows.columnFallbacks;
  return spec.columns.map((c) => {
    let v: unknown = record[c.name];
    if (v === undefined) v = fallbacks?.[c.name]?.(record);
    const value = scalar(v);
    if (value !== null && c.type === 'integer' && typeof value === 'string') {
      const n = Number(value);
      return Number.isFinite(n) ? n : value;
    }
    return value;
  });
}

/** Per kind, the scalar column names (fields with a column are not repeated in `doc`). */
const COLUMN_NAMES = new Map<RecordKind, ReadonlySet<string>>(
  (Object.keys(SOURCE_TABLES) as RecordKind[]).map((k) => [k, new Set(SOURCE_TABLES[k].columns.map((c) => c.name))]),
);

/** Per kind, its link tables with the field each holds, or how their rows tell their fields apart. */
const LINKS_BY_KIND = new Map<
  RecordKind,
  readonly {
    readonly table: string;
    readonly field?: string;
    readonly discriminated?: { readonly at: number; readonly fields: ReadonlyMap<string, string> };
  }[]
>(
  (Object.keys(SOURCE_TABLES) as RecordKind[]).map((kind) => [
    kind,
    LINK_TABLES.filter((l) => l.owner === kind).map((l) => {
      const holds = l.holds;
      if ('field' in holds) return { table: l.table, field: holds.field };
      const at = l.key.findIndex((c) => c.name === holds.discriminator);
      const fields = new Map(Object.entries(holds.fields).map(([field, value]) => [value, field]));
      return { table: l.table, discriminated: { at, fields } };
    }),
  ]),
);

/** Per kind, its single-entity fields kept as an id column (`current_research_org` → `current_research_org_id`). */
const ENTITY_COLUMNS_BY_KIND = new Map<RecordKind, readonly (readonly [field: string, column: string])[]>(
  (Object.keys(SOURCE_TABLES) as RecordKind[]).map((kind) => [
    kind,
    Object.entries(SOURCE_TABLES[kind].entityColumns ?? {}).map(([field, { column }]) => [field, column] as const),
  ]),
);

/**
 * The fields of a record that a page will show from its link rows rather than from `doc`:
 * each field a link table holds (`research_orgs`, `category_for`, `open_access`) for which the
 * record has at least one row. A page reads these through their links (`compile/records.ts`,
 * hydrate), which replace whatever `doc` holds, and filters and facets read the links too, so
 * a copy in `doc` would never be read: at 1M publications the copies took ~105 packed bytes
 * a publication and ~60 bytes a researcher. A field without link rows stays in `doc`, so a
 * page shows the record's own value (`funders: []`) exactly as before.
 */
function shownFromLinks(kind: RecordKind, links: ReadonlyMap<string, readonly (readonly SqlValue[])[]>): Set<string> {
  const shown = new Set<string>();
  for (const { table, field, discriminated } of LINKS_BY_KIND.get(kind) ?? []) {
    const rows = links.get(table) ?? [];
    if (field !== undefined && rows.length > 0) shown.add(field);
    // Several fields told apart by a key column (`field`, `scheme`): the fields whose rows are here.
    if (discriminated !== undefined)
      for (const row of rows) {
        const held = discriminated.fields.get(row[discriminated.at] as string);
        if (held !== undefined) shown.add(held);
      }
  }
  return shown;
}

function docFor(kind: RecordKind, record: Loose, shownElsewhere: ReadonlySet<string>): string {
  const skip = NOT_IN_DOC.get(kind);
  const columns = COLUMN_NAMES.get(kind);
  const doc: Record<string, unknown> = {};
  for (const key in record) {
    const value = record[key];
    if (key === 'id' || value === undefined || value === null) continue;
    if (typeof value !== 'object' && columns?.has(key) === true) continue;
    if (skip?.has(key) === true || shownElsewhere.has(key)) continue;
    doc[key] = value;
  }
  return JSON.stringify(doc);
}

/**
 * The rows of one record. Throws a plain Error for a record without an id (the importer
 * validates records first and reports them with its own codes).
 *
 * @example recordToRows('publications', { id: 'pub.1', title: 'T', research_orgs: ['grid.1'] })
 *   // { id: 'pub.1', columns: ['T', null, ...], links: Map { 'publication_research_orgs' => [['grid.1']], ... }, ... }
 */
export function recordToRows(kind: RecordKind, record: object): RecordRows {
  const r = record as Loose;
  const id = idOf(r['id']);
  if (id === undefined) throw new Error(`a ${kind} record has no id`);
  const fullText = fullTextFor(kind, r);
  const rowHooks = declaredSource(kind)?.rows;
  const categories = rowHooks?.namedCategories === true ? namedCategories(r) : [];
  const journal = rowHooks?.journal === true ? r['journal'] : undefined;
  const journalId = idOf(journal);
  const journalTitle = journal !== null && typeof journal === 'object' ? (journal as Loose)['title'] : undefined;
  const links = linksFor(kind, r);
  const shownElsewhere = shownFromLinks(kind, links);
  // An entity named by its id alone and kept in a column (`current_research_org`): a page shows
  // the entity, or that id when the entity is not held, so `doc` needs no copy. Nor does a
  // publication's `journal` object: its row in `source_titles` is written with it.
  for (const [field, column] of ENTITY_COLUMNS_BY_KIND.get(kind) ?? []) {
    const value = r[field];
    if (typeof value === 'string' && value !== '' && (r[column] ?? value) === value) shownElsewhere.add(field);
  }
  if (journalId !== undefined) shownElsewhere.add('journal');
  return {
    id,
    columns: columnsFor(kind, r),
    doc: docFor(kind, r, shownElsewhere),
    links,
    ...(fullText === undefined ? {} : { fullText }),
    ...(journalId === undefined
      ? {}
      : { journals: [[journalId, typeof journalTitle === 'string' ? journalTitle : null]] }),
    ...(categories.length === 0 ? {} : { categories }),
  };
}
