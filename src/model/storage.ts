/**
 * The storage layout of the records, as data: every table, column, link table, full-text
 * column and search index, and which schema field each of them holds. Each source declares
 * its own (`src/sources/<name>/model.ts`); this module gathers them from the registry
 * (`model/sources.ts`) with the tables that belong to no source. The store's migrations and writers (SQLite and PostgreSQL) build their DDL and rows from
 * it, and the compiler derives its view of the tables from it (`compile/records-layout.ts`),
 * so the two cannot drift apart. Published names never change: add, never rename.
 * `docs/storage.md` explains why the layout is shaped this way.
 */
import {
  CONCEPT_NAMES,
  FUNDER_FIELDS,
  RESEARCH_ORGANIZATION_FIELDS,
  byScheme,
  categoryKey,
  i,
  r,
  t,
  valueKey,
} from './layout-parts.ts';
import type { NativeKind } from './native-records.ts';
import { DECLARED_SOURCES, RECORD_KINDS, SOURCE_MODULES } from './sources.ts';
import type {
  ColumnSpec,
  FullTextDecl,
  InternedValues,
  LinkHolds,
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

/** The declared sources' tables (`SourceStorage.table`), each with its kind. */
const DECLARED_TABLES = Object.fromEntries(
  DECLARED_SOURCES.map((source) => [source.name, { kind: source.name as RecordKind, ...source.storage.table }]),
) as Readonly<Record<'publications', SourceTableSpec>>;

export const SOURCE_TABLES: Readonly<Record<RecordKind, SourceTableSpec>> = {
  ...DECLARED_TABLES,
  grants: {
    kind: 'grants',
    table: 'grants',
    packedText: ['abstract'],
    keptApart: { abstract: 'grant_abstracts' },
    columns: [
      t('title'),
      t('abstract'),
      t('original_title'),
      t('language'),
      t('language_title'),
      t('grant_number'),
      t('foa_number'),
      t('start_date'),
      t('end_date'),
      i('start_year'),
      t('date_inserted'),
      r('funding_usd'),
      r('funding_aud'),
      r('funding_cad'),
      r('funding_chf'),
      r('funding_eur'),
      r('funding_gbp'),
      r('funding_jpy'),
      r('funding_nzd'),
      t('funding_currency'),
      t('funding_org_id'),
      t('funding_org_name'),
      t('funding_org_acronym'),
      t('funding_org_city'),
      t('linkout'),
      t('dimensions_url'),
    ],
    indexes: [['start_year'], ['start_date', 'id'], ['funding_org_id'], ['grant_number']],
    narrow: {
      table: 'grants_narrow',
      columns: ['id', 'start_year', 'start_date', 'funding_usd', 'funding_org_id', 'language'],
      counts: {
        researchers: 'n_researchers',
        research_orgs: 'n_research_orgs',
        funders: 'n_funders',
        concepts: 'n_concepts',
      },
      indexes: [['start_year'], ['funding_org_id']],
    },
    perYear: {
      function: 'funding_per_year',
      fresh: 'per_year_grants',
      // A grant's funded years (its active years, or its start year when it lists none):
      // `years` is how many it has, so a year's share of an amount is `amount * shares / years`
      // (`shares` is 1 unless one year is listed twice).
      byRecord: { table: 'grant_funding_years', columns: [i('shares'), i('years')] },
      // Per currency with a column of its own (`funding_usd`: `USD`), the whole corpus's sum.
      corpus: { table: 'funding_by_year', key: [t('currency')], columns: [r('amount')] },
    },
  },
  researchers: {
    kind: 'researchers',
    table: 'researchers',
    columns: [
      t('first_name'),
      t('last_name'),
      t('nih_ppid'),
      i('obsolete'),
      t('current_research_org_id'),
      i('first_publication_year'),
      i('last_publication_year'),
      i('first_grant_year'),
      i('last_grant_year'),
      i('total_publications'),
      i('total_grants'),
      t('dimensions_url'),
      // Derived by finish(): held publications / grants naming the researcher (facet shortcut).
      i('n_publications'),
      i('n_grants'),
    ],
    indexes: [['last_name'], ['current_research_org_id'], ['n_publications'], ['n_grants']],
    entityColumns: { current_research_org: { column: 'current_research_org_id', entity: 'organizations' } },
  },
  organizations: {
    kind: 'organizations',
    table: 'organizations',
    columns: [
      t('name'),
      t('acronym'),
      t('city_id'),
      t('city_name'),
      t('state_code'),
      t('state_name'),
      t('country_code'),
      t('country_name'),
      t('status'),
      i('established'),
      r('latitude'),
      r('longitude'),
      t('nuts_level1_code'),
      t('nuts_level1_name'),
      t('nuts_level2_code'),
      t('nuts_level2_name'),
      t('nuts_level3_code'),
      t('nuts_level3_name'),
      t('redirect'),
      t('wikipedia_url'),
      t('dimensions_url'),
      // Derived by finish(): held publications / grants / funded publications and grants linking the organization.
      i('n_publications'),
      i('n_grants'),
      i('n_funded_publications'),
      i('n_funded_grants'),
    ],
    indexes: [
      ['name'],
      ['country_code'],
      ['city_name'],
      ['n_publications'],
      ['n_grants'],
      ['n_funded_publications'],
      ['n_funded_grants'],
    ],
  },
  journals: {
    kind: 'journals',
    table: 'journals',
    columns: [t('title'), t('publisher'), i('n_publications')],
    indexes: [['title']],
  },
  categories: {
    kind: 'categories',
    table: 'categories',
    columns: [t('name'), t('scheme'), t('code')],
    indexes: [['scheme', 'name']],
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
 */
export const VALUE_FIELD_CODES: Readonly<Record<string, string>> = {
  // publications
  issn: '1',
  mesh_terms: '2',
  open_access: '3',
  clinical_trial_ids: '4',
  journal_lists: '5',
  subtitles: '6',
  // derived from the research organizations and funders (publications and grants)
  // 7–13 are no longer written: the fields are read through the organizations
  // (`readThrough`), and records migration 10 (SQLite) and 8 (PostgreSQL) deleted their rows.
  research_org_countries: '7',
  research_org_country_names: '8',
  research_org_cities: '9',
  research_org_state_codes: '10',
  research_org_state_names: '11',
  research_org_names: '12',
  funder_countries: '13',
  // grants
  active_year: '14',
  // researchers
  orcid_id: '15',
  redirect: '16',
  // organizations
  types: '17',
  ror_ids: '18',
  isni_ids: '19',
  external_ids_fundref: '20',
  cnrs_ids: '21',
  hesa_ids: '22',
  linkout: '23',
  orgref_ids: '24',
  ucas_ids: '25',
  ukprn_ids: '26',
  wikidata_ids: '27',
  organization_child_ids: '28',
  organization_parent_ids: '29',
  organization_related_ids: '30',
  aliases: '31',
};

/** The stored code of a `<owner>_values` field (`VALUE_FIELD_CODES`). */
export function valueFieldCode(field: string): string {
  const code = VALUE_FIELD_CODES[field];
  if (code === undefined) throw new Error(`no stored code for the values field ${field}`);
  return code;
}

const byField = (fields: readonly string[], unexposed?: readonly string[]): LinkHolds => ({
  discriminator: 'field',
  fields: Object.fromEntries(fields.map((f) => [f, valueFieldCode(f)])),
  ...(unexposed === undefined ? {} : { unexposed }),
});
/** Every link table. Names follow `<owner singular>_<what>`. */
export const LINK_TABLES: readonly LinkTableSpec[] = [
  ...DECLARED_SOURCES.flatMap((source) =>
    // The owner second, as the layout always listed it (`{ table, owner, key, ... }`).
    source.storage.links.map(({ table, ...link }) => ({ table, owner: source.name as RecordKind, ...link })),
  ),
  // grants
  {
    table: 'grant_researchers',
    owner: 'grants',
    key: [t('researcher_id')],
    extra: [],
    reverse: ['researcher_id'],
    holds: { field: 'researchers', countedIn: 'n_grants' },
    postings: { table: 'grant_researchers_postings', column: 'grant_pks' },
  },
  {
    table: 'grant_research_orgs',
    owner: 'grants',
    key: [t('org_id')],
    extra: [],
    reverse: ['org_id'],
    holds: { field: 'research_orgs', countedIn: 'n_grants' },
    readThrough: RESEARCH_ORGANIZATION_FIELDS,
  },
  {
    table: 'grant_funders',
    owner: 'grants',
    key: [t('org_id')],
    extra: [],
    reverse: ['org_id'],
    holds: { field: 'funders', countedIn: 'n_funded_grants' },
    readThrough: FUNDER_FIELDS,
  },
  {
    table: 'grant_categories',
    owner: 'grants',
    key: categoryKey,
    extra: [],
    reverse: ['scheme', 'category_id'],
    holds: byScheme,
  },
  {
    table: 'grant_concepts',
    owner: 'grants',
    key: [i('concept_id')],
    extra: [],
    dropped: [r('score')],
    reverse: ['concept_id'],
    holds: { field: 'concepts' },
    interned: CONCEPT_NAMES,
    postings: { table: 'grant_concepts_postings', column: 'grant_pks' },
    listed: { table: 'grant_concepts_lists', column: 'concept_ids' },
  },
  {
    table: 'grant_values',
    owner: 'grants',
    key: valueKey,
    extra: [],
    reverse: ['field', 'value'],
    holds: byField(['active_year']),
  },
  // researchers
  {
    table: 'researcher_research_orgs',
    owner: 'researchers',
    key: [t('org_id')],
    extra: [],
    reverse: ['org_id'],
    holds: { field: 'research_orgs' },
    postings: { table: 'researcher_research_orgs_postings', column: 'researcher_pks' },
  },
  {
    table: 'researcher_values',
    owner: 'researchers',
    key: valueKey,
    extra: [],
    reverse: ['field', 'value'],
    holds: byField(['orcid_id', 'redirect']),
  },
  // organizations
  {
    table: 'organization_values',
    owner: 'organizations',
    key: valueKey,
    extra: [],
    reverse: ['field', 'value'],
    holds: byField(
      [
        'types',
        'ror_ids',
        'isni_ids',
        'external_ids_fundref',
        'cnrs_ids',
        'hesa_ids',
        'linkout',
        'orgref_ids',
        'ucas_ids',
        'ukprn_ids',
        'wikidata_ids',
        'organization_child_ids',
        'organization_parent_ids',
        'organization_related_ids',
      ],
      // Other names, written for search and display; no schema field.
      ['aliases'],
    ),
  },
];

/**
 * Entity kinds with a table of their own (a facet row or an entity field shows columns of
 * it); the place tables are filled by `finish()` from the organizations. Kinds not listed
 * (`open_access`, `publication_links`, `source_titles`) have no table.
 */
export const ENTITY_TABLES: Readonly<Partial<Record<EntityName, { readonly table: RecordKind | PlaceTable }>>> = {
  organizations: { table: 'organizations' },
  researchers: { table: 'researchers' },
  categories: { table: 'categories' },
  journals: { table: 'journals' },
  countries: { table: 'countries' },
  cities: { table: 'cities' },
  states: { table: 'states' },
};

/** Display names of places, derived by `finish()`: (id, name[, country_code]). */
export type PlaceTable = 'countries' | 'cities' | 'states';
export const PLACE_TABLES: Readonly<Record<PlaceTable, readonly ColumnSpec[]>> = {
  countries: [t('name')],
  cities: [t('name'), t('country_code')],
  states: [t('name'), t('country_code')],
};

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
export const FULLTEXT_TABLES: readonly FullTextSpec[] = [
  ...DECLARED_SOURCES.flatMap((source) =>
    source.storage.fullText === undefined ? [] : [{ owner: source.name as RecordKind, ...source.storage.fullText }],
  ),
  {
    owner: 'grants',
    table: 'grants_fts',
    columns: ['title', 'abstract', 'concepts', 'investigators'],
    indexes: {
      full_data: ['title', 'abstract', 'concepts', 'investigators'],
      title_only: ['title'],
      title_abstract_only: ['title', 'abstract'],
      concepts: ['concepts'],
      investigators: ['investigators'],
    },
  },
  {
    owner: 'researchers',
    table: 'researchers_fts',
    columns: ['names'],
    indexes: { full_data: ['names'] },
  },
  {
    owner: 'organizations',
    table: 'organizations_fts',
    columns: ['name', 'aliases', 'place'],
    indexes: { full_data: ['name', 'aliases', 'place'] },
  },
];

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
  journals: 'journal',
  categories: 'category',
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
