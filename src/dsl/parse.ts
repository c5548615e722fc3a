import type { Query } from './ast.ts';
import { BUDGETS, type Budgets } from './budgets.ts';
import { tokenize } from './lexer.ts';
import { Parser } from './parser.ts';

/**
 * Parses a query (spec/dsl.md) into its syntax tree. Throws a QuarryError with a code and a
 * span for anything that is not in the language or exceeds an input budget; never
 * anything else.
 *
 * @example
 * parse('search grants for "malaria" return grants limit 5')
 * // { kind: 'SearchQuery', source: { value: 'grants' }, fullText: {...}, returns: [...] }
 */
export function parse(text: string, budgets: Budgets = BUDGETS): Query {
  const tokens = tokenize(text, budgets);
  return new Parser(text, tokens, budgets).parseQuery();
}
