import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import fc from 'fast-check';
import type { ArgumentValue, FunctionCallQuery } from '../../src/dsl/ast.ts';
import { parse } from '../../src/dsl/parse.ts';
import { print } from '../../src/dsl/printer.ts';
import { stripSpans } from '../../src/dsl/strip-spans.ts';
import { expectParseError } from './helpers.ts';

/** The value of an argument as plain JSON, to compare with what the client meant to send. */
function plain(value: ArgumentValue): unknown {
  switch (value.kind) {
    case 'String':
    case 'Number':
    case 'Boolean':
      return value.value;
    case 'Null':
      return null;
    case 'List':
      return value.items.map(plain);
    case 'Object':
      return Object.fromEntries(value.entries.map((e) => [e.key.value, plain(e.value)]));
  }
}

function firstArgument(text: string): unknown {
  const query = parse(text) as FunctionCallQuery;
  assert.equal(query.kind, 'FunctionCallQuery');
  const arg = query.call.args[0];
  assert.ok(arg);
  return plain(arg.value);
}

// What clients send (Python `json.dumps`, with and without ensure_ascii), and what it means.
const good: Array<readonly [query: string, value: unknown]> = [
  [
    'extract_affiliations(json=[{"affiliation": "Univ of X", "country": "Ireland"}])',
    [{ affiliation: 'Univ of X', country: 'Ireland' }],
  ],
  [
    'extract_affiliations(json=[{"name": "Stanford", "city": "Stanford", "state": null, "country": "USA"}])',
    [{ name: 'Stanford', city: 'Stanford', state: null, country: 'USA' }],
  ],
  ['f(json=[{"affiliation": "Universit\\u00e9 Paris-Saclay"}])', [{ affiliation: 'Université Paris-Saclay' }]],
  ['f(json=[{"affiliation": "Université Paris-Saclay"}])', [{ affiliation: 'Université Paris-Saclay' }]],
  ['f(json=[{"a": "line\\nbreak\\ttab \\"q\\" back\\\\slash \\/"}])', [{ a: 'line\nbreak\ttab "q" back\\slash /' }]],
  [
    'f({"a": {"b": [1, -2.5, 1e3, true, false, null, {}, []]}})',
    { a: { b: [1, -2.5, 1000, true, false, null, {}, []] } },
  ],
  ['f({})', {}],
  ['f([{"a": 1}, {"a": 2}])', [{ a: 1 }, { a: 2 }]],
  ['f(["ur.01", "ur.02"])', ['ur.01', 'ur.02']],
  ['f(x=null)', null],
  ['f({ "spaced" :\n  "value" ,\n "n": 2 })', { spaced: 'value', n: 2 }],
];

describe('JSON literal arguments parse', () => {
  for (const [query, value] of good) {
    test(query, () => {
      assert.deepEqual(firstArgument(query), value);
      // The printer writes it back so that it reads the same.
      const printed = print(parse(query));
      assert.deepEqual(stripSpans(parse(printed)), stripSpans(parse(query)));
    });
  }

  test('a string outside a JSON literal keeps its escapes as before', () => {
    assert.equal(firstArgument('f("a\\nb")'), 'a\\nb');
  });

  test('spans cover the object and each entry', () => {
    const text = 'f(json=[{"a": 1}])';
    const query = parse(text) as FunctionCallQuery;
    const list = query.call.args[0]?.value;
    assert.ok(list?.kind === 'List');
    const object = list.items[0];
    assert.ok(object?.kind === 'Object');
    assert.equal(text.slice(object.span.start, object.span.end), '{"a": 1}');
    const entry = object.entries[0];
    assert.ok(entry);
    assert.equal(text.slice(entry.span.start, entry.span.end), '"a": 1');
  });
});

// Malformed literals: a coded, positioned error at the offending token (the last occurrence of `at`).
const bad: Array<readonly [query: string, code: string, at: string]> = [
  ['f({"a": 1, "a": 2})', 'DSL_DUPLICATE_KEY', '"a": 2'],
  ['f({a: 1})', 'DSL_UNEXPECTED_TOKEN', 'a: 1'],
  ['f({"a" 1})', 'DSL_UNEXPECTED_TOKEN', '1'],
  ['f({"a": 1,})', 'DSL_UNEXPECTED_TOKEN', '}'],
  ['f({"a": 1 "b": 2})', 'DSL_UNEXPECTED_TOKEN', '"b": 2'],
  ['f({"a": 1)', 'DSL_UNEXPECTED_TOKEN', ')'],
  ['f({"a": })', 'DSL_UNEXPECTED_TOKEN', '}'],
  ['f([{"a": 1}, ])', 'DSL_UNEXPECTED_TOKEN', ']'],
  ['f(json=[{"a": "x"}]', 'DSL_UNEXPECTED_TOKEN', ''],
  ['f({1: 2})', 'DSL_UNEXPECTED_TOKEN', '1: 2'],
  ['f({"a": undefined})', 'DSL_UNEXPECTED_TOKEN', 'undefined'],
  ['f({"a": "unterminated})', 'DSL_UNTERMINATED_STRING', '"unterminated'],
];

describe('malformed JSON literal arguments fail where they go wrong', () => {
  for (const [query, code, at] of bad) {
    test(query, () => {
      const problem = expectParseError(query, code);
      assert.ok(problem.span);
      assert.equal(
        problem.span.start,
        at === '' ? query.length : query.lastIndexOf(at),
        `${problem.message} at ${JSON.stringify(problem.span)}`,
      );
    });
  }

  test('nesting is bounded by the depth budget', () => {
    const deep = `f(${'{"a": '.repeat(40)}1${'}'.repeat(40)})`;
    expectParseError(deep, 'DSL_TOO_DEEP');
  });
});

describe('generated JSON', () => {
  test('any JSON a client serialises reads back as that value, and prints so that it reads the same', () => {
    fc.assert(
      fc.property(fc.jsonValue({ maxDepth: 4 }), fc.boolean(), (value, ascii) => {
        let text = JSON.stringify(value);
        // Python's json.dumps escapes every non-ASCII character by default (ensure_ascii).
        if (ascii)
          text = text.replace(/[\u0080-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
        const query = `f(json=[${text}])`;
        assert.deepEqual(firstArgument(query), [JSON.parse(text)]);
        assert.deepEqual(stripSpans(parse(print(parse(query)))), stripSpans(parse(query)));
      }),
      { numRuns: 300 },
    );
  });
});
