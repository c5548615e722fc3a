import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { WebPlugin } from '../../src/http/app.ts';
import { jwtToken, QUERY, testApp, type TestApp } from './helpers/app.ts';

describe('operations endpoints, response shape, OpenAPI, web hook', () => {
  let t: TestApp;
  let jwt: string;
  before(async () => {
    t = await testApp({ config: { rateLimits: { enabled: false } } });
    jwt = await jwtToken(t);
  });
  after(() => t.close());

  test('GET /healthz answers 200', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/healthz' });
    assert.equal(res.statusCode, 200);
    assert.deepEqual(res.json(), { status: 'ok' });
  });

  test('GET /readyz answers 200 when the database answers, 503 in the error shape when not', async () => {
    assert.equal((await t.app.inject({ method: 'GET', url: '/readyz' })).statusCode, 200);
    t.engine.readyAnswer = false;
    try {
      const res = await t.app.inject({ method: 'GET', url: '/readyz' });
      assert.equal(res.statusCode, 503);
      assert.equal(res.json().errors.query.code, 'SERVICE_UNAVAILABLE');
      assert.equal(res.headers['retry-after'], '5', 'a 503 says when to retry');
    } finally {
      t.engine.readyAnswer = true;
    }
  });

  test('a query answer: §3 shape (only arrays besides the _ keys) and timing in Server-Timing, not in the body', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/dsl/v2',
      headers: { authorization: `JWT ${jwt}` },
      payload: QUERY,
    });
    assert.equal(res.statusCode, 200);
    const body = res.json<Record<string, unknown>>();
    const metadata = new Set(['_stats', '_warnings', '_notes', '_version', '_copyright']);
    for (const [key, value] of Object.entries(body)) {
      if (!metadata.has(key)) assert.ok(Array.isArray(value), `${key} must be an array`);
    }
    assert.match(res.headers['server-timing'] as string, /^parse;dur=[\d.]+, execute;dur=[\d.]+, total;dur=[\d.]+$/);
  });

  test('GET /metrics: requests by route and status, query latency, rate-limit rejections, pool queue depth', async () => {
    await t.app.inject({
      method: 'POST',
      url: '/api/dsl/v2',
      headers: { authorization: `JWT ${jwt}` },
      payload: QUERY,
    });
    const res = await t.app.inject({ method: 'GET', url: '/metrics' });
    assert.equal(res.statusCode, 200);
    assert.match(res.headers['content-type'] as string, /^text\/plain/);
    assert.match(res.body, /quarry_http_requests_total\{route="\/api\/dsl\/v2",method="POST",status="200"\} \d+/);
    assert.match(
      res.body,
      /quarry_query_duration_seconds_count\{family="auth",source="publications",result="records",cost="cheap",outcome="ok"\} \d+/,
    );
    assert.match(res.body, /# TYPE quarry_rate_limit_rejections_total counter/);
    assert.match(res.body, /quarry_engine_queue_length 3/);
  });

  test('the OpenAPI document lists every endpoint, and /docs serves its UI from this server', async () => {
    const doc = (await t.app.inject({ method: 'GET', url: '/docs/json' })).json<{
      openapi: string;
      paths: Record<string, unknown>;
    }>();
    assert.match(doc.openapi, /^3\./);
    for (const path of [
      '/v2/token',
      '/v3/token',
      '/v2/api/query',
      '/v3/api/query',
      '/api/auth',
      '/api/auth.json',
      '/api/dsl/v1',
      '/api/dsl/v2',
      '/api/dsl',
      '/api/dsl.json',
      '/healthz',
      '/readyz',
      '/metrics',
    ]) {
      assert.ok(doc.paths[path], path);
    }
    const ui = await t.app.inject({ method: 'GET', url: '/docs/' });
    assert.equal(ui.statusCode, 200);
    assert.match(ui.body, /swagger-ui/i);
    assert.ok(
      !/https?:\/\/(?!localhost)[a-z]/i.test(ui.body.replace(/https?:\/\/(www\.)?w3\.org[^"']*/g, '')),
      'no assets from elsewhere',
    );
    const asset = await t.app.inject({ method: 'GET', url: '/docs/static/swagger-ui-bundle.js' });
    assert.equal(asset.statusCode, 200);
  });

  test('a family can be switched off', async () => {
    const only = await testApp({ config: { families: { token: false, auth: true } } });
    try {
      assert.equal((await only.app.inject({ method: 'GET', url: `/v3/token?api_key=${only.key}` })).statusCode, 404);
      assert.equal(
        (await only.app.inject({ method: 'POST', url: '/api/auth', payload: { key: only.key } })).statusCode,
        200,
      );
    } finally {
      await only.close();
    }
  });

  test('the web plugin hook: registered with the services, keeping normal body parsing', async () => {
    let received: string[] = [];
    const web: WebPlugin = (app, options) => {
      received = Object.keys(options)
        .filter((k) =>
          ['accounts', 'engine', 'tokens', 'config', 'clock', 'service', 'webStore', 'loginCodes'].includes(k),
        )
        .sort();
      app.post('/web-echo', (request) => ({ got: request.body }));
      return Promise.resolve();
    };
    const withWeb = await testApp({ web });
    try {
      assert.deepEqual(received, [
        'accounts',
        'clock',
        'config',
        'engine',
        'loginCodes',
        'service',
        'tokens',
        'webStore',
      ]);
      const res = await withWeb.app.inject({ method: 'POST', url: '/web-echo', payload: { a: 1 } });
      assert.deepEqual(res.json(), { got: { a: 1 } });
    } finally {
      await withWeb.close();
    }
  });
});
