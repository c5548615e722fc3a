import assert from 'node:assert/strict';
import { afterEach, beforeEach, describe, test } from 'node:test';
import { jwtToken, opaqueToken, QUERY, testApp, type TestApp } from './helpers/app.ts';

// spec/protocol.md §4 rows "token expired, revoked or not valid" and "account not activated,
// suspended, or not subscribed", and §7. The clock is injected.
describe('token lifecycle and account standing', () => {
  let t: TestApp;
  beforeEach(async () => {
    t = await testApp({ config: { rateLimits: { enabled: false } } });
  });
  afterEach(() => t.close());

  const queryWith = (family: 'token' | 'auth', token: string) =>
    t.app.inject({
      method: 'POST',
      url: family === 'token' ? '/v2/api/query' : '/api/dsl/v2',
      headers: { authorization: `${family === 'token' ? 'Bearer' : 'JWT'} ${token}` },
      payload: QUERY,
    });
  const tokenFor = (family: 'token' | 'auth') => (family === 'token' ? opaqueToken(t) : jwtToken(t));

  for (const family of ['token', 'auth'] as const) {
    test(`${family}: a token works until its expiry, then answers 403 SERVICE_TOKEN_EXPIRED`, async () => {
      const token = await tokenFor(family);
      t.clock.advance(2 * 3600 * 1000 - 1000);
      assert.equal((await queryWith(family, token)).statusCode, 200);
      t.clock.advance(1000);
      const res = await queryWith(family, token);
      assert.equal(res.statusCode, 403);
      assert.equal(res.json().errors.query.code, 'SERVICE_TOKEN_EXPIRED');
      assert.match(res.json().errors.query.details[0], family === 'token' ? /\/v3\/token/ : /POST \/api\/auth/);
      // Logging in again gives a working token.
      assert.equal((await queryWith(family, await tokenFor(family))).statusCode, 200);
    });

    test(`${family}: revoking the key makes its tokens fail with 403 SERVICE_TOKEN_REVOKED from then on`, async () => {
      const token = await tokenFor(family);
      assert.equal((await queryWith(family, token)).statusCode, 200);
      await t.accounts.revokeKey(t.email, 'test');
      const res = await queryWith(family, token);
      assert.equal(res.statusCode, 403);
      assert.equal(res.json().errors.query.code, 'SERVICE_TOKEN_REVOKED');
      const again = await t.app.inject({ method: 'GET', url: `/v3/token?api_key=${t.key}` });
      assert.equal(again.statusCode, 401, 'a revoked key no longer logs in');
    });

    test(`${family}: suspending the account makes its tokens fail with 403 saying whom to contact; reactivating restores them`, async () => {
      const token = await tokenFor(family);
      await t.accounts.suspend(t.email);
      const res = await queryWith(family, token);
      assert.equal(res.statusCode, 403);
      assert.equal(res.json().errors.query.code, 'SERVICE_ACCOUNT_SUSPENDED');
      assert.match(res.json().errors.query.details[0], /contact the administrator/);
      await t.accounts.activate(t.email);
      assert.equal((await queryWith(family, token)).statusCode, 200);
    });

    test(`${family}: closing the account makes its tokens fail with 403`, async () => {
      const token = await tokenFor(family);
      await t.accounts.close(t.email);
      const res = await queryWith(family, token);
      assert.equal(res.statusCode, 403);
      assert.equal(res.json().errors.query.code, 'SERVICE_ACCOUNT_CLOSED');
    });
  }

  test('a pending account gets no token: 403 with what to do', async () => {
    await t.accounts.createAccount({ email: 'new@example.org' });
    const { key } = await t.accounts.createKey('new@example.org');
    for (const res of [
      await t.app.inject({ method: 'GET', url: `/v2/token?api_key=${key}` }),
      await t.app.inject({ method: 'POST', url: '/api/auth', payload: { key } }),
    ]) {
      assert.equal(res.statusCode, 403);
      assert.equal(res.json().errors.query.code, 'SERVICE_ACCOUNT_PENDING');
      assert.match(
        res.json().errors.query.details[0],
        /^Your account awaits activation by the administrator: .* If it takes long, contact the administrator of this Quarry service\.$/,
      );
    }
  });

  for (const action of ['suspend', 'close'] as const) {
    test(`a ${action === 'suspend' ? 'suspended' : 'closed'} account gets no new token on any login endpoint, by key or by password`, async () => {
      await t.accounts.createAccount({
        email: 'old@example.org',
        username: 'old_timer',
        password: 'old timer password',
        activate: true,
      });
      const { key } = await t.accounts.createKey('old@example.org');
      await t.accounts[action]('old@example.org');
      const code = action === 'suspend' ? 'SERVICE_ACCOUNT_SUSPENDED' : 'SERVICE_ACCOUNT_CLOSED';
      for (const [what, res] of [
        ['/v2/token', await t.app.inject({ method: 'GET', url: `/v2/token?api_key=${key}` })],
        ['/v3/token', await t.app.inject({ method: 'GET', url: `/v3/token?api_key=${key}` })],
        ['/api/auth key', await t.app.inject({ method: 'POST', url: '/api/auth', payload: { key } })],
        [
          '/api/auth password',
          await t.app.inject({
            method: 'POST',
            url: '/api/auth',
            payload: { username: 'old_timer', password: 'old timer password' },
          }),
        ],
        ['/api/auth.json key', await t.app.inject({ method: 'POST', url: '/api/auth.json', payload: { key } })],
      ] as const) {
        assert.equal(res.statusCode, 403, what);
        assert.equal(res.json().errors.query.code, code, what);
        assert.match(res.json().errors.query.details[0], /contact the administrator/, what);
      }
    });
  }

  test('an account not subscribed to a family gets 403 on that family only', async () => {
    await t.accounts.subscribe(t.email, { families: ['auth'] });
    const tokenPath = await t.app.inject({ method: 'GET', url: `/v3/token?api_key=${t.key}` });
    assert.equal(tokenPath.statusCode, 403);
    assert.equal(tokenPath.json().errors.query.code, 'SERVICE_FAMILY_NOT_SUBSCRIBED');
    assert.equal((await t.app.inject({ method: 'POST', url: '/api/auth', payload: { key: t.key } })).statusCode, 200);
  });

  test('removing a family from the subscription makes existing tokens of that family fail', async () => {
    const token = await opaqueToken(t);
    await t.accounts.subscribe(t.email, { families: ['auth'] });
    const res = await queryWith('token', token);
    assert.equal(res.statusCode, 403);
    assert.equal(res.json().errors.query.code, 'SERVICE_FAMILY_NOT_SUBSCRIBED');
  });

  test('the subscribed sources travel to the engine as permissions', async () => {
    const token = await jwtToken(t);
    await queryWith('auth', token);
    assert.deepEqual(t.engine.calls.at(-1)?.options.permissions, {});
    await t.accounts.subscribe(t.email, { sources: ['publications', 'grants'] });
    await queryWith('auth', token);
    assert.deepEqual(t.engine.calls.at(-1)?.options.permissions, { sources: ['publications', 'grants'] });
  });

  test('token lifetimes are configurable per family', async () => {
    const short = await testApp({
      config: { tokens: { tokenPathLifetimeSeconds: 60, authPathLifetimeSeconds: 3600 } },
    });
    try {
      const bearer = await opaqueToken(short);
      const jwt = await jwtToken(short);
      short.clock.advance(61_000);
      const a = await short.app.inject({
        method: 'POST',
        url: '/v3/api/query',
        headers: { authorization: `Bearer ${bearer}` },
        payload: QUERY,
      });
      const b = await short.app.inject({
        method: 'POST',
        url: '/api/dsl/v2',
        headers: { authorization: `JWT ${jwt}` },
        payload: QUERY,
      });
      assert.equal(a.statusCode, 403);
      assert.equal(b.statusCode, 200);
    } finally {
      await short.close();
    }
  });

  test('a key records when it was last used', async () => {
    assert.equal((await t.accounts.listKeys(t.email))[0]?.lastUsedAt, null);
    await opaqueToken(t);
    assert.equal((await t.accounts.listKeys(t.email))[0]?.lastUsedAt, new Date(t.clock.now()).toISOString());
  });
});
