import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer, type AddressInfo, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { isQuarryError } from '../../src/errors/index.ts';
import { assertAddressFree } from '../../src/http/listen-address.ts';

// A port another program holds: `quarry serve` says so at once, names the settings that
// change it, and does no slow work (the demo dataset) first.
const BIN = fileURLToPath(new URL('../../bin/quarry.js', import.meta.url));
const dir = mkdtempSync(join(tmpdir(), 'quarry-serve-port-'));
let holder: Server;
let port: number;

before(async () => {
  holder = createServer();
  await new Promise<void>((resolve) => holder.listen({ host: '127.0.0.1', port: 0 }, resolve));
  port = (holder.address() as AddressInfo).port;
});

after(async () => {
  await new Promise<void>((resolve) => holder.close(() => resolve()));
  rmSync(dir, { recursive: true, force: true });
});

function serve(...args: string[]): Promise<{ status: number | null; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, 'serve', ...args], { stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    const timer = setTimeout(() => child.kill('SIGKILL'), 30_000);
    child.on('error', reject);
    child.on('close', (status) => {
      clearTimeout(timer);
      resolve({ status, stderr });
    });
  });
}

describe('a port in use', () => {
  test('assertAddressFree rejects with SERVICE_ADDRESS_IN_USE naming the address', async () => {
    await assert.rejects(assertAddressFree('127.0.0.1', port), (error: unknown) => {
      assert.ok(isQuarryError(error));
      assert.equal(error.code, 'SERVICE_ADDRESS_IN_USE');
      assert.match(error.message, new RegExp(`127\\.0\\.0\\.1:${port}`));
      return true;
    });
  });

  test('assertAddressFree resolves for a free port and leaves it free', async () => {
    const probe = createServer();
    await new Promise<void>((resolve) => probe.listen({ host: '127.0.0.1', port: 0 }, resolve));
    const free = (probe.address() as AddressInfo).port;
    await new Promise<void>((resolve) => probe.close(() => resolve()));
    await assertAddressFree('127.0.0.1', free);
    await assertAddressFree('127.0.0.1', free); // the check itself released it
  });

  test('quarry serve --demo on a busy port fails at once, names --port and QUARRY_PORT, makes no demo', async () => {
    const db = join(dir, 'demo.db');
    const r = await serve('--demo', '--db', db, '--host', '127.0.0.1', '--port', String(port));
    assert.notEqual(r.status, 0);
    assert.match(r.stderr, new RegExp(`127\\.0\\.0\\.1:${port}`));
    assert.match(r.stderr, /--port/);
    assert.match(r.stderr, /QUARRY_PORT/);
    assert.doesNotMatch(r.stderr, /EADDRINUSE|at .*\.ts:\d+/);
    assert.equal(existsSync(db), false, 'no demo dataset was generated');
  });
});
