import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { before, describe, test } from 'node:test';
import { AccountService } from '../../src/accounts/service.ts';
import { openSqliteAccountStore } from '../../src/store/sqlite/account-store.ts';

const bin = new URL('../../bin/quarry.js', import.meta.url).pathname;

function quarry(args: string[], input?: string): { status: number | null; stdout: string; stderr: string } {
  const r = spawnSync(process.execPath, [bin, ...args], {
    encoding: 'utf8',
    input: input ?? '',
    env: { ...process.env, QUARRY_DB: '' },
  });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

/** Reads the database the commands wrote, through the service. */
async function inspect<T>(db: string, work: (a: AccountService) => Promise<T>): Promise<T> {
  const store = openSqliteAccountStore(db);
  const accounts = new AccountService({ store });
  try {
    return await work(accounts);
  } finally {
    await accounts.shutdown();
    await store.close();
  }
}

describe('quarry accounts / quarry keys', () => {
  let db: string;
  before(async () => {
    db = join(mkdtempSync(join(tmpdir(), 'quarry-cli-')), 'quarry.db');
    await openSqliteAccountStore(db).close();
  });

  test('create, keys create (the key alone on the last line), list, revoke, suspend, subscribe, show', async () => {
    const created = quarry([
      'accounts',
      'create',
      '--db',
      db,
      '--email',
      'ana@example.org',
      '--name',
      'Ana',
      '--activate',
    ]);
    assert.equal(created.status, 0, created.stderr);
    assert.match(created.stdout, /state:\s+active/);

    const made = quarry(['keys', 'create', '--db', db, '--account', 'ana@example.org', '--name', 'laptop']);
    assert.equal(made.status, 0, made.stderr);
    const lines = made.stdout.trimEnd().split('\n');
    const key = lines.at(-1)!;
    assert.match(key, /^qry_[A-Za-z0-9_-]{43}$/);
    assert.equal((await inspect(db, (a) => a.resolveKey(key)))?.account.email, 'ana@example.org');

    const listed = quarry(['keys', 'list', '--db', db, '--account', 'ana@example.org']);
    assert.match(listed.stdout, /laptop/);
    assert.ok(!listed.stdout.includes(key), 'a key is shown once only');

    const revoked = quarry(['keys', 'revoke', 'laptop', '--db', db, '--account', 'ana@example.org']);
    assert.equal(revoked.status, 0, revoked.stderr);
    assert.equal(await inspect(db, (a) => a.resolveKey(key)), undefined);

    assert.match(quarry(['accounts', 'suspend', 'ana@example.org', '--db', db]).stdout, /is suspended/);
    const sub = quarry([
      'accounts',
      'subscribe',
      'ana@example.org',
      '--db',
      db,
      '--families',
      'auth',
      '--sources',
      'publications,grants',
    ]);
    assert.equal(sub.status, 0, sub.stderr);
    const shown = quarry(['accounts', 'show', 'ana@example.org', '--db', db]);
    assert.match(shown.stdout, /state:\s+suspended/);
    assert.match(shown.stdout, /families:\s+auth\n/);
    assert.match(shown.stdout, /sources:\s+publications, grants/);
    assert.match(shown.stdout, /revoked/);
    assert.match(
      quarry(['accounts', 'list', '--db', db]).stdout,
      /ana@example\.org\tsuspended\tauth\tpublications,grants/,
    );
  });

  test('a legacy account with --username and --password-stdin', async () => {
    const r = quarry(
      ['accounts', 'create', '--db', db, '--email', 'old@example.org', '--username', 'oldtimer', '--password-stdin'],
      'a long password\n',
    );
    assert.equal(r.status, 0, r.stderr);
    assert.equal((await inspect(db, (a) => a.verifyPassword('oldtimer', 'a long password')))?.state, 'pending');
  });

  test('mistakes are coded messages with exit codes, never stack traces', () => {
    const missing = quarry(['accounts', 'activate', 'nobody@example.org', '--db', db]);
    assert.equal(missing.status, 1);
    assert.match(missing.stderr, /There is no account 'nobody@example.org'. \[SERVICE_ACCOUNT_NOT_FOUND\]/);
    const noDb = quarry(['accounts', 'list', '--db', join(tmpdir(), 'does-not-exist-quarry.db')]);
    assert.equal(noDb.status, 1);
    assert.match(noDb.stderr, /does not exist.*\[SERVICE_CONFIG_INVALID\]/);
    const dup = quarry(['accounts', 'create', '--db', db, '--email', 'ana@example.org']);
    assert.equal(dup.status, 1);
    assert.match(dup.stderr, /SERVICE_ACCOUNT_EXISTS/);
    for (const r of [missing, noDb, dup]) assert.ok(!/\n\s+at /.test(r.stderr));
  });
});
