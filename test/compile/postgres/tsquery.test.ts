// A NEAR group on PostgreSQL becomes the word orders and gaps that fit in the window, or
// "all words anywhere" past MAX_NEAR_ALTERNATIVES. A wide window must take the fallback
// without listing its gap sets first: `"cell phone mouse"~999999` has 5e11 of them, and
// listing them ran the server out of memory.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { toTsQuery } from '../../../src/compile/postgres/tsquery.ts';
import type { TextExpr } from '../../../src/compile/text-expr.ts';

const near = (words: readonly string[], distance: number): TextExpr => ({
  kind: 'phrase',
  parts: words.map((text) => ({ text, prefix: false })),
  near: distance,
});

function render(expr: TextExpr): { query: string; warnings: string[] } {
  const warnings: string[] = [];
  const m = toTsQuery(expr, { expandPattern: () => [], warn: (w) => warnings.push(w) });
  assert.equal(m.kind, 'match');
  return { query: m.query, warnings };
}

describe('toTsQuery NEAR groups', () => {
  test('a narrow window lists every order and gap', () => {
    const { query, warnings } = render(near(['cell', 'phone'], 1));
    assert.equal(
      query,
      "(('cell') <1> ('phone')) | (('cell') <2> ('phone')) | (('phone') <1> ('cell')) | (('phone') <2> ('cell'))",
    );
    assert.deepEqual(warnings, []);
  });

  for (const [words, distance] of [
    [['cell', 'phone', 'mouse'], 999_999],
    [['cell', 'phone'], 2 ** 63],
    [['a', 'b', 'c', 'd', 'e'], 999_999],
  ] as const) {
    test(`${words.length} words within ${distance} fall back to all words, without listing the gaps`, () => {
      const { query, warnings } = render(near(words, distance));
      assert.equal(query, words.map((w) => `('${w}')`).join(' & '));
      assert.equal(warnings.length, 1);
      assert.match(warnings[0] as string, /was run as "all of these words"/);
    });
  }
});
