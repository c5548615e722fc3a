import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import {
  ERROR_CODES,
  QuarryError,
  formatMessage,
  formatWithCaret,
  locate,
  problem,
  renderErrorBody,
} from '../../src/errors/index.ts';

describe('error rendering', () => {
  test('locate gives 1-based lines and columns', () => {
    assert.deepEqual(locate('search\npubs', 0), { line: 1, column: 1 });
    assert.deepEqual(locate('search\npubs', 8), { line: 2, column: 2 });
  });

  test('message templates fill known placeholders and keep unknown ones visible', () => {
    assert.equal(formatMessage('a {x} b {y}', { x: 1 }), 'a 1 b {y}');
  });

  test('an internal error renders generically with its code and no position', () => {
    const err = QuarryError.of('INTERNAL', { params: { requestId: 'req-7' } });
    assert.equal(err.category, 'internal');
    const body = renderErrorBody(err, { dslVersion: 2 });
    assert.equal(body.errors.query.header, 'Internal Server Error');
    assert.equal(body.errors.query.code, 'INTERNAL');
    assert.deepEqual(body.errors.query.details, [formatMessage(ERROR_CODES.INTERNAL.message, { requestId: 'req-7' })]);
    assert.equal('line' in body.errors.query, false);
  });

  test('the query text is echoed only when given, and error.message joins the details', () => {
    const err = new QuarryError([
      problem('SCHEMA_UNKNOWN_FIELD', { params: { name: 'titel', source: 'publications', hint: '' } }),
      problem('SCHEMA_UNKNOWN_FIELD', { params: { name: 'yeer', source: 'publications', hint: '' } }),
    ]);
    const echoed = renderErrorBody(err, { dslVersion: 2, queryText: 'search publications return publications[titel]' });
    assert.equal(echoed.errors.query.query, 'search publications return publications[titel]');
    assert.equal(echoed.errors.query.details.length, 2);
    assert.equal(echoed.error.message, echoed.errors.query.details.join('\n'));
    assert.match(echoed.error.message, /titel[^\n]*\n[^\n]*yeer/);
    const silent = renderErrorBody(err, { dslVersion: 2 });
    assert.equal('query' in silent.errors.query, false);
    assert.equal(renderErrorBody(err, { dslVersion: 2, queryText: null }).errors.query.query, undefined);
  });

  test('a positioned problem prints the query line with a caret', () => {
    const p = problem('INTERNAL', {
      span: { start: 7, end: 11 },
      source: 'search pubs return pubs',
      params: { requestId: 'r' },
    });
    const lines = formatWithCaret('search pubs return pubs', p).split('\n');
    assert.equal(lines[1], '  1 | search pubs return pubs');
    assert.equal(lines[2], '    |        ^^^^');
  });
});
