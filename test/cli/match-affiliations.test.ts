import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { tinyDatabase } from '../engine/fixtures/tiny-db.ts';

const BIN = fileURLToPath(new URL('../../bin/quarry.js', import.meta.url));
const work = mkdtempSync(join(tmpdir(), 'quarry-match-affiliations-'));
after(() => rmSync(work, { recursive: true, force: true }));
const db = tinyDatabase();

const quarry = (...args: string[]) =>
  spawnSync(process.execPath, [BIN, ...args], { encoding: 'utf8', env: { ...process.env } });

test('matches a file of strings, one a line, against the organizations held', () => {
  const input = join(work, 'lines.txt');
  writeFileSync(input, 'Department of Physics, Saarland University, Saarbrücken, Germany\nNobody, Nowhere\n');
  const run = quarry('match-affiliations', input, '--db', db);
  assert.equal(run.status, 0, run.stderr);
  assert.deepEqual(run.stdout.trim().split('\n'), [
    'input,organization_id,name,country,score',
    run.stdout.split('\n')[1],
    '"Nobody, Nowhere",,,,',
  ]);
  assert.match(
    run.stdout.split('\n')[1] ?? '',
    /^"Department of Physics, Saarland University, Saarbrücken, Germany",grid\.900001\.a,Saarland University,Germany,(0|1)\.\d{3}$/,
  );
});

test('reads the affiliation column of a CSV and writes --out', () => {
  const input = join(work, 'in.csv');
  const out = join(work, 'out.csv');
  writeFileSync(input, 'id,affiliation\n1,"Institute of X, Saarland University, Saarbrücken"\n2,Saarland University\n');
  const run = quarry('match-affiliations', input, '--db', db, '--out', out);
  assert.equal(run.status, 0, run.stderr);
  const rows = readFileSync(out, 'utf8').trim().split('\n');
  assert.equal(rows.length, 3);
  assert.match(rows[1] ?? '', /^"Institute of X, Saarland University, Saarbrücken",grid\.900001\.a,/);
  assert.match(rows[2] ?? '', /^Saarland University,grid\.900001\.a,/);
});

test('refuses a missing file with a message, not a stack trace', () => {
  const run = quarry('match-affiliations', join(work, 'absent.txt'), '--db', db);
  assert.notEqual(run.status, 0);
  assert.doesNotMatch(run.stderr, /\n\s+at /);
});
