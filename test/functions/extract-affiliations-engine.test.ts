// extract_affiliations through the SQLite engine: parsed (JSON arguments included),
// validated, run over the organizations the database holds (test/engine/fixtures/tiny-db.ts).
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { createSqliteEngine } from '../../src/engine/backends/sqlite/engine.ts';
import type { QueryEngine } from '../../src/engine/types.ts';
import { QuarryError } from '../../src/errors/index.ts';
import { tinyDatabase } from '../engine/fixtures/tiny-db.ts';

let engine: QueryEngine;
before(() => {
  engine = createSqliteEngine({ dbPath: tinyDatabase(), workers: 1, expensiveWorkers: 1 });
});
after(async () => {
  await engine?.close();
});

test('runs the batch form with JSON arguments on the engine', async () => {
  const outcome = await engine.run(
    'extract_affiliations(json=[{"affiliation": "Dept of Physics, Saarland University, Saarbrücken, Germany"}, {"name": "Nowhere Institute"}])',
    { dslVersion: 2 },
  );
  const results = outcome.result['results'] as {
    input: unknown;
    matches: { institutes: { institute: { id: string } }[] }[];
  }[];
  assert.equal(results.length, 2);
  assert.equal(results[0]?.matches[0]?.institutes[0]?.institute.id, 'grid.900001.a');
  assert.deepEqual(results[1], { input: { name: 'Nowhere Institute' }, matches: [] });
  assert.equal(outcome.labels?.result, 'extract_affiliations');
});

test('refuses a batch of more than 200 with a positioned 400', async () => {
  const items = Array.from({ length: 201 }, () => '{"affiliation": "x"}').join(', ');
  await assert.rejects(engine.run(`extract_affiliations(json=[${items}])`, { dslVersion: 2 }), (e: unknown) => {
    assert.ok(e instanceof QuarryError);
    const problem = e.problems[0];
    assert.equal(problem?.code, 'SCHEMA_STATEMENT_ARGUMENTS');
    assert.match(problem.message, /at most 200/);
    assert.ok(problem.span !== undefined && problem.span.start > 0);
    return true;
  });
});
