import type { ScalarValue } from '../../dsl/ast.ts';
import { conditionOperator, targetOperators } from '../condition-operator.ts';
import type { ValidationContext, ValidationRule } from '../context.ts';
import type { ScalarType } from '../types.ts';
import { normaliseValue, wordsOf } from '../values.ts';

function checkValue(ctx: ValidationContext, type: ScalarType, path: string, value: ScalarValue): void {
  const normalised = normaliseValue(type, value);
  if (!normalised.ok) {
    ctx.report('SCHEMA_INVALID_VALUE', value.span, {
      value: ctx.options.source.slice(value.span.start, value.span.end),
      name: path,
      expected: normalised.expected,
    });
  }
}

/**
 * Rule `filter-value`: every value fits the type of its field (spec/dsl.md §1, §4): dates
 * are real `YYYY[-MM[-DD]]` dates, integers are integers (quoted ones too), `~` has at
 * least one word, `count(...)` compares with a whole number from 0 to 2^53 - 1.
 *
 * @example `where date > "2020-13-01"` → SCHEMA_INVALID_VALUE
 */
export const filterValueRule: ValidationRule = {
  name: 'filter-value',
  check(ctx: ValidationContext): void {
    for (const ref of ctx.references) {
      const node = ref.condition;
      if (node === undefined) continue;
      const resolution = ctx.resolve(ref);
      if (resolution.kind !== 'field' || !resolution.field.isFilter) continue;
      const op = conditionOperator(node);
      if (op === undefined || !targetOperators(resolution.field, resolution.subfield).includes(op)) continue;
      const type: ScalarType =
        resolution.subfield?.type ?? (resolution.field.isEntity ? 'string' : (resolution.field.type as ScalarType));
      switch (node.kind) {
        case 'Comparison':
          if (node.op === '~') {
            const text = node.value.kind === 'String' ? node.value.value : node.value.raw;
            if (wordsOf(text).length === 0) {
              ctx.report('SCHEMA_INVALID_VALUE', node.value.span, {
                value: ctx.options.source.slice(node.value.span.start, node.value.span.end),
                name: ref.path,
                expected: 'one or more words',
              });
            }
          } else {
            checkValue(ctx, type, ref.path, node.value);
          }
          break;
        case 'InList':
          for (const value of node.values) checkValue(ctx, type, ref.path, value);
          break;
        case 'InRange':
          checkValue(ctx, type, ref.path, node.low);
          checkValue(ctx, type, ref.path, node.high);
          break;
        case 'CountComparison':
          // Bounded like an integer field's value: past 2^53 the number is no longer the one
          // written, and PostgreSQL cannot bind one past int8 (a server error, not an answer).
          if (!node.value.integer || node.value.value < 0 || !Number.isSafeInteger(node.value.value)) {
            ctx.report('SCHEMA_INVALID_VALUE', node.value.span, {
              value: node.value.raw,
              name: `count(${ref.path})`,
              expected: `a whole number from 0 to ${Number.MAX_SAFE_INTEGER}`,
            });
          }
          break;
        case 'IsEmpty':
        case 'IsNotEmpty':
        case 'And':
        case 'Or':
        case 'Not':
          break;
      }
    }
  },
};
