import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { stringOffsets, tokenize } from '../../src/dsl/lexer.ts';
import { STRING_ESCAPED, STRING_TRIPLE } from '../../src/dsl/token.ts';

const show = (text: string) => tokenize(text).map((t) => `${t.type}:${t.value}`);

describe('lexer', () => {
  test('search grants return grants', () => {
    assert.deepEqual(show('search grants return grants'), [
      'name:search',
      'name:grants',
      'name:return',
      'name:grants',
      'eof:',
    ]);
  });

  test('names keep their case and may hold digits and underscores', () => {
    assert.deepEqual(show('FOR category_for_2020 _x'), ['name:FOR', 'name:category_for_2020', 'name:_x', 'eof:']);
  });

  test('punctuation, including two-character operators', () => {
    assert.deepEqual(show('[]()),+-=!=>>=<<=~:@.'), [
      'punct:[',
      'punct:]',
      'punct:(',
      'punct:)',
      'punct:)',
      'punct:,',
      'punct:+',
      'punct:-',
      'punct:=',
      'punct:!=',
      'punct:>',
      'punct:>=',
      'punct:<',
      'punct:<=',
      'punct:~',
      'punct::',
      'punct:@',
      'punct:.',
      'eof:',
    ]);
  });

  test('numbers: integers, fractions, exponents; a minus sign is its own token', () => {
    assert.deepEqual(show('2019 2.5 1e3 6.02E+23 -4'), [
      'number:2019',
      'number:2.5',
      'number:1e3',
      'number:6.02E+23',
      'punct:-',
      'number:4',
      'eof:',
    ]);
  });

  test('research_orgs.id — a dotted path is names and dots', () => {
    assert.deepEqual(show('research_orgs.id'), ['name:research_orgs', 'punct:.', 'name:id', 'eof:']);
  });

  test('strings decode \\" and \\\\ and keep other backslash pairs', () => {
    const [token] = tokenize('"a \\"b\\" c\\\\d \\(e\\)"');
    assert.equal(token?.type, 'string');
    assert.equal(token?.value, 'a "b" c\\d \\(e\\)');
    assert.equal(token?.flags, STRING_ESCAPED);
  });

  test('a string without \\" or \\\\ is flagged as a verbatim slice', () => {
    const [token] = tokenize('"a \\(b"');
    assert.equal(token?.value, 'a \\(b');
    assert.equal(token?.flags, 0);
  });

  test('triple-quoted strings hold unescaped quotes and no escapes', () => {
    const [token] = tokenize('"""say "hi" \\n"""');
    assert.equal(token?.value, 'say "hi" \\n');
    assert.equal(token?.flags, STRING_TRIPLE);
  });

  test('"" is an empty string, """""" an empty triple-quoted one', () => {
    assert.deepEqual(show('"" x'), ['string:', 'name:x', 'eof:']);
    assert.deepEqual(show('"""""" x'), ['string:', 'name:x', 'eof:']);
  });

  test('strings may span lines and hold any Unicode', () => {
    assert.equal(tokenize('"乳がん\n😀"')[0]?.value, '乳がん\n😀');
  });

  test('token offsets are UTF-16 offsets into the query', () => {
    const tokens = tokenize('search  "é😀"  x');
    assert.deepEqual(
      tokens.map((t) => [t.start, t.end]),
      [
        [0, 6],
        [8, 13],
        [15, 16],
        [16, 16],
      ],
    );
  });

  test('stringOffsets maps decoded positions back across escapes', () => {
    const text = 'for "a\\"b\\\\c\\(d"';
    const token = tokenize(text)[1]!;
    assert.equal(token.value, 'a"b\\c\\(d');
    const at = stringOffsets(text, token);
    for (const [index, char] of [
      [0, 'a'],
      [1, '\\'],
      [2, 'b'],
      [3, '\\'],
      [4, 'c'],
      [5, '\\'],
      [6, '('],
      [7, 'd'],
    ] as const) {
      assert.equal(text[at(index)], char, `decoded index ${index}`);
    }
    assert.equal(at(token.value.length), text.length - 1);
  });

  test('stringOffsets is the identity shift without escapes, also for triple quotes', () => {
    const text = 'x """ab"""';
    const token = tokenize(text)[1]!;
    assert.equal(stringOffsets(text, token)(1), 6);
    assert.equal(text[6], 'b');
  });
});

describe('keywords', () => {
  test('every listed keyword is recognised by the parser in some position', async () => {
    const { KEYWORDS } = await import('../../src/dsl/keywords.ts');
    const { parse } = await import('../../src/dsl/parse.ts');
    // One query that uses them all, in upper case to check case-insensitivity.
    const query = [
      'SEARCH p IN i FOR "x" WHERE a = 1 AND b = 2 OR NOT c IS EMPTY AND COUNT(d) > 1',
      'RETURN IN "g" p[x + UNNEST(y)] AS "q" AGGREGATE count SORT BY z ASC LIMIT 1 SKIP 1',
      'RETURN p SORT BY z DESC',
    ].join(' ');
    assert.equal(parse(query).kind, 'SearchQuery');
    for (const q of ['DESCRIBE VERSION', 'DESCRIBE SCHEMA', 'DESCRIBE SOURCE p', 'DESCRIBE ENTITY e', 'f(TRUE, FALSE)'])
      assert.ok(parse(q));
    const used = `${query} DESCRIBE VERSION SCHEMA SOURCE ENTITY TRUE FALSE`.toLowerCase().split(/[^a-z]+/);
    for (const keyword of KEYWORDS) assert.ok(used.includes(keyword), `${keyword} is not exercised`);
  });
});
