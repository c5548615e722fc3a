import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { after, before, describe, test } from 'node:test';
import { ConnectionGate } from '../../src/http/connection-gate.ts';
import { closedWithin, idleConnection, rawExchange } from './helpers/raw-http.ts';

// The gate's accounting on a plain HTTP server: refused connections never reach the
// server's handler and never count, admitted ones count until they close. Real sockets on
// 127.0.0.0/8, every wait bounded.
describe('ConnectionGate', () => {
  const caps = { maxConnections: 4, maxConnectionsPerIp: 2 };
  let server: Server;
  let gate: ConnectionGate;
  let port: number;
  let handled = 0;
  before(async () => {
    server = createServer((_request, response) => {
      handled += 1;
      response.setHeader('Connection', 'close');
      response.end('ok');
    });
    gate = new ConnectionGate(caps);
    gate.attach(server);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as AddressInfo).port;
  });
  after(() => new Promise<void>((resolve) => server.close(() => resolve())));

  const settle = async (done: () => boolean) => {
    const started = Date.now();
    while (!done() && Date.now() - started < 3000) await new Promise((resolve) => setTimeout(resolve, 10));
  };

  test('connections past a cap are closed without reaching the server and without being counted', async () => {
    const held: Socket[] = [];
    try {
      held.push(...(await Promise.all([1, 2].map(() => idleConnection(port, '127.0.0.2')))));
      await settle(() => gate.open === 2);
      assert.equal(gate.open, 2);
      // Ten more from the same address, each sending a request: none is handled or counted.
      const flood = await Promise.all(
        Array.from({ length: 10 }, () => idleConnection(port, '127.0.0.2').catch(() => undefined)),
      );
      for (const socket of flood) socket?.write('GET / HTTP/1.1\r\nHost: x\r\n\r\n');
      // The server closes every one of them at once (answered or not) ...
      await Promise.all(flood.flatMap((socket) => (socket ? [closedWithin(socket, 3000)] : [])));
      // ... and counts only the two it took on.
      assert.equal(gate.open, 2, 'refused connections are not counted');
      assert.equal(handled, 0, 'no refused request reached the server');
      // Another address fills the rest of the total; past it, 503 at once.
      held.push(...(await Promise.all([1, 2].map(() => idleConnection(port, '127.0.0.3')))));
      await settle(() => gate.open === 4);
      assert.equal(gate.open, 4);
      const full = await rawExchange(port, '', { localAddress: '127.0.0.4', timeoutMs: 2000 });
      assert.equal(full.status, 503);
      assert.equal(gate.open, 4);
      assert.equal(handled, 0);
      // Every refusal is counted once: the flood's answered (429) or, past the lingering
      // caps, unanswered; the last one answered 503.
      const { per_address: perAddress, total, unanswered } = gate.refused;
      assert.equal(perAddress + unanswered, 10);
      assert.ok(perAddress >= 1, 'the first of the flood is answered');
      assert.equal(total, 1);
    } finally {
      for (const socket of held) socket.destroy();
    }
    await settle(() => gate.open === 0 && gate.refusing === 0);
    assert.equal(gate.open, 0);
    assert.equal(gate.refusing, 0);
    const served = await rawExchange(port, 'GET / HTTP/1.1\r\nHost: x\r\n\r\n', { localAddress: '127.0.0.2' });
    assert.equal(served.status, 200);
    assert.equal(handled, 1);
  });
});
