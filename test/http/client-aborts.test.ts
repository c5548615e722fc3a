import assert from 'node:assert/strict';
import { connect, type AddressInfo } from 'node:net';
import { after, before, describe, test } from 'node:test';
import { opaqueToken, testApp, type TestApp } from './helpers/app.ts';

// A client that closes its connection before the answer is not a fault of the service: the
// log says so in one info line (request id, route, code), never an error with a stack.
// Real sockets on 127.0.0.1, every wait bounded.
describe('clients that close the connection before the answer', () => {
  let t: TestApp;
  let port: number;
  let token: string;
  before(async () => {
    t = await testApp({ config: { rateLimits: { enabled: false } } });
    await t.app.listen({ host: '127.0.0.1', port: 0 });
    port = (t.app.server.address() as AddressInfo).port;
    token = await opaqueToken(t);
  });
  after(() => t.close());

  async function until(what: string, ok: () => boolean, ms = 3000): Promise<void> {
    const started = Date.now();
    while (!ok()) {
      if (Date.now() - started > ms) assert.fail(`${what} within ${ms} ms`);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  }

  /** Writes `text`, waits until `ready`, then closes the connection without reading. */
  async function sendAndLeave(text: string, ready: () => boolean): Promise<void> {
    const socket = connect({ port, host: '127.0.0.1' });
    try {
      await new Promise<void>((resolve, reject) => {
        socket.once('connect', resolve);
        socket.once('error', reject);
      });
      socket.write(text);
      await until('the server got the request', ready);
    } finally {
      socket.destroy();
    }
  }

  /** The log lines of the one request to `url` made since `from` lines were logged. */
  function linesOf(from: number, url: string): Array<Record<string, unknown>> {
    const lines = t.logs.slice(from);
    const incoming = lines.find((l) => (l.req as { url?: string } | undefined)?.url === url);
    assert.ok(incoming, `a request to ${url} was logged`);
    return lines.filter((l) => l.reqId === incoming.reqId);
  }

  function assertLoggedAsInfo(lines: ReadonlyArray<Record<string, unknown>>, code: string): void {
    const closed = lines.filter((l) => l.msg === 'client closed the connection');
    assert.equal(closed.length, 1, JSON.stringify(lines));
    assert.equal(closed[0]?.level, 30);
    assert.equal(closed[0]?.route, '/v3/api/query');
    assert.equal(closed[0]?.code, code);
    for (const line of lines) {
      assert.ok((line.level as number) < 40, `no warning or error: ${JSON.stringify(line)}`);
      assert.ok(!JSON.stringify(line).includes('"stack"'), `no stack: ${JSON.stringify(line)}`);
    }
  }

  test('a query left while it runs is cancelled and logged as one info line', async () => {
    const from = t.logs.length;
    const query = 'search publications where HANG return publications';
    const calls = t.engine.calls.length;
    await sendAndLeave(
      `POST /v3/api/query HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${token}\r\nContent-Type: text/plain\r\n` +
        `Content-Length: ${Buffer.byteLength(query)}\r\n\r\n${query}`,
      () => t.engine.calls.length > calls,
    );
    await until('the close was logged', () =>
      t.logs.slice(from).some((l) => l.msg === 'client closed the connection' || (l.level as number) >= 40),
    );
    assert.equal(t.engine.calls.at(-1)?.options.signal?.aborted, true, 'the query was cancelled');
    assertLoggedAsInfo(linesOf(from, '/v3/api/query'), 'ENGINE_CANCELLED');
  });

  test('a body left half sent is logged as one info line', async () => {
    const from = t.logs.length;
    await sendAndLeave(
      `POST /v3/api/query HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${token}\r\nContent-Type: text/plain\r\n` +
        `Content-Length: 100\r\n\r\nsearch pub`,
      () => t.logs.slice(from).some((l) => l.msg === 'incoming request'),
    );
    await until('the close was logged', () =>
      t.logs.slice(from).some((l) => l.msg === 'client closed the connection' || (l.level as number) >= 50),
    );
    assertLoggedAsInfo(linesOf(from, '/v3/api/query'), 'SERVICE_BAD_REQUEST');
  });
});
