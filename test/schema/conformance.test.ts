import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, test } from 'node:test';
import { parse } from '../../src/dsl/index.ts';
import { checkCorpus, checkQuery, matchesReason } from '../../src/schema/corpus-check.ts';
import { isQuarryError } from '../../src/errors/index.ts';
import { validate } from '../../src/schema/index.ts';
import { SOURCE_NAMES } from '../../src/model/sources.ts';
import { STATEMENT_FUNCTIONS } from '../../src/functions/registry.ts';

// Every real query of the conformance file (conformance/queries.txt, copied from the protocol's shared conformance set)
// either validates, or is reported as unsupported with the right reason, or - when marked
// `# expected: error (...)` - is rejected for that reason.
const CONFORMANCE = readFileSync(new URL('../../conformance/queries.txt', import.meta.url), 'utf8');

describe('conformance queries (version 2)', () => {
  const report = checkCorpus(CONFORMANCE, { dslVersion: 2, statements: STATEMENT_FUNCTIONS });

  test('0 failed', () => {
    const failures = report.results
      .filter((r) => r.outcome === 'failed')
      .map((r) => `${r.entry.line}: ${r.why} ${r.error?.message ?? ''}`);
    assert.deepEqual(failures, []);
    assert.equal(report.ok + report.unsupported, report.results.length);
    assert.ok(report.results.length >= 50);
  });

  for (const r of report.results) {
    test(r.entry.query, () => {
      assert.notEqual(r.outcome, 'failed', r.why);
      if (r.outcome === 'unsupported') {
        // Only sources and functions this deployment does not hold count as unsupported.
        assert.equal(r.error?.category, 'unsupported');
        assert.match(r.error?.message ?? '', /not offered by this deployment/);
        assert.match(
          r.entry.query,
          /\b(patents|clinical_trials|datasets|policy_documents|reports|source_titles|funder_groups|research_org_groups)\b/,
        );
      }
    });
  }
});

describe('expected-error reasons', () => {
  const limitError = (() => {
    try {
      validate(parse('search publications return publications limit 2000'), { dslVersion: 2, source: '' });
    } catch (error) {
      if (isQuarryError(error)) return error;
    }
    throw new Error('not rejected');
  })();

  test('limit above 1000 matches SCHEMA_LIMIT_TOO_LARGE', () => {
    assert.equal(matchesReason('limit above 1000', limitError), true);
  });
  test('skip is not supported on facets does not match SCHEMA_LIMIT_TOO_LARGE', () => {
    assert.equal(matchesReason('skip is not supported on facets', limitError), false);
  });
  test('a query that validates but is marked as an error fails', () => {
    const r = checkQuery(
      { query: 'search grants return grants', expected: 'error (limit above 1000)', line: 1 },
      { dslVersion: 2 },
    );
    assert.equal(r.outcome, 'failed');
    assert.match(r.why, /validated, but it should be rejected/);
  });
  test('a query rejected for another reason than marked fails', () => {
    const r = checkQuery(
      {
        query: 'search publications return publications limit 2000',
        expected: 'error (skip is not supported on facets)',
        line: 1,
      },
      { dslVersion: 2 },
    );
    assert.equal(r.outcome, 'failed');
    assert.match(r.why, /not for the expected reason/);
  });
  test('an unmarked query with a semantic error fails; one on an unsupported source is unsupported', () => {
    assert.equal(
      checkQuery({ query: 'search publications return titel', line: 1 }, { dslVersion: 2 }).outcome,
      'failed',
    );
    // A source of spec/dsl.md §8 not held (the first, as sources are added).
    const notHeld = ['funder_groups', 'research_org_groups', 'source_titles'].find(
      (name) => !(SOURCE_NAMES as readonly string[]).includes(name),
    );
    if (notHeld !== undefined)
      assert.equal(
        checkQuery({ query: `search ${notHeld} return ${notHeld}`, line: 1 }, { dslVersion: 2 }).outcome,
        'unsupported',
      );
    assert.equal(
      checkQuery({ query: 'search publications return publications limit', line: 1 }, { dslVersion: 2 }).outcome,
      'failed',
    );
  });
});
