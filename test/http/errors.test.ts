import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { ERROR_CATEGORIES } from '../../src/errors/index.ts';
import { STATUS_BY_CATEGORY } from '../../src/http/status.ts';
import { jwtToken, opaqueToken, testApp, type TestApp } from './helpers/app.ts';

// spec/protocol.md §4: every non-2xx response has {"errors":{"query":{"header","details",...}}};
// like the hosted service it echoes the query text in errors.query.query, and a top-level
// error.message repeats the details for clients that print only that.
describe('error bodies and statuses', () => {
  let t: TestApp;
  let jwt: string;
  let bearer: string;
  before(async () => {
    t = await testApp({
      at: '2021-06-01T00:00:00Z',
      config: { rateLimits: { enabled: false }, query: { timeoutMs: 200 } },
    });
    jwt = await jwtToken(t);
    bearer = await opaqueToken(t);
  });
  after(() => t.close());

  const ask = (
    url: string,
    payload: string,
    authorization = url.startsWith('/api') ? `JWT ${jwt}` : `Bearer ${bearer}`,
  ) => t.app.inject({ method: 'POST', url, headers: { authorization, 'content-type': 'text/plain' }, payload });

  function assertShape(body: unknown): asserts body is {
    errors: {
      query: { header: string; details: string[]; code: string; line?: number; column?: number; query?: string };
    };
    error: { message: string };
  } {
    const q = (body as { errors?: { query?: { header?: unknown; details?: unknown } } }).errors?.query;
    assert.ok(q, 'errors.query is present');
    assert.equal(typeof q.header, 'string');
    assert.ok(Array.isArray(q.details) && q.details.length > 0 && q.details.every((d) => typeof d === 'string'));
    assert.deepEqual(Object.keys(body as object), ['errors', 'error']);
    assert.deepEqual(Object.keys((body as { error: object }).error), ['message']);
    assert.equal((body as { error: { message: unknown } }).error.message, q.details.join('\n'));
  }

  test('the category map covers every category with the statuses of the spec', () => {
    assert.deepEqual(Object.keys(STATUS_BY_CATEGORY).sort(), [...ERROR_CATEGORIES].sort());
    assert.equal(STATUS_BY_CATEGORY.syntax, 400);
    assert.equal(STATUS_BY_CATEGORY.authentication, 401);
    assert.equal(STATUS_BY_CATEGORY.token, 403);
    assert.equal(STATUS_BY_CATEGORY.permission, 403);
    assert.equal(STATUS_BY_CATEGORY.rate_limit, 429);
    assert.equal(STATUS_BY_CATEGORY.gone, 410);
    assert.equal(STATUS_BY_CATEGORY.timeout, 504);
    assert.equal(STATUS_BY_CATEGORY.internal, 500);
  });

  test('syntax error (v2): 400, "1 QueryError found", code, line and column', async () => {
    const res = await ask('/api/dsl/v2', 'search publications\nwhere title = "x return publications');
    assert.equal(res.statusCode, 400);
    const body = res.json();
    assertShape(body);
    assert.equal(body.errors.query.header, '1 QueryError found');
    assert.equal(body.errors.query.code, 'DSL_UNTERMINATED_STRING');
    assert.equal(body.errors.query.line, 2);
    assert.equal(body.errors.query.column, 15);
  });

  test('syntax error (v1): 400 with header "Syntax Error"', async () => {
    const res = await ask('/api/dsl/v1', 'search publications where title = "x');
    assert.equal(res.statusCode, 400);
    const body = res.json();
    assertShape(body);
    assert.equal(body.errors.query.header, 'Syntax Error');
  });

  test('semantic error (an unknown field): 400, "Semantic Error" in v1, "1 QueryError found" in v2, with the position', async () => {
    for (const [url, header] of [
      ['/api/dsl/v1', 'Semantic Error'],
      ['/api/dsl/v2', '1 QueryError found'],
      ['/v3/api/query', '1 QueryError found'],
    ] as const) {
      const res = await ask(url, 'search publications return publications[id + titel]');
      assert.equal(res.statusCode, 400, url);
      const body = res.json();
      assertShape(body);
      assert.equal(body.errors.query.header, header);
      assert.equal(body.errors.query.code, 'SCHEMA_UNKNOWN_FIELD');
      assert.match(body.errors.query.details[0]!, /Did you mean 'title'\?/);
      assert.equal(body.errors.query.line, 1);
      assert.equal(body.errors.query.column, 46);
    }
  });

  test('a query error echoes the query text as sent and gives the reason in error.message, on every query endpoint', async () => {
    const query = 'search publications\n  return publications[id + titel]\n';
    for (const url of ['/api/dsl/v1', '/api/dsl/v2', '/api/dsl', '/api/dsl.json', '/v2/api/query', '/v3/api/query']) {
      const res = await ask(url, query);
      assert.equal(res.statusCode, 400, url);
      const body = res.json();
      assertShape(body);
      assert.equal(body.errors.query.query, query, url);
      assert.equal(body.errors.query.code, 'SCHEMA_UNKNOWN_FIELD', url);
      assert.match(body.error.message, /'titel'.*Did you mean 'title'\?/, url);
    }
  });

  test('a JSON body echoes its query member, not the JSON around it', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/dsl/v2',
      headers: { authorization: `JWT ${jwt}`, 'content-type': 'application/json' },
      payload: JSON.stringify({ query: 'search publications return publications[titel]' }),
    });
    assert.equal(res.statusCode, 400);
    const body = res.json();
    assertShape(body);
    assert.equal(body.errors.query.query, 'search publications return publications[titel]');
  });

  test('a JSON body sent without a JSON content type is unwrapped too: the key beside the query is never echoed', async () => {
    const key = 'qry_secret_key_beside_the_query_5151';
    for (const contentType of ['text/plain', 'application/x-www-form-urlencoded', undefined]) {
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/dsl/v2',
        headers: { authorization: `JWT ${jwt}`, ...(contentType ? { 'content-type': contentType } : {}) },
        payload: JSON.stringify({ query: 'search publications return publications[titel]', api_key: key }),
      });
      assert.equal(res.statusCode, 400, String(contentType));
      const body = res.json();
      assertShape(body);
      assert.equal(body.errors.query.code, 'SCHEMA_UNKNOWN_FIELD');
      assert.equal(body.errors.query.query, 'search publications return publications[titel]');
      assert.ok(!res.body.includes(key), String(contentType));
    }
  });

  test('a JSON object without a string query member is refused and not echoed', async () => {
    const key = 'qry_secret_key_without_query_5252';
    const res = await t.app.inject({
      method: 'POST',
      url: '/v3/api/query',
      headers: { authorization: `Bearer ${bearer}`, 'content-type': 'text/plain' },
      payload: JSON.stringify({ q: 'search publications return publications', key }),
    });
    assert.equal(res.statusCode, 400);
    const body = res.json();
    assertShape(body);
    assert.equal(body.errors.query.code, 'SERVICE_BAD_REQUEST');
    assert.match(body.error.message, /string member "query"/);
    assert.equal('query' in body.errors.query, false);
    assert.ok(!res.body.includes(key));
  });

  test('errors raised after the query was read echo it too (timeout, internal)', async () => {
    for (const query of [
      'search publications for "SLOW" return publications',
      'search publications for "CRASH" return publications',
    ]) {
      const res = await ask('/v3/api/query', query);
      const body = res.json();
      assertShape(body);
      assert.equal(body.errors.query.query, query);
    }
  });

  test('authentication failures echo neither the query nor the key or token', async () => {
    const badToken = await ask('/v2/api/query', 'search publications return years', 'Bearer not-a-real-token-4242');
    assert.equal(badToken.statusCode, 403);
    assertShape(badToken.json());
    assert.equal('query' in badToken.json().errors.query, false);
    assert.ok(!badToken.body.includes('not-a-real-token-4242'));

    const badKey = await t.app.inject({
      method: 'POST',
      url: '/api/auth',
      headers: { 'content-type': 'application/json' },
      payload: JSON.stringify({ key: 'qry_wrong_key_4242', username: '', password: '' }),
    });
    assert.equal(badKey.statusCode, 401);
    assertShape(badKey.json());
    assert.equal('query' in badKey.json().errors.query, false);
    assert.ok(!badKey.body.includes('qry_wrong_key_4242'));

    const badApiKey = await t.app.inject({ method: 'GET', url: '/v2/token?api_key=qry_wrong_key_4343' });
    assert.equal(badApiKey.statusCode, 401);
    assertShape(badApiKey.json());
    assert.equal('query' in badApiKey.json().errors.query, false);
    assert.ok(!badApiKey.body.includes('qry_wrong_key_4343'));
  });

  test('auth errors: 401 and 403 bodies', async () => {
    const missing = await ask('/api/dsl/v2', 'describe version', '');
    assert.equal(missing.statusCode, 401);
    assertShape(missing.json());
    assert.equal(missing.json().errors.query.header, 'Authentication Error');
    const bad = await ask('/api/dsl/v2', 'describe version', 'JWT a.b.c');
    assert.equal(bad.statusCode, 403);
    assertShape(bad.json());
  });

  test('limit error body', async () => {
    const limited = await testApp({ config: { rateLimits: { authentication: { max: 1 } } } });
    try {
      await limited.app.inject({ method: 'GET', url: '/v3/token' });
      const res = await limited.app.inject({ method: 'GET', url: '/v3/token' });
      assert.equal(res.statusCode, 429);
      assertShape(res.json());
      assert.equal(res.json().errors.query.header, 'Rate Limit Exceeded');
    } finally {
      await limited.close();
    }
  });

  test('timeout: the engine cancels the query → 504 saying how to narrow it', async () => {
    const res = await ask('/api/dsl/v2', 'search publications for "SLOW" return publications');
    assert.equal(res.statusCode, 504);
    const body = res.json();
    assertShape(body);
    assert.equal(body.errors.query.code, 'ENGINE_TIMEOUT');
    assert.equal(t.engine.calls.at(-1)?.options.timeoutMs, 200);
  });

  test('an engine that never answers is cut off by the HTTP deadline (504 SERVICE_QUERY_TIMEOUT) and told to stop', async () => {
    const res = await ask('/api/dsl/v2', 'search publications for "HANG" return publications');
    assert.equal(res.statusCode, 504);
    assert.equal(res.json().errors.query.code, 'SERVICE_QUERY_TIMEOUT');
    assert.match(res.json().errors.query.details[0], /Narrow it/);
    assert.equal(t.engine.calls.at(-1)?.options.signal?.aborted, true);
  });

  test('internal error: 500, generic text with the request id; cause, stack and secrets only in the log', async () => {
    const res = await ask('/api/dsl/v2', 'search publications for "CRASH" return publications');
    assert.equal(res.statusCode, 500);
    const body = res.json();
    assertShape(body);
    assert.equal(body.errors.query.code, 'INTERNAL');
    assert.equal(body.errors.query.header, 'Internal Server Error');
    const requestId = res.headers['x-request-id'] as string;
    assert.ok(body.errors.query.details.join(' ').includes(requestId));
    assert.ok(!res.body.includes('hunter2') && !res.body.includes('/secret/path') && !res.body.includes('at '));
    const logged = t.logs.find((l) => l.reqId === requestId && l.level === 50);
    assert.ok(logged, 'the cause is logged at error level with the request id');
    assert.match(JSON.stringify(logged), /hunter2/);
  });

  test('unknown route: 404 in the same shape', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/nothing?api_key=qry_secret' });
    assert.equal(res.statusCode, 404);
    assertShape(res.json());
    assert.equal(res.json().errors.query.code, 'SERVICE_ROUTE_NOT_FOUND');
    assert.ok(!res.body.includes('qry_secret'));
  });

  test('every response carries a request id, and every log line of a request names it', async () => {
    const responses = [
      await t.app.inject({ method: 'GET', url: '/healthz' }),
      await ask('/api/dsl/v2', 'describe version'),
      await ask('/api/dsl/v2', 'search publications where'),
      await t.app.inject({ method: 'GET', url: '/nowhere' }),
    ];
    const ids = responses.map((r) => r.headers['x-request-id'] as string);
    for (const id of ids) assert.match(id, /^[0-9a-f-]{36}$/);
    assert.equal(new Set(ids).size, ids.length);
    const requestLines = t.logs.filter(
      (l) => l.req !== undefined || l.res !== undefined || l.msg === 'request refused',
    );
    assert.ok(requestLines.length >= 8);
    for (const line of requestLines) assert.equal(typeof line.reqId, 'string', JSON.stringify(line));
  });

  test('neither api_key values nor Authorization headers reach the log', async () => {
    await t.app.inject({ method: 'GET', url: `/v3/token?api_key=${t.key}` });
    const text = JSON.stringify(t.logs);
    assert.ok(!text.includes(t.key));
    assert.ok(!text.includes(jwt));
    assert.ok(!text.includes(bearer));
  });
});
