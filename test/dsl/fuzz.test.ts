import assert from 'node:assert/strict';
import { performance } from 'node:perf_hooks';
import { describe, test } from 'node:test';
import fc from 'fast-check';
import { ERROR_CODES, QuarryError } from '../../src/errors/index.ts';
import type { Query } from '../../src/dsl/ast.ts';
import { parse } from '../../src/dsl/parse.ts';
import { print } from '../../src/dsl/printer.ts';
import { stripSpans } from '../../src/dsl/strip-spans.ts';

// Generated inputs must either parse or fail with a coded, positioned QuarryError — never
// throw anything else, never hang. The 50 ms bound per input is part of the parser's contract
// (input budgets keep parsing linear); a slow parse is timed a second time so that one garbage-collection pause cannot fail
// the suite, while an input that is really slow (slow twice) still does.
const TIME_LIMIT_MS = 50;

function parseChecked(text: string): Query | QuarryError {
  const attempt = (): { result: Query | QuarryError; ms: number } => {
    const t0 = performance.now();
    try {
      const result = parse(text);
      return { result, ms: performance.now() - t0 };
    } catch (err) {
      const ms = performance.now() - t0;
      if (!(err instanceof QuarryError)) {
        throw new Error(`parse threw a non-QuarryError for ${JSON.stringify(text.slice(0, 200))}: ${String(err)}`, {
          cause: err,
        });
      }
      return { result: err, ms };
    }
  };
  let { result, ms } = attempt();
  if (ms >= TIME_LIMIT_MS) ({ result, ms } = attempt());
  assert.ok(ms < TIME_LIMIT_MS, `parsing took ${ms.toFixed(1)} ms for ${JSON.stringify(text.slice(0, 200))}`);
  if (result instanceof QuarryError) {
    for (const problem of result.problems) {
      assert.ok(Object.hasOwn(ERROR_CODES, problem.code), `unregistered code ${problem.code}`);
      assert.ok(problem.code.startsWith('DSL_'), `the parser raised ${problem.code}`);
      assert.ok(problem.span, `${problem.code} without a span for ${JSON.stringify(text.slice(0, 200))}`);
      assert.ok(problem.position, `${problem.code} without a position`);
      assert.ok(
        problem.span.start >= 0 && problem.span.start <= problem.span.end && problem.span.end <= text.length,
        `${problem.code} span ${JSON.stringify(problem.span)} outside a text of length ${text.length}`,
      );
    }
  }
  return result;
}

// ---------------------------------------------------------------------------------------
// A generator of queries from the grammar (grammar.md)
// ---------------------------------------------------------------------------------------

const KEYWORDS = new Set([
  'search',
  'in',
  'for',
  'where',
  'and',
  'or',
  'not',
  'return',
  'aggregate',
  'sort',
  'by',
  'asc',
  'desc',
  'limit',
  'skip',
  'as',
  'is',
  'empty',
  'count',
  'describe',
  'unnest',
  'true',
  'false',
  'identify',
]);

const anyCase = (word: string) => fc.constantFrom(word, word.toUpperCase(), word[0]!.toUpperCase() + word.slice(1));
const ws = fc.constantFrom(' ', ' ', ' ', '  ', '\n', '\t', ' \r\n  ');
const join = (parts: readonly string[], spaces: readonly string[]) =>
  parts.map((p, i) => (i === 0 ? p : `${spaces[i % spaces.length] ?? ' '}${p}`)).join('');
const spaced = (...parts: Array<fc.Arbitrary<string>>) =>
  fc.tuple(fc.tuple(...parts), fc.array(ws, { minLength: 1, maxLength: 4 })).map(([p, s]) => join(p, s));

const name = fc
  .oneof(
    fc.constantFrom(
      'publications',
      'grants',
      'researchers',
      'year',
      'funders',
      'research_orgs',
      'title',
      'doi',
      'category_for',
      'FOR',
      'times_cited',
      'basics',
      'a1',
      '_z',
    ),
    fc.stringMatching(/^[a-z_][a-z0-9_]{0,10}$/),
  )
  .filter((n) => !KEYWORDS.has(n.toLowerCase()));
const fieldPath = fc.oneof(
  name,
  fc.tuple(name, name).map(([a, b]) => `${a}.${b}`),
);

const stringChar = fc.constantFrom('a', 'b', 'z', ' ', '"', '\\', 'é', '乳', '😀', '(', '*', '-', '1', '\n');
const quoted = fc
  .array(stringChar, { maxLength: 12 })
  .map((cs) => `"${cs.join('').replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"`);
const triple = fc
  .array(
    stringChar.filter((c) => c !== '"'),
    { maxLength: 12 },
  )
  .map((cs) => `"""${cs.join('')}"""`);
const stringLit = fc.oneof({ weight: 4, arbitrary: quoted }, { weight: 1, arbitrary: triple });
const integer = fc.integer({ min: -100_000, max: 100_000 }).map(String);
const float = fc.tuple(fc.integer({ min: -999, max: 999 }), fc.nat(99)).map(([a, b]) => `${a}.${b}`);
const number = fc.oneof(integer, float);
const scalar = fc.oneof(stringLit, number);

const op = fc.constantFrom('=', '!=', '>', '<', '>=', '<=', '~');
const condition = fc.oneof(
  spaced(fieldPath, op, scalar),
  fc
    .tuple(fieldPath, anyCase('in'), fc.array(scalar, { minLength: 1, maxLength: 5 }))
    .map(([f, k, vs]) => `${f} ${k} [${vs.join(', ')}]`),
  fc.tuple(fieldPath, anyCase('in'), scalar, scalar).map(([f, k, a, b]) => `${f} ${k} [${a}:${b}]`),
  fc
    .tuple(fieldPath, anyCase('is'), fc.boolean(), anyCase('empty'))
    .map(([f, k, not, e]) => `${f} ${k}${not ? ' not' : ''} ${e}`),
  fc
    .tuple(anyCase('count'), fieldPath, fc.constantFrom('=', '!=', '>', '<', '>=', '<='), integer)
    .map(([c, f, o, n]) => `${c}(${f}) ${o} ${n}`),
);

const { filter } = fc.letrec<{ filter: string }>((tie) => ({
  filter: fc.oneof(
    { maxDepth: 4, depthIdentifier: 'filter' },
    condition,
    fc.tuple(tie('filter'), anyCase('and'), tie('filter')).map(([a, k, b]) => `${a} ${k} ${b}`),
    fc.tuple(tie('filter'), anyCase('or'), tie('filter')).map(([a, k, b]) => `${a} ${k} ${b}`),
    fc.tuple(anyCase('not'), tie('filter')).map(([k, a]) => `${k} (${a})`),
    tie('filter').map((a) => `(${a})`),
  ),
}));

// Full-text strings are generated in their own syntax, then written into a query string.
const word = fc.stringMatching(/^[a-z][a-z0-9é乳]{0,6}$/);
const term = fc.oneof(
  { weight: 5, arbitrary: word },
  { weight: 1, arbitrary: fc.tuple(word, fc.constantFrom('?', '*')).map(([w, c]) => `${w}${c}`) },
  {
    weight: 1,
    arbitrary: fc.tuple(word, fc.constantFrom('\\(', '\\+', '\\:', '\\"', '\\!', '-x')).map(([w, c]) => `${w}${c}`),
  },
);
const phrase = fc
  .tuple(fc.array(word, { minLength: 1, maxLength: 3 }), fc.option(fc.nat(20), { nil: undefined }))
  .map(([ws_, n]) => `"${ws_.join(' ')}"${n === undefined ? '' : `~${n}`}`);
const { text } = fc.letrec<{ text: string; unary: string; primary: string }>((tie) => ({
  primary: fc.oneof(
    { maxDepth: 3, depthIdentifier: 'text' },
    term,
    phrase,
    tie('text').map((t) => `(${t})`),
  ),
  unary: fc.oneof(
    { maxDepth: 3, depthIdentifier: 'text' },
    tie('primary'),
    tie('unary').map((u) => `NOT ${u}`),
    tie('unary').map((u) => `!${u}`),
    tie('primary').map((p) => `+${p}`),
    tie('primary').map((p) => `-${p}`),
  ),
  text: fc.oneof(
    { maxDepth: 3, depthIdentifier: 'text' },
    tie('unary'),
    fc
      .tuple(tie('text'), fc.constantFrom(' AND ', ' && ', ' OR ', ' || ', ' '), tie('text'))
      .map(([a, o, b]) => `${a}${o}${b}`),
  ),
}));
const textLiteral = fc.oneof(
  { weight: 4, arbitrary: text.map((t) => `"${t.replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"`) },
  { weight: 1, arbitrary: text.filter((t) => !t.includes('"')).map((t) => `"""${t}"""`) },
);
const fullText = fc.oneof(
  fc.tuple(anyCase('for'), textLiteral).map(([k, t]) => `${k} ${t}`),
  fc.tuple(anyCase('in'), name, anyCase('for'), textLiteral).map(([i, n, f, t]) => `${i} ${n} ${f} ${t}`),
);
const where = fc.tuple(anyCase('where'), filter).map(([k, f]) => `${k} ${f}`);

const argValue = fc.letrec<{ value: string }>((tie) => ({
  value: fc.oneof(
    { maxDepth: 2 },
    scalar,
    anyCase('true'),
    anyCase('false'),
    fc.array(tie('value'), { maxLength: 3 }).map((vs) => `[${vs.join(', ')}]`),
  ),
})).value;
const call = fc
  .tuple(name, fc.array(argValue, { maxLength: 3 }), fc.array(fc.tuple(name, argValue), { maxLength: 2 }))
  .map(([n, pos, named]) => `${n}(${[...pos, ...named.map(([k, v]) => `${k}=${v}`)].join(', ')})`);

const fieldSpec = fc.oneof(
  { weight: 4, arbitrary: fieldPath },
  { weight: 1, arbitrary: fieldPath.map((f) => `unnest(${f})`) },
);
const fieldList = fc
  .tuple(
    fc.boolean(),
    fieldPath,
    fc.array(fc.tuple(fc.constantFrom('+', '-', ' + ', ' - '), fieldSpec), { maxLength: 4 }),
  )
  .map(
    ([neg, first, rest]) =>
      `[${neg ? '-' : ''}${first}${rest.map(([s, f]) => (s.trim() === '-' && f.startsWith('unnest') ? `+${f}` : `${s}${f}`)).join('')}]`,
  );
const target = fc.oneof(
  name,
  fc.tuple(name, fieldList, fc.boolean()).map(([n, l, sp]) => `${n}${sp ? ' ' : ''}${l}`),
  call,
);
const modifiers = fc
  .shuffledSubarray([
    fc.tuple(anyCase('as'), stringLit).map(([k, s]) => `${k} ${s}`),
    fc
      .tuple(anyCase('aggregate'), fc.array(fc.oneof(name, anyCase('count')), { minLength: 1, maxLength: 3 }))
      .map(([k, ns]) => `${k} ${ns.join(', ')}`),
    fc
      .tuple(
        anyCase('sort'),
        anyCase('by'),
        fieldPath,
        fc.option(fc.oneof(anyCase('asc'), anyCase('desc')), { nil: '' }),
      )
      .map(([s, b, f, d]) => `${s} ${b} ${f} ${d}`),
    fc.tuple(anyCase('limit'), integer).map(([k, n]) => `${k} ${n}`),
    fc.tuple(anyCase('skip'), fc.nat(50_000)).map(([k, n]) => `${k} ${n}`),
  ])
  .chain((arbs) => (arbs.length === 0 ? fc.constant([] as string[]) : fc.tuple(...arbs)));
const returnClause = fc
  .tuple(anyCase('return'), fc.option(stringLit, { nil: undefined }), target, modifiers)
  .map(([r, g, t, ms]) => [r, ...(g === undefined ? [] : [`in ${g}`]), t, ...ms].join(' '));

const search = fc
  .tuple(
    anyCase('search'),
    name,
    fc
      .shuffledSubarray([fullText, where])
      .chain((arbs) => (arbs.length === 0 ? fc.constant([] as string[]) : fc.tuple(...arbs))),
    fc.array(returnClause, { minLength: 1, maxLength: 3 }),
  )
  .chain(([s, src, clauses, returns]) =>
    fc.array(ws, { minLength: 1, maxLength: 5 }).map((spaces) => join([s, src, ...clauses, ...returns], spaces)),
  );
const describeQuery = fc.oneof(
  fc.tuple(anyCase('describe'), fc.constantFrom('version', 'schema', 'VERSION')).map(([d, w]) => `${d} ${w}`),
  fc.tuple(anyCase('describe'), fc.constantFrom('source', 'entity'), name).map(([d, w, n]) => `${d} ${w} ${n}`),
);
const validQuery = fc.oneof(
  { weight: 8, arbitrary: search },
  { weight: 1, arbitrary: describeQuery },
  { weight: 1, arbitrary: call },
);

// Mutations turn valid queries into near misses: the inputs most likely to find a crash.
const insertable = fc.oneof(
  fc.constantFrom(
    '"',
    '"""',
    '\\',
    '(',
    ')',
    '[',
    ']',
    ',',
    ':',
    '~',
    '@',
    '!',
    '-',
    '+',
    '=',
    '.',
    ' ',
    '\n',
    '😀',
    '\u0000',
    '\ud800',
    'return',
    'where',
    'for',
    'in',
    'not',
    'AND',
    'NOT',
    '*',
    '?',
    '~5',
    '1e',
    '9'.repeat(30),
  ),
  fc.string({ maxLength: 3 }),
);
const mutation = fc.tuple(
  fc.constantFrom('delete', 'insert', 'duplicate', 'truncate', 'swap'),
  fc.nat(),
  fc.nat(12),
  insertable,
);
function mutate(text: string, [kind, at, length, insert]: [string, number, number, string]): string {
  const pos = at % (text.length + 1);
  switch (kind) {
    case 'delete':
      return text.slice(0, pos) + text.slice(pos + length + 1);
    case 'insert':
      return text.slice(0, pos) + insert + text.slice(pos);
    case 'duplicate':
      return text.slice(0, pos + length) + text.slice(pos, pos + length) + text.slice(pos + length);
    case 'truncate':
      return text.slice(0, pos);
    default: {
      const other = (pos + length * 7) % (text.length + 1);
      const [a, b] = pos < other ? [pos, other] : [other, pos];
      return (
        text.slice(0, a) +
        text.slice(b, b + length) +
        text.slice(a + length, b) +
        text.slice(a, a + length) +
        text.slice(b + length)
      );
    }
  }
}
const mutations = fc.oneof(
  { weight: 2, arbitrary: fc.constant([]) },
  { weight: 1, arbitrary: fc.array(mutation, { minLength: 1, maxLength: 3 }) },
);
const generated = fc.tuple(validQuery, mutations).map(([query, mutations]) => ({
  query,
  mutated: mutations.length > 0,
  text: mutations.reduce(mutate, query),
}));

const SOUP = [
  ...KEYWORDS,
  'publications',
  'x',
  '"a"',
  '"""b"""',
  '1',
  '-2',
  '3.5',
  '[',
  ']',
  '(',
  ')',
  ',',
  ':',
  '+',
  '-',
  '=',
  '!=',
  '>=',
  '~',
  '.',
  '"',
  '\\',
];
const randomStrings = fc.oneof(
  fc.string({ maxLength: 200 }),
  fc.string({ unit: 'binary', maxLength: 200 }),
  fc.string({ unit: 'grapheme', maxLength: 80 }),
  fc.array(fc.constantFrom(...SOUP), { maxLength: 40 }).map((ts) => ts.join(' ')),
  fc
    .array(fc.constantFrom(...SOUP), { maxLength: 40 })
    .map((ts) => `search publications for "${ts.join(' ')}" return publications`),
);

describe('generated inputs parse or fail with a coded, positioned error', () => {
  test('10,000 queries from the grammar, a third of them mutated', () => {
    let parsed = 0;
    fc.assert(
      fc.property(generated, ({ query, mutated, text }) => {
        const result = parseChecked(text);
        if (result instanceof QuarryError) {
          // A query straight from the grammar is in the language.
          assert.ok(
            mutated,
            `${JSON.stringify(text)} is from the grammar but failed: ${result.code} ${result.message}`,
          );
          return;
        }
        parsed++;
        assert.deepEqual(
          stripSpans(parse(print(result))),
          stripSpans(result),
          `round-trip of ${JSON.stringify(query)}`,
        );
      }),
      { numRuns: 10_000 },
    );
    // Most inputs must parse (and so be round-tripped), or the test proves little.
    assert.ok(parsed > 6000, `only ${parsed} of 10,000 generated queries parsed`);
  });

  test('10,000 random strings', () => {
    fc.assert(
      fc.property(randomStrings, (text) => {
        parseChecked(text);
      }),
      { numRuns: 10_000 },
    );
  });
});
