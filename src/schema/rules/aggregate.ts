import type { ValidationContext, ValidationRule } from '../context.ts';
import { returnKind } from '../references.ts';
import { didYouMean } from '../suggest.ts';

/**
 * Rule `aggregate`: `aggregate` belongs to facet returns, and names indicators of the
 * searched source (publications: citations and altmetric indicators; grants: funding;
 * every source: count).
 *
 * @example `search grants return funders aggregate citations_total` → SCHEMA_UNKNOWN_INDICATOR
 * @example `return publications aggregate count` → SCHEMA_AGGREGATE_ON_RECORDS
 */
export const aggregateRule: ValidationRule = {
  name: 'aggregate',
  check(ctx: ValidationContext): void {
    const names = ctx.source.indicators.map((ind) => ind.name);
    for (const ret of ctx.query.returns) {
      const aggregate = ret.aggregate;
      if (aggregate === undefined || aggregate.length === 0) continue;
      const kind = returnKind(ret, ctx.source);
      if (kind === 'function') continue; // return-target reports it
      if (kind === 'records') {
        ctx.report(
          'SCHEMA_AGGREGATE_ON_RECORDS',
          {
            start: aggregate[0]?.span.start ?? ret.span.start,
            end: aggregate[aggregate.length - 1]?.span.end ?? ret.span.end,
          },
          { name: ctx.source.name },
        );
        continue;
      }
      for (const name of aggregate) {
        if ((names as readonly string[]).includes(name.value)) continue;
        ctx.report('SCHEMA_UNKNOWN_INDICATOR', name.span, {
          name: name.value,
          source: ctx.source.name,
          indicators: names.join(', '),
          hint: didYouMean(name.value, names),
        });
      }
    }
  },
};
