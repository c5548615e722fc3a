import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { parse } from '../../src/dsl/index.ts';
import { isQuarryError } from '../../src/errors/index.ts';
import {
  schemaFor,
  validate,
  type FieldDescriptor,
  type FilterOperator,
  type ScalarType,
} from '../../src/schema/index.ts';

// Systematic: every field of every source, in every role the schema allows or forbids, for
// both language versions. A valid use must validate; a forbidden one must fail with the
// code that names the reason.

const ALL_OPERATORS: readonly FilterOperator[] = [
  '=',
  '!=',
  '>',
  '<',
  '>=',
  '<=',
  '~',
  'in',
  'range',
  'empty',
  'count',
];

function sample(type: ScalarType): string {
  switch (type) {
    case 'integer':
      return '2020';
    case 'float':
      return '1.5';
    case 'date':
      return '"2020-01-22"';
    case 'string':
    case 'json':
      return '"abc def"';
  }
}

function condition(field: FieldDescriptor, op: FilterOperator): string {
  const value = sample(field.isEntity ? 'string' : (field.type as ScalarType));
  switch (op) {
    case 'in':
      return `${field.name} in [${value}, ${value}]`;
    case 'range':
      return `${field.name} in [${value}:${value}]`;
    case 'empty':
      return `${field.name} is not empty`;
    case 'count':
      return `count(${field.name}) > 1`;
    case '=':
    case '!=':
    case '>':
    case '<':
    case '>=':
    case '<=':
    case '~':
      return `${field.name} ${op} ${value}`;
  }
}

function outcome(text: string, dslVersion: 1 | 2): string {
  try {
    validate(parse(text), { dslVersion, source: text });
    return 'ok';
  } catch (error) {
    if (isQuarryError(error)) return error.code;
    throw error;
  }
}

for (const dslVersion of [1, 2] as const) {
  const schema = schemaFor(dslVersion);
  for (const source of schema.sources.values()) {
    describe(`version ${dslVersion}, ${source.name}`, () => {
      test('every filter operator of every field: allowed ones validate, others name the reason', () => {
        for (const field of source.fields) {
          for (const op of ALL_OPERATORS) {
            const text = `search ${source.name} where ${condition(field, op)} return ${source.name}`;
            // Fields that are not filters take only emptiness (abstract is empty), like the hosted service.
            const expected = !field.isFilter
              ? op === 'empty' && field.operators.includes('empty')
                ? 'ok'
                : 'SCHEMA_NOT_FILTERABLE'
              : field.operators.includes(op)
                ? 'ok'
                : 'SCHEMA_OPERATOR_NOT_SUPPORTED';
            assert.equal(outcome(text, dslVersion), expected, text);
          }
        }
      });

      test('every sub-field of every filterable entity field can be filtered', () => {
        for (const field of source.fields) {
          if (!field.isEntity || !field.isFilter) continue;
          const entity = schema.entities.get(field.entity!);
          assert.ok(entity);
          for (const sub of entity.fields) {
            const text = `search ${source.name} where ${field.name}.${sub.name} = ${sample(sub.type)} return ${source.name}`;
            assert.equal(outcome(text, dslVersion), 'ok', text);
          }
        }
      });

      test('every field can be returned in a field list; unnest only list ones (multi-value or structured)', () => {
        for (const field of source.fields) {
          assert.equal(
            outcome(`search ${source.name} return ${source.name}[id + ${field.name}]`, dslVersion),
            'ok',
            field.name,
          );
          const unnest = `search ${source.name} return ${source.name}[id + unnest(${field.name})]`;
          const list = field.isMultivalue || field.type === 'json';
          assert.equal(outcome(unnest, dslVersion), list ? 'ok' : 'SCHEMA_UNNEST_NOT_MULTIVALUE', unnest);
        }
      });

      test('every facet field can be returned as a facet; other fields cannot', () => {
        for (const field of source.fields) {
          if (field.name === source.name) continue;
          const text = `search ${source.name} return ${field.name} limit 5`;
          assert.equal(outcome(text, dslVersion), field.isFacet ? 'ok' : 'SCHEMA_NOT_A_FACET', text);
        }
      });

      test('every sortable field sorts records; every indicator aggregates and sorts a facet', () => {
        for (const field of source.fields.filter((f) => f.sortable)) {
          assert.equal(
            // `score` is the relevance of a full-text search.
            outcome(
              `search ${source.name}${field.name === 'score' ? ' for "x"' : ''} return ${source.name} sort by ${field.name} asc`,
              dslVersion,
            ),
            'ok',
            field.name,
          );
        }
        const facet: string | undefined = source.fields.find((f) => f.isFacet && f.deprecated === undefined)?.name;
        // The organization groups have no facet: their `count` indicator has nothing to aggregate over.
        if (facet === undefined) return;
        for (const ind of source.indicators) {
          const text: string = `search ${source.name} return ${facet} aggregate ${ind.name} sort by ${ind.name}`;
          assert.equal(outcome(text, dslVersion), 'ok', text);
        }
      });

      test('every fieldset and every search index validates', () => {
        for (const fs of source.fieldsets)
          assert.equal(outcome(`search ${source.name} return ${source.name}[${fs.name}]`, dslVersion), 'ok', fs.name);
        for (const ix of source.searchIndexes) {
          const text = `search ${source.name} in ${ix.name} for "\\"Ana Silva\\"" return ${source.name}`;
          assert.equal(outcome(text, dslVersion), 'ok', text);
        }
      });
    });
  }
}
