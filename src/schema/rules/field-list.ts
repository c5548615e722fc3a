import type { ValidationContext, ValidationRule } from '../context.ts';
import { expandFieldList } from '../expand-fields.ts';
import { returnKind } from '../references.ts';

/**
 * Rule `field-list`: a records field list names whole fields (no `journal.title`),
 * unnests only list fields (multi-value or structured), and leaves at least one field.
 * Several `unnest()` give the cartesian product of their values, with a warning.
 *
 * @example `[id + unnest(year)]` → SCHEMA_UNNEST_NOT_MULTIVALUE
 * @example `[id + unnest(researchers) + unnest(funders)]` → warning: rows are the cartesian product
 * @example `[basics - basics]` → SCHEMA_EMPTY_FIELD_LIST
 */
export const fieldListRule: ValidationRule = {
  name: 'field-list',
  check(ctx: ValidationContext): void {
    for (const ref of ctx.references) {
      if (ref.role !== 'field-list' && ref.role !== 'unnest') continue;
      if (ref.segments.length > 1) {
        ctx.report('SCHEMA_SUBFIELD_IN_FIELD_LIST', ref.span, { path: ref.path });
        continue;
      }
      if (ref.role !== 'unnest') continue;
      const resolution = ctx.resolve(ref);
      // Structured values (concepts, investigators) are lists too.
      if (resolution.kind === 'field' && !resolution.field.isMultivalue && resolution.field.type !== 'json') {
        ctx.report('SCHEMA_UNNEST_NOT_MULTIVALUE', ref.span, { name: ref.path });
      }
    }
    for (const ret of ctx.query.returns) {
      if (
        ret.target.kind !== 'ResultTarget' ||
        returnKind(ret, ctx.source) !== 'records' ||
        ret.target.fields === undefined
      )
        continue;
      const unnests = ret.target.fields.filter((spec) => spec.kind === 'Unnest');
      if (unnests.length > 1) ctx.warn(unnestProductWarning(unnests.map((u) => u.path.path)));
      const expanded = expandFieldList(ctx.schema, ctx.source, ret.target.fields);
      if (expanded !== undefined && expanded.length === 0) {
        ctx.report('SCHEMA_EMPTY_FIELD_LIST', ret.target.span, { name: ret.target.name.value });
      }
    }
  },
};

/** The `_warnings` entry for a return with several `unnest()`. */
export function unnestProductWarning(fields: readonly string[]): string {
  return `Several fields are unnested (${fields.join(', ')}): each record gives one row per combination of their values (the cartesian product).`;
}
