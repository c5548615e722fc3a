/**
 * `describe version | schema | source X | entity X` (spec/dsl.md §6), generated from the
 * schema. Deprecated (version-1 only) fields and fieldsets are left out, though version 1
 * still accepts them.
 */
import type { DescribeQuery } from '../dsl/ast.ts';
import { isSourceName, schemaFor } from './build.ts';
import type { SchemaPermissions } from './context.ts';
import type { StatementChecks } from './statements.ts';
import type { DslVersion, EntityDescriptor, EntityName, Schema, SourceDescriptor, SourceName } from './types.ts';
import { validate } from './validate.ts';
import type { ValidatedDescribe } from './validated.ts';

/**
 * What `describe version` answers for each language version. Version 2 serves the schema of
 * the hosted service's January 2026 `describe schema` (spec/schema-2026.md: DSL 2.14), so
 * it names that release, and clients that check the release for a feature see it. Version 1
 * names the hosted v1's last release, 1.31 (its documentation's last v1 version, 1.31.0).
 */
export const VERSION_INFO: Record<DslVersion, { readonly release: string; readonly version: string }> = {
  1: { release: '1.31', version: '1.31.0' },
  2: { release: '2.14', version: '2.14.0' },
};

interface FieldDoc {
  readonly type: string;
  readonly description: string;
  /** The shape of structured values, or null (as the hosted service gives most fields). */
  readonly long_description: string | null;
  readonly is_entity: boolean;
  readonly is_filter: boolean;
  readonly is_facet: boolean;
  readonly is_multivalue: boolean;
}

function describeSource(source: SourceDescriptor): Record<string, unknown> {
  const fields: Record<string, FieldDoc> = {};
  for (const f of source.fields) {
    if (f.deprecated !== undefined) continue;
    fields[f.name] = {
      type: f.type,
      description: f.description,
      long_description: f.longDescription ?? null,
      is_entity: f.isEntity,
      is_filter: f.isFilter,
      is_facet: f.isFacet,
      is_multivalue: f.isMultivalue,
    };
  }
  const fieldsets = source.fieldsets.filter((fs) => fs.deprecated === undefined);
  const metrics: Record<string, { name: string; type: string; description: string }> = {};
  for (const ind of source.indicators)
    metrics[ind.name] = { name: ind.name, type: ind.type, description: ind.description };
  return {
    fields,
    fieldsets: fieldsets.map((fs) => fs.name),
    /** The exact members of each fieldset, in return order (Quarry's addition to the shape). */
    fieldset_fields: Object.fromEntries(fieldsets.map((fs) => [fs.name, [...fs.fields]])),
    metrics,
    search_fields: source.searchIndexes.map((ix) => ix.name),
    default_search_field: source.defaultIndex,
  };
}

function describeEntity(entity: EntityDescriptor): Record<string, unknown> {
  const fields: Record<string, FieldDoc & { readonly name: string }> = {};
  for (const f of entity.fields) {
    fields[f.name] = {
      // The hosted service's entity fields carry `name`, holding the type name ("string").
      name: f.type,
      type: f.type,
      description: f.description,
      long_description: null,
      is_entity: false,
      is_filter: f.operators.length > 0,
      is_facet: false,
      is_multivalue: f.isMultivalue,
    };
  }
  return { fields, fieldsets: ['basics'], display_fields: [...entity.displayFields] };
}

/**
 * The schema, or the part of it `sources` (the caller's subscription) may search: those
 * sources, and the functions returned from their searches. Entities stay: they describe the
 * shape of values inside the sources, not records of their own.
 */
function describeSchema(
  schema: Schema,
  sources?: readonly SourceName[],
  statements?: StatementChecks,
): Record<string, unknown> {
  const shown = (name: SourceName) => sources === undefined || sources.includes(name);
  return {
    sources: Object.fromEntries(
      [...schema.sources].filter(([name]) => shown(name)).map(([name, s]) => [name, describeSource(s)]),
    ),
    entities: Object.fromEntries([...schema.entities].map(([name, e]) => [name, describeEntity(e)])),
    functions: Object.fromEntries(
      [...schema.functions]
        .filter(([, fn]) => fn.sources.some(shown))
        .map(([name, fn]) => [
          name,
          {
            description: fn.description,
            sources: fn.sources.filter(shown),
            parameters: fn.parameters.map((p) => ({ ...p })),
          },
        ]),
    ),
    // Quarry's addition: the functions called as a whole statement (docs/functions.md), those
    // whose every source the caller may read.
    ...(statements === undefined
      ? {}
      : {
          statement_functions: Object.fromEntries(
            [...statements]
              .filter(([, fn]) => fn.reads.every(shown))
              .map(([name, fn]) => [
                name,
                {
                  description: fn.description,
                  reads: [...fn.reads],
                  parameters: fn.parameters.map((p) => ({ ...p })),
                },
              ]),
          ),
        }),
  };
}

/**
 * Answers a validated describe query.
 *
 * @example describe({ kind: 'describe', dslVersion: 2, target: 'version' }) // { release: '2.14', version: '2.14.0' }
 */
export function describe(query: ValidatedDescribe, statements?: StatementChecks): Record<string, unknown> {
  const schema = schemaFor(query.dslVersion);
  switch (query.target) {
    case 'version':
      return { ...VERSION_INFO[query.dslVersion] };
    case 'schema':
      return describeSchema(schema, query.sources, statements);
    case 'source': {
      const source = query.name !== undefined && isSourceName(query.name) ? schema.sources.get(query.name) : undefined;
      if (source === undefined) throw new Error(`describe: source ${String(query.name)} was not validated`);
      return describeSource(source);
    }
    case 'entity': {
      const entity = schema.entities.get(query.name as EntityName);
      if (entity === undefined) throw new Error(`describe: entity ${String(query.name)} was not validated`);
      return describeEntity(entity);
    }
  }
}

/**
 * Validates and answers a describe query in one step. Throws a QuarryError for an unknown
 * or unsupported entity, or a source outside `permissions`.
 *
 * @example describeQuery(parse('describe entity categories'), { dslVersion: 2 })
 * // { fields: { id: {...}, name: {...} }, display_fields: ['name'] }
 */
export function describeQuery(
  ast: DescribeQuery,
  options: { readonly dslVersion: DslVersion; readonly source?: string; readonly permissions?: SchemaPermissions },
): Record<string, unknown> {
  const { query } = validate(ast, {
    dslVersion: options.dslVersion,
    source: options.source ?? '',
    ...(options.permissions === undefined ? {} : { permissions: options.permissions }),
  });
  if (query.kind !== 'describe') throw new Error('describeQuery: not a describe query');
  return describe(query);
}
