import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { after, before, describe, test } from 'node:test';
import { jwtToken, opaqueToken, QUERY, testApp, type TestApp } from './helpers/app.ts';

// Issue 12: the metric names and labels /metrics serves (docs/operations.md lists them and
// docs/grafana-dashboard.json reads them, so a rename must break this test).
describe('/metrics names and labels', () => {
  let t: TestApp;
  let body: string;
  before(async () => {
    t = await testApp({ config: { rateLimits: { authPath: { max: 4, windowSeconds: 60, scope: 'ip' } } } });
    const jwt = await jwtToken(t);
    await opaqueToken(t);
    await t.app.inject({ method: 'POST', url: '/api/auth', payload: { key: 'qry_wrong' } });
    const ask = (payload: string, token = jwt) =>
      t.app.inject({ method: 'POST', url: '/api/dsl/v2', headers: { authorization: `JWT ${token}` }, payload });
    assert.equal((await ask(QUERY)).statusCode, 200);
    assert.equal((await ask('search publications where titel = "x" return publications')).statusCode, 400);
    assert.equal((await ask(QUERY, 'not.a.jwt')).statusCode, 403);
    assert.equal((await ask('search publications for "BUSY" return publications')).statusCode, 429);
    assert.equal((await ask(QUERY)).statusCode, 429);
    body = (await t.app.inject({ method: 'GET', url: '/metrics' })).body;
  });
  after(() => t.close());

  const sample = (name: string, labels: Record<string, string>): number | undefined => {
    const wanted = Object.entries(labels).map(([k, v]) => `${k}="${v}"`);
    for (const line of body.split('\n')) {
      const match = /^([a-z_:]+)(?:\{(.*)\})? (\S+)$/.exec(line);
      if (!match || match[1] !== name) continue;
      const have = (match[2] ?? '').split(',').filter(Boolean);
      if (wanted.every((w) => have.includes(w)) && have.length === wanted.length) return Number(match[3]);
    }
    return undefined;
  };

  test('request duration histogram by route, family and status', () => {
    const labels = { route: '/api/dsl/v2', family: 'auth', status: '200' };
    assert.equal(sample('quarry_http_request_duration_seconds_count', labels), 1);
    assert.equal(sample('quarry_http_request_duration_seconds_bucket', { le: '+Inf', ...labels }), 1);
    // One past the rate limit, one past the caller's cap of queries at once.
    assert.equal(sample('quarry_http_request_duration_seconds_count', { ...labels, status: '429' }), 2);
    assert.equal(
      sample('quarry_http_request_duration_seconds_count', { route: '/v3/token', family: 'token', status: '200' }),
      1,
    );
  });

  test('query duration histogram by family, source, result kind, cost lane and outcome', () => {
    const ok = { family: 'auth', source: 'publications', result: 'records', cost: 'cheap', outcome: 'ok' };
    assert.equal(sample('quarry_query_duration_seconds_count', ok), 1);
    const refused = { family: 'auth', source: 'unknown', result: 'unknown', cost: 'unknown', outcome: 'semantic' };
    assert.equal(sample('quarry_query_duration_seconds_count', refused), 1);
    const busy = { ...refused, outcome: 'rate_limit' };
    assert.equal(sample('quarry_query_duration_seconds_count', busy), 1);
  });

  test('queue wait histogram, pool queue length and active workers', () => {
    assert.equal(sample('quarry_engine_queue_wait_seconds_count', {}), 1);
    assert.equal(sample('quarry_engine_queue_wait_seconds_sum', {}), 0.00025);
    assert.equal(sample('quarry_engine_queue_length', {}), 3);
    assert.equal(sample('quarry_engine_active_workers', {}), 1);
    assert.equal(sample('quarry_engine_workers', {}), 2);
  });

  test('rate-limit rejections by rule, the per-principal cap of queries at once among them', () => {
    assert.equal(sample('quarry_rate_limit_rejections_total', { rule: 'authPath' }), 1);
    assert.equal(sample('quarry_rate_limit_rejections_total', { rule: 'query.maxPerPrincipal' }), 1);
  });

  test('token issuance and failures by family (and code)', () => {
    assert.equal(sample('quarry_tokens_issued_total', { family: 'auth' }), 1);
    assert.equal(sample('quarry_tokens_issued_total', { family: 'token' }), 1);
    assert.equal(sample('quarry_token_failures_total', { family: 'auth', code: 'SERVICE_CREDENTIALS_INVALID' }), 1);
    assert.equal(sample('quarry_token_failures_total', { family: 'auth', code: 'SERVICE_TOKEN_INVALID' }), 1);
  });

  test("Node's default metrics under their standard names, not prefixed twice", () => {
    for (const name of [
      'process_cpu_user_seconds_total',
      'process_resident_memory_bytes',
      'nodejs_eventloop_lag_seconds',
      'nodejs_heap_size_used_bytes',
      'nodejs_gc_duration_seconds',
    ]) {
      assert.match(body, new RegExp(`^# TYPE ${name} `, 'm'), name);
    }
    assert.doesNotMatch(body, /quarry_process_/);
  });

  test('every metric the Grafana dashboard in docs/ reads is served', () => {
    const dashboard = JSON.parse(
      readFileSync(new URL('../../docs/grafana-dashboard.json', import.meta.url), 'utf8'),
    ) as { panels: Array<{ targets: Array<{ expr: string }> }> };
    const exprs = dashboard.panels.flatMap((panel) => panel.targets.map((target) => target.expr));
    assert.ok(exprs.length >= 10);
    const names = new Set(exprs.flatMap((expr) => expr.match(/\b(quarry|process|nodejs)_[a-z0-9_]+/g) ?? []));
    for (const name of names) assert.match(body, new RegExp(`^${name}(\\{| )`, 'm'), `${name} is not served`);
  });
});
