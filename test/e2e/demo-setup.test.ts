import assert from 'node:assert/strict';
import { statSync } from 'node:fs';
import { test } from 'node:test';
import { AccountService } from '../../src/accounts/service.ts';
import { openSqliteAccountStore } from '../../src/store/sqlite/account-store.ts';
import { loadConfig } from '../../src/config.ts';
import { DEMO_EMAIL, prepareDemo } from '../../src/main.ts';
import { tinyDatabase } from '../engine/fixtures/tiny-db.ts';

// The account half of `npm start`'s first run, on an existing database (the dataset half
// needs the demo generator of the data area).
test('prepareDemo makes an active demo account with a key, and later starts reuse that key', async () => {
  const db = tinyDatabase();
  const config = loadConfig({ overrides: { db } });
  const printed: string[] = [];
  const first = await prepareDemo(config, (line) => printed.push(line));
  assert.deepEqual(printed, [], 'an existing database is not rebuilt');
  assert.match(first.key, /^qry_/);
  assert.equal(statSync(`${db}.demo-key`).mode & 0o777, 0o600);
  const second = await prepareDemo(config, () => undefined);
  assert.equal(second.key, first.key);

  const store = openSqliteAccountStore(db);
  const accounts = new AccountService({ store });
  try {
    const resolved = await accounts.resolveKey(first.key);
    assert.equal(resolved?.account.email, DEMO_EMAIL);
    assert.equal(resolved?.account.state, 'active');
    assert.equal((await accounts.listKeys(DEMO_EMAIL)).length, 1);
    // A revoked demo key is replaced on the next start.
    await accounts.revokeKey(DEMO_EMAIL, 'demo');
  } finally {
    await accounts.shutdown();
    await store.close();
  }
  const third = await prepareDemo(config, () => undefined);
  assert.notEqual(third.key, first.key);

  const text = third.instructions('http://127.0.0.1:9999');
  assert.ok(text.includes(`Demo API key: ${third.key}`));
  assert.ok(text.includes(`curl -s "http://127.0.0.1:9999/v3/token?api_key=${third.key}"`));
  assert.ok(text.includes('-H "Authorization: Bearer $TOKEN"'));
  assert.ok(text.includes('http://127.0.0.1:9999/api/auth'));
  assert.ok(text.includes('-H "Authorization: JWT $JWT"'));
  // The database is not the default one, so the login-code command must name it.
  assert.ok(text.includes(`npx quarry accounts login-code ${DEMO_EMAIL} --db ${db}`));
});
