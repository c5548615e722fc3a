import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { AddressInfo } from 'node:net';
import type { WebPlugin } from '../../src/http/app.ts';
import { jwtToken, testApp, type TestApp } from './helpers/app.ts';
import { assertErrorBody, rawExchange } from './helpers/raw-http.ts';

// Issue 12: every error the HTTP layer produces, Fastify's and Node's own included, is in
// the protocol's error body (spec/protocol.md §4) with a stable code.
describe('errors the transport produces, in the protocol error body', () => {
  let t: TestApp;
  let port: number;
  // A page route with Fastify's normal body parsers (JSON and text only), like the web pages.
  const formRoute: WebPlugin = (app) => {
    app.post('/form', (request) => ({ got: request.body }));
    return Promise.resolve();
  };
  before(async () => {
    t = await testApp({ config: { rateLimits: { enabled: false }, http: { maxHeaderBytes: 4096 } }, web: formRoute });
    await t.app.listen({ host: '127.0.0.1', port: 0 });
    port = (t.app.server.address() as AddressInfo).port;
  });
  after(() => t.close());

  test('404: an unknown path answers SERVICE_ROUTE_NOT_FOUND', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/nowhere' });
    assert.equal(res.statusCode, 404);
    assertErrorBody(res.json(), 'SERVICE_ROUTE_NOT_FOUND', 'Not Found');
  });

  test('405: a known path with another method answers SERVICE_METHOD_NOT_ALLOWED with Allow', async () => {
    const query = await t.app.inject({ method: 'GET', url: '/v3/api/query' });
    assert.equal(query.statusCode, 405);
    assert.equal(query.headers.allow, 'POST');
    assertErrorBody(query.json(), 'SERVICE_METHOD_NOT_ALLOWED', 'Method Not Allowed');
    assert.match(query.json().errors.query.details[0], /\/v3\/api\/query does not answer GET; it answers POST/);
    const token = await t.app.inject({ method: 'DELETE', url: '/v3/token?api_key=qry_secret' });
    assert.equal(token.statusCode, 405);
    assert.equal(token.headers.allow, 'GET, HEAD');
    assert.ok(!token.body.includes('qry_secret'), 'the query string is not echoed');
  });

  test('413: a body over the transport limit answers SERVICE_BODY_TOO_LARGE', async () => {
    const jwt = await jwtToken(t);
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/dsl/v2',
      headers: { authorization: `JWT ${jwt}`, 'content-type': 'text/plain' },
      payload: 'a'.repeat(1024 * 1024),
    });
    assert.equal(res.statusCode, 413);
    assertErrorBody(res.json(), 'SERVICE_BODY_TOO_LARGE', 'Payload Too Large');
    assert.match(res.json().errors.query.details[0], /larger than 266240 bytes/);
  });

  test('415: a body type a page route does not read answers SERVICE_MEDIA_TYPE_UNSUPPORTED', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/form',
      headers: { 'content-type': 'application/xml' },
      payload: '<a/>',
    });
    assert.equal(res.statusCode, 415);
    assertErrorBody(res.json(), 'SERVICE_MEDIA_TYPE_UNSUPPORTED', 'Unsupported Media Type');
    assert.match(res.json().errors.query.details[0], /of type application\/xml/);
  });

  test('400: a page body that is not the JSON it claims answers SERVICE_BAD_REQUEST', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/form',
      headers: { 'content-type': 'application/json' },
      payload: '{"a":',
    });
    assert.equal(res.statusCode, 400);
    assertErrorBody(res.json(), 'SERVICE_BAD_REQUEST', 'Bad Request');
  });

  test('400: a URL that is not percent-encoded properly answers SERVICE_BAD_REQUEST', async () => {
    const res = await rawExchange(port, 'GET /v3/%zz HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n');
    assert.equal(res.status, 400);
    assertErrorBody(res.json(), 'SERVICE_BAD_REQUEST', 'Bad Request');
  });

  test('400: bytes that are not HTTP answer SERVICE_MALFORMED_REQUEST and the connection closes', async () => {
    const res = await rawExchange(port, 'HELLO THERE\r\n\r\n');
    assert.equal(res.status, 400);
    assert.equal(res.headers['content-type'], 'application/json; charset=utf-8');
    assertErrorBody(res.json(), 'SERVICE_MALFORMED_REQUEST', 'Bad Request');
    assert.ok(res.closed, 'the server closed the connection');
  });

  test('431: headers over http.maxHeaderBytes answer SERVICE_HEADERS_TOO_LARGE', async () => {
    const res = await rawExchange(port, `GET /healthz HTTP/1.1\r\nHost: x\r\nX-Big: ${'b'.repeat(8192)}\r\n\r\n`);
    assert.equal(res.status, 431);
    assertErrorBody(res.json(), 'SERVICE_HEADERS_TOO_LARGE', 'Request Header Fields Too Large');
    assert.match(res.json().errors.query.details[0], /larger than 4096 bytes/);
    assert.ok(res.closed);
  });

  test('the server still answers normally after those', async () => {
    const res = await rawExchange(port, 'GET /healthz HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n');
    assert.equal(res.status, 200);
    assert.deepEqual(res.json(), { status: 'ok' });
  });
});
