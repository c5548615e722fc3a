/**
 * Every keyword of the language (spec/dsl.md §1 plus `describe`, `unnest`, `true`,
 * `false`), lower case. Keywords match in any case and several are also valid names in
 * some positions (see grammar.md §5); this list is for editors and completion, the parser
 * decides by position.
 */
export const KEYWORDS: readonly string[] = Object.freeze([
  'search',
  'in',
  'for',
  'where',
  'and',
  'or',
  'not',
  'return',
  'aggregate',
  'sort',
  'by',
  'asc',
  'desc',
  'limit',
  'skip',
  'as',
  'is',
  'empty',
  'count',
  'describe',
  'version',
  'schema',
  'source',
  'entity',
  'unnest',
  'true',
  'false',
]);

/** Upper-case operators of full-text strings (lower-case `and`/`or`/`not` are words there). */
export const FULL_TEXT_OPERATORS: readonly string[] = Object.freeze(['AND', 'OR', 'NOT', '&&', '||', '!', '+', '-']);
