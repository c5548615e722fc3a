import type { ValidationContext, ValidationRule } from '../context.ts';
import { resolveFieldset } from '../resolve.ts';
import { V1_ALL_WARNINGS } from '../version-1-answers.ts';

/**
 * Rule `removed-field`: fields and the `all` fieldset that version 2 removed
 * (spec/dsl.md §7). Under version 2 they are errors naming the replacement; under version 1
 * they work and add a `_warnings` entry.
 *
 * @example v2: `return publications[FOR]` → SCHEMA_REMOVED_FIELD "... use 'category_for' instead."
 * @example v1: same query → warning "Field 'FOR' is deprecated in favor of category_for. Please refer to ..."
 */
export const removedFieldRule: ValidationRule = {
  name: 'removed-field',
  check(ctx: ValidationContext): void {
    for (const ref of ctx.references) {
      if (ref.role === 'field-list' && ref.segments.length === 1) {
        const fieldset = resolveFieldset(ctx.schema, ctx.source, ref.path);
        if (fieldset?.kind === 'removed-fieldset') {
          ctx.report('SCHEMA_REMOVED_FIELDSET', ref.span, { replacement: fieldset.replacement });
          continue;
        }
        if (fieldset !== undefined) {
          // Version 1's `[all]` warns as the hosted v1 did; other fieldsets (v1 `basics`
          // holds `author_affiliations`) warn for nothing, as there.
          if (fieldset.fieldset.deprecated !== undefined) {
            const hosted = V1_ALL_WARNINGS[ctx.source.name];
            if (hosted !== undefined) {
              for (const w of hosted) ctx.warn(deprecationWarning(w.name, w.replacement));
            } else {
              for (const name of fieldset.fieldset.fields) {
                const field = ctx.schema.fieldsBySource.get(ctx.source.name)?.get(name);
                if (field?.deprecated !== undefined) ctx.warn(deprecationWarning(name, field.deprecated.replacement));
              }
            }
          }
          continue;
        }
      }
      const resolution = ctx.resolve(ref);
      if (resolution.kind === 'removed') {
        ctx.report('SCHEMA_REMOVED_FIELD', ref.span, { name: resolution.name, replacement: resolution.replacement });
      } else if (resolution.kind === 'field' && resolution.field.deprecated !== undefined) {
        ctx.warn(deprecationWarning(resolution.field.name, resolution.field.deprecated.replacement));
      }
    }
  },
};

/** The hosted service's `_warnings` text for a deprecated field, word for word (clients match on it). */
export function deprecationWarning(name: string, replacement: string): string {
  return `Field '${name}' is deprecated in favor of ${replacement}. Please refer to https://docs.dimensions.ai/dsl/releasenotes.html for more details`;
}
