import type { ValidationContext, ValidationRule } from '../context.ts';
import { PAGING } from '../paging-limits.ts';
import { returnKind } from '../references.ts';

/**
 * Rule `paging`: `limit` at most 1000 (records and facets), `skip + limit` at most 50,000,
 * no negative values, and no `skip` on facets (spec/dsl.md §2, protocol.md §5). Out-of-range
 * values are errors, never silent caps.
 *
 * @example `return publications limit 2000` → SCHEMA_LIMIT_TOO_LARGE "Limit 2000 exceeds maximum allowed limit 1000."
 * @example `return year limit 10 skip 10` → SCHEMA_FACET_SKIP "offset is not supported for facet results ..."
 */
export const pagingRule: ValidationRule = {
  name: 'paging',
  check(ctx: ValidationContext): void {
    for (const ret of ctx.query.returns) {
      const kind = returnKind(ret, ctx.source);
      if (kind === 'function') continue;
      const { limit, skip } = ret;
      if (limit !== undefined && limit.value < 0)
        ctx.report('SCHEMA_NEGATIVE_PAGING', limit.span, { what: 'limit', value: limit.raw });
      if (skip !== undefined && skip.value < 0)
        ctx.report('SCHEMA_NEGATIVE_PAGING', skip.span, { what: 'skip', value: skip.raw });
      if (kind === 'facet') {
        if (limit !== undefined && limit.value > PAGING.maxFacetLimit) {
          ctx.report('SCHEMA_FACET_LIMIT_TOO_LARGE', limit.span, { limit: limit.raw, max: PAGING.maxFacetLimit });
        }
        if (skip !== undefined) {
          const name = ret.target.kind === 'ResultTarget' ? ret.target.name.value : '';
          ctx.report('SCHEMA_FACET_SKIP', skip.span, { skip: skip.raw, name });
        }
        continue;
      }
      if (limit !== undefined && limit.value > PAGING.maxLimit) {
        ctx.report('SCHEMA_LIMIT_TOO_LARGE', limit.span, { limit: limit.raw, max: PAGING.maxLimit });
        continue;
      }
      const total = (limit?.value ?? PAGING.defaultLimit) + (skip?.value ?? 0);
      if (skip !== undefined && total > PAGING.maxDepth) {
        ctx.report('SCHEMA_PAGING_TOO_DEEP', skip.span, { total, max: PAGING.maxDepth });
      }
    }
  },
};
