import type { ValidationContext, ValidationRule } from '../context.ts';
import { checkSearchFunction } from '../search-functions.ts';

/**
 * Rule `search-function`: `for min_should_match("...", N)` and `for complex("...", N)`
 * carry a whole number N of 1 or more that fits the search string.
 *
 * @example `for min_should_match("a OR b", 3)` → SCHEMA_SEARCH_FUNCTION_ARGUMENTS (3 of 2 clauses)
 * @example `for complex("a OR b", 2)` → SCHEMA_SEARCH_FUNCTION_ARGUMENTS (no OR inside complex)
 */
export const searchFunctionRule: ValidationRule = {
  name: 'search-function',
  check(ctx: ValidationContext): void {
    const fullText = ctx.query.fullText;
    if (fullText?.call === undefined) return;
    const checked = checkSearchFunction(fullText.call, fullText.ast);
    if (!checked.ok) ctx.report(checked.code, checked.span, checked.params);
  },
};
