/**
 * Where a field's values come from in SQL, for the record aliased `s`: one value per
 * record (`scalar`: a column, an entity column lookup, or a JSON path), or a correlated row
 * source (`multi`: a link table, or `json_each` over the record document).
 */
import type { Dialect } from './dialect.ts';
import type { PlanField } from './plan.ts';
import type { EntityLayout, LinkLayout, SourceLayout } from './layout.ts';
import { ident, literal } from './sql.ts';

/** The alias of the searched source's table in every statement. */
export const SOURCE_ALIAS = 's';

/**
 * A column of the source row aliased `alias`, as stored: the column itself, or, for a column
 * the dialect's store keeps apart (`SourceLayout.apart`), its value in that table (NULL when
 * the record has no row there).
 *
 * @example sourceColumn(sqlite, publications, 's', 'abstract')
 *   // (SELECT apart.abstract FROM publication_abstracts apart WHERE apart.pk = s.pk)
 */
export function sourceColumn(dialect: Dialect, source: SourceLayout, alias: string, column: string): string {
  const table = apartTable(dialect, source, column);
  if (table === undefined) return `${alias}.${ident(column)}`;
  const key = ident(source.key);
  return `(SELECT apart.${ident(column)} FROM ${ident(table)} apart WHERE apart.${key} = ${alias}.${key})`;
}

/** The table the dialect's store keeps `column` in, when not in the source row. */
function apartTable(dialect: Dialect, source: SourceLayout, column: string): string | undefined {
  return dialect.columnsApart ? source.apart?.[column] : undefined;
}

/**
 * A link table's rows read by value, as a `FROM` item to alias: the table itself (its
 * reverse index), or the rows of its posting lists where the dialect's store keeps them
 * (`Dialect.postingRows`). Rows read by record always come from the table.
 *
 * @example linkRowsByValue(sqlite, references)
 *   // (SELECT p."cited_key" AS "cited_key", j.value AS "publication_pk" FROM "publication_references_postings" p, json_each(postings_json(p."publication_pks")) j)
 */
export function linkRowsByValue(dialect: Dialect, link: LinkLayout): string {
  if (link.postings === undefined || dialect.postingRows === undefined) return ident(link.table);
  return dialect.postingRows(link.postings, link.valueColumn, link.recordColumn);
}

/** Whether the record's row of the table `column` is kept apart in holds a value (not ''). */
function presentApart(source: SourceLayout, table: string, column: string): string {
  const key = ident(source.key);
  return `EXISTS (SELECT 1 FROM ${ident(table)} apart WHERE apart.${key} = ${SOURCE_ALIAS}.${key} AND apart.${ident(column)} != '')`;
}

export type FieldAccess =
  | {
      readonly kind: 'scalar';
      readonly expr: string;
      /**
       * The stored column, when `expr` unpacks it (`dialect.storedText`). NULL and '' are
       * stored as they are, so emptiness tests read this one and unpack nothing.
       */
      readonly stored?: string;
      /**
       * Whether the record has a value (neither NULL nor ''), when `dialect.isPresent(stored)`
       * would read the value twice: a column kept apart, one lookup of its row.
       */
      readonly present?: string;
    }
  | {
      readonly kind: 'multi';
      /** `FROM` items, e.g. `"pub_orgs" l JOIN "organizations" e ON ...`. */
      readonly from: string;
      /** Correlation with the record, e.g. `l."pub" = s."rowid"`. */
      readonly correlate: string;
      /** The value expression per row. */
      readonly value: string;
      /**
       * The rows may name a record's value more than once (values read through linked
       * entities: two organizations in one country): counts are of distinct values.
       */
      readonly repeats?: boolean;
      /**
       * For link tables: the same rows without the correlation, so a filter can be written
       * `s.pk IN (SELECT <key> FROM <from> WHERE <fixed> AND test)`, driven by the link
       * table's reverse index instead of one lookup per record.
       */
      readonly keyed?: {
        readonly recordKey: string;
        readonly key: string;
        readonly fixed: string;
        /**
         * The link rows read by value, aliased `l` (`linkRowsByValue`): where a key set tests
         * the value itself. `from` reads them by record.
         */
        readonly byValue: string;
        /** Record columns the link rows carry (`year`) → their expression on the link row (`l."year"`). */
        readonly carried?: Readonly<Record<string, string>>;
        /**
         * For entity sub-fields: the link rows are those whose value is in
         * `SELECT <id> FROM <from> WHERE test(<value>)`, so the (small) entity table is
         * searched first and the link table is entered through its reverse index.
         */
        readonly entity?: {
          readonly linkFrom: string;
          readonly linkValue: string;
          readonly id: string;
          readonly from: string;
          readonly value: string;
        };
      };
    };

/**
 * @example accessField(sqliteDialect, pubs, { name: 'year', type: 'integer', multi: false })
 *   // { kind: 'scalar', expr: 's."year"' }
 * @example accessField(sqliteDialect, pubs, { name: 'research_orgs', subfield: 'id', type: 'entity', multi: true, entity: 'organizations' })
 *   // { kind: 'multi', from: '"publication_orgs" l', correlate: 'l."record" = s."rowid"', value: 'l."org_id"' }
 */
export function accessField(
  dialect: Dialect,
  source: SourceLayout,
  field: PlanField,
  options: AccessOptions = {},
): FieldAccess {
  const s = SOURCE_ALIAS;
  const key = `${s}.${ident(source.key)}`;
  const sub = field.subfield;
  const link = source.links[field.name] ?? idLink(source, field, options);
  if (link !== undefined) {
    const value = `l.${ident(link.valueColumn)}`;
    const fixed =
      link.discriminator === undefined
        ? dialect.true
        : `l.${ident(link.discriminator.column)} = ${literal(link.discriminator.value)}`;
    const recordColumn = `l.${ident(link.recordColumn)}`;
    const correlate =
      link.discriminator === undefined ? `${recordColumn} = ${key}` : `${recordColumn} = ${key} AND ${fixed}`;
    const carried =
      link.ownerColumns === undefined
        ? {}
        : { carried: Object.fromEntries(link.ownerColumns.map((c) => [c, `l.${ident(c)}`])) };
    const keyed = {
      recordKey: key,
      key: recordColumn,
      fixed,
      byValue: `${linkRowsByValue(dialect, link)} l`,
      ...carried,
    };
    const through = link.through;
    if (through !== undefined) {
      // The entities' value, through the link rows; rows whose entity has none are no value
      // (the test is in the join, so `is empty` and counts see only real values).
      const read = throughValue(through, 't');
      const listed = throughListJoin(through, 't');
      const entities = `${ident(through.table)} t${listed}`;
      const rows =
        listed === ''
          ? `${ident(link.table)} l JOIN ${entities} ON t.${ident(through.idColumn)} = ${value} AND ${read} IS NOT NULL`
          : `${ident(link.table)} l JOIN ${ident(through.table)} t ON t.${ident(through.idColumn)} = ${value}${listed} AND ${read} IS NOT NULL`;
      const entityKeyed = (from: string, shown: string) => ({
        ...keyed,
        entity: {
          linkFrom: keyed.byValue,
          linkValue: value,
          id: `t.${ident(through.idColumn)}`,
          from,
          value: shown,
        },
      });
      // Values read through entities may repeat (two organizations in one country); through a
      // vocabulary they cannot.
      const repeats = through.vocabulary !== true;
      if (sub === undefined || sub === 'id')
        return { kind: 'multi', from: rows, correlate, value: read, repeats, keyed: entityKeyed(entities, read) };
      // A sub-field of the entity the values name (`research_org_countries.name`): one more join.
      const part = link.entity === undefined ? undefined : entitySubfield(link.entity, sub);
      if (link.entity !== undefined && part !== undefined) {
        const named = ` JOIN ${ident(link.entity.table)} e ON e.${ident(link.entity.idColumn)} = ${read}${part.join}`;
        return {
          kind: 'multi',
          from: rows + named,
          correlate,
          value: part.value,
          repeats: repeats || part.repeats,
          keyed: entityKeyed(entities + named, part.value),
        };
      }
    }
    if (sub === undefined || sub === 'id')
      return { kind: 'multi', from: `${ident(link.table)} l`, correlate, value, keyed };
    const part = link.entity === undefined ? undefined : entitySubfield(link.entity, sub);
    if (link.entity !== undefined && part !== undefined) {
      const entity = `${ident(link.entity.table)} e`;
      return {
        kind: 'multi',
        from: `${ident(link.table)} l JOIN ${entity} ON e.${ident(link.entity.idColumn)} = ${value}${part.join}`,
        correlate,
        value: part.value,
        ...(part.repeats ? { repeats: true } : {}),
        keyed: {
          ...keyed,
          entity: {
            linkFrom: keyed.byValue,
            linkValue: value,
            id: `e.${ident(link.entity.idColumn)}`,
            from: entity + part.join,
            value: part.value,
          },
        },
      };
    }
  }
  const column = source.columns[sub === undefined ? field.name : `${field.name}.${sub}`];
  if (column !== undefined && !field.multi) {
    const stored = sourceColumn(dialect, source, s, column);
    const table = apartTable(dialect, source, column);
    const present = table === undefined ? {} : { present: presentApart(source, table, column) };
    if (source.packed?.includes(column) === true)
      return { kind: 'scalar', expr: dialect.storedText(stored), stored, ...present };
    return { kind: 'scalar', expr: stored, ...present };
  }
  const entityColumn = source.entityColumns[field.name];
  if (entityColumn !== undefined) {
    const e = entityColumn.entity;
    const idExpr = `${s}.${ident(entityColumn.column)}`;
    const part = sub === undefined || sub === 'id' ? undefined : entitySubfield(e, sub);
    // A list of the entity the column names (`current_research_org.types`): its rows in the entity's link table.
    if (part?.repeats === true)
      return {
        kind: 'multi',
        from: `${ident(e.table)} e${part.join}`,
        correlate: `e.${ident(e.idColumn)} = ${idExpr}`,
        value: part.value,
        repeats: true,
      };
    if (!field.multi && (sub === undefined || sub === 'id')) return { kind: 'scalar', expr: idExpr };
    if (!field.multi && part !== undefined)
      return {
        kind: 'scalar',
        expr: `(SELECT ${part.value} FROM ${ident(e.table)} e WHERE e.${ident(e.idColumn)} = ${idExpr})`,
      };
  }
  // From the JSON document: values may be plain (ids, strings) or objects (entities).
  const doc = documentText(dialect, source);
  // Structured values (authors, concepts): compare with every leaf value.
  if (field.type === 'json' && sub === undefined) return { kind: 'multi', ...dialect.jsonLeaves(doc, field.name) };
  // Entities the document holds as objects (a trial's `publications: [{id, doi, pmid}]`) are
  // their ids, as below for one: a facet groups by the id, and a link no held record answers
  // (only a DOI or PMID) has none, instead of its object's JSON text.
  if (field.multi || field.type === 'json')
    return {
      kind: 'multi',
      ...dialect.jsonElements(doc, field.name, sub ?? (field.entity === undefined ? undefined : 'id')),
    };
  // One entity the document holds as an object (a dataset's `associated_publication: {id,
  // doi}`): the entity is its id, as where a column holds it, so a facet groups by the id and
  // `= "pub.1"` tests it (the object's JSON text otherwise); a link with no id has none.
  const idColumn = field.entity === undefined ? undefined : source.idColumns?.[field.name];
  if (idColumn !== undefined && (sub === undefined || sub === 'id'))
    return { kind: 'scalar', expr: sourceColumn(dialect, source, s, idColumn) };
  if (field.entity !== undefined && sub === undefined)
    return { kind: 'scalar', expr: dialect.jsonValue(doc, field.name, 'id') };
  return { kind: 'scalar', expr: dialect.jsonValue(doc, field.name, sub) };
}

/**
 * A sub-field of the entity `e` (aliased so in `FROM`): a column of its table, or a list kept
 * in a link table of it, joined as `v` (`research_orgs.types`: the organization's rows of
 * `organization_values` with that field), whose rows then repeat values. Undefined when the
 * entity holds neither.
 */
function entitySubfield(
  entity: EntityLayout,
  sub: string,
): { readonly join: string; readonly value: string; readonly repeats: boolean } | undefined {
  const column = entity.columns[sub];
  if (column !== undefined) return { join: '', value: `e.${ident(column)}`, repeats: false };
  const list = entity.lists?.[sub];
  if (list === undefined) return undefined;
  const field = list.field === undefined ? '' : ` AND v."field" = ${literal(list.field)}`;
  return {
    join: ` JOIN ${ident(list.table)} v ON v.${ident(list.ownerColumn)} = e.${ident(list.entityKey)}${field}`,
    value: `v.${ident(list.valueColumn)}`,
    // One row per linked entity and item: two organizations may both be a `Company`.
    repeats: true,
  };
}

/** What a field is read for, where that changes where it is read. */
export interface AccessOptions {
  /** For `is empty` and `count(...)`: every value the record holds, ids or not. */
  readonly presence?: boolean;
}

/**
 * The link table holding the ids of a field's objects (`SourceLayout.idLinks`), for a test
 * of their ids or a facet; undefined for their other sub-fields and for presence and counts,
 * which read the objects themselves.
 */
export function idLink(source: SourceLayout, field: PlanField, options: AccessOptions = {}): LinkLayout | undefined {
  if (options.presence === true || (field.subfield !== undefined && field.subfield !== 'id')) return undefined;
  return source.idLinks?.[field.name];
}

/** The text of the record document of `s` (unpacked, where the store packs it). */
export function documentText(dialect: Dialect, source: SourceLayout): string {
  return dialect.storedText(`${SOURCE_ALIAS}.${ident(source.document)}`);
}

/**
 * The join that reads a list of the entity row aliased `alias` (`LinkLayout.through.list`),
 * aliased `<alias>v`, after that row's own join; empty when the value is a column of the row.
 *
 * @example throughListJoin({ ..., list: { table: 'organization_values', ownerColumn: 'organization_pk', entityKey: 'pk', valueColumn: 'value', field: '17' } }, 't')
 *   // ' JOIN "organization_values" tv ON tv."organization_pk" = t."pk" AND tv."field" = \'17\''
 */
export function throughListJoin(through: NonNullable<LinkLayout['through']>, alias: string): string {
  const list = through.list;
  if (list === undefined) return '';
  const v = `${alias}v`;
  const field = list.field === undefined ? '' : ` AND ${v}.${ident('field')} = ${literal(list.field)}`;
  return ` JOIN ${ident(list.table)} ${v} ON ${v}.${ident(list.ownerColumn)} = ${alias}.${ident(list.entityKey)}${field}`;
}

/**
 * The value a link reads through its entities (`LinkLayout.through`) on the entity row
 * aliased `alias`: its column, or the first non-NULL of its columns.
 *
 * @example throughValue({ table: 'organizations', idColumn: 'id', columns: ['city_id', 'city_name'] }, 't')
 *   // 'coalesce(t."city_id", t."city_name")'
 */
export function throughValue(through: NonNullable<LinkLayout['through']>, alias: string): string {
  if (through.list !== undefined) return `${alias}v.${ident(through.list.valueColumn)}`;
  const columns = through.columns.map((c) => `${alias}.${ident(c)}`);
  return columns.length === 1 ? (columns[0] as string) : `coalesce(${columns.join(', ')})`;
}
