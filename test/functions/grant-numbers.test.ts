// Grant numbers compare whatever the writing; the examples of docs/functions.md are valid calls.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, test } from 'node:test';
import { prepareQuery } from '../../src/engine/run-query.ts';
import { compactKey, funderNameKey, fundrefKey, nihProjectKey } from '../../src/functions/grant-numbers.ts';

describe('grant number keys', () => {
  for (const [a, b] of [
    ['EP/K012345/1', 'ep-k012345-1'],
    ['EP/K012345/1', 'EP.K012345.1'],
    ['EP/K012345/1', ' ep k012345 1 '],
    ['30410203277', '304-102-032-77'],
  ] as const) {
    test(`${a} is ${b}`, () => assert.equal(compactKey(a), compactKey(b)));
  }
  test('different numbers stay apart', () => assert.notEqual(compactKey('EP/K012345/1'), compactKey('EP/K012345/2')));

  for (const text of [
    '1R01CA123456-01A1',
    '5R01CA123456-02',
    'R01 CA123456',
    'R01-CA-123456',
    'CA123456',
    'ca 123456',
    '3R01CA123456-05S1',
    '3R01CA123456-01A1S1',
    '6R01CA123456-01M004',
  ]) {
    test(`${text} names NIH project CA123456`, () => assert.equal(nihProjectKey(text), 'CA123456'));
  }
  test('a short serial is padded', () => assert.equal(nihProjectKey('R01 CA 12345'), 'CA012345'));
  for (const text of ['EP/K012345/1', '30410203277', 'NCI-2011-01234', 'R01']) {
    test(`${text} is not an NIH project number`, () => assert.equal(nihProjectKey(text), undefined));
  }

  test('funder names fold case, spacing, punctuation and a leading "the"', () => {
    assert.equal(funderNameKey('The  National Cancer Institute'), funderNameKey('national cancer institute'));
    assert.equal(funderNameKey('Bill & Melinda Gates Foundation'), funderNameKey('Bill and Melinda Gates Foundation'));
  });

  test('Funder Registry ids in their written forms', () => {
    for (const text of ['100000050', '10.13039/100000050', 'https://doi.org/10.13039/100000050']) {
      assert.equal(fundrefKey(text), '100000050');
    }
    assert.equal(fundrefKey('NIH'), undefined);
  });
});

describe('docs/functions.md examples are valid calls', () => {
  const doc = readFileSync(new URL('../../docs/functions.md', import.meta.url), 'utf8');
  const examples = [...doc.matchAll(/```dsl\n([\s\S]*?)```/g)].flatMap((m) =>
    (m[1] ?? '').split('\n').filter((line) => line.trim() !== ''),
  );
  test('the document has examples', () => assert.ok(examples.length >= 5));
  for (const example of examples) {
    test(example, () => assert.equal(prepareQuery(example, { dslVersion: 2 }).kind, 'function'));
  }
});
