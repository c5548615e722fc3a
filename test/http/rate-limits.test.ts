import assert from 'node:assert/strict';
import { afterEach, beforeEach, describe, test } from 'node:test';
import { jwtToken, opaqueToken, QUERY, testApp, type TestApp } from './helpers/app.ts';

// spec/protocol.md §5: 30 query requests a minute, /v2 per account, /v3 and auth-path per
// client IP, authentication per client IP; RateLimit-* on every limited response, Retry-After on 429.
describe('rate limits', () => {
  let t: TestApp;
  let otherKey: string;
  beforeEach(async () => {
    t = await testApp();
    await t.accounts.createAccount({ email: 'bo@example.org', activate: true });
    otherKey = (await t.accounts.createKey('bo@example.org')).key;
  });
  afterEach(() => t.close());

  const IP1 = '10.0.0.1';
  const IP2 = '10.0.0.2';
  const query = (url: string, authorization: string, ip: string) =>
    t.app.inject({ method: 'POST', url, headers: { authorization }, payload: QUERY, remoteAddress: ip });

  async function spend(url: string, authorization: string, ip: string, n = 30): Promise<void> {
    for (let i = 1; i <= n; i++) {
      const res = await query(url, authorization, ip);
      assert.equal(res.statusCode, 200, `request ${i}`);
      assert.equal(res.headers['ratelimit-limit'], '30');
      assert.equal(res.headers['ratelimit-remaining'], String(30 - i));
      const reset = Number(res.headers['ratelimit-reset']);
      assert.ok(reset >= 1 && reset <= 60);
      assert.equal(res.headers['retry-after'], undefined);
    }
  }

  function assertLimited(res: Awaited<ReturnType<typeof query>>): void {
    assert.equal(res.statusCode, 429);
    assert.equal(res.headers['ratelimit-remaining'], '0');
    const retry = Number(res.headers['retry-after']);
    assert.ok(
      Number.isInteger(retry) && retry >= 1 && retry <= 60,
      `Retry-After ${String(res.headers['retry-after'])}`,
    );
    const body = res.json();
    assert.equal(body.errors.query.code, 'SERVICE_RATE_LIMITED');
    assert.equal(body.errors.query.header, 'Rate Limit Exceeded');
    assert.match(body.errors.query.details[0], new RegExp(`Retry after ${retry} seconds`));
  }

  test('/v2 is per account: the 31st request in a minute gets 429; another account on the same IP is unaffected; the same account on another IP is not', async () => {
    const a = `Bearer ${await opaqueToken(t, t.key, 'v2', IP1)}`;
    const b = `Bearer ${await opaqueToken(t, otherKey, 'v2', IP1)}`;
    await spend('/v2/api/query', a, IP1);
    assertLimited(await query('/v2/api/query', a, IP1));
    assert.equal((await query('/v2/api/query', b, IP1)).statusCode, 200);
    assertLimited(await query('/v2/api/query', a, IP2));
  });

  test('/v3 is per client IP: the 31st gets 429; another IP is unaffected, another account on the same IP is not', async () => {
    const a = `Bearer ${await opaqueToken(t, t.key, 'v3', IP1)}`;
    const b = `Bearer ${await opaqueToken(t, otherKey, 'v3', IP1)}`;
    await spend('/v3/api/query', a, IP1);
    assertLimited(await query('/v3/api/query', a, IP1));
    assertLimited(await query('/v3/api/query', b, IP1));
    assert.equal((await query('/v3/api/query', a, IP2)).statusCode, 200);
  });

  test('the auth-path is per client IP', async () => {
    const a = `JWT ${await jwtToken(t, t.key, IP1)}`;
    await spend('/api/dsl/v2', a, IP1);
    assertLimited(await query('/api/dsl', a, IP1));
    assert.equal((await query('/api/dsl/v2', a, IP2)).statusCode, 200);
  });

  test('authentication endpoints are per client IP (stops key guessing)', async () => {
    for (let i = 1; i <= 30; i++) {
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/auth',
        payload: { key: 'qry_guess' + i },
        remoteAddress: IP1,
      });
      assert.equal(res.statusCode, 401);
      assert.equal(res.headers['ratelimit-remaining'], String(30 - i));
    }
    const blocked = await t.app.inject({
      method: 'POST',
      url: '/api/auth',
      payload: { key: t.key },
      remoteAddress: IP1,
    });
    assertLimited(blocked);
    const tokenPath = await t.app.inject({ method: 'GET', url: `/v3/token?api_key=${t.key}`, remoteAddress: IP1 });
    assert.equal(tokenPath.statusCode, 429, 'the token endpoints share the authentication budget');
    const other = await t.app.inject({ method: 'POST', url: '/api/auth', payload: { key: t.key }, remoteAddress: IP2 });
    assert.equal(other.statusCode, 200);
  });

  test('the window ends: after Retry-After seconds requests are allowed again', async () => {
    const a = `Bearer ${await opaqueToken(t, t.key, 'v2', IP1)}`;
    await spend('/v2/api/query', a, IP1);
    const limited = await query('/v2/api/query', a, IP1);
    assertLimited(limited);
    t.clock.advance(Number(limited.headers['retry-after']) * 1000);
    const res = await query('/v2/api/query', a, IP1);
    assert.equal(res.statusCode, 200);
    assert.equal(res.headers['ratelimit-remaining'], '29');
  });

  test('error responses on a limited route carry the headers too', async () => {
    const noAuth = await query('/v3/api/query', '', IP1);
    assert.equal(noAuth.statusCode, 401);
    assert.equal(noAuth.headers['ratelimit-limit'], '30');
    const a = `Bearer ${await opaqueToken(t, t.key, 'v3', IP1)}`;
    const syntax = await t.app.inject({
      method: 'POST',
      url: '/v3/api/query',
      headers: { authorization: a },
      payload: 'search publications where',
      remoteAddress: IP1,
    });
    assert.equal(syntax.statusCode, 400);
    assert.equal(syntax.headers['ratelimit-remaining'], '28');
  });

  test('limits are configurable per family', async () => {
    const custom = await testApp({ config: { rateLimits: { tokenV3: { max: 3, windowSeconds: 10 } } } });
    try {
      const a = `Bearer ${await opaqueToken(custom)}`;
      for (let i = 0; i < 3; i++) {
        const res = await custom.app.inject({
          method: 'POST',
          url: '/v3/api/query',
          headers: { authorization: a },
          payload: QUERY,
        });
        assert.equal(res.statusCode, 200);
        assert.equal(res.headers['ratelimit-limit'], '3');
      }
      const res = await custom.app.inject({
        method: 'POST',
        url: '/v3/api/query',
        headers: { authorization: a },
        payload: QUERY,
      });
      assert.equal(res.statusCode, 429);
      assert.ok(Number(res.headers['retry-after']) <= 10);
    } finally {
      await custom.close();
    }
  });

  test('limits are configurable per account', async () => {
    await t.accounts.setLimits(t.email, { queriesPerWindow: 5 });
    const a = `Bearer ${await opaqueToken(t, t.key, 'v2', IP1)}`;
    for (let i = 0; i < 5; i++) assert.equal((await query('/v2/api/query', a, IP1)).statusCode, 200);
    const res = await query('/v2/api/query', a, IP1);
    assert.equal(res.statusCode, 429);
    assert.equal(res.headers['ratelimit-limit'], '5');
  });

  test('usage counters record requests and rejections per account and day; metrics count rejections', async () => {
    const a = `Bearer ${await opaqueToken(t, t.key, 'v2', IP1)}`;
    await spend('/v2/api/query', a, IP1);
    await query('/v2/api/query', a, IP1);
    await query('/v2/api/query', a, IP1);
    const usage = await t.accounts.usage(t.email);
    assert.deepEqual(usage, [{ day: '2023-03-01', requests: 30, rejections: 2 }]);
    const metrics = (await t.app.inject({ method: 'GET', url: '/metrics' })).body;
    assert.match(metrics, /quarry_rate_limit_rejections_total\{rule="tokenV2"\} 2/);
  });

  test('with rate limits off there are no RateLimit headers and no 429', async () => {
    const off = await testApp({ config: { rateLimits: { enabled: false } } });
    try {
      const a = `Bearer ${await opaqueToken(off)}`;
      for (let i = 0; i < 35; i++) {
        const res = await off.app.inject({
          method: 'POST',
          url: '/v3/api/query',
          headers: { authorization: a },
          payload: QUERY,
        });
        assert.equal(res.statusCode, 200);
        assert.equal(res.headers['ratelimit-limit'], undefined);
      }
    } finally {
      await off.close();
    }
  });
});

describe('client IP behind a proxy', () => {
  for (const trustProxy of [false, true]) {
    test(`trustProxy ${String(trustProxy)}: X-Forwarded-For ${trustProxy ? 'separates' : 'does not separate'} clients`, async () => {
      const t = await testApp({ config: { trustProxy, rateLimits: { authentication: { max: 1 } } } });
      try {
        const login = (forwardedFor: string) =>
          t.app.inject({
            method: 'POST',
            url: '/api/auth',
            payload: { key: t.key },
            remoteAddress: '10.9.9.9',
            headers: { 'x-forwarded-for': forwardedFor },
          });
        assert.equal((await login('192.0.2.1')).statusCode, 200);
        assert.equal((await login('192.0.2.2')).statusCode, trustProxy ? 200 : 429);
      } finally {
        await t.close();
      }
    });
  }
});
