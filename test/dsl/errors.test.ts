import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { formatWithCaret, QuarryError, renderErrorBody } from '../../src/errors/index.ts';
import { parse } from '../../src/dsl/parse.ts';
import { columnOf, expectParseError } from './helpers.ts';

// [query, code, message (exact, or a fragment when it starts with '…'), column of the first problem]
const cases: ReadonlyArray<readonly [string, string, string, number]> = [
  ['', 'DSL_EMPTY_QUERY', 'The query is empty.', 1],
  ['   \n\t ', 'DSL_EMPTY_QUERY', 'The query is empty.', 1],
  [
    'search publications limit 5',
    'DSL_UNEXPECTED_TOKEN',
    "Expected 'for', 'in', 'where' or 'return' but found 'limit'.",
    21,
  ],
  [
    'search publications for "x" where a = 1 limit 5',
    'DSL_UNEXPECTED_TOKEN',
    "Expected 'return' but found 'limit'.",
    41,
  ],
  [
    'search publications where a = 1 limit 5',
    'DSL_UNEXPECTED_TOKEN',
    "Expected 'for', 'in' or 'return' but found 'limit'.",
    33,
  ],
  [
    'search publications for "x" limit 5',
    'DSL_UNEXPECTED_TOKEN',
    "Expected 'where' or 'return' but found 'limit'.",
    29,
  ],
  [
    'search where a = 1 return x',
    'DSL_UNEXPECTED_TOKEN',
    "Expected a source name after 'search' but found 'where'.",
    8,
  ],
  ['search', 'DSL_UNEXPECTED_TOKEN', "Expected a source name after 'search' but found the end of the query.", 7],
  [
    'search publications return',
    'DSL_UNEXPECTED_TOKEN',
    "Expected a source, facet or function name after 'return' but found the end of the query.",
    27,
  ],
  [
    'search publications return limit 5',
    'DSL_UNEXPECTED_TOKEN',
    "Expected a source, facet or function name after 'return' but found 'limit'.",
    28,
  ],
  [
    'search publications return publications publications',
    'DSL_UNEXPECTED_TOKEN',
    "Expected 'as', 'aggregate', 'sort by', 'limit', 'skip', 'return' or the end of the query but found 'publications'.",
    41,
  ],
  [
    'search publications return publications limit 5 publications',
    'DSL_UNEXPECTED_TOKEN',
    "…'skip', 'return' or the end of the query but found 'publications'.",
    49,
  ],
  [
    'search publications return publications limit 5.5',
    'DSL_UNEXPECTED_TOKEN',
    "Expected a whole number after 'limit' but found the number 5.5.",
    47,
  ],
  [
    'search publications return publications limit "5"',
    'DSL_UNEXPECTED_TOKEN',
    'Expected a whole number after \'limit\' but found the string "5".',
    47,
  ],
  [
    'search publications return publications skip',
    'DSL_UNEXPECTED_TOKEN',
    "Expected a whole number after 'skip' but found the end of the query.",
    45,
  ],
  [
    'search publications return publications[]',
    'DSL_UNEXPECTED_TOKEN',
    "Expected a field or fieldset name but found ']'.",
    41,
  ],
  [
    'search publications return publications[id title]',
    'DSL_UNEXPECTED_TOKEN',
    "Expected '+', '-' or ']' but found 'title'.",
    44,
  ],
  [
    'search publications return publications[id + ]',
    'DSL_UNEXPECTED_TOKEN',
    "Expected a field or fieldset name but found ']'.",
    46,
  ],
  [
    'search publications return publications[basics - unnest(x)]',
    'DSL_UNEXPECTED_TOKEN',
    "…(unnest() cannot be excluded) but found 'unnest'.",
    50,
  ],
  [
    'search publications return publications[unnest()]',
    'DSL_UNEXPECTED_TOKEN',
    "Expected a field name inside unnest( ) but found ')'.",
    48,
  ],
  [
    'search publications return publications[journal.]',
    'DSL_UNEXPECTED_TOKEN',
    "Expected a sub-field name after '.' but found ']'.",
    49,
  ],
  ['search publications return publications sort year', 'DSL_UNEXPECTED_TOKEN', "Expected 'by' but found 'year'.", 46],
  [
    'search publications return funders aggregate',
    'DSL_UNEXPECTED_TOKEN',
    "Expected an indicator name after 'aggregate' but found the end of the query.",
    45,
  ],
  [
    'search publications return funders aggregate count, limit 5',
    'DSL_UNEXPECTED_TOKEN',
    "Expected an indicator name after ',' but found 'limit'.",
    53,
  ],
  [
    'search publications return funders as funders_top',
    'DSL_UNEXPECTED_TOKEN',
    "Expected a name in double quotes after 'as' but found 'funders_top'.",
    39,
  ],
  [
    'search publications return in funders',
    'DSL_UNEXPECTED_TOKEN',
    "Expected a group name in double quotes after 'return in' but found 'funders'.",
    31,
  ],
  [
    'search publications where year 2019 return publications',
    'DSL_UNEXPECTED_TOKEN',
    "Expected an operator (=, !=, >, <, >=, <=, ~, 'in' or 'is') but found the number 2019.",
    32,
  ],
  [
    'search publications where year == 2019 return publications',
    'DSL_UNEXPECTED_TOKEN',
    "Expected a value (a string in double quotes or a number) but found '='.",
    33,
  ],
  [
    'search publications where year = return publications',
    'DSL_UNEXPECTED_TOKEN',
    "Expected a value (a string in double quotes or a number) but found 'return'.",
    34,
  ],
  [
    'search publications where year = 2019 and return publications',
    'DSL_UNEXPECTED_TOKEN',
    "Expected a condition (field operator value), 'not' or '(' but found 'return'.",
    43,
  ],
  [
    'search publications where (year = 2019 return publications',
    'DSL_UNEXPECTED_TOKEN',
    "Expected ')' to close the '(' opened earlier, 'and' or 'or' but found 'return'.",
    40,
  ],
  [
    'search publications where ) return publications',
    'DSL_UNEXPECTED_TOKEN',
    "Expected a condition (field operator value), 'not' or '(' but found ')'.",
    27,
  ],
  [
    'search publications where year in [] return publications',
    'DSL_UNEXPECTED_TOKEN',
    "Expected a value (a string in double quotes or a number) but found ']'.",
    36,
  ],
  [
    'search publications where year in [1, 2 return publications',
    'DSL_UNEXPECTED_TOKEN',
    "Expected ',' or ']' but found 'return'.",
    41,
  ],
  [
    'search publications where year in [1 2] return publications',
    'DSL_UNEXPECTED_TOKEN',
    "Expected ',', ':' or ']' but found the number 2.",
    38,
  ],
  [
    'search publications where year in [1:] return publications',
    'DSL_UNEXPECTED_TOKEN',
    "Expected the upper bound of the range but found ']'.",
    38,
  ],
  [
    'search publications where year in 2019 return publications',
    'DSL_UNEXPECTED_TOKEN',
    "Expected '[' to start the list but found the number 2019.",
    35,
  ],
  [
    'search publications where doi is null return publications',
    'DSL_UNEXPECTED_TOKEN',
    "Expected 'empty' but found 'null'.",
    34,
  ],
  [
    'search publications where count(researchers) > "5" return publications',
    'DSL_UNEXPECTED_TOKEN',
    'Expected a number after the operator but found the string "5".',
    48,
  ],
  [
    'search publications where count(researchers) in [1:2] return publications',
    'DSL_UNEXPECTED_TOKEN',
    "Expected an operator (=, !=, >, <, >=, <=) but found 'in'.",
    46,
  ],
  [
    'search publications for malaria return publications',
    'DSL_UNEXPECTED_TOKEN',
    "Expected a search string in double quotes after 'for' but found 'malaria'.",
    25,
  ],
  [
    'search publications in for "x" return publications',
    'DSL_UNEXPECTED_TOKEN',
    "Expected a search index name after 'in' but found 'for'.",
    24,
  ],
  [
    'search publications in authors return publications',
    'DSL_UNEXPECTED_TOKEN',
    "Expected 'for' but found 'return'.",
    32,
  ],
  [
    'describe',
    'DSL_UNEXPECTED_TOKEN',
    "Expected 'version', 'schema', 'source' or 'entity' but found the end of the query.",
    9,
  ],
  [
    'describe tables',
    'DSL_UNEXPECTED_TOKEN',
    "Expected 'version', 'schema', 'source' or 'entity' but found 'tables'.",
    10,
  ],
  [
    'describe source',
    'DSL_UNEXPECTED_TOKEN',
    "Expected a source name after 'describe source' but found the end of the query.",
    16,
  ],
  ['describe version extra', 'DSL_UNEXPECTED_TOKEN', "Expected the end of the query but found 'extra'.", 18],
  [
    'find publications',
    'DSL_UNEXPECTED_TOKEN',
    "Expected 'search', 'describe' or a function call but found 'find'.",
    1,
  ],
  [
    '"search"',
    'DSL_UNEXPECTED_TOKEN',
    "Expected 'search', 'describe' or a function call but found the string \"search\".",
    1,
  ],
  [
    'f(1,)',
    'DSL_UNEXPECTED_TOKEN',
    "Expected an argument value (a string, a number, true, false or a [...] list) but found ')'.",
    5,
  ],
  ['f(x)', 'DSL_UNEXPECTED_TOKEN', "…but found 'x'.", 3],
  ['f(1', 'DSL_UNEXPECTED_TOKEN', "Expected ',' or ')' but found the end of the query.", 4],
  ['f([1, 2)', 'DSL_UNEXPECTED_TOKEN', "Expected ',' or ']' but found ')'.", 8],
  [
    'search publications where year = 2019; return publications',
    'DSL_UNEXPECTED_CHARACTER',
    "Unexpected character ';'.",
    38,
  ],
  ['search publications where a ! b return p', 'DSL_UNEXPECTED_CHARACTER', "Unexpected character '!'.", 29],
  ['search publicações return p', 'DSL_UNEXPECTED_CHARACTER', "Unexpected character 'ç'.", 15],
  ['search 😀 return p', 'DSL_UNEXPECTED_CHARACTER', "Unexpected character '😀'.", 8],
  ['search p\u0000 return p', 'DSL_UNEXPECTED_CHARACTER', 'Unexpected character U+0000.', 9],
  ['search\u00a0p return p', 'DSL_UNEXPECTED_CHARACTER', 'Unexpected character U+00A0.', 7],
  [
    'search publications for "malaria return publications',
    'DSL_UNTERMINATED_STRING',
    'The string that starts here is not closed.',
    25,
  ],
  [
    'search publications for "malaria\\" return publications',
    'DSL_UNTERMINATED_STRING',
    'The string that starts here is not closed.',
    25,
  ],
  ['extract_concepts("""abc)', 'DSL_UNTERMINATED_STRING', 'The string that starts here is not closed.', 18],
  [
    'search publications where year = 2019abc return publications',
    'DSL_INVALID_NUMBER',
    "Invalid number '2019abc'.",
    34,
  ],
  ['search publications where score = 1.2.3 return publications', 'DSL_INVALID_NUMBER', "Invalid number '1.2.3'.", 35],
  [
    'search publications where a = 1 where b = 2 return publications',
    'DSL_DUPLICATE_CLAUSE',
    "The 'where' clause is given more than once.",
    33,
  ],
  [
    'search publications for "a" for "b" return publications',
    'DSL_DUPLICATE_CLAUSE',
    "The 'for' clause is given more than once.",
    29,
  ],
  [
    'search publications for "a" where x = 1 in authors for "b" return publications',
    'DSL_DUPLICATE_CLAUSE',
    "The 'for' clause is given more than once.",
    41,
  ],
  [
    'search publications for "a" in authors return publications',
    'DSL_UNEXPECTED_TOKEN',
    "Expected 'where' or 'return' ('in INDEX' goes before 'for') but found 'in'.",
    29,
  ],
  [
    'search publications return publications limit 5 limit 6',
    'DSL_DUPLICATE_CLAUSE',
    "The 'limit' clause is given more than once.",
    49,
  ],
  [
    'search publications return funders sort by count sort by count',
    'DSL_DUPLICATE_CLAUSE',
    "The 'sort' clause is given more than once.",
    50,
  ],
  [
    'search publications return funders as "a" as "b"',
    'DSL_DUPLICATE_CLAUSE',
    "The 'as' clause is given more than once.",
    43,
  ],
  [
    'search publications return funders aggregate count aggregate funding',
    'DSL_DUPLICATE_CLAUSE',
    "The 'aggregate' clause is given more than once.",
    52,
  ],
  [
    'search publications return publications skip 1 skip 2',
    'DSL_DUPLICATE_CLAUSE',
    "The 'skip' clause is given more than once.",
    48,
  ],
  [
    'classify(title="t", "abstract")',
    'DSL_POSITIONAL_AFTER_NAMED',
    "A positional argument follows a named argument in the call to 'classify'.",
    21,
  ],
  [
    'identify reviewers from concepts "malaria" using publications return experts',
    'DSL_UNSUPPORTED_STATEMENT',
    "'identify reviewers' queries are not offered by this deployment.",
    1,
  ],
  [
    'search publications where title@"x" return publications',
    'DSL_UNSUPPORTED_FIELD_OPERATOR',
    "The '@' field operator is not offered by this deployment.",
    32,
  ],
  [
    'search publications where @title = "x" return publications',
    'DSL_UNSUPPORTED_FIELD_OPERATOR',
    "The '@' field operator is not offered by this deployment.",
    27,
  ],
  [
    'search publications for more_like_this("Malaria: a review") return publications',
    'DSL_UNSUPPORTED_SEARCH_FUNCTION',
    "The search function 'more_like_this' is not offered by this deployment; it offers min_should_match(), complex() and similar_documents().",
    25,
  ],
  [
    'search publications for min_should_match(2) return publications',
    'DSL_UNEXPECTED_TOKEN',
    'Expected a search string in double quotes as the first argument of min_should_match() but found the number 2.',
    42,
  ],
];

describe('parser errors: code, message and position', () => {
  for (const [query, code, message, column] of cases) {
    test(query === '' ? '(empty query)' : query, () => {
      const problem = expectParseError(query, code);
      if (message.startsWith('…')) assert.ok(problem.message.endsWith(message.slice(1)), problem.message);
      else assert.equal(problem.message, message);
      assert.equal(columnOf(problem), column);
    });
  }
});

describe('parser errors: presentation', () => {
  test('search publications\\n  where year = 2019abc\\n  return publications — line and column on the second line', () => {
    const problem = expectParseError(
      'search publications\n  where year = 2019abc\n  return publications',
      'DSL_INVALID_NUMBER',
    );
    assert.deepEqual(problem.position, { line: 2, column: 16 });
  });

  test('the caret display points at the unexpected token', () => {
    const text = 'search publications limit 5';
    const problem = expectParseError(text, 'DSL_UNEXPECTED_TOKEN');
    assert.equal(
      formatWithCaret(text, problem),
      [
        "Expected 'for', 'in', 'where' or 'return' but found 'limit'. [DSL_UNEXPECTED_TOKEN]",
        '  1 | search publications limit 5',
        '    |                     ^^^^^',
      ].join('\n'),
    );
  });

  test('the protocol body of a syntax error names the code and position', () => {
    let body;
    try {
      parse('search publications return publications limit 5.5');
    } catch (err) {
      assert.ok(err instanceof QuarryError);
      body = renderErrorBody(err, { dslVersion: 2 });
    }
    assert.equal(body?.errors.query.code, 'DSL_UNEXPECTED_TOKEN');
    assert.equal(body?.errors.query.header, '1 QueryError found');
    assert.equal(body?.errors.query.column, 47);
  });

  test('unsupported constructs get the unsupported category, not syntax', () => {
    for (const q of ['identify reviewers from concepts "x" return experts', 'search p where a@b = 1 return p']) {
      try {
        parse(q);
        assert.fail('should throw');
      } catch (err) {
        assert.ok(err instanceof QuarryError);
        assert.equal(err.category, 'unsupported');
      }
    }
  });

  test('long strings are clipped in messages', () => {
    const problem = expectParseError(`"${'x'.repeat(100)}"`, 'DSL_UNEXPECTED_TOKEN');
    assert.ok(problem.message.includes(`"${'x'.repeat(30)}..."`), problem.message);
  });
});
