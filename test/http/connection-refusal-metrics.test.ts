import assert from 'node:assert/strict';
import { connect, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';
import { after, before, describe, test } from 'node:test';
import { testApp, type TestApp } from './helpers/app.ts';
import { closedWithin, idleConnection, rawExchange } from './helpers/raw-http.ts';

// Connections the gate refuses never reach a route (nor quarry_http_requests_total), so
// they are counted on their own, by reason, at /metrics. Real sockets on 127.0.0.0/8, every
// wait bounded; /metrics is read with inject, so reading it makes no connection to count.
describe('refused connections at /metrics', () => {
  const limits = { maxConnections: 4, maxConnectionsPerIp: 2 };
  let t: TestApp;
  let port: number;
  before(async () => {
    t = await testApp({ config: { rateLimits: { enabled: false }, http: limits } });
    await t.app.listen({ host: '127.0.0.1', port: 0 });
    port = (t.app.server.address() as AddressInfo).port;
  });
  after(() => t.close());

  /** The counter's value for each reason, as /metrics shows it. */
  async function refused(): Promise<Record<string, number>> {
    const res = await t.app.inject({ method: 'GET', url: '/metrics' });
    assert.equal(res.statusCode, 200);
    const counts: Record<string, number> = {};
    for (const [, reason, value] of res.body.matchAll(
      /^quarry_http_connections_refused_total\{reason="(\w+)"\} (\d+)$/gm,
    ))
      counts[reason!] = Number(value);
    return counts;
  }

  /** A connection that reads the answer but never closes its side, so its refusal lingers. */
  function halfOpen(localAddress: string): Promise<{ socket: Socket; received: () => string }> {
    return new Promise((resolve, reject) => {
      let text = '';
      const socket = connect({ port, host: '127.0.0.1', localAddress, allowHalfOpen: true });
      socket.on('data', (chunk: Buffer) => (text += chunk.toString('latin1')));
      socket.on('error', () => {});
      socket.once('connect', () => resolve({ socket, received: () => text }));
      socket.once('error', reject);
    });
  }

  test('each refusal counts once under its reason: per_address, total, unanswered', async () => {
    assert.deepEqual(await refused(), { per_address: 0, total: 0, unanswered: 0 }, 'every reason from the start');
    const held: Socket[] = [];
    try {
      // Two admitted from .2 (its cap); a third from there is answered 429.
      held.push(await idleConnection(port, '127.0.0.2'), await idleConnection(port, '127.0.0.2'));
      assert.equal((await rawExchange(port, '', { localAddress: '127.0.0.2', timeoutMs: 2000 })).status, 429);
      assert.deepEqual(await refused(), { per_address: 1, total: 0, unanswered: 0 });

      // Two more from .3 fill the total; one from .4 is answered 503.
      held.push(await idleConnection(port, '127.0.0.3'), await idleConnection(port, '127.0.0.3'));
      assert.equal((await rawExchange(port, '', { localAddress: '127.0.0.4', timeoutMs: 2000 })).status, 503);
      assert.deepEqual(await refused(), { per_address: 1, total: 1, unanswered: 0 });

      // Two refusals of .5 left lingering (the client keeps its side open) are its share;
      // the next one from .5 is closed without an answer.
      const lingering = [await halfOpen('127.0.0.5'), await halfOpen('127.0.0.5')];
      const started = Date.now();
      while (lingering.some((l) => !l.received().startsWith('HTTP/1.1 503')) && Date.now() - started < 2000)
        await new Promise((resolve) => setTimeout(resolve, 10));
      const dropped = await idleConnection(port, '127.0.0.5');
      let answer = '';
      dropped.on('data', (chunk: Buffer) => (answer += chunk.toString('latin1')));
      await closedWithin(dropped, 2000);
      assert.equal(answer, '', 'closed unanswered');
      for (const l of lingering) l.socket.destroy();
      assert.deepEqual(await refused(), { per_address: 1, total: 3, unanswered: 1 });
    } finally {
      for (const socket of held) socket.destroy();
    }
  });
});
