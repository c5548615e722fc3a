// Rate limits kept in Redis: the same headers as in memory; when Redis is unreachable at
// start the service refuses to start with a coded error, and when it goes away while running
// every limited request answers 503 in the protocol's error shape (never 500, never let
// through uncounted) until it is back.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { openServiceBackends } from '../../src/backends.ts';
import { loadConfig } from '../../src/config.ts';
import { isQuarryError } from '../../src/errors/index.ts';
import { connectRedis, type Redis } from '../../src/store/redis/connect.ts';
import { RedisRateLimitStore } from '../../src/store/redis/rate-limit-store.ts';
import { privateRedis, type PrivateRedis } from '../fixtures/redis.ts';
import { jwtToken, opaqueToken, QUERY, testApp, type TestApp } from './helpers/app.ts';
import { FormClient, HOLDER, startWebServer, type WebServer } from '../web/helpers/server.ts';

describe('rate limits in Redis', () => {
  let redis: PrivateRedis;
  let client: Redis;
  let t: TestApp;
  before(async () => {
    redis = await privateRedis();
    client = await connectRedis(redis.url);
    t = await testApp({
      rateLimitStore: new RedisRateLimitStore(client, 'quarry:'),
      config: { rateLimits: { tokenV3: { max: 3, windowSeconds: 60, scope: 'ip' } } },
    });
  });
  after(async () => {
    await t.close();
    client.disconnect();
    await redis.stop();
  });

  test('count like the memory store, with the same headers', async () => {
    const token = await opaqueToken(t);
    const statuses: number[] = [];
    let last;
    for (let i = 0; i < 4; i++) {
      last = await t.app.inject({
        method: 'POST',
        url: '/v3/api/query',
        headers: { authorization: `Bearer ${token}` },
        payload: QUERY,
      });
      statuses.push(last.statusCode);
    }
    assert.deepEqual(statuses, [200, 200, 200, 429]);
    assert.equal(last?.headers['ratelimit-limit'], '3');
    assert.equal(last?.headers['ratelimit-remaining'], '0');
    assert.ok(Number(last?.headers['retry-after']) >= 1);
  });

  test('with Redis gone, token and query requests answer 503 in the error shape; then recover', async () => {
    const jwt = await jwtToken(t, t.key, '10.0.0.8');
    const queriesRun = t.engine.calls.length;
    await redis.stop();
    for (const request of [
      { method: 'GET' as const, url: `/v3/token?api_key=${encodeURIComponent(t.key)}` },
      { method: 'POST' as const, url: '/api/dsl/v2', payload: QUERY, headers: { authorization: `JWT ${jwt}` } },
    ]) {
      const res = await t.app.inject({ ...request, remoteAddress: '10.0.0.9' });
      assert.equal(res.statusCode, 503, res.body);
      assert.ok(Number(res.headers['retry-after']) >= 1, 'a 503 says when to retry');
      const body = res.json<{ errors: { query: { code: string; header: string; details: string[] } } }>();
      assert.equal(body.errors.query.code, 'SERVICE_UNAVAILABLE');
      assert.match(body.errors.query.details.join(' '), /Redis/);
    }
    assert.equal(t.engine.calls.length, queriesRun, 'no query ran uncounted');
    await redis.start();
    let status = 0;
    for (let i = 0; i < 40 && status !== 200; i++) {
      status = (await t.app.inject({ method: 'GET', url: `/v3/token?api_key=${encodeURIComponent(t.key)}` }))
        .statusCode;
      if (status !== 200) await new Promise((r) => setTimeout(r, 250));
    }
    assert.equal(status, 200, 'answers again once Redis is back');
  });
});

test('a Redis that does not answer at start is a coded start-up error naming it', async () => {
  const config = loadConfig({
    overrides: { database: '/nonexistent/never-opened.db', redisUrl: 'redis://127.0.0.1:1/0' },
  });
  await assert.rejects(openServiceBackends(config), (error: unknown) => {
    assert.ok(isQuarryError(error));
    assert.equal(error.code, 'SERVICE_BACKEND_UNREACHABLE');
    assert.match(error.message, /The Redis server at redis:\/\/127\.0\.0\.1:1\/0 cannot be reached: .*ECONNREFUSED/);
    return true;
  });
});

describe('web pages with sessions in Redis', () => {
  let redis: PrivateRedis;
  let server: WebServer;
  before(async () => {
    redis = await privateRedis();
    server = await startWebServer({ config: { redisUrl: redis.url } });
  });
  after(async () => {
    await server.close();
    await redis.stop();
  });

  test('the session is kept in Redis, and a signed-in page answers 503 (not 500) while Redis is away', async () => {
    const browser = new FormClient(server.url);
    const signedIn = await browser.signIn(HOLDER.email, HOLDER.password);
    assert.equal(signedIn.status, 303);
    assert.match((await browser.get('/account')).text, new RegExp(HOLDER.email));
    const sessions = await connectRedis(redis.url);
    try {
      assert.equal((await sessions.keys('quarry:session:*')).length, 1, 'the session is kept in Redis');
    } finally {
      sessions.disconnect();
    }
    await redis.stop();
    const away = await browser.get('/account');
    assert.equal(away.status, 503, away.text);
    assert.equal(away.headers.get('retry-after'), '5', 'the page says when to retry');
    assert.match(away.text, /Redis/);
  });
});
