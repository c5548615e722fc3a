import assert from 'node:assert/strict';
import type { AddressInfo } from 'node:net';
import { after, before, describe, test } from 'node:test';
import { opaqueToken, QUERY, testApp, type TestApp } from './helpers/app.ts';
import { assertErrorBody, closedWithin, idleConnection, rawExchange } from './helpers/raw-http.ts';

// Issue 12: request body and header timeouts, keep-alive timeout, and caps on connections
// in all and per address, each answered with the protocol's error body where an answer is
// possible. Real sockets on 127.0.0.1, every wait bounded.
describe('slow clients and connection caps', () => {
  const limits = {
    headersTimeoutMs: 1000,
    requestTimeoutMs: 2000,
    keepAliveTimeoutMs: 500,
    maxConnections: 6,
    maxConnectionsPerIp: 3,
  };
  let t: TestApp;
  let port: number;
  let token: string;
  before(async () => {
    t = await testApp({ config: { rateLimits: { enabled: false }, http: limits } });
    await t.app.listen({ host: '127.0.0.1', port: 0 });
    port = (t.app.server.address() as AddressInfo).port;
    token = await opaqueToken(t);
  });
  after(() => t.close());

  const queryRequest = () =>
    `POST /v3/api/query HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${token}\r\nContent-Type: text/plain\r\n` +
    `Content-Length: ${Buffer.byteLength(QUERY)}\r\nConnection: close\r\n\r\n${QUERY}`;

  test('a body trickled one byte a second is cut off with 408 within the request timeout; others are answered meanwhile', async () => {
    const request = queryRequest();
    const headEnd = request.indexOf('\r\n\r\n') + 4;
    const slow = rawExchange(port, request, { head: headEnd, trickleMs: 1000, timeoutMs: 6000 });
    // Meanwhile another client gets its answers, quickly.
    const others: number[] = [];
    const started = Date.now();
    while (Date.now() - started < 1500) {
      const res = await rawExchange(port, queryRequest(), { timeoutMs: 1000 });
      assert.equal(res.status, 200);
      others.push(res.elapsedMs);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    const res = await slow;
    assert.equal(res.status, 408);
    assertErrorBody(res.json(), 'SERVICE_REQUEST_TIMEOUT', 'Request Timeout');
    assert.ok(res.closed, 'the connection is closed');
    assert.ok(res.elapsedMs >= limits.requestTimeoutMs - 50, `closed after ${res.elapsedMs} ms`);
    assert.ok(res.elapsedMs <= limits.requestTimeoutMs + 600, `closed after ${res.elapsedMs} ms, past the limit`);
    assert.ok(others.length >= 5, `${others.length} other queries answered`);
    assert.ok(Math.max(...others) < 500, `other queries took up to ${Math.max(...others)} ms`);
    assert.equal(t.engine.calls.filter((c) => c.text === QUERY).length, others.length, 'the slow query never ran');
  });

  test('headers trickled one byte at a time answer 408 within the headers timeout', async () => {
    const res = await rawExchange(
      port,
      'GET /healthz HTTP/1.1\r\nHost: x\r\nX-Slow: aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa\r\n\r\n',
      {
        trickleMs: 200,
        timeoutMs: 4000,
      },
    );
    assert.equal(res.status, 408);
    assertErrorBody(res.json(), 'SERVICE_REQUEST_TIMEOUT', 'Request Timeout');
    assert.ok(res.elapsedMs <= limits.headersTimeoutMs + 600, `closed after ${res.elapsedMs} ms`);
  });

  test('a connection that sends nothing is closed after the headers timeout', async () => {
    const socket = await idleConnection(port);
    const ms = await closedWithin(socket, 4000);
    assert.ok(ms >= limits.headersTimeoutMs - 50 && ms <= limits.headersTimeoutMs + 600, `closed after ${ms} ms`);
  });

  test('an idle keep-alive connection is closed after the keep-alive timeout', async () => {
    const socket = await idleConnection(port);
    socket.write('GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n');
    const answered = new Promise<void>((resolve) => socket.once('data', () => resolve()));
    const closed = closedWithin(socket, 4000);
    await answered;
    const ms = await closed;
    // Node keeps a keep-alive socket one second past the setting, so a client that reuses
    // it at the last moment is not cut off mid-request.
    assert.ok(ms >= limits.keepAliveTimeoutMs, `closed ${ms} ms after the request`);
    assert.ok(ms <= limits.keepAliveTimeoutMs + 1000 + 600, `closed ${ms} ms after the request`);
  });

  test('past the per-address cap: 429 with Retry-After; another address is still served; a freed slot serves again', async () => {
    const held = await Promise.all([1, 2, 3].map(() => idleConnection(port, '127.0.0.2')));
    try {
      const refused = await rawExchange(port, 'GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n', {
        localAddress: '127.0.0.2',
      });
      assert.equal(refused.status, 429);
      assert.equal(refused.headers['retry-after'], '1');
      assert.ok(refused.closed, 'the refused connection is closed after the answer');
      assertErrorBody(refused.json(), 'SERVICE_CONNECTIONS_PER_ADDRESS', 'Rate Limit Exceeded');
      assert.match(refused.json().errors.query.details[0], /at most 3 may be open at once/);
      const other = await rawExchange(port, 'GET /healthz HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n', {
        localAddress: '127.0.0.3',
      });
      assert.equal(other.status, 200);
      held.pop()?.destroy();
      await new Promise((resolve) => setTimeout(resolve, 50));
      const again = await rawExchange(port, 'GET /healthz HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n', {
        localAddress: '127.0.0.2',
      });
      assert.equal(again.status, 200);
    } finally {
      for (const socket of held) socket.destroy();
    }
  });

  test('past the total cap: 503 with Retry-After', async () => {
    const held = [
      ...(await Promise.all([1, 2, 3].map(() => idleConnection(port, '127.0.0.4')))),
      ...(await Promise.all([1, 2, 3].map(() => idleConnection(port, '127.0.0.5')))),
    ];
    try {
      const refused = await rawExchange(port, 'GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n', {
        localAddress: '127.0.0.6',
      });
      assert.equal(refused.status, 503);
      assert.equal(refused.headers['retry-after'], '1');
      assertErrorBody(refused.json(), 'SERVICE_CONNECTIONS_FULL', 'Service Unavailable');
    } finally {
      for (const socket of held) socket.destroy();
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
    const after = await rawExchange(port, 'GET /healthz HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n');
    assert.equal(after.status, 200);
  });
});
