/**
 * The compiler's view of the record tables, derived from the one storage layout in
 * `model/storage.ts` and the field tables of the sources (`model/sources.ts`): which column, link table or
 * JSON path holds each schema field, which entity table shows each entity kind, and which
 * full-text columns each search index covers. Nothing here names a table by hand.
 */
import { ENTITY_SPECS } from '../model/entities.ts';
import { SOURCE_FIELD_TABLES } from '../model/sources.ts';
import {
  CORPUS_CURRENCIES,
  ENTITY_TABLES,
  FULLTEXT_TABLES,
  fullTextTables,
  LINK_TABLES,
  PLACE_TABLES,
  REVERSE_LINKS,
  SOURCE_TABLES,
  namedEntityTables,
  ownerKey,
  type EntityColumnSpec,
  type LinkTableSpec,
  type PostingListsSpec,
  type RecordKind,
} from '../model/storage.ts';
import { SOURCE_NAMES, type EntityName, type SourceName } from '../model/types.ts';
import type {
  EntityDisplay,
  EntityLayout,
  EntityList,
  FtsLayout,
  LinkLayout,
  PerYearLayout,
  SourceLayout,
  StorageLayout,
} from './layout.ts';

/** The source row key and document columns every source table has (model/storage.ts). */
const KEY = 'pk';
const DOCUMENT = 'doc';
const ID = 'id';

/** Column names of a table that holds an entity (a source table, a place table or a named entity table). */
function tableColumns(table: string): ReadonlySet<string> {
  const source = (SOURCE_TABLES as Readonly<Record<string, { columns: readonly { name: string }[] }>>)[table];
  const place = (PLACE_TABLES as Readonly<Record<string, readonly { name: string }[]>>)[table];
  const named = namedEntityTables().find((n) => n.table === table)?.columns;
  return new Set([ID, ...(source?.columns ?? place ?? named ?? []).map((c) => c.name)]);
}

/**
 * An entity kind's table, its sub-fields that are columns of it (`research_orgs.name`), and
 * those kept as lists in a link table of it (`research_orgs.types`).
 */
function entityLayout(kind: EntityName): EntityLayout | undefined {
  const table = ENTITY_TABLES[kind]?.table;
  if (table === undefined) return undefined;
  const columns = tableColumns(table);
  const names = ENTITY_SPECS[kind].fields.map(([name]) => name);
  const fields = names.filter((name) => columns.has(name));
  const lists = entityLists(table, names);
  return {
    table,
    idColumn: ID,
    columns: Object.fromEntries(fields.map((f) => [f, f])),
    ...(Object.keys(lists).length === 0 ? {} : { lists }),
  };
}

/**
 * Of `names`, those kept in a link table of the entity's `table` rather than a column of it
 * (`<entity>_values` by field, or a link table of one field such as
 * `researcher_research_orgs`), each with where its values are.
 */
function entityLists(table: string, names: readonly string[]): Record<string, EntityList> {
  const columns = tableColumns(table);
  const owner = Object.values(SOURCE_TABLES).find((s) => s.table === table)?.kind;
  if (owner === undefined) return {};
  const lists: Record<string, EntityList> = {};
  for (const f of names) {
    if (columns.has(f)) continue;
    for (const link of LINK_TABLES.filter((l) => l.owner === owner)) {
      const valueColumn = link.key[link.key.length - 1]?.name;
      if (valueColumn === undefined) continue;
      const base = { table: link.table, ownerColumn: ownerKey(link.owner), entityKey: KEY, valueColumn };
      const holds = link.holds;
      if ('field' in holds && holds.field === f) lists[f] = base;
      else if ('discriminator' in holds && holds.discriminator === 'field' && holds.fields[f] !== undefined)
        lists[f] = { ...base, field: holds.fields[f] };
      if (lists[f] !== undefined) break;
    }
  }
  return lists;
}

/**
 * What a facet row or a returned entity shows: display fields that are columns, and lists
 * kept in a link table of the entity's table.
 */
function entityDisplay(kind: EntityName): EntityDisplay | undefined {
  const table = ENTITY_TABLES[kind]?.table;
  if (table === undefined) return undefined;
  const columns = tableColumns(table);
  const shown = ENTITY_SPECS[kind].display;
  const display: EntityDisplay = {
    table,
    idColumn: ID,
    columns: Object.fromEntries(shown.filter((f) => columns.has(f)).map((f) => [f, f])),
  };
  const lists = entityLists(table, shown);
  return Object.keys(lists).length === 0 ? display : { ...display, lists };
}

function wholeSourceCount(entity: EntityName, countedIn: string | undefined): LinkLayout['wholeSourceCount'] {
  const table = ENTITY_TABLES[entity]?.table;
  if (countedIn === undefined || table === undefined) return undefined;
  return { table, idColumn: ID, countColumn: countedIn };
}

/**
 * A link table's posting lists. A list stands for the rows `(value, record)` alone: a table
 * whose rows carry more by value (a discriminator, owner columns read from the carried
 * index) keeps its reverse index.
 */
function postingsOf(link: LinkTableSpec, postings: PostingListsSpec): NonNullable<LinkLayout['postings']> {
  if (link.key.length !== 1 || link.ownerColumns !== undefined || !('field' in link.holds))
    throw new Error(`link table ${link.table} has posting lists but its rows hold more than a value`);
  return postings;
}

/** The list field `name` of the entities of `table`, which link table `link` reads a field through. */
function entityListOf(link: LinkTableSpec, table: string, name: string): EntityList {
  const list = entityLists(table, [name])[name];
  if (list === undefined)
    throw new Error(`link table ${link.table} reads ${name} of ${table}, which keeps no such list`);
  return list;
}

/** The schema fields of one link table, each with how to read it. */
function linkFields(link: LinkTableSpec, fieldTypes: ReadonlyMap<string, string>): [string, LinkLayout][] {
  const valueColumn = link.key[link.key.length - 1]?.name;
  if (valueColumn === undefined) throw new Error(`link table ${link.table} has no key column`);
  const base = {
    table: link.table,
    recordColumn: ownerKey(link.owner),
    valueColumn,
    ...(link.ownerColumns === undefined ? {} : { ownerColumns: link.ownerColumns }),
    ...(link.postings === undefined ? {} : { postings: postingsOf(link, link.postings) }),
  };
  const withEntity = (field: string, layout: LinkLayout, countedIn?: string): [string, LinkLayout] => {
    const type = fieldTypes.get(field);
    const entity = type !== undefined && type in ENTITY_SPECS ? entityLayout(type as EntityName) : undefined;
    if (entity === undefined)
      return [field, type === 'integer' || type === 'float' ? { ...layout, numeric: true } : layout];
    const counted = wholeSourceCount(type as EntityName, countedIn);
    return [
      field,
      {
        ...layout,
        entity,
        entityKind: type as string,
        ...(counted === undefined ? {} : { wholeSourceCount: counted }),
      },
    ];
  };
  const holds = link.holds;
  if ('field' in holds) {
    // An interned value is read through its vocabulary: the link rows hold its id.
    const vocabulary = link.interned;
    const held = withEntity(
      holds.field,
      vocabulary === undefined
        ? base
        : {
            ...base,
            through: { table: vocabulary.table, idColumn: 'id', columns: [vocabulary.column], vocabulary: true },
          },
      holds.countedIn,
    );
    const owner = held[1].entity;
    const through = Object.entries(link.readThrough ?? {}).map(([field, how]): [string, LinkLayout] => {
      if (owner === undefined) throw new Error(`link table ${link.table} reads ${field} through no entity table`);
      const read =
        typeof how === 'object' && 'list' in how
          ? {
              table: owner.table,
              idColumn: owner.idColumn,
              columns: [],
              list: entityListOf(link, owner.table, how.list),
            }
          : { table: owner.table, idColumn: owner.idColumn, columns: typeof how === 'string' ? [how] : [...how] };
      // With the carried columns: a filter beside a year test reads one index range per
      // organization. (Key sets and pages cut from the link index take no value read through
      // entities: `linkKeySet` leaves entity-keyed access alone.)
      return withEntity(field, { ...base, through: read });
    });
    return [held, ...through];
  }
  return Object.entries(holds.fields).map(([field, value]) =>
    withEntity(field, { ...base, discriminator: { column: holds.discriminator, value } }),
  );
}

function entityColumn(spec: EntityColumnSpec): SourceLayout['entityColumns'][string] | undefined {
  const entity = entityLayout(spec.entity);
  if (entity === undefined) return undefined;
  const counted = wholeSourceCount(spec.entity, spec.countedIn);
  return {
    column: spec.column,
    entity,
    entityKind: spec.entity,
    ...(counted === undefined ? {} : { wholeSourceCount: counted }),
  };
}

function fullText(kind: RecordKind): FtsLayout | undefined {
  const spec = FULLTEXT_TABLES.find((f) => f.owner === kind);
  if (spec === undefined) return undefined;
  const tableOf = (cols: readonly string[]) =>
    fullTextTables(spec).find((t) => cols.every((c) => t.columns.includes(c))) ??
    (() => {
      throw new Error(`full-text index of ${kind} over columns of two tables: ${cols.join(', ')}`);
    })();
  const apart = Object.entries(spec.indexes).flatMap(([index, cols]) => {
    const table = tableOf(cols).table;
    return table === spec.table ? [] : [[index, table] as const];
  });
  return {
    table: spec.table,
    // An index over every column of its table needs no column filter.
    indexes: Object.fromEntries(
      Object.entries(spec.indexes).map(([index, cols]) => [
        index,
        cols.join(' ') === tableOf(cols).columns.join(' ') ? null : cols,
      ]),
    ),
    ...(apart.length === 0 ? {} : { tables: Object.fromEntries(apart) }),
  };
}

/** The columns `compile/citations.ts` reads from each kind of per-year table. */
const PER_YEAR_COLUMNS = {
  citations_per_year: { byRecord: ['citations'], corpus: ['citations'] },
  funding_per_year: { byRecord: ['shares', 'years'], corpus: ['currency', 'amount'] },
} as const;

function perYearLayout(name: SourceName): PerYearLayout | undefined {
  const spec = SOURCE_TABLES[name].perYear;
  if (spec === undefined) return undefined;
  const names = (columns: readonly { name: string }[]): string[] => columns.map((c) => c.name);
  const expected = PER_YEAR_COLUMNS[spec.function];
  const byRecord = names(spec.byRecord.columns);
  const corpus = [...names(spec.corpus.key), ...names(spec.corpus.columns)];
  if (expected.byRecord.some((c) => !byRecord.includes(c)) || expected.corpus.some((c) => !corpus.includes(c)))
    throw new Error(`per-year tables of ${name} lack the columns the compiler reads`);
  return {
    function: spec.function,
    fresh: spec.fresh,
    byRecord: { table: spec.byRecord.table, recordColumn: ownerKey(name) },
    corpus: {
      table: spec.corpus.table,
      currencies: spec.function === 'funding_per_year' ? CORPUS_CURRENCIES.map((c) => c.currency) : [],
    },
  };
}

function sourceLayout(name: SourceName): SourceLayout {
  const table = SOURCE_TABLES[name];
  const fields = SOURCE_FIELD_TABLES[name];
  const fieldTypes = new Map<string, string>(
    [...fields.fields, ...(fields.deprecatedFields ?? []).map((d) => d.row)].map(([field, type]) => [field, type]),
  );
  const columns = [ID, ...table.columns.map((c) => c.name)].filter((c) => fieldTypes.has(c));
  const jsonColumns = table.columns.flatMap((c) => (c.json === true && fieldTypes.has(c.name) ? [c.name] : []));
  const links = [
    ...LINK_TABLES.filter((l) => l.owner === name).flatMap((l) => linkFields(l, fieldTypes)),
    // Read through a view of another source's link table, as a link table of the source.
    ...REVERSE_LINKS.filter((r) => r.owner === name).map((r): [string, LinkLayout] => [
      r.field,
      { table: r.view, recordColumn: r.recordColumn, valueColumn: r.valueColumn },
    ]),
  ];
  const entityColumns = Object.entries(table.entityColumns ?? {}).flatMap(([field, spec]) => {
    const layout = entityColumn(spec);
    return layout === undefined ? [] : [[field, layout] as const];
  });
  const idLinks = LINK_TABLES.filter((l) => l.owner === name).flatMap((l) => {
    const field = 'field' in l.holds ? l.holds.idsOf : undefined;
    if (field === undefined || !fieldTypes.has(field)) return [];
    const layout = linkFields(l, fieldTypes)[0]?.[1];
    return layout === undefined ? [] : [[field, layout] as const];
  });
  const idColumns = (table.resolvedIds ?? []).flatMap((r) =>
    r.object !== undefined && fieldTypes.has(r.object) ? [[r.object, r.column] as const] : [],
  );
  const fts = fullText(name);
  const narrow = table.narrow;
  const narrowColumns = narrow?.columns.filter((c) => fieldTypes.has(c)) ?? [];
  const perYear = perYearLayout(name);
  return {
    table: table.table,
    key: KEY,
    document: DOCUMENT,
    ...(table.packedText === undefined ? {} : { packed: table.packedText }),
    ...(table.keptApart === undefined ? {} : { apart: table.keptApart }),
    columns: Object.fromEntries(columns.map((c) => [c, c])),
    ...(jsonColumns.length === 0 ? {} : { jsonColumns }),
    ...(idColumns.length === 0 ? {} : { idColumns: Object.fromEntries(idColumns) }),
    links: Object.fromEntries(links.filter(([field]) => fieldTypes.has(field))),
    ...(idLinks.length === 0 ? {} : { idLinks: Object.fromEntries(idLinks) }),
    entityColumns: Object.fromEntries(entityColumns),
    ...(fts === undefined ? {} : { fts }),
    ...(narrow === undefined
      ? {}
      : {
          narrow: {
            table: narrow.table,
            columns: Object.fromEntries(narrowColumns.map((c) => [c, c])),
            counts: Object.fromEntries(Object.entries(narrow.counts).filter(([field]) => fieldTypes.has(field))),
          },
        }),
    ...(perYear === undefined ? {} : { perYear }),
    ...(table.valueCounts === undefined
      ? {}
      : {
          valueCounts: Object.fromEntries(
            Object.entries(table.valueCounts)
              .filter(([field]) => fieldTypes.has(field))
              .map(([field, counts]) => [field, { table: counts, valueColumn: field, countColumn: 'n' }]),
          ),
        }),
    defaultOrder: [{ column: fields.defaultOrder.field, direction: fields.defaultOrder.direction }],
  };
}

export const RECORDS_LAYOUT: StorageLayout = {
  sources: Object.fromEntries(SOURCE_NAMES.map((name) => [name, sourceLayout(name)])),
  entities: Object.fromEntries(
    (Object.keys(ENTITY_TABLES) as EntityName[]).flatMap((kind) => {
      const display = entityDisplay(kind);
      return display === undefined ? [] : [[kind, display] as const];
    }),
  ),
};
