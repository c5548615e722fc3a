// Statement functions are checked before anything runs: a bad argument is a positioned 400
// naming the function, an unknown named argument suggests the right one, the caller must be
// subscribed to what the function reads, and names still not offered keep their answer.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { prepareQuery } from '../../src/engine/run-query.ts';
import { STATEMENT_FUNCTIONS } from '../../src/functions/registry.ts';
import { validatedStatement } from '../../src/schema/index.ts';
import { QuarryError } from '../../src/errors/index.ts';
import { STATUS_BY_CATEGORY } from '../../src/http/status.ts';

function rejection(text: string, sources?: readonly string[]): QuarryError {
  try {
    prepareQuery(text, { dslVersion: 2, ...(sources === undefined ? {} : { permissions: { sources } }) });
  } catch (error) {
    assert.ok(error instanceof QuarryError, String(error));
    return error;
  }
  assert.fail(`${text} was accepted`);
}

// [query, code, the text the error's span covers, words of the message]
const bad: Array<readonly [string, string, string, string]> = [
  [
    'search grants return extract_grants(grant_number="R01CA1")',
    'SCHEMA_STATEMENT_NOT_RESULT',
    'extract_grants',
    'a statement of its own',
  ],
  [
    'extract_grants(funder_name="NIH")',
    'SCHEMA_STATEMENT_ARGUMENTS',
    'extract_grants(funder_name="NIH")',
    'grant_number is required',
  ],
  [
    'extract_grants(grant_number="R01", fundre="100000050")',
    'SCHEMA_STATEMENT_ARGUMENTS',
    'fundre',
    "did you mean 'fundref'",
  ],
  [
    'extract_grants(grant_number="R01", colour="x")',
    'SCHEMA_STATEMENT_ARGUMENTS',
    'colour',
    'it takes grant_number, fundref, funder_name',
  ],
  [
    'extract_grants(grant_number="R01", grant_number="R02")',
    'SCHEMA_STATEMENT_ARGUMENTS',
    'grant_number="R02"',
    'given twice',
  ],
  ['extract_grants(grant_number=["R01"])', 'SCHEMA_STATEMENT_ARGUMENTS', '["R01"]', 'must be a string'],
  ['extract_grants(grant_number="--")', 'SCHEMA_STATEMENT_ARGUMENTS', '"--"', 'no letters or digits'],
  ['extract_grants(grant_number="R01", fundref="NIH")', 'SCHEMA_STATEMENT_ARGUMENTS', '"NIH"', 'Funder Registry id'],
  [
    'extract_grants(grant_number="R01", fundref="100000050", funder_name="NIH")',
    'SCHEMA_STATEMENT_ARGUMENTS',
    '"NIH"',
    'not both',
  ],
  ['extract_grants("R01", "100000050", "NIH", "x")', 'SCHEMA_STATEMENT_ARGUMENTS', '"x"', 'at most 3 arguments'],
  ['check_researcher_ids("ur.1")', 'SCHEMA_STATEMENT_ARGUMENTS', '"ur.1"', 'a list of researcher ids'],
  ['check_researcher_ids(["ur.1", 2])', 'SCHEMA_STATEMENT_ARGUMENTS', '2', 'must be a string'],
  ['check_researcher_ids([])', 'SCHEMA_STATEMENT_ARGUMENTS', '[]', 'empty'],
  ['check_researcher_ids()', 'SCHEMA_STATEMENT_ARGUMENTS', 'check_researcher_ids()', 'ids is required'],
  [
    'check_researcher_id(["ur.1"])',
    'SCHEMA_UNKNOWN_FUNCTION',
    'check_researcher_id',
    "Did you mean 'check_researcher_ids'",
  ],
  ['extract_affiliations(affiliation=3)', 'SCHEMA_STATEMENT_ARGUMENTS', '3', 'must be a string'],
  [
    'extract_affiliations(organisation="Oxford")',
    'SCHEMA_STATEMENT_ARGUMENTS',
    'organisation',
    "unknown argument 'organisation'",
  ],
];

describe('bad arguments of statement functions are positioned 400s', () => {
  for (const [query, code, at, words] of bad) {
    test(query, () => {
      const error = rejection(query);
      const problem = error.first;
      assert.equal(problem.code, code, problem.message);
      assert.ok(problem.message.includes(words), problem.message);
      assert.ok(problem.span && problem.position, 'positioned');
      assert.equal(query.slice(problem.span.start, problem.span.end), at);
      assert.equal(STATUS_BY_CATEGORY[error.category], 400);
    });
  }
});

describe('statement functions are prepared for the engine', () => {
  test('extract_grants, positional and named, gives a PreparedFunction', () => {
    for (const text of [
      'extract_grants(grant_number="R01HL117329", fundref="100000050")',
      'extract_grants("R01HL117329", fundref="100000050")',
      'EXTRACT_GRANTS(grant_number="R01HL117329")'.toLowerCase(),
    ]) {
      const prepared = prepareQuery(text, { dslVersion: 2 });
      assert.equal(prepared.kind, 'function');
      assert.ok(prepared.kind === 'function');
      assert.equal(prepared.prepared.name, 'extract_grants');
      assert.deepEqual(prepared.prepared.reads, ['grants']);
    }
  });

  test('check_researcher_ids takes the list the Python client sends', () => {
    const prepared = prepareQuery('check_researcher_ids(["ur.01", "ur.02"])', { dslVersion: 2 });
    assert.ok(prepared.kind === 'function');
    assert.equal(prepared.prepared.name, 'check_researcher_ids');
  });

  test('the caller must be subscribed to the sources a function reads', () => {
    const error = rejection('check_researcher_ids(["ur.01"])', ['publications', 'grants']);
    assert.equal(error.first.code, 'SCHEMA_SOURCE_NOT_SUBSCRIBED');
    assert.ok(error.first.message.includes('researchers'));
    assert.ok(
      prepareQuery('extract_grants(grant_number="R01")', { dslVersion: 2, permissions: { sources: ['grants'] } }),
    );
  });

  test('describe schema lists the statement functions the caller may use, with parameters', () => {
    const all = prepareQuery('describe schema', { dslVersion: 2 });
    assert.ok(all.kind === 'answer');
    const listed = all.result['statement_functions'] as Record<
      string,
      { parameters: { name: string }[]; reads: string[] }
    >;
    assert.deepEqual(
      listed['extract_grants']?.parameters.map((p) => p.name),
      ['grant_number', 'fundref', 'funder_name'],
    );
    assert.deepEqual(listed['check_researcher_ids']?.reads, ['researchers']);
    const some = prepareQuery('describe schema', { dslVersion: 2, permissions: { sources: ['grants'] } });
    assert.ok(some.kind === 'answer');
    assert.deepEqual(Object.keys(some.result['statement_functions'] as object), ['extract_grants']);
  });
});

describe('a statement with its own syntax names its function', () => {
  const span = { start: 0, end: 30 };
  const at = { start: 0, end: 8 };
  test('it validates to the registry entry with the arguments given', () => {
    const statement = validatedStatement('check_researcher_ids', ['ur.1'], span, at, {
      dslVersion: 2,
      source: 'x'.repeat(30),
      statements: STATEMENT_FUNCTIONS,
    });
    assert.deepEqual(
      { kind: statement.kind, name: statement.name, reads: statement.reads, args: statement.args },
      { kind: 'statement', name: 'check_researcher_ids', reads: ['researchers'], args: ['ur.1'] },
    );
  });
  test('a name the registry lacks is not offered; a source outside the subscription is refused', () => {
    const options = { dslVersion: 2 as const, source: 'x'.repeat(30), statements: STATEMENT_FUNCTIONS };
    assert.throws(
      () => validatedStatement('find_reviewers', {}, span, at, options),
      (e: unknown) => e instanceof QuarryError && e.first.code === 'SCHEMA_UNSUPPORTED_FUNCTION',
    );
    assert.throws(
      () =>
        validatedStatement('check_researcher_ids', [], span, at, { ...options, permissions: { sources: ['grants'] } }),
      (e: unknown) => e instanceof QuarryError && e.first.code === 'SCHEMA_SOURCE_NOT_SUBSCRIBED',
    );
  });
});
