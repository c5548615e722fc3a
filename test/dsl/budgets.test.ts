import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { BUDGETS } from '../../src/dsl/budgets.ts';
import { parse } from '../../src/dsl/parse.ts';
import { expectParseError, parseFilterOf, parseTextOf } from './helpers.ts';

const list = (n: number): string => Array.from({ length: n }, (_, i) => `"id.${i}"`).join(', ');
const conditions = (n: number): string => Array.from({ length: n }, (_, i) => `year = ${2000 + i}`).join(' or ');
const terms = (n: number): string => Array.from({ length: n }, (_, i) => `w${i}`).join(' ');

describe('input budgets', () => {
  test('a query of exactly 64 KiB parses; one character more is DSL_QUERY_TOO_LONG', () => {
    const head = 'search publications for "';
    const tail = '" return publications';
    const filler = (n: number) => 'ab '.repeat(Math.ceil(n / 3)).slice(0, n);
    // Few distinct words would exceed the clause budget first, so keep the filler inside one phrase.
    const fits = `${head}\\"${filler(BUDGETS.maxQueryLength - head.length - tail.length - 4)}\\"${tail}`;
    assert.equal(fits.length, BUDGETS.maxQueryLength);
    assert.equal(parse(fits).kind, 'SearchQuery');
    const problem = expectParseError(`${fits} `, 'DSL_QUERY_TOO_LONG');
    assert.equal(
      problem.message,
      `The query is ${BUDGETS.maxQueryLength + 1} characters long; the maximum is ${BUDGETS.maxQueryLength}.`,
    );
    assert.equal(problem.span?.start, BUDGETS.maxQueryLength);
  });

  test('more than 10,000 tokens is DSL_TOO_MANY_TOKENS', () => {
    const fields = Array.from({ length: 5000 }, () => 'id').join('+');
    const problem = expectParseError(`search publications return publications[${fields}]`, 'DSL_TOO_MANY_TOKENS');
    assert.equal(problem.message, `The query has more than ${BUDGETS.maxTokens} tokens.`);
  });

  test('32 nested parentheses in a filter parse; 33 is DSL_TOO_DEEP', () => {
    const nested = (depth: number) => `${'('.repeat(depth)}year = 2020${')'.repeat(depth)}`;
    assert.equal(parseFilterOf(nested(BUDGETS.maxDepth)).kind, 'Comparison');
    const problem = expectParseError(
      `search publications where ${nested(BUDGETS.maxDepth + 1)} return publications`,
      'DSL_TOO_DEEP',
    );
    assert.equal(problem.message, 'The query nests parentheses or operators more than 32 levels deep.');
    assert.equal(problem.span?.start, 'search publications where '.length + BUDGETS.maxDepth);
  });

  test('a long chain of not is DSL_TOO_DEEP, not a stack overflow', () => {
    expectParseError(`search publications where ${'not '.repeat(5000)}year = 1 return publications`, 'DSL_TOO_DEEP');
  });

  test('nesting in full-text strings and argument lists is DSL_TOO_DEEP', () => {
    expectParseError(
      `search publications for "${'('.repeat(40)}a${')'.repeat(40)}" return publications`,
      'DSL_TOO_DEEP',
    );
    expectParseError(`search publications for "${'NOT '.repeat(3000)}a" return publications`, 'DSL_TOO_DEEP');
    expectParseError(`f(${'['.repeat(40)}1${']'.repeat(40)})`, 'DSL_TOO_DEEP');
  });

  test('an in list of 400 items parses; 401 is DSL_IN_LIST_TOO_LONG at the 401st item', () => {
    const ok = parseFilterOf(`id in [${list(400)}]`);
    assert.ok(ok.kind === 'InList' && ok.values.length === 400);
    const query = `search publications where id in [${list(401)}] return publications`;
    const problem = expectParseError(query, 'DSL_IN_LIST_TOO_LONG');
    assert.equal(problem.message, 'The in [...] list has more than 400 items.');
    assert.equal(problem.span?.start, query.indexOf('"id.400"'));
  });

  test('100 conditions parse; 101 is DSL_TOO_MANY_CONDITIONS', () => {
    const ok = parseFilterOf(conditions(100));
    assert.ok(ok.kind === 'Or' && ok.operands.length === 100);
    const query = `search publications where ${conditions(101)} return publications`;
    const problem = expectParseError(query, 'DSL_TOO_MANY_CONDITIONS');
    assert.equal(problem.span?.start, query.indexOf('year = 2100'));
  });

  test('100 full-text terms parse; 101 is DSL_TOO_MANY_FULLTEXT_CLAUSES', () => {
    const ok = parseTextOf(terms(100));
    assert.ok(ok.kind === 'TextAnd' && ok.operands.length === 100);
    const query = `search publications for "${terms(101)}" return publications`;
    const problem = expectParseError(query, 'DSL_TOO_MANY_FULLTEXT_CLAUSES');
    assert.equal(problem.span?.start, query.indexOf('w100'));
  });

  test('budgets can be lowered per call (for callers with stricter limits)', () => {
    const strict = { ...BUDGETS, maxConditions: 2 };
    assert.throws(() => parse('search p where a = 1 and b = 2 and c = 3 return p', strict), {
      code: 'DSL_TOO_MANY_CONDITIONS',
    } as object);
    assert.equal(parse('search p where a = 1 and b = 2 return p', strict).kind, 'SearchQuery');
  });
});
