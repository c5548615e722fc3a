/** The query language: text → syntax tree → canonical text. Knows nothing of fields or SQL. */
export * from './ast.ts';
export { parse } from './parse.ts';
export { print, printFilter, printFullText, printString } from './printer.ts';
export { parseFullText } from './fulltext/parser.ts';
export { topLevelClauses, type TopLevelClauses } from './fulltext/clauses.ts';
export { BUDGETS, type Budgets } from './budgets.ts';
export { readQueryCorpus, type CorpusQuery } from './corpus.ts';
export { stripSpans } from './strip-spans.ts';
export { tokenize } from './lexer.ts';
export type { Token, TokenType } from './token.ts';
export { KEYWORDS, FULL_TEXT_OPERATORS } from './keywords.ts';
