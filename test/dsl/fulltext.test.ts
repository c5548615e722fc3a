import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { parseFullText } from '../../src/dsl/fulltext/parser.ts';
import { printFullText } from '../../src/dsl/printer.ts';
import { stripSpans } from '../../src/dsl/strip-spans.ts';
import { columnOf, expectParseError, parseSearch, parseTextOf, textShape } from './helpers.ts';

/** Parses a full-text string on its own, spans relative to the string. */
function parseAlone(text: string) {
  return parseFullText(text, { query: text, at: (i) => i });
}

// The left column is written exactly as it appears between the quotes of `for "..."` in a
// query, so `\\"` is a phrase quote (the query string decodes \" to ").
const shapes: ReadonlyArray<readonly [text: string, shape: string]> = [
  ['malaria', 'malaria'],
  ['Machine Learning', '(AND Machine Learning)'],
  ['\\"Machine Learning\\"', '"Machine Learning"'],
  ['\\"Jennifer A Doudna\\"', '"Jennifer A Doudna"'],
  ['(dose AND concentration)', '[(AND dose concentration)]'],
  ['(dose OR concentration) AND (-malaria +africa)', '(AND [(OR dose concentration)] [(AND -malaria +africa)])'],
  ['ital? malaria', '(AND w:ital? malaria)'],
  ['te*t *est', '(AND w:te*t w:*est)'],
  ['\\"digital humanities\\"~5 +ontology', '(AND "digital humanities"~5 +ontology)'],
  ['\\"formal model\\"~10', '"formal model"~10'],
  ['\\"phrase one\\" AND \\"phrase two\\"', '(AND "phrase one" "phrase two")'],
  ['Japan AND Buddhism', '(AND Japan Buddhism)'],
  ['cats and dogs', '(AND cats and dogs)'],
  ['cats or dogs', '(AND cats or dogs)'],
  ['cats not dogs', '(AND cats not dogs)'],
  ['cats OR dogs', '(OR cats dogs)'],
  ['cats || dogs', '(OR cats dogs)'],
  ['cats && dogs', '(AND cats dogs)'],
  ['a && b || c', '(OR (AND a b) c)'],
  ['a OR b c', '(OR a (AND b c))'],
  ['a OR b OR c', '(OR a b c)'],
  ['NOT a', '(NOT a)'],
  ['!a', '(NOT a)'],
  ['a NOT b', '(AND a (NOT b))'],
  ['a AND NOT b', '(AND a (NOT b))'],
  ['a !b', '(AND a (NOT b))'],
  ['NOT NOT a', '(NOT (NOT a))'],
  ['-(a b)', '-[(AND a b)]'],
  ['+\\"x y\\"', '+"x y"'],
  ['a AND (b OR (c AND d))', '(AND a [(OR b [(AND c d)])])'],
  ['covid-19', 'covid-19'],
  ['c\\+\\+', 'c++'],
  ['\\(x\\)', '(x)'],
  ['\\AND', 'AND'],
  ['a\\ b', 'a b'],
  ['乳がん', '乳がん'],
  ['\\"a*b c?\\"', '"a*b c?"'],
  ['  spaced   out  ', '(AND spaced out)'],
  ['e-mail@example.org', 'e-mail@example.org'],
  // term boosting: relevance weight only
  ['formal^4 model', '(AND formal^4 model)'],
  ['\\"formal model\\"^2', '"formal model"^2'],
  ['\\"formal model\\"~10^1.5 OR te*^3', '(OR "formal model"~10^1.5 w:te*^3)'],
];

describe('full-text strings', () => {
  for (const [text, shape] of shapes) {
    test(`for "${text}"`, () => {
      assert.equal(textShape(parseTextOf(text)), shape);
    });
  }
});

describe('full-text trees', () => {
  test('for "c\\+\\+" — an escaped special character is part of the term, not an operator', () => {
    const node = parseTextOf('c\\+\\+');
    assert.deepEqual(stripSpans(node), { kind: 'TextTerm', text: 'c++', wildcard: false });
  });

  test('for "\\"a*b\\"" — wildcards are literal inside phrases', () => {
    const node = parseTextOf('\\"a*b\\"');
    assert.deepEqual(stripSpans(node), { kind: 'TextPhrase', text: 'a*b', words: ['a*b'] });
  });

  test('for "x \\"y\\"~3" — spans point into the whole query, across the \\" escapes', () => {
    const query = 'search publications for "x \\"y z\\"~3" return publications';
    const node = parseSearch(query).fullText!.ast;
    assert.ok(node.kind === 'TextAnd');
    const [term, phrase] = node.operands;
    assert.equal(query.slice(term!.span.start, term!.span.end), 'x');
    assert.equal(query.slice(phrase!.span.start, phrase!.span.end), '\\"y z\\"~3');
    assert.equal(query.slice(node.span.start, node.span.end), 'x \\"y z\\"~3');
  });

  test('the printer gives back the same tree (spans aside) for every table entry', () => {
    for (const [text] of shapes) {
      const node = parseTextOf(text);
      const printed = printFullText(node);
      assert.deepEqual(stripSpans(parseAlone(printed)), stripSpans(node), `${text} printed as ${printed}`);
    }
  });

  test('printFullText writes canonical upper-case operators', () => {
    assert.equal(printFullText(parseAlone('a && b || !c')), 'a AND b OR NOT c');
    assert.equal(printFullText(parseAlone('(a b) -c')), '(a AND b) AND -c');
    assert.equal(printFullText(parseAlone('\\AND \\-x y\\?')), '\\AND AND \\-x AND y\\?');
  });
});

// [text between the quotes, code, column of the first problem in the whole query]
const errors: ReadonlyArray<readonly [string, string, number]> = [
  ['', 'DSL_FULLTEXT_EMPTY', 26],
  ['   ', 'DSL_FULLTEXT_EMPTY', 26],
  ['(a', 'DSL_FULLTEXT_UNEXPECTED', 28],
  ['a)', 'DSL_FULLTEXT_UNEXPECTED', 27],
  ['a AND', 'DSL_FULLTEXT_UNEXPECTED', 31],
  ['AND a', 'DSL_FULLTEXT_UNEXPECTED', 26],
  ['a OR OR b', 'DSL_FULLTEXT_UNEXPECTED', 31],
  ['()', 'DSL_FULLTEXT_UNEXPECTED', 27],
  ['a & b', 'DSL_FULLTEXT_UNEXPECTED', 28],
  ['a | b', 'DSL_FULLTEXT_UNEXPECTED', 28],
  ['~2 a', 'DSL_FULLTEXT_UNEXPECTED', 26],
  ['a +', 'DSL_FULLTEXT_UNEXPECTED', 29],
  ['\\"abc', 'DSL_FULLTEXT_UNTERMINATED_PHRASE', 26],
  ['x \\"abc', 'DSL_FULLTEXT_UNTERMINATED_PHRASE', 28],
  ['\\"  \\"', 'DSL_FULLTEXT_EMPTY_PHRASE', 26],
  ['abc\\\\', 'DSL_FULLTEXT_DANGLING_ESCAPE', 29],
  ['(chassis control)~2', 'DSL_FULLTEXT_PROXIMITY_AFTER_GROUP', 43],
  ['\\"a b\\"~', 'DSL_FULLTEXT_INVALID_PROXIMITY', 33],
  ['\\"a b\\"~x', 'DSL_FULLTEXT_INVALID_PROXIMITY', 33],
  ['\\"a b\\"~1234567', 'DSL_FULLTEXT_INVALID_PROXIMITY', 33],
  ['*', 'DSL_FULLTEXT_LONE_WILDCARD', 26],
  ['a ?*', 'DSL_FULLTEXT_LONE_WILDCARD', 28],
  ['a ^2', 'DSL_FULLTEXT_UNEXPECTED', 28],
  ['a^', 'DSL_FULLTEXT_INVALID_BOOST', 27],
  ['a^x', 'DSL_FULLTEXT_INVALID_BOOST', 27],
  ['(a b)^2', 'DSL_FULLTEXT_UNSUPPORTED_SYNTAX', 31],
  ['^2 a', 'DSL_FULLTEXT_UNEXPECTED', 26],
  ['title:malaria', 'DSL_FULLTEXT_UNSUPPORTED_SYNTAX', 31],
  ['year [2000 TO 2010]', 'DSL_FULLTEXT_UNSUPPORTED_SYNTAX', 31],
  ['{a}', 'DSL_FULLTEXT_UNSUPPORTED_SYNTAX', 26],
  ['roam~', 'DSL_FULLTEXT_UNSUPPORTED_SYNTAX', 30],
  ['roam~2', 'DSL_FULLTEXT_UNSUPPORTED_SYNTAX', 30],
];

describe('full-text errors are positioned in the whole query', () => {
  for (const [text, code, column] of errors) {
    test(`for "${text}"`, () => {
      const problem = expectParseError(`search publications for "${text}" return publications`, code);
      assert.equal(columnOf(problem), column);
    });
  }

  test('for "(chassis control)~2" — the message explains the rule', () => {
    const problem = expectParseError(
      'search publications for "(chassis control)~2" return publications',
      'DSL_FULLTEXT_PROXIMITY_AFTER_GROUP',
    );
    assert.equal(problem.message, 'Proximity (~N) can follow a phrase, not a parenthesised group.');
  });

  test('for "a AND" — the message names what was expected and found', () => {
    const problem = expectParseError('search publications for "a AND" return publications', 'DSL_FULLTEXT_UNEXPECTED');
    assert.equal(
      problem.message,
      "In the search string: expected a term, a phrase or '(' but found the end of the search string.",
    );
  });

  test('for "\\"a\\" \\"b\\" ^c" — the column accounts for the escapes before the error', () => {
    const query = 'search publications for "\\"a\\" \\"b\\" ^c" return publications';
    const problem = expectParseError(query, 'DSL_FULLTEXT_UNEXPECTED');
    assert.equal(problem.span?.start, query.indexOf('^'));
    assert.match(problem.message, /'\^N' must follow a term or phrase directly/);
  });

  test('for """..."""  — triple-quoted strings map positions verbatim', () => {
    const query = 'search publications for """"a" b^x""" return publications';
    const problem = expectParseError(query, 'DSL_FULLTEXT_INVALID_BOOST');
    assert.equal(problem.span?.start, query.indexOf('^'));
  });

  test('on a second line, the line and column are those of the query', () => {
    const problem = expectParseError(
      'search publications\n  for "x OR"\n  return publications',
      'DSL_FULLTEXT_UNEXPECTED',
    );
    assert.deepEqual(problem.position, { line: 2, column: 12 });
  });
});
