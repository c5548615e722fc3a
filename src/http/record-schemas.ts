/**
 * The OpenAPI document's schema of a query's answer, generated from the data model: one
 * schema per source (`PublicationsRecord`, `GrantsRecord`, ...) with every field of its field
 * table, typed as `describe schema` types it, so generated clients get typed records.
 *
 * The schemas describe and never validate (see `documentOnly`): an answer carries only the
 * fields a query returned, so no field is required, and a field the source holds no value
 * for is null.
 */
import { SOURCE_FIELD_TABLES } from '../model/sources.ts';
import type { FieldRow } from '../model/field-table.ts';
import { ENTITY_NAMES, SOURCE_NAMES, type FieldType, type ScalarType, type SourceName } from '../model/types.ts';

type JsonSchema = Record<string, unknown>;

/** `publications` → `PublicationsRecord`, `clinical_trials` → `ClinicalTrialsRecord`. */
export function recordSchemaId(source: SourceName): string {
  return `${source.replace(/(^|_)(\w)/g, (_m, _sep: string, letter: string) => letter.toUpperCase())}Record`;
}

/** An entity value (an organization, a category, a city, ...): its id and the names it answers with. */
function entitySchema(entity: FieldType): JsonSchema {
  return {
    type: 'object',
    description: `One ${entity.replace(/_/g, ' ')} entity: its \`id\` and the fields the query asked for (\`name\`, \`title\`, ...)`,
    properties: { id: { type: ['string', 'integer'] } },
    additionalProperties: true,
  };
}

const SCALAR_SCHEMAS: Readonly<Record<ScalarType, JsonSchema>> = {
  string: { type: 'string' },
  integer: { type: 'integer' },
  float: { type: 'number' },
  date: { type: 'string', format: 'date' },
  json: { description: 'A structured value: its shape is the field’s `long_description` in `describe schema`' },
};

function valueSchema(type: FieldType): JsonSchema {
  return (ENTITY_NAMES as readonly string[]).includes(type) ? entitySchema(type) : SCALAR_SCHEMAS[type as ScalarType];
}

function fieldSchema([, type, flags, description]: FieldRow): JsonSchema {
  const value = valueSchema(type);
  const schema = flags.includes('m') ? { type: 'array', items: value } : value;
  // A value the source does not hold answers null; the JSON-typed ones may be anything already.
  if (type === 'json' && !flags.includes('m')) return { ...schema, description };
  return { anyOf: [schema, { type: 'null' }], description };
}

/** One source's record schema, by the id the query answer's schema refers to. */
export function recordSchema(source: SourceName): JsonSchema {
  const table = SOURCE_FIELD_TABLES[source];
  const rows = [...table.fields, ...(table.aliases ?? []).map((alias) => alias.row)];
  return {
    $id: recordSchemaId(source),
    type: 'object',
    description: `A record of \`${source}\` (${table.description.replace(/\.$/, '')}), or a facet row of this entity with its \`count\` and indicators. Only the fields the query returned are present.`,
    properties: Object.fromEntries(rows.map((row) => [row[0], fieldSchema(row)])),
    additionalProperties: true,
  };
}

/** Every source's record schema: add each to the app before the routes that refer to them. */
export const RECORD_SCHEMAS: readonly JsonSchema[] = SOURCE_NAMES.map(recordSchema);

/** A query's answer: one array per returned kind, plus metadata. */
export const QUERY_RESULT_SCHEMA = {
  type: 'object',
  description:
    'One array of records per returned kind (`publications`, `funders`, `year`, ...), plus `_stats`, `_warnings`, `_version`. ' +
    'Every other top-level key is an array, except a `return in "group"` object and the per-year functions (objects keyed by year).',
  properties: {
    ...Object.fromEntries(
      SOURCE_NAMES.map((source) => [source, { type: 'array', items: { $ref: `${recordSchemaId(source)}#` } }]),
    ),
    _stats: {
      type: 'object',
      properties: { total_count: { type: 'integer', description: 'Records of the searched source that match' } },
    },
    _warnings: { type: 'array', items: { type: 'string' } },
  },
  additionalProperties: true,
  examples: [
    {
      publications: [{ id: 'pub.1000001', title: 'Climate change and coastal wetlands', year: 2019, times_cited: 12 }],
      _stats: { total_count: 214 },
    },
  ],
} as const;
