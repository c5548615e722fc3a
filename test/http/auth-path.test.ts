import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { decodeJwt, decodeProtectedHeader } from 'jose';
import { jwtToken, QUERY, testApp, type TestApp } from './helpers/app.ts';

// spec/protocol.md §2: the auth-path family. Runs against the fake engine (a test double).
describe('auth-path family', () => {
  let t: TestApp;
  const legacy = { email: 'old@example.org', username: 'oldtimer', password: 'correct horse battery' };
  before(async () => {
    t = await testApp();
    await t.accounts.createAccount({ ...legacy, activate: true });
  });
  after(() => t.close());

  for (const path of ['/api/auth', '/api/auth.json']) {
    test(`POST ${path} with {"key"} answers {"token": JWT} with exp, iat, sub, jti`, async () => {
      const res = await t.app.inject({ method: 'POST', url: path, payload: { key: t.key } });
      assert.equal(res.statusCode, 200);
      assert.match(res.headers['content-type'] as string, /^application\/json/);
      const { token } = res.json<{ token: string }>();
      assert.equal(token.split('.').length, 3, 'clients check the three-part shape');
      assert.equal(decodeProtectedHeader(token).alg, 'HS256');
      const claims = decodeJwt(token);
      const account = await t.accounts.getAccount(t.email);
      assert.equal(claims.sub, String(account.id));
      assert.equal(typeof claims.jti, 'string');
      assert.equal(claims.iat, Math.floor(t.clock.now() / 1000));
      assert.equal(claims.exp, claims.iat + 7200, 'two hours by default');
    });
  }

  test('empty strings count as absent (clients send all three fields)', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/auth',
      payload: { username: '', password: '', key: t.key },
    });
    assert.equal(res.statusCode, 200);
    const legacyLogin = await t.app.inject({
      method: 'POST',
      url: '/api/auth',
      payload: { username: legacy.username, password: legacy.password, key: '' },
    });
    assert.equal(legacyLogin.statusCode, 200);
    assert.equal(
      decodeJwt(legacyLogin.json().token as string).sub,
      String((await t.accounts.getAccount(legacy.email)).id),
    );
  });

  test('a key wins over username and password when both are present', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/auth',
      payload: { username: legacy.username, password: legacy.password, key: t.key },
    });
    assert.equal(res.statusCode, 200);
    assert.equal(decodeJwt(res.json().token as string).sub, String((await t.accounts.getAccount(t.email)).id));
  });

  test('all-empty credentials answer 401 SERVICE_CREDENTIALS_MISSING with WWW-Authenticate: JWT', async () => {
    for (const payload of [{ username: '', password: '', key: '' }, {}]) {
      const res = await t.app.inject({ method: 'POST', url: '/api/auth', payload });
      assert.equal(res.statusCode, 401);
      assert.match(res.headers['www-authenticate'] as string, /^JWT/);
      assert.equal(res.json().errors.query.code, 'SERVICE_CREDENTIALS_MISSING');
    }
  });

  test('a bad key, a bad password and an unknown user all answer the same 401, never naming the wrong part', async () => {
    const attempts = [
      { key: 'qry_wrongwrongwrongwrongwrongwrongwrongwrongwro' },
      { username: legacy.username, password: 'not the password' },
      { username: 'nobody', password: legacy.password },
    ];
    const bodies = new Set<string>();
    for (const payload of attempts) {
      const res = await t.app.inject({ method: 'POST', url: '/api/auth.json', payload });
      assert.equal(res.statusCode, 401);
      assert.equal(res.json().errors.query.code, 'SERVICE_CREDENTIALS_INVALID');
      for (const secret of Object.values(payload)) assert.ok(!res.body.includes(secret));
      const { details, header, code } = res.json().errors.query;
      bodies.add(JSON.stringify({ details, header, code }));
    }
    assert.equal(bodies.size, 1);
  });

  test('a body that is not JSON is a coded 400, and form fields are read', async () => {
    const bad = await t.app.inject({
      method: 'POST',
      url: '/api/auth',
      headers: { 'content-type': 'application/json' },
      payload: '{"key": ',
    });
    assert.equal(bad.statusCode, 400);
    assert.equal(bad.json().errors.query.code, 'SERVICE_BAD_REQUEST');
    const form = await t.app.inject({
      method: 'POST',
      url: '/api/auth',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: `key=${encodeURIComponent(t.key)}`,
    });
    assert.equal(form.statusCode, 200);
  });

  for (const path of ['/api/dsl/v2', '/api/dsl', '/api/dsl.json']) {
    test(`POST ${path} with JWT answers the JSON result in DSL v2`, async () => {
      const token = await jwtToken(t);
      const res = await t.app.inject({
        method: 'POST',
        url: path,
        headers: { authorization: `JWT ${token}` },
        payload: QUERY,
      });
      assert.equal(res.statusCode, 200);
      assert.equal(res.json()._version.release, '2.0');
      assert.equal(t.engine.calls.at(-1)?.options.dslVersion, 2);
    });
  }

  test('a base URL with a trailing slash: //api/auth.json and //api/dsl/v2 answer like the single-slash paths', async () => {
    const login = await t.app.inject({ method: 'POST', url: '//api/auth.json', payload: { key: t.key } });
    assert.equal(login.statusCode, 200);
    const { token } = login.json<{ token: string }>();
    assert.equal(token.split('.').length, 3);
    const res = await t.app.inject({
      method: 'POST',
      url: '//api/dsl/v2',
      headers: { authorization: `JWT ${token}` },
      payload: QUERY,
    });
    assert.equal(res.statusCode, 200);
    assert.equal(res.json()._version.release, '2.0');
    assert.equal(t.engine.calls.at(-1)?.text, QUERY);
  });

  test('a missing Authorization header or a Bearer scheme answers 401 with WWW-Authenticate: JWT', async () => {
    const token = await jwtToken(t);
    for (const headers of [{}, { authorization: `Bearer ${token}` }]) {
      const res = await t.app.inject({ method: 'POST', url: '/api/dsl/v2', headers, payload: QUERY });
      assert.equal(res.statusCode, 401);
      assert.match(res.headers['www-authenticate'] as string, /^JWT/);
      assert.equal(res.json().errors.query.code, 'SERVICE_AUTH_HEADER_MISSING');
    }
  });

  test('a JWT that is forged, altered or not a JWT answers 403', async () => {
    const token = await jwtToken(t);
    const [head, payload, signature] = token.split('.') as [string, string, string];
    const altered = `${head}.${Buffer.from(JSON.stringify({ ...decodeJwt(token), sub: '999' })).toString('base64url')}.${signature}`;
    for (const bad of [altered, `${head}.${payload}.${signature.slice(0, -4)}AAAA`, 'abc.def.ghi', 'garbage']) {
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/dsl/v2',
        headers: { authorization: `JWT ${bad}` },
        payload: QUERY,
      });
      assert.equal(res.statusCode, 403, bad);
      assert.equal(res.json().errors.query.code, 'SERVICE_TOKEN_INVALID');
    }
  });

  test('a token-path token is not an auth-path token', async () => {
    const opaque = (await t.app.inject({ method: 'GET', url: `/v3/token?api_key=${t.key}` })).body;
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/dsl/v2',
      headers: { authorization: `JWT ${opaque}` },
      payload: QUERY,
    });
    assert.equal(res.statusCode, 403);
  });

  test('the signing secret is not kept in the database', async () => {
    assert.equal(await t.accounts.store.setting('jwt_secret'), undefined);
  });
});
