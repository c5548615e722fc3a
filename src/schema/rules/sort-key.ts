import type { ValidationContext, ValidationRule } from '../context.ts';
import { returnKind } from '../references.ts';
import { didYouMean } from '../suggest.ts';

/**
 * Rule `sort-key`: records sort by relevance (`relevance` or `score`, only with full text) or by a single-valued
 * text, number or date field; facet rows sort by `count` or by one of the indicators the
 * return aggregates.
 *
 * @example `return publications sort by relevance` (no for "...") → SCHEMA_RELEVANCE_WITHOUT_FULLTEXT
 * @example `return publications sort by research_orgs` → SCHEMA_INVALID_SORT_FIELD
 * @example `return funders sort by funding` (not aggregated) → SCHEMA_INVALID_FACET_SORT
 */
export const sortKeyRule: ValidationRule = {
  name: 'sort-key',
  check(ctx: ValidationContext): void {
    for (const ref of ctx.references) {
      if (ref.role !== 'sort') continue;
      const resolution = ctx.resolve(ref);
      if (resolution.kind !== 'field') continue; // unknown names: known-field
      const { field, subfield } = resolution;
      const reason =
        subfield !== undefined
          ? ' (sub-fields are not sort keys)'
          : field.isMultivalue
            ? ' (it holds several values)'
            : field.isEntity
              ? ' (it is an entity)'
              : !field.sortable
                ? field.type === 'json'
                  ? ' (it holds structured values)'
                  : ' (it cannot be ordered)'
                : '';
      if (reason !== '')
        ctx.report('SCHEMA_INVALID_SORT_FIELD', ref.span, { source: ctx.source.name, name: ref.path, reason });
    }
    for (const ret of ctx.query.returns) {
      const sort = ret.sort;
      if (sort === undefined) continue;
      const kind = returnKind(ret, ctx.source);
      const key = sort.key.path;
      if (kind === 'records') {
        if ((key === 'relevance' || key === 'score') && ctx.query.fullText === undefined)
          ctx.report('SCHEMA_RELEVANCE_WITHOUT_FULLTEXT', sort.key.span);
        continue;
      }
      if (kind !== 'facet' || key === 'count') continue;
      const aggregated = (ret.aggregate ?? []).map((n) => n.value);
      if (aggregated.includes(key)) continue;
      const isIndicator = ctx.source.indicators.some((ind) => ind.name === key);
      ctx.report('SCHEMA_INVALID_FACET_SORT', sort.key.span, {
        name: ret.target.kind === 'ResultTarget' ? ret.target.name.value : '',
        key,
        advice: isIndicator
          ? ` Add it to aggregate: aggregate ${key} sort by ${key}.`
          : didYouMean(key, ['count', ...aggregated]),
      });
    }
  },
};
