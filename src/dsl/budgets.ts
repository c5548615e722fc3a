/**
 * Input budgets of the query language. Each keeps one hostile or mistaken query from
 * costing the service more than a moment; exceeding one is a coded `budget` error that
 * points at the place the budget ran out.
 */
export interface Budgets {
  readonly maxQueryLength: number;
  readonly maxTokens: number;
  readonly maxDepth: number;
  readonly maxInListItems: number;
  readonly maxConditions: number;
  readonly maxFullTextClauses: number;
}

export const BUDGETS: Budgets = Object.freeze({
  /** Characters (UTF-16 units) in the whole query: 64 KiB. */
  maxQueryLength: 64 * 1024,
  /** Tokens in the query (a whole string literal is one token). */
  maxTokens: 10_000,
  /** Nested parentheses / prefix operators, in filters, full-text strings and argument lists. */
  maxDepth: 32,
  /** Items in one `field in [...]` list (spec/dsl.md §4). */
  maxInListItems: 400,
  /** Conditions in one where clause (spec/dsl.md §4). */
  maxConditions: 100,
  /** Terms and phrases in one full-text string. */
  maxFullTextClauses: 100,
});
