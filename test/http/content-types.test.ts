import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { jwtToken, opaqueToken, QUERY, testApp, type TestApp } from './helpers/app.ts';

// spec/protocol.md §3, "clients rely on": the raw body is the query whatever the Content-Type.
describe('query bodies under every content type', () => {
  let t: TestApp;
  let jwt: string;
  let bearer: string;
  before(async () => {
    t = await testApp({ config: { rateLimits: { enabled: false } } });
    jwt = await jwtToken(t);
    bearer = await opaqueToken(t);
  });
  after(() => t.close());

  const cases: Array<{ name: string; headers: Record<string, string>; payload: string; expected?: string }> = [
    { name: 'text/plain', headers: { 'content-type': 'text/plain' }, payload: QUERY },
    { name: 'text/plain; charset=utf-8', headers: { 'content-type': 'text/plain; charset=utf-8' }, payload: QUERY },
    {
      name: 'application/x-www-form-urlencoded with a raw DSL body',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: 'search publications where title = "a&b=c" return publications',
    },
    { name: 'no content type', headers: {}, payload: QUERY },
    { name: 'application/json with a raw DSL body', headers: { 'content-type': 'application/json' }, payload: QUERY },
    {
      name: 'application/json {"query": ...}',
      headers: { 'content-type': 'application/json' },
      payload: JSON.stringify({ query: QUERY }),
      expected: QUERY,
    },
    {
      name: 'text/plain {"query": ...} (a JSON body under a plain content type)',
      headers: { 'content-type': 'text/plain' },
      payload: JSON.stringify({ query: QUERY }),
      expected: QUERY,
    },
    { name: 'application/octet-stream', headers: { 'content-type': 'application/octet-stream' }, payload: QUERY },
  ];

  for (const c of cases) {
    for (const [url, scheme] of [
      ['/api/dsl/v2', 'JWT'],
      ['/v3/api/query', 'Bearer'],
    ] as const) {
      test(`${url}: ${c.name}`, async () => {
        const headers: Record<string, string> = {
          ...c.headers,
          authorization: `${scheme} ${scheme === 'JWT' ? jwt : bearer}`,
        };
        const res = await t.app.inject({ method: 'POST', url, headers, payload: c.payload });
        assert.equal(res.statusCode, 200, res.body);
        assert.equal(t.engine.calls.at(-1)?.text, c.expected ?? c.payload);
      });
    }
  }

  test('UTF-8 text arrives intact', async () => {
    const query = 'search publications for "Müller café 数据" return publications';
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/dsl/v2',
      headers: { authorization: `JWT ${jwt}`, 'content-type': 'text/plain' },
      payload: Buffer.from(query, 'utf8'),
    });
    assert.equal(res.statusCode, 200);
    assert.equal(t.engine.calls.at(-1)?.text, query);
  });

  test('an empty body answers 400 SERVICE_QUERY_EMPTY', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/dsl/v2',
      headers: { authorization: `JWT ${jwt}` },
      payload: '  ',
    });
    assert.equal(res.statusCode, 400);
    assert.equal(res.json().errors.query.code, 'SERVICE_QUERY_EMPTY');
  });

  test('query text over 64 KiB answers 400 SERVICE_QUERY_TOO_LARGE; a body past the transport limit 413', async () => {
    for (const [size, status, code] of [
      [64 * 1024 + 1, 400, 'SERVICE_QUERY_TOO_LARGE'],
      [1024 * 1024, 413, 'SERVICE_BODY_TOO_LARGE'],
    ] as const) {
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/dsl/v2',
        headers: { authorization: `JWT ${jwt}`, 'content-type': 'text/plain' },
        payload: `search publications for "${'a'.repeat(size)}" return publications`,
      });
      assert.equal(res.statusCode, status, String(size));
      assert.equal(res.json().errors.query.code, code);
    }
  });

  test('exactly 64 KiB is accepted', async () => {
    const head = 'search publications for "';
    const tail = '" return publications';
    const payload = head + 'a'.repeat(64 * 1024 - head.length - tail.length) + tail;
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/dsl/v2',
      headers: { authorization: `JWT ${jwt}` },
      payload,
    });
    assert.equal(res.statusCode, 200);
  });
});
