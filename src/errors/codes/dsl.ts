import type { CodeTable } from '../code-table.ts';

/** Error codes raised by `src/dsl`-area modules. Codes are never renamed or reused once published. */
export const DSL_CODES = {
  DSL_EMPTY_QUERY: {
    category: 'syntax',
    message: 'The query is empty.',
    fix: 'Write a query, for example `search publications return publications`, or `describe schema`.',
  },
  DSL_UNEXPECTED_TOKEN: {
    category: 'syntax',
    message: 'Expected {expected} but found {found}.',
    fix: 'Compare the query with the grammar in docs/language.md at the position shown; a keyword may be missing, misspelled or out of order.',
  },
  DSL_UNEXPECTED_CHARACTER: {
    category: 'syntax',
    message: 'Unexpected character {char}.',
    fix: 'Remove the character, or put it inside a double-quoted string if it is part of a value.',
  },
  DSL_UNTERMINATED_STRING: {
    category: 'syntax',
    message: 'The string that starts here is not closed.',
    fix: 'Close the string with a double quote. A double quote inside a string is written \\" (or use a triple-quoted string """...""").',
  },
  DSL_INVALID_NUMBER: {
    category: 'syntax',
    message: 'Invalid number {text}.',
    fix: 'Write numbers as digits with an optional minus sign and decimal fraction (2019, -3, 2.5); put anything else in double quotes.',
  },
  DSL_DUPLICATE_CLAUSE: {
    category: 'syntax',
    message: "The '{clause}' clause is given more than once.",
    fix: 'Keep one of them; combine several filters with and/or inside one where clause.',
  },
  DSL_DUPLICATE_KEY: {
    category: 'syntax',
    message: 'The key "{key}" is given more than once in this object.',
    fix: 'Keep one "key": value pair per key in a JSON object argument.',
  },
  DSL_POSITIONAL_AFTER_NAMED: {
    category: 'syntax',
    message: 'A positional argument follows a named argument in the call to {function}.',
    fix: 'Put positional arguments first, then the name=value arguments.',
  },
  DSL_UNSUPPORTED_STATEMENT: {
    category: 'unsupported',
    message: "'{statement}' queries are not offered by this deployment.",
    fix: 'Use search or describe queries; this Quarry deployment does not offer this statement.',
  },
  DSL_UNSUPPORTED_FIELD_OPERATOR: {
    category: 'unsupported',
    message: "The '@' field operator is not offered by this deployment.",
    fix: 'Filter on the field with where (field = "value"), or choose a search index with in INDEX for "...".',
  },
  DSL_UNSUPPORTED_SEARCH_FUNCTION: {
    category: 'unsupported',
    message: "The search function '{name}' is not offered by this deployment; it offers {offered}.",
    fix: 'Search with a plain search string (for "..."), or with min_should_match("a OR b OR c", N), complex("words", N) or similar_documents("text"); docs/language.md says what each does.',
  },
  DSL_QUERY_TOO_LONG: {
    category: 'budget',
    message: 'The query is {length} characters long; the maximum is {max}.',
    fix: 'Shorten the query, for example by splitting a long in [...] list over several queries.',
  },
  DSL_TOO_MANY_TOKENS: {
    category: 'budget',
    message: 'The query has more than {max} tokens.',
    fix: 'Split the query into several smaller ones.',
  },
  DSL_TOO_DEEP: {
    category: 'budget',
    message: 'The query nests parentheses or operators more than {max} levels deep.',
    fix: 'Remove redundant parentheses and repeated not/NOT operators.',
  },
  DSL_IN_LIST_TOO_LONG: {
    category: 'budget',
    message: 'The in [...] list has more than {max} items.',
    fix: 'Split the list over several queries of at most 400 items each.',
  },
  DSL_TOO_MANY_CONDITIONS: {
    category: 'budget',
    message: 'The where clause has more than {max} conditions.',
    fix: 'Use field in [a, b, ...] instead of many or-ed equalities, or split the query.',
  },
  DSL_TOO_MANY_FULLTEXT_CLAUSES: {
    category: 'budget',
    message: 'The full-text string has more than {max} terms and phrases.',
    fix: 'Search for fewer terms, or split the search over several queries.',
  },
  DSL_FULLTEXT_EMPTY: {
    category: 'syntax',
    message: 'The full-text search string is empty.',
    fix: 'Give at least one word or phrase to search for, or leave out the for clause.',
  },
  DSL_FULLTEXT_UNEXPECTED: {
    category: 'syntax',
    message: 'In the search string: expected {expected} but found {found}.',
    fix: 'Check the operators and parentheses of the search string; to search for one of ^ " : ~ \\ [ ] { } ( ) ! | & + literally, put a backslash before it.',
  },
  DSL_FULLTEXT_UNTERMINATED_PHRASE: {
    category: 'syntax',
    message: 'The phrase that starts here in the search string is not closed.',
    fix: 'Close the phrase with \\" (inside a double-quoted query string the phrase quotes are written \\").',
  },
  DSL_FULLTEXT_EMPTY_PHRASE: {
    category: 'syntax',
    message: 'The search string holds an empty phrase.',
    fix: 'Put at least one word between the phrase quotes, or remove them.',
  },
  DSL_FULLTEXT_DANGLING_ESCAPE: {
    category: 'syntax',
    message: 'The search string ends with a backslash that escapes nothing.',
    fix: 'Remove the trailing backslash, or write \\\\ for a literal backslash.',
  },
  DSL_FULLTEXT_PROXIMITY_AFTER_GROUP: {
    category: 'syntax',
    message: 'Proximity (~N) can follow a phrase, not a parenthesised group.',
    fix: 'Write the words as a phrase: \\"chassis control\\"~2.',
  },
  DSL_FULLTEXT_INVALID_PROXIMITY: {
    category: 'syntax',
    message: 'Proximity must be ~ followed by a whole number, found {found}.',
    fix: 'Write the maximum distance as a whole number right after the phrase: \\"formal model\\"~10.',
  },
  DSL_FULLTEXT_INVALID_BOOST: {
    category: 'syntax',
    message: 'A boost must be ^ followed by a number, found {found}.',
    fix: 'Write the weight right after the term or phrase, without spaces: formal^4 or \\"formal model\\"^2.',
  },
  DSL_FULLTEXT_LONE_WILDCARD: {
    category: 'syntax',
    message: 'The search term {term} is only wildcards; it would match everything.',
    fix: 'Wildcards ? and * need at least one other character in the term (ital?, te*t, *est). To match every record, leave out the for clause.',
  },
  DSL_FULLTEXT_UNSUPPORTED_SYNTAX: {
    category: 'unsupported',
    message: 'The search string uses {feature}, which this deployment does not offer.',
    fix: 'Remove it, or put a backslash before the character to search for it literally.',
  },
} as const satisfies CodeTable;
