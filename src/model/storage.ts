/**
 * The storage layout of the records, as data: every table, column, link table, full-text
 * column and search index, and which schema field each of them holds. Each source declares
 * its own (`src/sources/<name>/model.ts`); this module gathers them from the registry
 * (`model/sources.ts`) with the tables that belong to no source. The store's migrations and writers (SQLite and PostgreSQL) build their DDL and rows from
 * it, and the compiler derives its view of the tables from it (`compile/records-layout.ts`),
 * so the two cannot drift apart. Published names never change: add, never rename.
 * `docs/storage.md` explains why the layout is shaped this way.
 */
import { RETIRED_VALUE_FIELD_CODES, i, r, t } from './layout-parts.ts';
import type { NativeKind } from './native-records.ts';
import { DECLARED_SOURCES, RECORD_KINDS, SOURCE_MODULES, type SourceName } from './sources.ts';
import type {
  ColumnSpec,
  FullTextDecl,
  InternedValues,
  LinkTableDecl,
  PostingListsSpec,
  SourceTableDecl,
} from './storage-types.ts';
import type { EntityName } from './types.ts';

export type {
  ColumnSpec,
  ColumnType,
  EntityColumnSpec,
  InternedValues,
  LinkHolds,
  LinkTableDecl,
  NarrowTableSpec,
  PerYearTablesSpec,
  PostingListsSpec,
  FullTextDecl,
  SourceTableDecl,
} from './storage-types.ts';
export { CATEGORY_SCHEMES } from './layout-parts.ts';
export { NAME_GAP, NAME_GAP_TOKENS } from './record-values.ts';

/** The sources (and entity lists) that have their own table: the native record kinds. */
export type RecordKind = NativeKind;

export { RECORD_KINDS };

/** A link table as its source declares it (`LinkTableDecl`), with the owning source. */
export interface LinkTableSpec extends LinkTableDecl {
  /** The owning source. */
  readonly owner: RecordKind;
}

/** A source table as its source declares it (`SourceTableDecl`), with its kind. */
export interface SourceTableSpec extends SourceTableDecl {
  readonly kind: RecordKind;
}

/** A full-text table as its source declares it (`FullTextDecl`), with the owning source. */
export interface FullTextSpec extends FullTextDecl {
  readonly owner: RecordKind;
}

/** Every full-text column of a source, in the order its `rows.fullText` hook gives the texts. */
export function fullTextColumns(spec: FullTextDecl): readonly string[] {
  return [...spec.columns, ...(spec.apart?.columns ?? [])];
}

/** The FTS5 tables of a source's full text: its table, then the one of the columns kept apart. */
export function fullTextTables(
  spec: FullTextDecl,
): readonly { readonly table: string; readonly columns: readonly string[] }[] {
  return [{ table: spec.table, columns: spec.columns }, ...(spec.apart === undefined ? [] : [spec.apart])];
}

/** The sources' tables (`SourceStorage.table`), each with its kind. */
const DECLARED_TABLES = Object.fromEntries(
  DECLARED_SOURCES.map((source) => [source.name, { kind: source.name as RecordKind, ...source.storage.table }]),
) as Readonly<Record<SourceName, SourceTableSpec>>;

/** Every table of records: the sources', then those of the record kinds that are no source. */
export const SOURCE_TABLES: Readonly<Record<RecordKind, SourceTableSpec>> = {
  ...DECLARED_TABLES,
  categories: {
    kind: 'categories',
    table: 'categories',
    columns: [t('name'), t('scheme'), t('code')],
    indexes: [['scheme', 'name']],
  },
  // SJR and SNIP of an ISSN in a year (`TitleMetricRecord`), as a title-metrics file gives them.
  title_metrics: {
    kind: 'title_metrics',
    table: 'title_metrics',
    columns: [t('issn'), i('year'), r('sjr'), r('snip')],
    indexes: [['issn', 'year']],
  },
};

/**
 * Currencies whose grant amounts have a column of their own (`USD` → `funding_usd`): the
 * whole-corpus funding totals (`funding_by_year`) hold these; another currency's amount is
 * read from the grant's document.
 */
export const CORPUS_CURRENCIES: ReadonlyArray<{ readonly currency: string; readonly column: string }> =
  SOURCE_TABLES.grants.columns.flatMap((c) => {
    const code = /^funding_([a-z]{3})$/.exec(c.name)?.[1];
    return code === undefined || c.type !== 'real' ? [] : [{ currency: code.toUpperCase(), column: c.name }];
  });

/**
 * The code each field of an `<owner>_values` table is stored under (its `field` column),
 * instead of its name: the name would be repeated in every row and again in the reverse
 * index, 20-odd bytes twice over for rows whose value is often shorter (16M derived rows at
 * 1M publications). Codes are in stored data: append new fields, never change or reuse a code.
 * Each source declares the codes of its fields (`SourceStorage.valueFieldCodes`); with the
 * codes no longer written (`RETIRED_VALUE_FIELD_CODES`), in the order of the codes.
 */
export const VALUE_FIELD_CODES: Readonly<Record<string, string>> = (() => {
  const codes = new Map<string, string>();
  const fields = new Map<string, string>();
  const declared = [
    ...Object.entries(RETIRED_VALUE_FIELD_CODES),
    ...DECLARED_SOURCES.flatMap((source) => Object.entries(source.storage.valueFieldCodes ?? {})),
  ];
  for (const [field, code] of declared) {
    // One code per field, one field per code, whichever sources declare them.
    if ((codes.get(field) ?? code) !== code || (fields.get(code) ?? field) !== field)
      throw new Error(`values field ${field} and code ${code} clash with another declaration`);
    codes.set(field, code);
    fields.set(code, field);
  }
  return Object.fromEntries([...codes].sort(([, a], [, b]) => Number(a) - Number(b)));
})();

/** The stored code of a `<owner>_values` field (`VALUE_FIELD_CODES`). */
export function valueFieldCode(field: string): string {
  const code = VALUE_FIELD_CODES[field];
  if (code === undefined) throw new Error(`no stored code for the values field ${field}`);
  return code;
}

/** Every link table. Names follow `<owner singular>_<what>`. */
export const LINK_TABLES: readonly LinkTableSpec[] = DECLARED_SOURCES.flatMap((source) =>
  // The owner second, as the layout always listed it (`{ table, owner, key, ... }`).
  source.storage.links.map(({ table, ...link }) => ({ table, owner: source.name as RecordKind, ...link })),
);

/**
 * Entity kinds with a table of their own (a facet row or an entity field shows columns of
 * it); the place tables are filled by `finish()` from the organizations, the named entity
 * tables (`repositories`) from the records naming them. Kinds not listed (`open_access`,
 * `publication_links`) have no table.
 */
export const ENTITY_TABLES: Readonly<Partial<Record<EntityName, { readonly table: string }>>> = {
  organizations: { table: 'organizations' },
  researchers: { table: 'researchers' },
  categories: { table: 'categories' },
  // A publication's `journal` ({id, title}) and its `source_title` are both rows of source_titles.
  journals: { table: 'source_titles' },
  source_titles: { table: 'source_titles' },
  countries: { table: 'countries' },
  cities: { table: 'cities' },
  states: { table: 'states' },
  ...Object.fromEntries(namedEntityTables().map((named) => [named.entity, { table: named.table }])),
};

/** Display names of places, derived by `finish()`: (id, name[, country_code]). */
export type PlaceTable = 'countries' | 'cities' | 'states';
export const PLACE_TABLES: Readonly<Record<PlaceTable, readonly ColumnSpec[]>> = {
  countries: [t('name')],
  cities: [t('name'), t('country_code')],
  states: [t('name'), t('country_code')],
};

/**
 * A table of an entity kind no source holds records of, which a source's records name with
 * its display fields (`SourceTableDecl.namedEntities`): `(id, columns...)`, filled by
 * `finish()` from the source's columns as the places are from the organizations.
 */
export interface NamedEntityTableSpec {
  readonly entity: EntityName;
  /** Named as the entity kind. */
  readonly table: string;
  /** Its display columns (typed as the source columns they come from), then the count column. */
  readonly columns: readonly ColumnSpec[];
  /**
   * The statements that rewrite it from the source: each id the records name, with the
   * largest of each display value and the number of records naming it.
   */
  readonly fill: readonly string[];
}

/** Every named entity table (`SourceTableDecl.namedEntities`) of the sources. */
export function namedEntityTables(): readonly NamedEntityTableSpec[] {
  return DECLARED_SOURCES.flatMap(({ storage: { table: source } }) =>
    Object.entries(source.namedEntities ?? {}).map(([entity, named]): NamedEntityTableSpec => {
      const shown = Object.entries(named.columns);
      const columns = shown.map(([column, from]) => {
        const type = source.columns.find((c) => c.name === from)?.type;
        if (type === undefined) throw new Error(`entity ${entity} of ${source.table}: no column ${from}`);
        return { name: column, type };
      });
      const names = ['id', ...shown.map(([column]) => column), named.countedIn];
      const values = [named.id, ...shown.map(([, from]) => `max(${from})`), 'count(*)'];
      return {
        entity: entity as EntityName,
        table: entity,
        columns: [...columns, i(named.countedIn)],
        fill: [
          `DELETE FROM ${entity}`,
          `INSERT INTO ${entity} (${names.join(', ')}) SELECT ${values.join(', ')} FROM ${source.table} ` +
            `WHERE ${named.id} IS NOT NULL GROUP BY ${named.id}`,
        ],
      };
    }),
  );
}

/** An id column `finish()` fills by looking a held record up (`SourceTableDecl.resolvedIds`). */
export interface ResolvedIdSpec {
  /** The source table holding the column. */
  readonly table: string;
  readonly column: string;
  /** The table of the records looked up, and its column matched against `by`. */
  readonly target: string;
  readonly match: string;
  readonly by: string;
  readonly object?: string;
}

/** Every id column of the sources that `finish()` fills by looking a held record up. */
export function resolvedIdColumns(): readonly ResolvedIdSpec[] {
  return Object.values(SOURCE_TABLES).flatMap((source) =>
    (source.resolvedIds ?? []).map((resolved): ResolvedIdSpec => {
      const target = (SOURCE_TABLES as Readonly<Record<string, SourceTableSpec>>)[resolved.kind];
      const has = (table: SourceTableSpec | undefined, column: string): boolean =>
        table?.columns.some((c) => c.name === column) === true;
      if (target === undefined || !has(target, resolved.match))
        throw new Error(`${source.table}.${resolved.column}: no column ${resolved.match} of ${resolved.kind}`);
      if (!has(source, resolved.column) || !has(source, resolved.by))
        throw new Error(`${source.table}: ${resolved.column} or ${resolved.by} is no column of it`);
      return {
        table: source.table,
        column: resolved.column,
        target: target.table,
        match: resolved.match,
        by: resolved.by,
        ...(resolved.object === undefined ? {} : { object: resolved.object }),
      };
    }),
  );
}

/** The `<owner>_values` table of a kind, if it has one. */
export function valuesTable(kind: RecordKind): LinkTableSpec | undefined {
  return LINK_TABLES.find((l) => l.owner === kind && 'discriminator' in l.holds && l.holds.discriminator === 'field');
}

/** The fields written into `<owner>_values` from the record itself: record key and stored code. */
export function writtenValueFields(kind: RecordKind): readonly { readonly field: string; readonly code: string }[] {
  const holds = valuesTable(kind)?.holds;
  if (holds === undefined || !('discriminator' in holds)) return [];
  return [...Object.keys(holds.fields), ...(holds.unexposed ?? [])].map((field) => ({
    field,
    code: valueFieldCode(field),
  }));
}

/** Full-text tables: one per source; each search index is a set of its columns. */
export const FULLTEXT_TABLES: readonly FullTextSpec[] = DECLARED_SOURCES.flatMap((source) =>
  source.storage.fullText === undefined ? [] : [{ owner: source.name as RecordKind, ...source.storage.fullText }],
);

/** The FTS5 tokenizer of every full-text table. */
export const FTS_TOKENIZER = 'unicode61 remove_diacritics 2';

/** The owner pk column of a link table: `publication_pk`, `grant_pk`, ... */
export function ownerKey(owner: RecordKind): string {
  return `${singular(owner)}_pk`;
}

/** One record of each kind (`SourceDeclaration.singular` of a source). */
const SINGULAR: Readonly<Record<RecordKind, string>> = {
  ...(Object.fromEntries(SOURCE_MODULES.map((source) => [source.name, source.singular])) as Record<
    (typeof SOURCE_MODULES)[number]['name'],
    string
  >),
  categories: 'category',
  title_metrics: 'title_metric',
};

function singular(kind: RecordKind): string {
  return SINGULAR[kind];
}

/**
 * The owner's columns a link table carries (`LinkTableSpec.ownerColumns`, or `names` where a
 * migration pins the ones it shipped with), typed as in the owner's table, and the index that
 * reads a value with them: `(reverse..., columns...)`.
 */
export function ownerColumnsOf(
  link: LinkTableSpec,
  names: readonly string[] | undefined = link.ownerColumns,
):
  | {
      readonly columns: readonly ColumnSpec[];
      readonly index: { readonly name: string; readonly columns: readonly string[] };
    }
  | undefined {
  if (names === undefined || names.length === 0) return undefined;
  const source = SOURCE_TABLES[link.owner];
  const columns = names.map((name) => {
    const column = source.columns.find((c) => c.name === name);
    if (column === undefined) throw new Error(`link table ${link.table}: no column ${name} in ${source.table}`);
    return column;
  });
  const indexed = [...link.reverse, ...names];
  return { columns, index: { name: `${link.table}_by_${indexed.join('_')}`, columns: indexed } };
}

/** The link tables that carry owner columns, as `ownerColumnsOf` gives them; `names` chooses which (default the layout's). */
export function carriedColumnLinks(
  names: (link: LinkTableSpec) => readonly string[] | undefined = (link) => link.ownerColumns,
): ReadonlyArray<{ readonly link: LinkTableSpec } & NonNullable<ReturnType<typeof ownerColumnsOf>>> {
  return LINK_TABLES.flatMap((link) => {
    const carried = ownerColumnsOf(link, names(link));
    return carried === undefined ? [] : [{ link, ...carried }];
  });
}

/**
 * The owner columns the first migration that carried any wrote (SQLite records migration 6,
 * PostgreSQL 4): the year alone on `publication_research_orgs`. Those migrations stay pinned
 * to it; later columns come with later migrations.
 */
export const FIRST_CARRIED_COLUMNS = (link: LinkTableSpec): readonly string[] | undefined =>
  link.table === 'publication_research_orgs' ? ['year'] : undefined;

/**
 * The value-count tables of the sources (`SourceTableSpec.valueCounts`): `(<column>, n)`, one
 * row per value held by at least one record (missing and empty values left out, as a facet
 * leaves them out), and the statement that fills one from its source's rows.
 */
export function valueCountTables(): ReadonlyArray<{
  readonly table: string;
  readonly column: ColumnSpec;
  /** `INSERT INTO <table> (<column>, n) SELECT ...`: every value's count. */
  readonly fill: string;
}> {
  return Object.values(SOURCE_TABLES).flatMap((source) =>
    Object.entries(source.valueCounts ?? {}).map(([name, table]) => {
      const column = source.columns.find((c) => c.name === name);
      if (column === undefined) throw new Error(`value counts of ${source.table}: no column ${name}`);
      const fill =
        `INSERT INTO ${table} (${name}, n) SELECT ${name}, count(*) FROM ${source.table} ` +
        `WHERE ${name} IS NOT NULL AND CAST(${name} AS TEXT) != '' GROUP BY ${name}`;
      return { table, column, fill };
    }),
  );
}

/** The vocabulary tables of the interned link tables (`LinkTableSpec.interned`), each once. */
export function internedTables(): readonly InternedValues[] {
  const byTable = new Map<string, InternedValues>();
  for (const link of LINK_TABLES) if (link.interned !== undefined) byTable.set(link.interned.table, link.interned);
  return [...byTable.values()];
}

/** The link tables whose rows a store that keeps lists by record holds as lists (`LinkTableSpec.listed`). */
export function listedLinks(): readonly (LinkTableSpec & { readonly listed: PostingListsSpec })[] {
  return LINK_TABLES.filter((l): l is LinkTableSpec & { listed: PostingListsSpec } => l.listed !== undefined);
}

/** The link tables whose reverse side a store that keeps posting lists holds as lists (`LinkTableSpec.postings`). */
export function postingLinks(): readonly (LinkTableSpec & { readonly postings: PostingListsSpec })[] {
  return LINK_TABLES.filter((l): l is LinkTableSpec & { postings: PostingListsSpec } => l.postings !== undefined);
}

/**
 * A link table as version 1 of the layout made it: an interned one with its text column
 * (`InternedValues.replaced`) where it now has the id, in its key and its reverse index, and
 * the columns later dropped (`LinkTableSpec.dropped`) back after its extra columns. The
 * first migration of each store builds this form; later ones intern it and drop columns.
 */
export function linkAsFirstBuilt(link: LinkTableSpec): LinkTableSpec {
  const extra = [...link.extra, ...(link.dropped ?? [])];
  const interned = link.interned;
  if (interned === undefined) return { ...link, extra };
  const idColumn = link.key[link.key.length - 1]?.name;
  const text = (name: string): string => (name === idColumn ? interned.replaced : name);
  return {
    ...link,
    key: link.key.map((c) => (c.name === idColumn ? { name: interned.replaced, type: 'text' } : c)),
    reverse: link.reverse.map(text),
    extra,
  };
}

/**
 * What the migration interning `link` copies (the store's records migrations 11 and 12 in
 * SQLite, 9 and 10 in PostgreSQL): the columns of the interned table, and the value of each
 * read from the first-built rows `l` joined to the vocabulary `v` on their text.
 */
export function internedCopy(link: LinkTableSpec): { columns: string[]; values: string[] } {
  const vocabulary = link.interned;
  if (vocabulary === undefined) throw new Error(`link table ${link.table} is not interned`);
  const owner = ownerKey(link.owner);
  return {
    columns: [owner, ...link.key.map((c) => c.name), ...link.extra.map((c) => c.name)],
    values: [
      `l.${owner}`,
      ...linkAsFirstBuilt(link).key.map((c) => (c.name === vocabulary.replaced ? 'v.id' : `l.${c.name}`)),
      ...link.extra.map((c) => `l.${c.name}`),
    ],
  };
}

/**
 * A field read from another source's link table the other way round (`ReverseLinkDecl`), with
 * the tables and columns of its view: `(recordColumn, valueColumn)`, the owner's pk and the
 * other record's id, for every row of `link` whose key column (`linkColumn`) names an owner.
 */
export interface ReverseLinkSpec {
  readonly view: string;
  readonly owner: RecordKind;
  readonly field: string;
  readonly link: LinkTableSpec;
  readonly linkColumn: string;
  readonly recordColumn: string;
  readonly valueColumn: string;
}

/** Every reverse link view (grants' `grant_resulting_publications`). */
export const REVERSE_LINKS: readonly ReverseLinkSpec[] = DECLARED_SOURCES.flatMap((source) =>
  (source.storage.reverseLinks ?? []).map((reverse): ReverseLinkSpec => {
    const link = LINK_TABLES.find((l) => l.table === reverse.of);
    const linkColumn = link?.key.length === 1 ? link.key[0]?.name : undefined;
    if (link === undefined || linkColumn === undefined || !('field' in link.holds))
      throw new Error(`reverse link ${reverse.view}: ${reverse.of} is no link table of one key column`);
    return {
      view: reverse.view,
      owner: source.name as RecordKind,
      field: reverse.field,
      link,
      linkColumn,
      recordColumn: ownerKey(source.name as RecordKind),
      valueColumn: `${singular(link.owner)}_id`,
    };
  }),
);
