import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { runCheck } from '../../src/cli/check-run.ts';

// `quarry check` run as the real command, on the conformance file and on small files.
const BIN = fileURLToPath(new URL('../../bin/quarry.js', import.meta.url));
const CONFORMANCE = fileURLToPath(new URL('../../conformance/queries.txt', import.meta.url));
const dir = mkdtempSync(join(tmpdir(), 'quarry-check-'));

function quarry(...args: string[]): { status: number | null; stdout: string; stderr: string } {
  const r = spawnSync(process.execPath, [BIN, ...args], { encoding: 'utf8' });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

/** Runs the command's work in process (faster than a process per case); returns the printed report. */
function check(files: string[], dslVersion: 1 | 2 = 2): { stdout: string; failed: number } {
  let stdout = '';
  const summary = runCheck(files, { dslVersion }, (t) => {
    stdout += t;
  });
  return { stdout, failed: summary.failed };
}

function file(name: string, text: string): string {
  const path = join(dir, name);
  writeFileSync(path, text);
  return path;
}

describe('quarry check', () => {
  test('quarry check conformance/queries.txt ends with 0 failed and exits 0', () => {
    const r = quarry('check', CONFORMANCE);
    const last = r.stdout.trim().split('\n').at(-1) ?? '';
    assert.match(last, /^\d+ ok, 0 failed, \d+ unsupported$/);
    assert.equal(r.status, 0);
    // Line 56 searches clinical_trials, which Quarry holds: it validates (only problems are printed).
    assert.doesNotMatch(r.stdout, /queries\.txt:56:/);
  });

  test('a failing query is printed with its file line and a caret; exit 1', () => {
    const path = file(
      'bad.txt',
      [
        '# a comment',
        '---',
        'search grants return grants',
        '---',
        'search publications',
        '  where titel = "x"',
        'return publications',
        '---',
        'similar_documents(abstract="University of Oxford")',
        '',
      ].join('\n'),
    );
    const r = quarry('check', path);
    assert.equal(r.status, 1);
    assert.match(r.stdout, /bad\.txt:5: FAILED, rejected/);
    assert.match(
      r.stdout,
      /Field 'titel' is not a field of 'publications'\. Did you mean 'title'\? \[SCHEMA_UNKNOWN_FIELD\]/,
    );
    assert.match(r.stdout, / {2}6 \| {3}where titel = "x"\n {2} {2}\| {9}\^{5}/);
    assert.match(r.stdout, /bad\.txt:9: unsupported/);
    assert.match(r.stdout, /1 ok, 1 failed, 1 unsupported\n$/);
  });

  test('expected errors count as ok when rejected for that reason', () => {
    const path = file(
      'expected.txt',
      [
        '---',
        'search publications return year limit 10 skip 10',
        '# expected: error (skip is not supported on facets)',
        '---',
        'search grants return grants',
        '# expected: error (limit above 1000)',
        '',
      ].join('\n'),
    );
    const r = check([path]);
    assert.equal(r.failed, 1);
    assert.match(r.stdout, /expected\.txt:5: FAILED, validated, but it should be rejected/);
    assert.match(r.stdout, /1 ok, 1 failed, 0 unsupported\n$/);
  });

  test('--dsl-version 1 accepts version-1 fields; version 2 names the replacement', () => {
    const path = file('v1.txt', 'search publications return publications[id + FOR]\n');
    const v1 = check([path], 1);
    assert.equal(v1.failed, 0);
    assert.match(v1.stdout, /1 ok, 0 failed, 0 unsupported/);
    const v2 = check([path], 2);
    assert.equal(v2.failed, 1);
    assert.match(v2.stdout, /use 'category_for' instead\. \[SCHEMA_REMOVED_FIELD\]/);
  });

  test('several files add up', () => {
    const a = file('a.txt', 'search grants return grants\n---\nsimilar_documents(abstract="University of Oxford")\n');
    const b = file('b.txt', 'describe schema\n');
    const r = check([a, b]);
    assert.equal(r.failed, 0);
    assert.match(r.stdout, /2 ok, 0 failed, 1 unsupported\n$/);
  });

  test('a missing file is a clear error, exit 1', () => {
    const r = quarry('check', join(dir, 'nope.txt'));
    assert.equal(r.status, 1);
    assert.match(r.stderr, /cannot read .*nope\.txt/);
  });
});
