import type { FieldSpec, Span } from '../../dsl/ast.ts';
import type { ValidationContext, ValidationRule } from '../context.ts';
import { coveredFields, entitledTo } from '../entitlements.ts';
import { facetFieldList } from '../facet-fields.ts';
import { resolveFieldset } from '../resolve.ts';
import type { FieldDescriptor, SourceDescriptor } from '../types.ts';

/**
 * Rule `linked-source`: a facet whose rows are records of another source (researchers,
 * organizations) shows fields beyond the entity's id and display fields only when the
 * subscription includes that source (`schema/entitlements.ts`). Each item of the field list
 * that brings in such a field is reported, at its place in the list.
 *
 * @example publications only: `return researchers[basics + extras]` → SCHEMA_LINKED_SOURCE_NOT_SUBSCRIBED at `extras`
 * @example publications only: `return researchers[first_name + orcid_id]` passes (the byline shows them)
 */
export const linkedSourceRule: ValidationRule = {
  name: 'linked-source',
  check(ctx: ValidationContext): void {
    if (ctx.options.permissions?.sources === undefined) return; // every source: nothing to check
    for (const ref of ctx.references) {
      if (ref.role !== 'facet' || ref.ret?.target.kind !== 'ResultTarget') continue;
      const specs = ref.ret.target.fields;
      const resolution = ctx.resolve(ref);
      if (specs === undefined || resolution.kind !== 'field' || resolution.field.entity === undefined) continue;
      const list = facetFieldList(ctx.schema, resolution.field, specs);
      // Unknown names are return-target's to report; other entities are covered whole.
      if (list.kind !== 'source' || entitledTo(ctx.options.permissions, list.source.name)) continue;
      const covered = coveredFields(ctx.schema, resolution.field.entity);
      const shown = new Set(list.fields.filter((f) => !covered.includes(f.name)).map((f) => f.name));
      const report = (name: string, span: Span, needs: readonly string[]) =>
        ctx.report('SCHEMA_LINKED_SOURCE_NOT_SUBSCRIBED', span, {
          name,
          facet: ref.path,
          fields: needs.join(', '),
          source: list.source.name,
          covered: covered.join(', '),
        });
      for (const spec of specs) {
        const needs = namedFields(ctx, list.source, spec).filter((name) => shown.delete(name));
        if (needs.length > 0) report(spec.path.path, spec.path.span, needs);
      }
      // A list that starts with `- name` starts from basics, which no item names.
      const first = specs[0];
      if (shown.size > 0 && first !== undefined) report('basics', first.span, [...shown]);
    }
  },
};

/** The fields one item of the list adds: a field, or a fieldset's members; none for `- name`. */
function namedFields(ctx: ValidationContext, source: SourceDescriptor, spec: FieldSpec): readonly string[] {
  if (spec.kind === 'FieldRef' && spec.exclude) return [];
  const name = spec.path.path;
  const field: FieldDescriptor | undefined = ctx.schema.fieldsBySource.get(source.name)?.get(name);
  if (field !== undefined) return [field.name];
  const fieldset = resolveFieldset(ctx.schema, source, name);
  return fieldset?.kind === 'fieldset' ? fieldset.fieldset.fields : [];
}
