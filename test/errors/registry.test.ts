import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { CODE_AREAS, ERROR_CATEGORIES, ERROR_CODES } from '../../src/errors/index.ts';
import { renderErrorsDoc } from '../../src/errors/docs.ts';

const root = new URL('../../', import.meta.url).pathname;

function testSources(dir: string, out: string[] = []): string[] {
  for (const entry of readdirSync(dir)) {
    const path = join(dir, entry);
    if (statSync(path).isDirectory()) testSources(path, out);
    else if (path.endsWith('.ts') && !path.endsWith('registry.test.ts')) out.push(readFileSync(path, 'utf8'));
  }
  return out;
}

describe('error-code registry', () => {
  test('docs/errors.md is in step with the registry (run `npm run docs:errors`)', () => {
    assert.equal(readFileSync(join(root, 'docs/errors.md'), 'utf8'), renderErrorsDoc());
  });

  test('no code is defined in two areas', () => {
    const seen = new Map<string, string>();
    for (const { area, codes } of CODE_AREAS) {
      for (const code of Object.keys(codes)) {
        assert.ok(!seen.has(code), `${code} is defined in ${seen.get(code)} and ${area}`);
        seen.set(code, area);
      }
    }
    assert.equal(seen.size, Object.keys(ERROR_CODES).length);
  });

  test('codes are SCREAMING_SNAKE_CASE with a known category, a message and a fix', () => {
    for (const [code, def] of Object.entries(ERROR_CODES)) {
      assert.match(code, /^[A-Z][A-Z0-9_]+$/);
      assert.ok((ERROR_CATEGORIES as readonly string[]).includes(def.category), code);
      assert.ok(def.message.length > 10 && def.fix.length > 10, `${code} needs a message and a fix`);
    }
  });

  test('every code is reached by at least one test (named in a test file)', () => {
    const corpus = testSources(join(root, 'test')).join('\n');
    const missing = Object.keys(ERROR_CODES).filter(
      (code) => !corpus.includes(`'${code}'`) && !corpus.includes(`"${code}"`),
    );
    assert.deepEqual(missing, [], `codes no test names: ${missing.join(', ')}`);
  });
});
