import { LONG_DESCRIPTIONS, SOURCE_FIELD_TABLES } from '../model/sources.ts';
import { ENTITIES } from './entities.ts';
import { INDICATORS } from './indicators.ts';
import { FUNCTIONS } from './offered.ts';
import { operatorsForEntity, operatorsForScalar } from './operators.ts';
import type { FieldRow, RemovedFieldRow } from '../model/field-table.ts';
import type {
  Deprecation,
  DslVersion,
  EntityName,
  SearchIndexDescriptor,
  FieldDescriptor,
  FieldsetDescriptor,
  IndicatorDescriptor,
  IndicatorName,
  ScalarType,
  Schema,
  SourceDescriptor,
  SourceName,
} from './types.ts';
import { V1_BASICS_NAMES } from './version-1-answers.ts';

function isEntityType(type: string): type is EntityName {
  return ENTITIES.has(type as EntityName);
}

function fieldFrom(
  source: SourceName,
  [name, type, flags, description]: FieldRow,
  deprecated?: Deprecation,
  readsFrom?: string,
): FieldDescriptor {
  const isFilter = flags.includes('f');
  const isFacet = flags.includes('c');
  const isMultivalue = flags.includes('m');
  const isCounter = flags.includes('n');
  const entity = isEntityType(type) ? type : undefined;
  // Fields that are not filters (title, abstract) still take `is empty` / `is not empty`,
  // as in the hosted service; counters and flags never do.
  const operators = !isFilter
    ? isCounter || type === 'json'
      ? []
      : ['empty' as const]
    : entity !== undefined
      ? operatorsForEntity(isMultivalue)
      : operatorsForScalar(type as ScalarType, { multi: isMultivalue, counter: isCounter, subfield: false });
  return Object.freeze({
    name,
    source,
    type,
    ...(entity === undefined ? {} : { entity }),
    isEntity: entity !== undefined,
    isFilter,
    isFacet,
    isMultivalue,
    isCounter,
    ...(isFacet ? { facetKind: entity === undefined ? ('value' as const) : ('entity' as const) } : {}),
    operators: Object.freeze(operators),
    // Every single-valued text, number or date sorts (grants `title` included), filter or not.
    sortable: !isMultivalue && entity === undefined && type !== 'json',
    description,
    ...(LONG_DESCRIPTIONS[source][name] === undefined ? {} : { longDescription: LONG_DESCRIPTIONS[source][name] }),
    ...(deprecated === undefined ? {} : { deprecated: Object.freeze(deprecated) }),
    ...(readsFrom === undefined ? {} : { readsFrom }),
  });
}

function deprecationOf(removed: RemovedFieldRow): Deprecation {
  return {
    replacement: removed.replacement,
    readsFrom: removed.readsFrom,
    ...(removed.derivation === undefined ? {} : { derivation: removed.derivation }),
  };
}

function buildSource(name: SourceName, version: DslVersion): SourceDescriptor {
  const table = SOURCE_FIELD_TABLES[name];
  const current = [
    ...table.fields.map((row) => fieldFrom(name, row)),
    ...(table.aliases ?? []).map((a) => fieldFrom(name, a.row, undefined, a.readsFrom)),
    // Warned of whenever a query names them (rule `removed-field`), in both versions.
    ...(table.deprecatedFields ?? []).map((d) =>
      fieldFrom(name, d.row, { replacement: d.replacement, readsFrom: d.row[0] }),
    ),
  ];
  const removed = version === 1 ? table.removedInV2.map((r) => fieldFrom(name, r.row, deprecationOf(r))) : [];
  const fields = [...current, ...removed].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  const v1Names = version === 1 ? (V1_BASICS_NAMES[name] ?? {}) : {};
  const fieldsets: FieldsetDescriptor[] = table.fieldsets.map((fs) =>
    Object.freeze({
      name: fs.name,
      description: fs.description,
      fields: Object.freeze(fs.name === 'basics' ? fs.fields.map((f) => v1Names[f] ?? f) : [...fs.fields]),
    }),
  );
  if (version === 1) {
    const hasExtras = table.fieldsets.some((fs) => fs.name === 'extras');
    fieldsets.push(
      Object.freeze({
        name: 'all',
        description: 'Every field of the source, the deprecated ones included (version 1 only).',
        fields: Object.freeze(fields.map((f) => f.name)),
        deprecated: Object.freeze({ replacement: hasExtras ? 'basics + extras' : 'basics' }),
      }),
    );
  }
  const indicators: IndicatorDescriptor[] = table.indicators.map((n) => {
    const d = INDICATORS.get(n as IndicatorName);
    if (d === undefined) throw new Error(`unknown indicator ${n} in the ${name} table`);
    return d;
  });
  return Object.freeze({
    name,
    description: table.description,
    fields: Object.freeze(fields),
    fieldsets: Object.freeze(fieldsets),
    searchIndexes: Object.freeze(
      table.searchIndexes.map((ix) =>
        Object.freeze({ name: ix.name, description: ix.description, isPersonNameIndex: ix.personNames === true }),
      ),
    ),
    defaultIndex: table.defaultIndex,
    indicators: Object.freeze(indicators),
    defaultOrder: Object.freeze({ ...table.defaultOrder, tieBreak: 'id' as const }),
  });
}

function buildSchema(version: DslVersion): Schema {
  const sources = new Map<SourceName, SourceDescriptor>();
  const fieldsBySource = new Map<SourceName, ReadonlyMap<string, FieldDescriptor>>();
  const fieldsetsBySource = new Map<SourceName, ReadonlyMap<string, FieldsetDescriptor>>();
  const indexesBySource = new Map<SourceName, ReadonlyMap<string, SearchIndexDescriptor>>();
  const removedBySource = new Map<
    SourceName,
    ReadonlyMap<string, { kind: 'field' | 'fieldset'; replacement: string }>
  >();
  for (const name of Object.keys(SOURCE_FIELD_TABLES) as SourceName[]) {
    const source = buildSource(name, version);
    sources.set(name, source);
    fieldsBySource.set(name, new Map(source.fields.map((f) => [f.name, f])));
    fieldsetsBySource.set(name, new Map(source.fieldsets.map((fs) => [fs.name, fs])));
    indexesBySource.set(name, new Map(source.searchIndexes.map((ix) => [ix.name, ix])));
    const removed = new Map<string, { kind: 'field' | 'fieldset'; replacement: string }>();
    if (version === 2) {
      for (const r of SOURCE_FIELD_TABLES[name].removedInV2)
        removed.set(r.row[0], Object.freeze({ kind: 'field' as const, replacement: r.replacement }));
      const old = buildSource(name, 1).fieldsets.find((fs) => fs.name === 'all');
      if (old?.deprecated !== undefined)
        removed.set('all', Object.freeze({ kind: 'fieldset' as const, replacement: old.deprecated.replacement }));
    }
    removedBySource.set(name, removed);
  }
  const entityFields = new Map([...ENTITIES].map(([name, e]) => [name, new Map(e.fields.map((f) => [f.name, f]))]));
  return Object.freeze({
    version,
    sources,
    entities: ENTITIES,
    functions: FUNCTIONS,
    fieldsBySource,
    fieldsetsBySource,
    indexesBySource,
    entityFields,
    removedBySource,
  });
}

const cache = new Map<DslVersion, Schema>();

/**
 * The schema of one language version (built once, then cached). Version 1 is version 2
 * plus the removed fields of spec/dsl.md §7 (flagged `deprecated`) and the `all` fieldset.
 *
 * @example schemaFor(2).fieldsBySource.get('publications')?.get('year')?.facetKind // 'value'
 */
export function schemaFor(version: DslVersion): Schema {
  let schema = cache.get(version);
  if (schema === undefined) {
    schema = buildSchema(version);
    cache.set(version, schema);
  }
  return schema;
}

/** Narrowing helper: is this one of the held sources? */
export function isSourceName(name: string): name is SourceName {
  return Object.hasOwn(SOURCE_FIELD_TABLES, name);
}
