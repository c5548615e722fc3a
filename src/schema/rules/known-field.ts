import type { ValidationContext, ValidationRule } from '../context.ts';
import { fieldNames, resolveFieldset, returnableNames } from '../resolve.ts';
import { didYouMean } from '../suggest.ts';

/**
 * Rule `known-field`: every field named in a filter, a field list, an unnest or a sort is a
 * field of the searched source, and a dotted path names a sub-field of an entity field.
 * (Facet names are checked by `return-target`, whose message fits them better.)
 *
 * @example `where titel = "x"` → SCHEMA_UNKNOWN_FIELD "Field 'titel' is not a field of 'publications'. Did you mean 'title'?"
 * @example `where journal.name = "x"` → SCHEMA_UNKNOWN_SUBFIELD (did you mean 'title')
 * @example `where year.id = 1` → SCHEMA_NOT_AN_ENTITY
 */
export const knownFieldRule: ValidationRule = {
  name: 'known-field',
  check(ctx: ValidationContext): void {
    for (const ref of ctx.references) {
      if (ref.role === 'facet') continue;
      if (
        ref.role === 'field-list' &&
        ref.segments.length === 1 &&
        resolveFieldset(ctx.schema, ctx.source, ref.path) !== undefined
      )
        continue;
      const resolution = ctx.resolve(ref);
      switch (resolution.kind) {
        case 'field':
        case 'removed':
          break;
        case 'unknown': {
          const candidates = ref.role === 'field-list' ? returnableNames(ctx.source) : fieldNames(ctx.source);
          ctx.report('SCHEMA_UNKNOWN_FIELD', ref.span, {
            name: resolution.name,
            source: ctx.source.name,
            hint: didYouMean(resolution.name, candidates),
          });
          break;
        }
        case 'unknown-subfield':
          ctx.report('SCHEMA_UNKNOWN_SUBFIELD', ref.span, {
            name: resolution.name,
            entity: resolution.entity.name,
            path: ref.path,
            hint: didYouMean(
              resolution.name,
              resolution.entity.fields.map((f) => f.name),
            ),
          });
          break;
        case 'not-entity':
          ctx.report('SCHEMA_NOT_AN_ENTITY', ref.span, {
            name: resolution.field.name,
            type: resolution.field.type,
            path: ref.path,
          });
          break;
      }
    }
  },
};
