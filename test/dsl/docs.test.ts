import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, test } from 'node:test';
import { parse } from '../../src/dsl/parse.ts';
import { print } from '../../src/dsl/printer.ts';

// The examples in docs/language.md must stay in the language: ```dsl blocks hold one query
// (or one `return ...` fragment of a publications search) per line, ```dsl-query blocks
// one query over several lines. `-- ` starts a comment.
const doc = readFileSync(new URL('../../docs/language.md', import.meta.url), 'utf8');
const examples: string[] = [];
for (const match of doc.matchAll(/```(dsl|dsl-query)\n([\s\S]*?)```/g)) {
  const lines = (match[2] ?? '')
    .split('\n')
    .map((l) => l.replace(/\s--\s.*$/, '').trimEnd())
    .filter((l) => l.trim() !== '');
  if (match[1] === 'dsl-query') examples.push(lines.join('\n'));
  else examples.push(...lines.map((l) => (l.startsWith('return ') ? `search publications ${l}` : l)));
}

describe('docs/language.md examples parse', () => {
  test('the document has examples', () => {
    assert.ok(examples.length >= 15, `only ${examples.length} examples found`);
  });
  for (const example of examples) {
    test(example, () => {
      assert.equal(print(parse(print(parse(example)))), print(parse(example)));
    });
  }
});
