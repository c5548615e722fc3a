// A query's own limit and skip taken out for paging (the shell's `.export`).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { withoutOwnWindow } from '../../src/client/own-window.ts';

test('limit and skip are cut out with their keywords; everything else stays', () => {
  assert.deepEqual(withoutOwnWindow('search grants return grants[id] limit 20'), {
    text: 'search grants return grants[id]',
    limit: 20,
  });
  assert.deepEqual(withoutOwnWindow('search publications for "limit" return publications LIMIT 5 skip 10;'), {
    text: 'search publications for "limit" return publications',
    limit: 5,
    skip: 10,
  });
  assert.deepEqual(withoutOwnWindow('search publications return publications[id] sort by year limit 3\n'), {
    text: 'search publications return publications[id] sort by year',
    limit: 3,
  });
  for (const text of [
    'search grants return grants',
    'describe version',
    'search publications return year return funders limit 2',
    'not a query limit 3',
  ])
    assert.deepEqual(withoutOwnWindow(text), { text });
});
