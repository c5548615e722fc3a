import type { ValidationContext, ValidationRule } from '../context.ts';

/**
 * Rule `filterable-field`: fields in a where clause must be filterable (spec/data-model.md
 * "filter" column). Text-only fields such as `title` and `abstract` are searched with
 * `for "..."` instead.
 *
 * @example `where title = "x"` → SCHEMA_NOT_FILTERABLE (but `where abstract is empty` is allowed)
 */
export const filterableFieldRule: ValidationRule = {
  name: 'filterable-field',
  check(ctx: ValidationContext): void {
    for (const ref of ctx.references) {
      if (ref.role !== 'filter' && ref.role !== 'count') continue;
      const resolution = ctx.resolve(ref);
      if (resolution.kind !== 'field' || resolution.field.isFilter) continue;
      // Emptiness works on every field that has it (abstract is empty); filter-operator checks the rest.
      const condition = ref.condition?.kind;
      if ((condition === 'IsEmpty' || condition === 'IsNotEmpty') && resolution.field.operators.includes('empty'))
        continue;
      const textual = resolution.field.type === 'string';
      ctx.report('SCHEMA_NOT_FILTERABLE', ref.span, {
        name: resolution.field.name,
        source: ctx.source.name,
        advice: textual ? ' Search its text with for "..." instead.' : '',
      });
    }
  },
};
