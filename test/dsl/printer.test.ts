import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { QuarryError } from '../../src/errors/index.ts';
import { readQueryCorpus } from '../../src/dsl/corpus.ts';
import { parse } from '../../src/dsl/parse.ts';
import { print, printString } from '../../src/dsl/printer.ts';
import { stripSpans } from '../../src/dsl/strip-spans.ts';
import { conformanceText } from './helpers.ts';

describe('printer round-trip over the conformance file', () => {
  for (const record of readQueryCorpus(conformanceText())) {
    test(record.query, () => {
      let ast;
      try {
        ast = parse(record.query);
      } catch (err) {
        // Only a query the file marks as an error may fail to parse, and then with a coded error.
        assert.ok(err instanceof QuarryError, String(err));
        assert.ok(record.expected?.startsWith('error'), `${err.code}: ${err.message}`);
        return;
      }
      const printed = print(ast);
      assert.deepEqual(stripSpans(parse(printed)), stripSpans(ast));
      assert.equal(print(parse(printed)), printed, 'printing is idempotent');
    });
  }
});

describe('printer: canonical text', () => {
  test('lower-case keywords, single spaces, for before where, modifiers in grammar order', () => {
    const text =
      'SEARCH publications\n WHERE year=2020   IN title_only FOR "x"\n RETURN funders LIMIT 5 SORT BY count ASC AGGREGATE count AS "f"';
    assert.equal(
      print(parse(text)),
      'search publications in title_only for "x" where year = 2020 return funders as "f" aggregate count sort by count asc limit 5',
    );
  });

  test('parentheses appear only where the filter needs them', () => {
    assert.equal(
      print(parse('search p where ((a = 1 or b = 2)) and (c = 3) and not (d = 4 and e = 5) return p')),
      'search p where (a = 1 or b = 2) and c = 3 and not (d = 4 and e = 5) return p',
    );
  });

  test('strings: quotes and backslashes are escaped so that they read back the same', () => {
    const cases = ['plain', 'a "quoted" word', 'back\\slash', 'ends with \\', '\\"', '\\\\(', 'line\nbreak'];
    for (const value of cases) {
      const printed = printString({ kind: 'String', value, triple: false, span: { start: 0, end: 0 } });
      const reparsed = parse(`f(${printed})`);
      assert.ok(reparsed.kind === 'FunctionCallQuery');
      const arg = reparsed.call.args[0];
      assert.ok(arg?.value.kind === 'String');
      assert.equal(arg.value.value, value, `${JSON.stringify(value)} printed as ${printed}`);
    }
  });

  test('full-text escapes are printed as written', () => {
    assert.equal(print(parse('search p for "c\\+\\+ \\(x\\)" return p')), 'search p for "c\\+\\+ \\(x\\)" return p');
  });
});
