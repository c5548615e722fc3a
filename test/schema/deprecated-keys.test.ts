// Version 2 answers publications' authors with `current_organization_id`, which the hosted
// service calls deprecated (spec/schema-2026.md §6.4, §8.1): a records return that carries
// `authors` warns in the hosted service's words (read from the spec's copy in the fixtures);
// other returns, and version 1 (whose hosted answers carried the key unwarned), do not.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, test } from 'node:test';
import { prepareQuery } from '../../src/engine/run-query.ts';
import { valid } from './helpers.ts';

const SPEC = readFileSync(new URL('../fixtures/spec/schema-2026-versions.md', import.meta.url), 'utf8');
const HOSTED_WARNING = /warning seen in outputs: "([^"]+)"/.exec(SPEC)?.[1] ?? '';

const warningsOf = (text: string, dslVersion: 1 | 2 = 2) => valid(text, dslVersion).warnings;

describe('deprecated keys of author objects', () => {
  test('the spec gives the hosted warning', () => {
    assert.match(HOSTED_WARNING, /^Field current_organization_id of the authors field is deprecated/);
  });

  for (const text of [
    'search publications return publications[id + authors]',
    'search publications return publications',
    'search publications return publications[basics + extras]',
    'search publications where year = 2020 return publications[id + unnest(authors)]',
    'search publications return year return publications[authors] limit 5',
  ]) {
    test(`warns once: ${text}`, () => {
      assert.deepEqual(warningsOf(text), [HOSTED_WARNING]);
    });
  }

  for (const text of [
    'search publications return publications[id + title]',
    'search publications return publications[basics - authors]',
    'search publications return researchers',
    'search grants return grants',
  ]) {
    test(`does not warn: ${text}`, () => {
      assert.deepEqual(warningsOf(text), []);
    });
  }

  test('version 1 does not warn for its author objects', () => {
    assert.deepEqual(warningsOf('search publications return publications', 1), []);
    assert.deepEqual(warningsOf('search publications return publications[id + author_affiliations]', 1), [
      "Field 'author_affiliations' is deprecated in favor of authors. Please refer to https://docs.dimensions.ai/dsl/releasenotes.html for more details",
    ]);
  });

  test('the warning reaches the plan the engines answer with', () => {
    const prepared = prepareQuery('search publications return publications[id + authors] limit 1', { dslVersion: 2 });
    assert.equal(prepared.kind, 'plan');
    assert.deepEqual(prepared.kind === 'plan' ? prepared.plan.warnings : [], [HOSTED_WARNING]);
  });
});
