import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { readQueryCorpus } from '../../src/dsl/corpus.ts';
import { conformanceText } from './helpers.ts';

describe('readQueryCorpus', () => {
  test('records, comments and expectations', () => {
    const text = [
      '# header comment',
      '# spanning lines',
      '---',
      'search grants return grants',
      '---',
      '',
      'search publications',
      '  where year = 2020',
      '  return publications',
      '# expected: error (something (nested))',
      '',
      '---',
      '---',
      'describe version',
    ].join('\n');
    assert.deepEqual(readQueryCorpus(text), [
      { query: 'search grants return grants', line: 4 },
      {
        query: 'search publications\n  where year = 2020\n  return publications',
        expected: 'error (something (nested))',
        line: 7,
      },
      { query: 'describe version', line: 14 },
    ]);
  });

  test('an expectation before any query line is a comment, not an expectation', () => {
    assert.deepEqual(readQueryCorpus('---\n# expected: error (x)\ndescribe schema\n---'), [
      { query: 'describe schema', line: 3 },
    ]);
  });

  test('Windows line endings', () => {
    assert.deepEqual(readQueryCorpus('---\r\ndescribe schema\r\n# expected: ok\r\n---\r\n'), [
      { query: 'describe schema', expected: 'ok', line: 2 },
    ]);
  });

  test('the conformance file', () => {
    const records = readQueryCorpus(conformanceText());
    assert.ok(records.length >= 50, `only ${records.length} records`);
    const errors = records.filter((r) => r.expected?.startsWith('error'));
    assert.ok(errors.length >= 5);
    assert.ok(records.some((r) => r.query === 'describe schema'));
    for (const r of records) assert.ok(!r.query.includes('#') || r.query.includes('"'), r.query);
  });
});
