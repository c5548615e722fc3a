import type { ReturnClause } from '../../dsl/ast.ts';
import type { ValidationContext, ValidationRule } from '../context.ts';

/** The top-level (or in-group) key a return produces: the `as` alias, else the source, facet or function name. */
export function resultKey(ret: ReturnClause): string {
  if (ret.alias !== undefined) return ret.alias.value;
  return ret.target.kind === 'FunctionTarget' ? ret.target.call.name.value : ret.target.name.value;
}

/**
 * Rule `result-keys`: no two returns produce the same key (in the same group), a group
 * name does not clash with a top-level key, and no key takes a name the protocol keeps for
 * metadata (`_stats`, `_warnings`, ...; every key starting with `_`).
 *
 * @example `return year return year` → SCHEMA_DUPLICATE_RESULT_KEY
 * @example `return year as "_stats"` → SCHEMA_RESERVED_RESULT_KEY
 */
export const resultKeysRule: ValidationRule = {
  name: 'result-keys',
  check(ctx: ValidationContext): void {
    const seen = new Set<string>();
    const topLevel = new Set<string>();
    const groups = new Set<string>();
    for (const ret of ctx.query.returns) {
      const key = resultKey(ret);
      const span = ret.alias?.span ?? ret.target.span;
      if (key.startsWith('_')) ctx.report('SCHEMA_RESERVED_RESULT_KEY', span, { key });
      if (ret.group !== undefined && ret.group.value.startsWith('_'))
        ctx.report('SCHEMA_RESERVED_RESULT_KEY', ret.group.span, { key: ret.group.value });
      const scoped = `${ret.group?.value ?? ''}\u0000${key}`;
      if (seen.has(scoped)) ctx.report('SCHEMA_DUPLICATE_RESULT_KEY', span, { key });
      seen.add(scoped);
      if (ret.group === undefined) {
        if (groups.has(key)) ctx.report('SCHEMA_DUPLICATE_RESULT_KEY', span, { key });
        topLevel.add(key);
      } else {
        if (topLevel.has(ret.group.value) && !groups.has(ret.group.value))
          ctx.report('SCHEMA_DUPLICATE_RESULT_KEY', ret.group.span, { key: ret.group.value });
        groups.add(ret.group.value);
      }
    }
  },
};
