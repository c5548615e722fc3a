// Version 1's `open_access_categories` answers the hosted v1 objects `{id, name, description}`
// for the held version-2 values, and a v1 `[all]` warns as the hosted v1 did: both compared
// with the hosted service's real v1 `[all]` answer (test/fixtures/spec/sample-results/03).
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, test } from 'node:test';
import { openAccessCategories } from '../../src/engine/open-access-categories.ts';
import { prepareQuery } from '../../src/engine/run-query.ts';

const hosted = JSON.parse(
  readFileSync(
    new URL('../fixtures/spec/sample-results/03_publications_all_fieldset_with_warnings_v1.json', import.meta.url),
    'utf8',
  ),
) as {
  result_excerpt: {
    _warnings: string[];
    publications: Array<{ open_access_categories: Array<{ id: string; name: string; description: string }> }>;
  };
};
const HOSTED_CATEGORIES = hosted.result_excerpt.publications[0]!.open_access_categories;

describe('version 1 open access categories and [all] warnings', () => {
  test('the held v2 values give the hosted v1 objects', () => {
    // The sample's publication is all OA and bronze (v2 values `oa_all` and `bronze`).
    assert.deepEqual(openAccessCategories(['oa_all', 'bronze']), HOSTED_CATEGORIES);
  });

  test('every held v2 value gives an object with the v1 keys and texts', () => {
    const keys = Object.keys(HOSTED_CATEGORIES[0]!).sort();
    const answered = openAccessCategories(['oa_all', 'gold', 'hybrid', 'bronze', 'green', 'closed']) as Array<
      Record<string, unknown>
    >;
    for (const category of answered) {
      assert.deepEqual(Object.keys(category).sort(), keys);
      for (const value of Object.values(category)) assert.ok(typeof value === 'string' && value.length > 0);
    }
    assert.equal(new Set(answered.map((c) => c.id)).size, answered.length);
  });

  test('a v1 [all] gives the hosted warnings, in their order', () => {
    const prepared = prepareQuery('search publications where id = "pub.1104296509" return publications[all] limit 1', {
      dslVersion: 1,
    });
    assert.equal(prepared.kind, 'plan');
    assert.deepEqual(prepared.kind === 'plan' ? prepared.plan.warnings : [], hosted.result_excerpt._warnings);
  });
});
