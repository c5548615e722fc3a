// The one walk over a full-text expression (compile/fulltext-render.ts), with a syntax table
// made up for the test: the boolean shape must come from the walk alone, and user text must
// reach the output only through the table's hooks. The dialects' own strings are checked in
// test/compile/sqlite/fts5.test.ts and, against the engines, in test/engine/.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import fc from 'fast-check';
import { renderMatch, type MatchSyntax } from '../../src/compile/fulltext-render.ts';
import type { Rendered } from '../../src/compile/rendered-match.ts';
import { toTsQuery } from '../../src/compile/postgres/tsquery.ts';
import { toFts5Match } from '../../src/compile/sqlite/fts5.ts';
import type { TextExpr } from '../../src/compile/text-expr.ts';

const w = (text: string, weight?: number): TextExpr =>
  weight === undefined ? { kind: 'word', text } : { kind: 'word', text, weight };
const not = (item: TextExpr): TextExpr => ({ kind: 'not', item });
const all = (...items: TextExpr[]): TextExpr => ({ kind: 'all', items });
const any = (...items: TextExpr[]): TextExpr => ({ kind: 'any', items });
const phrase = (words: string[], near?: number): TextExpr => {
  const parts = words.map((text) => ({ text, prefix: text.endsWith('*') }));
  return near === undefined ? { kind: 'phrase', parts } : { kind: 'phrase', parts, near };
};
const nothing: TextExpr = { kind: 'pattern', pattern: 'no-such-*' };

/** A dialect that no engine speaks: words in brackets, an empty word has no token. */
function syntax(options: { repeatWeighted?: boolean; expanded?: string[] } = {}): MatchSyntax & { seen: string[] } {
  const seen: string[] = [];
  return {
    seen,
    and: ' AND ',
    or: ' OR ',
    andNot: ' BUT NOT ',
    followedBy: ' THEN ',
    repeatWeighted: options.repeatWeighted ?? false,
    term: (text, prefix) => {
      seen.push(text);
      const bare = prefix ? text.slice(0, -1) : text;
      return bare === '' ? undefined : `[${bare}${prefix ? '…' : ''}]`;
    },
    expand: (pattern) => (pattern.startsWith('no-such') ? [] : (options.expanded ?? [])),
    tokens: (tokens) => `{${tokens.join('|')}}`,
    near: (terms, distance) => `NEAR/${distance}(${terms.join(', ')})`,
  };
}

describe('renderMatch', () => {
  const cases: Array<[string, TextExpr, Rendered]> = [
    ['a word', w('a'), { kind: 'pos', text: '[a]' }],
    ['a word with no token is neutral', all(w(''), w('a')), { kind: 'pos', text: '[a]' }],
    ['only words with no token', all(w(''), w('')), { kind: 'empty' }],
    ['conjunction', all(w('a'), w('b')), { kind: 'pos', text: '([a]) AND ([b])' }],
    ['disjunction', any(w('a'), w('b')), { kind: 'pos', text: '([a]) OR ([b])' }],
    ['a and not b', all(w('a'), not(w('b'))), { kind: 'pos', text: '([a]) BUT NOT ([b])' }],
    ['only negations', all(not(w('a')), not(w('b'))), { kind: 'neg', text: '([a]) OR ([b])' }],
    ['a or not b = not (b and not a)', any(w('a'), not(w('b'))), { kind: 'neg', text: '([b]) BUT NOT ([a])' }],
    ['double negation', not(not(w('a'))), { kind: 'pos', text: '[a]' }],
    [
      'several of each side',
      all(w('a'), w('b'), not(w('c')), not(w('d'))),
      { kind: 'pos', text: '(([a]) AND ([b])) BUT NOT (([c]) OR ([d]))' },
    ],
    ['nothing in a conjunction', all(w('a'), nothing), { kind: 'none' }],
    ['nothing in a disjunction', any(w('a'), nothing), { kind: 'pos', text: '[a]' }],
    ['everything in a disjunction', any(w('a'), not(nothing)), { kind: 'all' }],
    ['everything in a conjunction', all(not(nothing)), { kind: 'all' }],
    ['a phrase', phrase(['a', 'b*']), { kind: 'pos', text: '[a] THEN [b…]' }],
    ['a near group', phrase(['a', 'b'], 5), { kind: 'pos', text: 'NEAR/5([a], [b])' }],
    ['a near group of one term is the term', phrase(['a', ''], 5), { kind: 'pos', text: '[a]' }],
    ['a near distance is whole and not negative', phrase(['a', 'b'], -2.5), { kind: 'pos', text: 'NEAR/0([a], [b])' }],
    ['a phrase with no token', phrase(['', '']), { kind: 'empty' }],
    ['weights are ignored unless the syntax repeats them', w('a', 3), { kind: 'pos', text: '[a]' }],
  ];
  for (const [name, expr, expected] of cases) {
    test(name, () => assert.deepEqual(renderMatch(expr, syntax()), expected));
  }

  test('a weighted item is repeated with the conjunction when the syntax asks', () => {
    const s = syntax({ repeatWeighted: true });
    assert.deepEqual(renderMatch(w('a', 3), s), { kind: 'pos', text: '([a]) AND ([a]) AND ([a])' });
    assert.deepEqual(renderMatch(all(w('a', 2), w('b')), s), { kind: 'pos', text: '(([a]) AND ([a])) AND ([b])' });
    // A weighted word with no token stays neutral.
    assert.deepEqual(renderMatch(all(w('', 3), w('b')), s), { kind: 'pos', text: '[b]' });
  });

  test('a pattern becomes its distinct expansions, or nothing', () => {
    const s = syntax({ expanded: ['x', 'y', 'x'] });
    assert.deepEqual(renderMatch({ kind: 'pattern', pattern: 'te*t' }, s), { kind: 'pos', text: '{x|y}' });
    assert.deepEqual(renderMatch(nothing, s), { kind: 'none' });
  });

  test('user text reaches the output only through the syntax hooks', () => {
    const s = syntax();
    const hostile = 'x) OR (y';
    const r = renderMatch(all(w(hostile), not(phrase(['"', 'z*']))), s);
    assert.deepEqual(s.seen, [hostile, '"', 'z*']);
    assert.deepEqual(r, { kind: 'pos', text: '([x) OR (y]) BUT NOT (["] THEN [z…])' });
  });
});

// Both engines go through the walk, so they agree on the kind of every search: matches,
// every record except matches, none, or all.
describe('FTS5 and tsquery agree on the shape of a search', () => {
  const words = ['malaria', 'COVID-19', 'São', '!!!', 'x', ''];
  const leaf: fc.Arbitrary<TextExpr> = fc.oneof(
    fc.constantFrom(...words).map((text): TextExpr => ({ kind: 'word', text })),
    fc.constantFrom(...words).map((text): TextExpr => ({ kind: 'prefix', text })),
    fc.constantFrom('ital?', 'zz?q').map((pattern): TextExpr => ({ kind: 'pattern', pattern })),
    fc
      .tuple(fc.array(fc.constantFrom(...words), { maxLength: 3 }), fc.option(fc.nat(4), { nil: undefined }))
      .map(([ws, near]) => phrase(ws, near)),
  );
  const expr = fc.letrec<{ e: TextExpr }>((tie) => ({
    e: fc.oneof(
      { depthSize: 'small' },
      leaf,
      fc.array(tie('e'), { minLength: 1, maxLength: 3 }).map((items): TextExpr => ({ kind: 'all', items })),
      fc.array(tie('e'), { minLength: 1, maxLength: 3 }).map((items): TextExpr => ({ kind: 'any', items })),
      tie('e').map((item): TextExpr => ({ kind: 'not', item })),
    ),
  })).e;
  const expandPattern = (glob: string): string[] => (glob.startsWith('ital') ? ['italy', 'italo'] : []);

  test('random searches', () => {
    fc.assert(
      fc.property(expr, (e) => {
        assert.equal(toFts5Match(e, { expandPattern }).kind, toTsQuery(e, { expandPattern }).kind, JSON.stringify(e));
      }),
      { numRuns: 500 },
    );
  });
});
