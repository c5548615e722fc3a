import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { opaqueToken, QUERY, testApp, type TestApp } from './helpers/app.ts';

// spec/protocol.md §1: the token-path family. Runs against the fake engine (a test double).
describe('token-path family', () => {
  let t: TestApp;
  before(async () => {
    t = await testApp();
  });
  after(() => t.close());

  for (const version of ['v2', 'v3'] as const) {
    test(`GET /${version}/token answers 200 text/plain with the token alone (≥ 256 bits)`, async () => {
      const res = await t.app.inject({ method: 'GET', url: `/${version}/token?api_key=${t.key}` });
      assert.equal(res.statusCode, 200);
      assert.match(res.headers['content-type'] as string, /^text\/plain/);
      assert.match(res.body, /^[A-Za-z0-9_-]{43,}$/);
      assert.ok(Buffer.from(res.body, 'base64url').length >= 32);
    });

    test(`POST /${version}/api/query with Bearer runs DSL v2 and answers JSON`, async () => {
      const token = await opaqueToken(t, t.key, version);
      const res = await t.app.inject({
        method: 'POST',
        url: `/${version}/api/query`,
        headers: { authorization: `Bearer ${token}`, 'content-type': 'text/plain' },
        payload: QUERY,
      });
      assert.equal(res.statusCode, 200);
      assert.match(res.headers['content-type'] as string, /^application\/json/);
      const body = res.json();
      assert.equal(body._stats.total_count, 1);
      assert.equal(t.engine.calls.at(-1)?.options.dslVersion, 2);
      assert.equal(t.engine.calls.at(-1)?.text, QUERY);
    });

    test(`/${version}: missing api_key answers 401 with WWW-Authenticate: Bearer`, async () => {
      const res = await t.app.inject({ method: 'GET', url: `/${version}/token` });
      assert.equal(res.statusCode, 401);
      assert.match(res.headers['www-authenticate'] as string, /^Bearer/);
      assert.equal(res.json().errors.query.code, 'SERVICE_API_KEY_MISSING');
      assert.match(res.json().errors.query.details[0], new RegExp(`/${version}/token\\?api_key=`));
    });
  }

  test('surrounding whitespace in a presented token is ignored', async () => {
    const token = await opaqueToken(t);
    const res = await t.app.inject({
      method: 'POST',
      url: '/v3/api/query',
      headers: { authorization: `Bearer   ${token}  ` },
      payload: QUERY,
    });
    assert.equal(res.statusCode, 200);
  });

  test('an empty api_key counts as missing', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/v3/token?api_key=' });
    assert.equal(res.statusCode, 401);
    assert.equal(res.json().errors.query.code, 'SERVICE_API_KEY_MISSING');
  });

  test('a wrong API key answers 401 without echoing the key or saying what was wrong', async () => {
    const wrong = 'qry_thisIsNotARealKeyAtAll0123456789abcdefghij';
    const res = await t.app.inject({ method: 'GET', url: `/v3/token?api_key=${wrong}` });
    assert.equal(res.statusCode, 401);
    assert.match(res.headers['www-authenticate'] as string, /^Bearer/);
    const body = res.json();
    assert.equal(body.errors.query.code, 'SERVICE_CREDENTIALS_INVALID');
    assert.ok(!res.body.includes(wrong));
    assert.ok(!t.logs.some((line) => JSON.stringify(line).includes(wrong)), 'the key must not reach the log either');
  });

  test('a missing Authorization header, or the wrong scheme word, answers 401 with WWW-Authenticate: Bearer', async () => {
    const token = await opaqueToken(t);
    for (const headers of [
      {},
      { authorization: `JWT ${token}` },
      { authorization: token },
      { authorization: 'Bearer' },
    ]) {
      const res = await t.app.inject({ method: 'POST', url: '/v2/api/query', headers, payload: QUERY });
      assert.equal(res.statusCode, 401, JSON.stringify(headers));
      assert.match(res.headers['www-authenticate'] as string, /^Bearer/);
      assert.equal(res.json().errors.query.code, 'SERVICE_AUTH_HEADER_MISSING');
    }
  });

  test('an unknown token answers 403 (clients log in again only on 403)', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/v3/api/query',
      headers: { authorization: 'Bearer not-a-token' },
      payload: QUERY,
    });
    assert.equal(res.statusCode, 403);
    assert.equal(res.json().errors.query.code, 'SERVICE_TOKEN_INVALID');
    assert.equal(res.json().errors.query.header, 'Authentication Error');
  });

  test('an auth-path JWT is not a token-path token', async () => {
    const login = await t.app.inject({ method: 'POST', url: '/api/auth', payload: { key: t.key } });
    const jwt = login.json().token as string;
    const res = await t.app.inject({
      method: 'POST',
      url: '/v3/api/query',
      headers: { authorization: `Bearer ${jwt}` },
      payload: QUERY,
    });
    assert.equal(res.statusCode, 403);
  });

  test('tokens are stored hashed: the database never holds the token itself', async () => {
    const token = await opaqueToken(t);
    assert.equal(await t.tokenStore.tokenById(token), undefined);
  });
});
