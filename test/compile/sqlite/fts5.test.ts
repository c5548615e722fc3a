import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import Database from 'better-sqlite3';
import fc from 'fast-check';
import { patternToGlob, quoteFts5, toFts5Match, type Fts5Match } from '../../../src/compile/sqlite/fts5.ts';
import type { TextExpr } from '../../../src/compile/text-expr.ts';

const w = (text: string): TextExpr => ({ kind: 'word', text });
const not = (item: TextExpr): TextExpr => ({ kind: 'not', item });
const all = (...items: TextExpr[]): TextExpr => ({ kind: 'all', items });
const any = (...items: TextExpr[]): TextExpr => ({ kind: 'any', items });
const noExpand = { expandPattern: (): string[] => [] };

describe('quoteFts5', () => {
  test('wraps in double quotes and doubles embedded quotes', () => {
    assert.equal(quoteFts5('malaria'), '"malaria"');
    assert.equal(quoteFts5('say "hi"'), '"say ""hi"""');
    assert.equal(quoteFts5('a\u0000b'), '"ab"');
  });
});

describe('toFts5Match strings', () => {
  const cases: Array<[string, TextExpr, Fts5Match]> = [
    ['single word', w('malaria'), { kind: 'match', match: '"malaria"' }],
    ['default AND', all(w('dose'), w('concentration')), { kind: 'match', match: '("dose") AND ("concentration")' }],
    ['OR', any(w('dose'), w('concentration')), { kind: 'match', match: '("dose") OR ("concentration")' }],
    ['prefix', { kind: 'prefix', text: 'te' }, { kind: 'match', match: '"te" *' }],
    [
      'phrase',
      {
        kind: 'phrase',
        parts: [
          { text: 'machine', prefix: false },
          { text: 'learning', prefix: false },
        ],
      },
      { kind: 'match', match: '"machine" + "learning"' },
    ],
    [
      'proximity',
      {
        kind: 'phrase',
        parts: [
          { text: 'digital', prefix: false },
          { text: 'humanities', prefix: false },
        ],
        near: 5,
      },
      { kind: 'match', match: 'NEAR("digital" "humanities", 5)' },
    ],
    ['a AND NOT b', all(w('a'), not(w('b'))), { kind: 'match', match: '("a") NOT ("b")' }],
    ['only negations', all(not(w('a')), not(w('b'))), { kind: 'except', match: '("a") OR ("b")' }],
    ['unary NOT', not(w('b')), { kind: 'except', match: '"b"' }],
    ['double NOT', not(not(w('b'))), { kind: 'match', match: '"b"' }],
    ['a OR NOT b', any(w('a'), not(w('b'))), { kind: 'except', match: '("b") NOT ("a")' }],
    [
      '(dose OR concentration) AND (-malaria +africa)',
      all(any(w('dose'), w('concentration')), not(w('malaria')), w('africa')),
      { kind: 'match', match: '((("dose") OR ("concentration")) AND ("africa")) NOT ("malaria")' },
    ],
    ['punctuation-only word is dropped', all(w('!!!'), w('a')), { kind: 'match', match: '"a"' }],
    ['punctuation only matches nothing', w('!!!'), { kind: 'none' }],
    ['unexpandable pattern matches nothing', all(w('a'), { kind: 'pattern', pattern: 'zz?q' }), { kind: 'none' }],
    ['NOT of nothing is everything', not({ kind: 'pattern', pattern: 'zz?q' }), { kind: 'all' }],
  ];
  for (const [name, expr, expected] of cases) {
    test(name, () => assert.deepEqual(toFts5Match(expr, noExpand), expected));
  }

  test('patterns expand into an OR of vocabulary tokens, quoted', () => {
    const seen: string[] = [];
    const m = toFts5Match(
      { kind: 'pattern', pattern: 'Ital?' },
      {
        expandPattern: (glob) => {
          seen.push(glob);
          return ['italy', 'italo'];
        },
      },
    );
    assert.deepEqual(seen, ['ital?']);
    assert.deepEqual(m, { kind: 'match', match: '"italy" OR "italo"' });
  });

  test('column filters come from the layout and are checked', () => {
    assert.deepEqual(toFts5Match(w('x'), { ...noExpand, columns: ['title', 'abstract'] }), {
      kind: 'match',
      match: '{title abstract} : ("x")',
    });
    assert.throws(() => toFts5Match(w('x'), { ...noExpand, columns: ['title} : x OR {a'] }));
  });

  test('patternToGlob folds case and diacritics and escapes [', () => {
    assert.equal(patternToGlob('Éco*[x]?'), 'eco*[[]x]?');
  });
});

// Runs rendered expressions against a real FTS5 table and compares with a direct
// evaluation of the same expression over the same documents.
describe('FTS5 semantics match a reference evaluation', () => {
  const docs = [
    'malaria in italy',
    'italian malaria vaccine trial',
    'dose concentration and malaria',
    'africa dose study',
    'machine learning for dose concentration',
    'deep machine learning in africa',
    'NEAR col: title ^ star*',
    'quoted "text" with (parens)',
    '',
  ];
  const db = new Database(':memory:');
  db.exec(`CREATE VIRTUAL TABLE f USING fts5(body, tokenize = 'unicode61 remove_diacritics 2')`);
  const insert = db.prepare('INSERT INTO f(rowid, body) VALUES (?, ?)');
  docs.forEach((d, i) => insert.run(i + 1, d));
  db.exec(`CREATE VIRTUAL TABLE temp.v USING fts5vocab(main, f, 'row')`);
  const vocab = db.prepare('SELECT term FROM temp.v WHERE term GLOB ? LIMIT 100');
  const expandPattern = (glob: string): string[] => vocab.all(glob).map((r) => (r as { term: string }).term);
  const matchStmt = db.prepare('SELECT rowid AS id FROM f WHERE f MATCH ? ORDER BY rowid');
  const allIds = docs.map((_d, i) => i + 1);

  function run(m: Fts5Match): number[] {
    const ids = (s: string): number[] => matchStmt.all(s).map((r) => (r as { id: number }).id);
    switch (m.kind) {
      case 'none':
        return [];
      case 'all':
        return allIds;
      case 'match':
        return ids(m.match);
      case 'except': {
        const hit = new Set(ids(m.match));
        return allIds.filter((id) => !hit.has(id));
      }
    }
  }

  const tokens = docs.map((d) =>
    d
      .toLowerCase()
      .split(/[^\p{L}\p{N}]+/u)
      .filter(Boolean),
  );
  function evaluate(e: TextExpr, t: readonly string[]): boolean {
    switch (e.kind) {
      case 'word': {
        const parts = e.text
          .toLowerCase()
          .split(/[^\p{L}\p{N}]+/u)
          .filter(Boolean);
        return t.some((_x, i) => parts.every((p, j) => t[i + j] === p));
      }
      case 'prefix': {
        // FTS5 tokenizes the prefix string; the last token is the prefix, the rest a phrase.
        const parts = e.text
          .toLowerCase()
          .split(/[^\p{L}\p{N}]+/u)
          .filter(Boolean);
        const last = parts.length - 1;
        return t.some((_x, i) => parts.every((p, j) => (j === last ? (t[i + j] ?? '').startsWith(p) : t[i + j] === p)));
      }
      case 'pattern': {
        const re = new RegExp(
          `^${e.pattern
            .toLowerCase()
            .replace(/[.+^${}()|[\]\\]/g, '\\$&')
            .replaceAll('?', '.')
            .replaceAll('*', '.*')}$`,
          'u',
        );
        return t.some((x) => re.test(x));
      }
      case 'phrase':
        return t.some((_x, i) =>
          e.parts.every((p, j) => (p.prefix ? (t[i + j] ?? '').startsWith(p.text) : t[i + j] === p.text)),
        );
      case 'all':
        return e.items.every((i) => evaluate(i, t));
      case 'any':
        return e.items.some((i) => evaluate(i, t));
      case 'not':
        return !evaluate(e.item, t);
    }
  }

  const words = ['malaria', 'italy', 'dose', 'africa', 'machine', 'learning', 'concentration', 'zebra'];
  const leaf: fc.Arbitrary<TextExpr> = fc.oneof(
    fc.constantFrom(...words).map(w),
    fc.constantFrom('ital', 'mach', 'con', 'dee').map((text): TextExpr => ({ kind: 'prefix', text })),
    fc.constantFrom('ital?', 'm*a', '*ose', 'l?arn*').map((pattern): TextExpr => ({ kind: 'pattern', pattern })),
    fc
      .constantFrom(['machine', 'learning'], ['dose', 'concentration'], ['malaria', 'in'])
      .map((ws): TextExpr => ({ kind: 'phrase', parts: ws.map((text) => ({ text, prefix: false })) })),
  );
  const expr = fc.letrec<{ e: TextExpr }>((tie) => ({
    e: fc.oneof(
      { depthSize: 'small', withCrossShrink: true },
      leaf,
      fc.array(tie('e'), { minLength: 2, maxLength: 3 }).map((items): TextExpr => ({ kind: 'all', items })),
      fc.array(tie('e'), { minLength: 2, maxLength: 3 }).map((items): TextExpr => ({ kind: 'any', items })),
      tie('e').map((item): TextExpr => ({ kind: 'not', item })),
    ),
  })).e;

  test('random boolean expressions give the same rows as the reference', () => {
    fc.assert(
      fc.property(expr, (e) => {
        const got = run(toFts5Match(e, { expandPattern }));
        const want = allIds.filter((id) => evaluate(e, tokens[id - 1] ?? []));
        assert.deepEqual(got, want, JSON.stringify(e));
      }),
      { numRuns: 400 },
    );
  });

  const attacks = [
    'NEAR',
    'NEAR(a b, 1)',
    'col: title',
    'body:malaria',
    '{body}: x',
    '^star',
    'star*',
    '"',
    '""',
    '" OR "',
    '(parens',
    ')',
    'a AND b',
    'NOT',
    '*',
    "'; DROP TABLE f; --",
    'x" OR body:"y',
    '\\',
    '乳がん',
  ];
  for (const attack of attacks) {
    test(`user text is inert: ${JSON.stringify(attack)}`, () => {
      if (!/[\p{L}\p{N}]/u.test(attack)) {
        // no token at all: matches nothing alone, and is neutral inside a conjunction
        assert.deepEqual(toFts5Match(w(attack), { expandPattern }), { kind: 'none' });
        assert.deepEqual(
          run(toFts5Match(all(w(attack), not(w('zebra'))), { expandPattern })),
          run(toFts5Match(not(w('zebra')), { expandPattern })),
        );
        return;
      }
      for (const e of [w(attack), { kind: 'prefix', text: attack } as TextExpr, all(w(attack), not(w('zebra')))]) {
        const m = toFts5Match(e, { expandPattern });
        // never a syntax error, and only rows containing the literal tokens
        const got = run(m);
        const want = allIds.filter((id) => evaluate(e, tokens[id - 1] ?? []));
        assert.deepEqual(got, want, `${attack} -> ${JSON.stringify(m)}`);
      }
      assert.equal((db.prepare('SELECT count(*) AS n FROM f').get() as { n: number }).n, docs.length);
    });
  }
});
