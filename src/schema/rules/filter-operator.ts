import { conditionOperator, targetOperators } from '../condition-operator.ts';
import type { ValidationContext, ValidationRule } from '../context.ts';
import { describeOperator } from '../operators.ts';

/**
 * Rule `filter-operator`: the operator of each condition is one the field supports
 * (spec/dsl.md §4): `~` only on text, emptiness not on counters and flags, `count()` only
 * on multi-value fields, ordering not on entities.
 *
 * @example `where times_cited is empty` → SCHEMA_OPERATOR_NOT_SUPPORTED
 * @example `where year ~ "20"` → SCHEMA_OPERATOR_NOT_SUPPORTED
 */
export const filterOperatorRule: ValidationRule = {
  name: 'filter-operator',
  check(ctx: ValidationContext): void {
    for (const ref of ctx.references) {
      if ((ref.role !== 'filter' && ref.role !== 'count') || ref.condition === undefined) continue;
      const resolution = ctx.resolve(ref);
      if (resolution.kind !== 'field' || !resolution.field.isFilter) continue;
      const op = conditionOperator(ref.condition);
      if (op === undefined) continue;
      const supported = targetOperators(resolution.field, resolution.subfield);
      if (supported.includes(op)) continue;
      const { field, subfield } = resolution;
      const type =
        subfield?.type ??
        (field.isCounter
          ? `${field.type}, always present`
          : field.isMultivalue
            ? `${field.type}, multi-value`
            : field.type);
      ctx.report('SCHEMA_OPERATOR_NOT_SUPPORTED', ref.condition.span, {
        name: ref.path,
        type,
        operator: describeOperator(op),
        supported: supported.map(describeOperator).join(', '),
      });
    }
  },
};
