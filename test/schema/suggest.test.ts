import assert from 'node:assert/strict';
import { test } from 'node:test';
import { didYouMean, suggest } from '../../src/schema/index.ts';

const NAMES = [
  'publications',
  'grants',
  'researchers',
  'organizations',
  'title',
  'type',
  'date',
  'year',
  'title_only',
  'title_abstract_only',
];

const CASES: ReadonlyArray<readonly [string, readonly string[]]> = [
  ['publication', ['publications']],
  ['titel', ['title']],
  ['Grants', ['grants']],
  ['yaer', ['year']],
  ['title_onyl', ['title_only']],
  ['spaceships', []],
  ['x', []],
];

for (const [input, expected] of CASES) {
  test(`suggest ${input}`, () => {
    assert.deepEqual(suggest(input, NAMES), expected);
  });
}

test('didYouMean sentences', () => {
  assert.equal(didYouMean('titel', NAMES), " Did you mean 'title'?");
  assert.equal(didYouMean('zzzzzz', NAMES), '');
  assert.equal(didYouMean('ab', ['abc', 'abd', 'xab']), " Did you mean 'abc', 'abd' or 'xab'?");
});

test('the exact name is never suggested to itself', () => {
  assert.deepEqual(suggest('year', NAMES), []);
});
