// `quarry migrate [--dry-run] --db FILE|URL`: lists, then applies, the pending migrations.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import Database from 'better-sqlite3';
import { createTestPgDatabase } from '../fixtures/pg-db.ts';

const bin = new URL('../../bin/quarry.js', import.meta.url).pathname;

function quarry(args: string[]): { status: number | null; stdout: string; stderr: string } {
  const r = spawnSync(process.execPath, [bin, ...args], {
    encoding: 'utf8',
    env: { ...process.env, QUARRY_DB: '', QUARRY_DATABASE_URL: '' },
  });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

test('on PostgreSQL: --dry-run lists the account and web migrations, a run applies them, a second finds none', async () => {
  const database = await createTestPgDatabase('migrate');
  try {
    const dry = quarry(['migrate', '--dry-run', '--db', database.url]);
    assert.equal(dry.status, 0, dry.stderr);
    assert.match(dry.stdout, /would apply \d+ migration\(s\)/);
    assert.match(dry.stdout, /accounts 1: /);
    assert.match(dry.stdout, /web 1: /);
    const run = quarry(['migrate', '--db', database.url]);
    assert.equal(run.status, 0, run.stderr);
    assert.match(run.stdout, /applied \d+ migration\(s\)/);
    assert.match(quarry(['migrate', '--db', database.url]).stdout, /is up to date/);
    // The account commands work on it at once.
    const created = quarry(['accounts', 'create', '--email', 'ana@example.org', '--activate', '--db', database.url]);
    assert.equal(created.status, 0, created.stderr);
    assert.match(quarry(['accounts', 'list', '--db', database.url]).stdout, /ana@example\.org\tactive/);
  } finally {
    await database.drop();
  }
});

test('on SQLite: the account and web tables of a file are brought up to date', () => {
  const file = join(mkdtempSync(join(tmpdir(), 'quarry-migrate-')), 'quarry.db');
  new Database(file).close();
  const dry = quarry(['migrate', '--dry-run', '--db', file]);
  assert.equal(dry.status, 0, dry.stderr);
  assert.match(dry.stdout, /accounts 1: /);
  assert.match(quarry(['migrate', '--db', file]).stdout, /applied/);
  assert.match(quarry(['migrate', '--db', file]).stdout, /is up to date/);
});

test('an unreachable PostgreSQL is a coded start-up error that hides the password', () => {
  const r = quarry(['migrate', '--db', 'postgres://quarry:s3cret@127.0.0.1:1/quarry']);
  assert.notEqual(r.status, 0);
  assert.match(r.stderr, /SERVICE_BACKEND_UNREACHABLE/);
  assert.match(r.stderr, /postgres:\/\/quarry:\*\*\*@127\.0\.0\.1:1\/quarry/);
  assert.doesNotMatch(r.stderr, /s3cret/);
});
