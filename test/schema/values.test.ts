import assert from 'node:assert/strict';
import { test } from 'node:test';
import { normaliseDate } from '../../src/schema/index.ts';

const DATES: ReadonlyArray<readonly [string, string | undefined]> = [
  ['2020-01-22', '2020-01-22'],
  ['2020', '2020-01-01'],
  ['2020-03', '2020-03-01'],
  ['2020-02-29', '2020-02-29'],
  ['2019-02-29', undefined],
  ['1900-02-29', undefined],
  ['2000-02-29', '2000-02-29'],
  ['2020-13-01', undefined],
  ['2020-00-10', undefined],
  ['2020-04-31', undefined],
  ['2020-01-22T10:00:00Z', '2020-01-22'],
  ['20200122', undefined],
  ['yesterday', undefined],
];

for (const [input, expected] of DATES) {
  test(`date "${input}"`, () => {
    assert.equal(normaliseDate(input), expected);
  });
}
