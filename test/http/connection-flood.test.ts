import assert from 'node:assert/strict';
import { connect, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';
import { after, before, describe, test } from 'node:test';
import { testApp, type TestApp } from './helpers/app.ts';
import { assertErrorBody, idleConnection, rawExchange } from './helpers/raw-http.ts';

// A connection refused by a cap is answered at once and closed, and never counts toward
// the total: one address holding idle connections far past its cap, reopened as they
// close, must not shut out anyone else. Real sockets on 127.0.0.0/8 (Linux routes it all
// to lo, so 127.0.0.2, .3, ... are distinct peer addresses); every loop is bounded in
// time and count.
describe('connection floods', () => {
  const limits = {
    headersTimeoutMs: 1000,
    requestTimeoutMs: 2000,
    keepAliveTimeoutMs: 500,
    maxConnections: 10,
    maxConnectionsPerIp: 3,
  };
  let t: TestApp;
  let port: number;
  before(async () => {
    t = await testApp({ config: { rateLimits: { enabled: false }, http: limits } });
    await t.app.listen({ host: '127.0.0.1', port: 0 });
    port = (t.app.server.address() as AddressInfo).port;
  });
  after(() => t.close());

  const HEALTH = 'GET /healthz HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n';
  const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

  /**
   * Keeps `sockets` idle connections open from `localAddress`, reopening each (after
   * `reopenMs`) as the server closes it, until stop() is called or `maxConnects` connects
   * were made. Counts the refusals the server answered with, by status.
   */
  function flood(localAddress: string, sockets: number, options: { reopenMs: number; maxConnects: number }) {
    const open = new Set<Socket>();
    const answered = new Map<number, number>();
    let connects = 0;
    let stopped = false;
    const one = (): void => {
      if (stopped || connects >= options.maxConnects) return;
      connects += 1;
      const socket = connect({ port, host: '127.0.0.1', localAddress });
      open.add(socket);
      let received = '';
      socket.on('data', (chunk: Buffer) => {
        received += chunk.toString('latin1');
      });
      socket.on('error', () => {});
      socket.on('close', () => {
        open.delete(socket);
        const status = Number(/^HTTP\/1\.1 (\d{3})/.exec(received)?.[1] ?? 0);
        answered.set(status, (answered.get(status) ?? 0) + 1);
        if (!stopped) setTimeout(one, options.reopenMs);
      });
    };
    for (let i = 0; i < sockets; i += 1) one();
    return {
      answered,
      get connects() {
        return connects;
      },
      get open() {
        return open.size;
      },
      stop(): void {
        stopped = true;
        for (const socket of open) socket.destroy();
      },
    };
  }

  test('one address past its cap, reopening as it is refused, does not shut out another address', async () => {
    const attacker = flood('127.0.0.2', 40, { reopenMs: 25, maxConnects: 5000 });
    const statuses: number[] = [];
    try {
      await pause(300);
      const started = Date.now();
      while (Date.now() - started < 2000) {
        const res = await rawExchange(port, HEALTH, { localAddress: '127.0.0.3', timeoutMs: 1000 }).catch(
          () => undefined,
        );
        statuses.push(res?.status ?? 0);
        await pause(50);
      }
    } finally {
      attacker.stop();
    }
    const byStatus = statuses.reduce<Record<number, number>>((all, s) => ({ ...all, [s]: (all[s] ?? 0) + 1 }), {});
    assert.deepEqual(
      Object.keys(byStatus),
      ['200'],
      `the other address's answers by status (0: none): ${JSON.stringify(byStatus)}`,
    );
    assert.ok(statuses.length >= 10, `${statuses.length} requests of the other address answered`);
    assert.ok(attacker.connects < 5000, 'the flood went on until the end');
    // The attacker kept its 3 and had the rest refused with 429, not left hanging.
    assert.ok((attacker.answered.get(429) ?? 0) >= 37, `429s to the attacker: ${attacker.answered.get(429) ?? 0}`);
    assert.equal(attacker.answered.get(503) ?? 0, 0, 'the attacker never filled the server');
  });

  test('a connection past its address cap is answered 429 at once, before it sends anything', async () => {
    const held = await Promise.all([1, 2, 3].map(() => idleConnection(port, '127.0.0.4')));
    try {
      const started = Date.now();
      const refused = await rawExchange(port, '', { localAddress: '127.0.0.4', timeoutMs: 3000 });
      const ms = Date.now() - started;
      assert.equal(refused.status, 429);
      assert.equal(refused.headers['retry-after'], '1');
      assert.ok(refused.closed, 'the refused connection is closed');
      assertErrorBody(refused.json(), 'SERVICE_CONNECTIONS_PER_ADDRESS', 'Rate Limit Exceeded');
      assert.ok(ms < limits.headersTimeoutMs / 2, `answered after ${ms} ms, not at once`);
    } finally {
      for (const socket of held) socket.destroy();
    }
  });

  test('connections refused past the total cap do not count: a freed slot serves the next one at once', async () => {
    const held = [
      ...(await Promise.all([1, 2, 3].map(() => idleConnection(port, '127.0.0.5')))),
      ...(await Promise.all([1, 2, 3].map(() => idleConnection(port, '127.0.0.6')))),
      ...(await Promise.all([1, 2, 3].map(() => idleConnection(port, '127.0.0.7')))),
      await idleConnection(port, '127.0.0.8'),
    ];
    const waiting: Socket[] = [];
    try {
      // Ten more connections from other addresses are refused with 503.
      const refused = await Promise.all(
        Array.from({ length: 10 }, (_, i) =>
          rawExchange(port, HEALTH, { localAddress: `127.0.1.${i + 1}`, timeoutMs: 3000 }),
        ),
      );
      for (const res of refused) {
        assert.equal(res.status, 503);
        assertErrorBody(res.json(), 'SERVICE_CONNECTIONS_FULL', 'Service Unavailable');
      }
      // Ten more that their clients keep open and idle: refused too, none may hold a slot.
      for (let i = 0; i < 10; i += 1) waiting.push(await idleConnection(port, `127.0.2.${i + 1}`));
      held.pop()?.destroy();
      await pause(50);
      const served = await rawExchange(port, HEALTH, { localAddress: '127.0.0.9', timeoutMs: 1000 });
      assert.equal(served.status, 200);
    } finally {
      for (const socket of [...held, ...waiting]) socket.destroy();
    }
  });
});
