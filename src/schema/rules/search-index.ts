import type { ValidationContext, ValidationRule } from '../context.ts';
import { didYouMean } from '../suggest.ts';

/**
 * Rule `search-index`: `in INDEX for "..."` names a search index of the searched source.
 *
 * @example `search grants in authors for "x"` → SCHEMA_UNKNOWN_INDEX, listing the indexes of grants
 */
export const searchIndexRule: ValidationRule = {
  name: 'search-index',
  check(ctx: ValidationContext): void {
    const index = ctx.query.fullText?.index;
    if (index === undefined) return;
    if (ctx.schema.indexesBySource.get(ctx.source.name)?.has(index.value) === true) return;
    const names = ctx.source.searchIndexes.map((ix) => ix.name);
    ctx.report('SCHEMA_UNKNOWN_INDEX', index.span, {
      name: index.value,
      source: ctx.source.name,
      indexes: names.join(', '),
      hint: didYouMean(index.value, names),
    });
  },
};
