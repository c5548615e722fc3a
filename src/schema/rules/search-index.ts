import type { ValidationContext, ValidationRule } from '../context.ts';
import { UNSUPPORTED_INDEXES } from '../offered.ts';
import { didYouMean } from '../suggest.ts';

/**
 * Rule `search-index`: `in INDEX for "..."` names a search index of the searched source.
 *
 * @example `search grants in authors for "x"` → SCHEMA_UNKNOWN_INDEX, listing the indexes of grants
 * @example `search publications in raw_affiliations for "x"` → SCHEMA_UNSUPPORTED_INDEX (the text is not held)
 */
export const searchIndexRule: ValidationRule = {
  name: 'search-index',
  check(ctx: ValidationContext): void {
    const index = ctx.query.fullText?.index;
    if (index === undefined) return;
    if (ctx.schema.indexesBySource.get(ctx.source.name)?.has(index.value) === true) return;
    const names = ctx.source.searchIndexes.map((ix) => ix.name);
    if (UNSUPPORTED_INDEXES[ctx.source.name]?.includes(index.value) === true) {
      ctx.report('SCHEMA_UNSUPPORTED_INDEX', index.span, {
        name: index.value,
        source: ctx.source.name,
        indexes: names.join(', '),
      });
      return;
    }
    ctx.report('SCHEMA_UNKNOWN_INDEX', index.span, {
      name: index.value,
      source: ctx.source.name,
      indexes: names.join(', '),
      hint: didYouMean(index.value, names),
    });
  },
};
