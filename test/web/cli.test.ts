// `quarry accounts login-code` and `quarry accounts admin`: the operator's way to let someone
// sign in to the web pages and to open the administration page.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { AccountService } from '../../src/accounts/service.ts';
import { openSqliteAccountStore } from '../../src/store/sqlite/account-store.ts';
import { consumeLoginCode } from '../../src/accounts/login-codes.ts';
import { openSqliteWebStore } from '../../src/store/sqlite/web-store.ts';

const bin = new URL('../../bin/quarry.js', import.meta.url).pathname;

function quarry(args: string[]): { status: number | null; stdout: string; stderr: string } {
  const r = spawnSync(process.execPath, [bin, ...args], { encoding: 'utf8', env: { ...process.env, QUARRY_DB: '' } });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

test('login-code prints a code that signs in once; admin grants and withdraws the role', async () => {
  const db = join(mkdtempSync(join(tmpdir(), 'quarry-web-cli-')), 'quarry.db');
  const store = openSqliteAccountStore(db);
  const accounts = new AccountService({ store });
  const account = await accounts.createAccount({ email: 'ana@example.org', activate: true });
  await accounts.shutdown();
  await store.close();

  const issued = quarry(['accounts', 'login-code', 'ana@example.org', '--db', db]);
  assert.equal(issued.status, 0, issued.stderr);
  const code = issued.stdout.trim().split('\n').at(-1) ?? '';
  assert.match(code, /^[A-Z2-9]{4}-[A-Z2-9]{4}-[A-Z2-9]{4}$/);

  const granted = quarry(['accounts', 'admin', 'ana@example.org', '--db', db]);
  assert.equal(granted.status, 0, granted.stderr);
  const web = openSqliteWebStore(db);
  assert.equal(await web.isAdmin(account.id), true);
  assert.equal(await consumeLoginCode(web, code, Date.now()), account.id);
  assert.equal(await consumeLoginCode(web, code, Date.now()), undefined);
  await web.close();

  assert.equal(quarry(['accounts', 'admin', 'ana@example.org', '--revoke', '--db', db]).status, 0);
  const after = openSqliteWebStore(db);
  assert.equal(await after.isAdmin(account.id), false);
  await after.close();

  const unknown = quarry(['accounts', 'login-code', 'nobody@example.org', '--db', db]);
  assert.equal(unknown.status, 1);
  assert.match(unknown.stderr, /SERVICE_ACCOUNT_NOT_FOUND/);
});

test('suspend and close end the web sessions; an account that is not active gets no login code', async () => {
  const db = join(mkdtempSync(join(tmpdir(), 'quarry-web-cli-')), 'quarry.db');
  const store = openSqliteAccountStore(db);
  const accounts = new AccountService({ store });
  await accounts.createAccount({ email: 'ana@example.org', activate: true });
  await accounts.createAccount({ email: 'pat@example.org' });
  const live = async (s: { sessionId: string }) => (await accounts.resolveSession(s.sessionId)) !== undefined;
  try {
    for (const action of ['suspend', 'close'] as const) {
      const session = await accounts.createSession('ana@example.org');
      const done = quarry(['accounts', action, 'ana@example.org', '--db', db]);
      assert.equal(done.status, 0, done.stderr);
      assert.equal(await live(session), false, `${action} ended the session`);
      const refused = quarry(['accounts', 'login-code', 'ana@example.org', '--db', db]);
      assert.equal(refused.status, 1);
      assert.match(refused.stderr, /WEB_LOGIN_CODE_ACCOUNT_INACTIVE/);
      assert.match(refused.stderr, /ana@example\.org is (suspended|closed), and only an active account may sign in/);
      if (action === 'suspend') assert.equal(quarry(['accounts', 'activate', 'ana@example.org', '--db', db]).status, 0);
    }
    const pending = quarry(['accounts', 'login-code', 'pat@example.org', '--db', db]);
    assert.equal(pending.status, 1);
    assert.match(pending.stderr, /pat@example\.org is pending/);
  } finally {
    await accounts.shutdown();
    await store.close();
  }
});
