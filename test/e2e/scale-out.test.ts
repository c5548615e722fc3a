// End to end, scaled out: two `quarry serve` child processes on one database and one Redis
// (a key prefix of this test's own), as behind a load balancer. A token got from one
// instance works on the other; 200 concurrent callers spread over both never get more than
// the protocol's 30 queries a minute through, per account on /v2 and per address on /v3
// and the auth path; a key revoked through one instance (signed in on the other: the web
// session is shared too) is refused by the other on the next request; an instance killed
// with SIGKILL loses nothing, and the other keeps answering.
//
// It runs on PostgreSQL (a database made for it, dropped after), and on one SQLite file both
// processes open (instances on one host).
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { rmSync } from 'node:fs';
import { dirname } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { AccountService } from '../../src/accounts/service.ts';
import { randomSecret } from '../../src/auth/secrets.ts';
import { openAccountBackends } from '../../src/backends.ts';
import { loadConfig } from '../../src/config.ts';
import { createTestPgDatabase, type TestPgDatabase } from '../fixtures/pg-db.ts';
import { testRedisPrefix, type TestRedisPrefix } from '../fixtures/redis.ts';
import { syntheticDatabase } from './records-db.ts';

const bin = new URL('../../bin/quarry.js', import.meta.url).pathname;
const QUERY = 'search publications return publications[id + title] limit 1';
/** The protocol's default: 30 query requests a minute (spec/protocol.md §5). */
const PER_MINUTE = 30;
const CALLERS = 200;

interface Instance {
  readonly url: string;
  readonly child: ChildProcess;
  readonly output: () => string;
}

/** Every child this file started, so the after hooks (and an abrupt exit) can kill them. */
const children = new Set<ChildProcess>();
process.once('exit', () => {
  for (const child of children) child.kill('SIGKILL');
});

/** Starts `quarry serve` on a free loopback port and waits until it is ready. */
function serve(database: string, env: Record<string, string>): Promise<Instance> {
  const child = spawn(process.execPath, [bin, 'serve', '--db', database, '--host', '127.0.0.1', '--port', '0'], {
    env: {
      ...process.env,
      QUARRY_LOG_LEVEL: 'warn',
      QUARRY_QUERY_WORKERS: '1',
      // As behind a load balancer on this host: the client address comes from
      // X-Forwarded-For, so each test below speaks from an address of its own.
      QUARRY_TRUST_PROXY: '127.0.0.1',
      // The balancer's connections all come from one address.
      QUARRY_HTTP_MAX_CONNECTIONS_PER_IP: '1000',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.add(child);
  child.once('exit', () => children.delete(child));
  let out = '';
  const collect = (chunk: Buffer) => (out += chunk.toString('utf8'));
  child.stdout.on('data', collect);
  child.stderr.on('data', collect);
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`serve did not start in 30 s:\n${out}`)), 30_000);
    const check = () => {
      const match = /Quarry is listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(out);
      if (!match) return;
      clearTimeout(timer);
      child.stdout.off('data', check);
      child.stderr.off('data', check);
      const instance = { url: match[1]!, child, output: () => out };
      ready(instance).then(() => resolve(instance), reject);
    };
    child.stdout.on('data', check);
    child.stderr.on('data', check);
    child.once('exit', (code, signal) => {
      clearTimeout(timer);
      reject(new Error(`serve exited (${code ?? signal}):\n${out}`));
    });
  });
}

async function ready(instance: Instance): Promise<void> {
  const deadline = Date.now() + 30_000;
  while (Date.now() < deadline) {
    if ((await fetch(`${instance.url}/readyz`).then((r) => r.status)) === 200) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`${instance.url} never became ready:\n${instance.output()}`);
}

/** SIGKILL, and wait for the exit. */
function kill(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  child.kill('SIGKILL');
  return exited;
}

/**
 * Waits, when needed, until a fixed one-minute window has at least 15 s left, so that a
 * burst lies inside one window and "30 a minute" means exactly 30.
 */
async function roomInWindow(): Promise<void> {
  const intoMinute = Date.now() % 60_000;
  if (intoMinute > 45_000) await new Promise((r) => setTimeout(r, 60_000 - intoMinute + 200));
}

interface Answer {
  readonly status: number;
  readonly code: string | undefined;
  readonly headers: Headers;
}

/** The client address a request claims through the (trusted) proxy header. */
let address = '198.51.100.1';

async function query(base: string, path: string, authorization: string): Promise<Answer> {
  const response = await fetch(base + path, {
    method: 'POST',
    headers: { authorization, 'content-type': 'text/plain', 'x-forwarded-for': address },
    body: QUERY,
  });
  const body = (await response.json()) as { errors?: { query?: { code?: string } } };
  return { status: response.status, code: body.errors?.query?.code, headers: response.headers };
}

async function opaqueToken(base: string, key: string): Promise<string> {
  const response = await fetch(`${base}/v3/token?api_key=${encodeURIComponent(key)}`, {
    headers: { 'x-forwarded-for': address },
  });
  const text = await response.text();
  assert.equal(response.status, 200, text);
  return text.trim(); // the token itself, as plain text
}

async function jwt(base: string, key: string): Promise<string> {
  const response = await fetch(`${base}/api/auth`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-forwarded-for': address },
    body: JSON.stringify({ key }),
  });
  assert.equal(response.status, 200, await response.clone().text());
  return ((await response.json()) as { token: string }).token;
}

/**
 * 200 callers at once, alternating between the instances, on one path and credential:
 * exactly 30 get through, every other answer is 429 with Retry-After.
 */
async function burst(instances: readonly Instance[], path: string, authorization: string): Promise<void> {
  await roomInWindow();
  const answers = await Promise.all(
    Array.from({ length: CALLERS }, (_, i) => query(instances[i % instances.length]!.url, path, authorization)),
  );
  const through = answers.filter((a) => a.status === 200);
  const refused = answers.filter((a) => a.status === 429);
  assert.equal(
    through.length + refused.length,
    CALLERS,
    `only 200 or 429: ${JSON.stringify(answers.filter((a) => a.status !== 200 && a.status !== 429).map((a) => [a.status, a.code]))}`,
  );
  assert.equal(through.length, PER_MINUTE, `${through.length} of ${CALLERS} got through in one minute`);
  for (const instance of instances)
    assert.ok(
      answers.some((a, i) => i % instances.length === instances.indexOf(instance) && a.status === 429),
      'both instances refuse once the shared budget is spent',
    );
  for (const answer of refused) {
    assert.equal(answer.code, 'SERVICE_RATE_LIMITED');
    assert.equal(answer.headers.get('ratelimit-limit'), String(PER_MINUTE));
    assert.equal(answer.headers.get('ratelimit-remaining'), '0');
    assert.ok(Number(answer.headers.get('retry-after')) >= 1);
  }
}

/** A browser's cookies, kept across both instances (as behind a balancer). */
class Browser {
  readonly #cookies = new Map<string, string>();
  csrf = '';

  async send(url: string, form?: Record<string, string>): Promise<{ status: number; text: string }> {
    const headers = new Headers({ 'x-forwarded-for': address });
    if (this.#cookies.size > 0) headers.set('cookie', [...this.#cookies].map(([k, v]) => `${k}=${v}`).join('; '));
    let body: URLSearchParams | null = null;
    if (form) {
      body = new URLSearchParams({ _csrf: this.csrf, ...form });
      headers.set('content-type', 'application/x-www-form-urlencoded');
    }
    const response = await fetch(url, { method: form ? 'POST' : 'GET', headers, body, redirect: 'manual' });
    for (const line of response.headers.getSetCookie()) {
      const [name, ...value] = (line.split(';')[0] ?? '').split('=');
      if (name) this.#cookies.set(name.trim(), value.join('='));
    }
    const text = await response.text();
    this.csrf = /name="_csrf" value="([^"]+)"/.exec(text)?.[1] ?? this.csrf;
    return { status: response.status, text };
  }
}

interface Setup {
  readonly database: string;
  /** What every instance's environment adds. */
  readonly env: Record<string, string>;
  readonly cleanUp: () => Promise<void>;
}

/**
 * A PostgreSQL database of this test's own (empty: serve makes its tables), and the
 * token-signing secret every instance is given, outside the database.
 */
async function postgresSetup(): Promise<Setup> {
  const db: TestPgDatabase = await createTestPgDatabase('scale_out');
  return { database: db.url, env: { QUARRY_JWT_SECRET: randomSecret(32) }, cleanUp: () => db.drop() };
}

/** A SQLite record database both processes open. */
function sqliteSetup(): Promise<Setup> {
  const database = syntheticDatabase(50);
  return Promise.resolve({
    database,
    env: {},
    cleanUp: () => Promise.resolve(rmSync(dirname(database), { recursive: true, force: true })),
  });
}

for (const [kind, setUp, offset] of [
  ['PostgreSQL', postgresSetup, 0],
  ['SQLite (one file, same host)', sqliteSetup, 100],
] as const) {
  describe(`two instances on ${kind} and one Redis`, { timeout: 240_000 }, () => {
    let setup: Setup | undefined;
    let space: TestRedisPrefix;
    let a: Instance;
    let b: Instance;
    const keys = new Map<'cross' | 'burst' | 'other', { key: string; id: number }>();
    const key = (name: 'cross' | 'burst' | 'other') => keys.get(name)!.key;
    const HOLDER = { email: 'holder@example.org', password: 'scale out password 1' };

    before(async () => {
      space = testRedisPrefix('scale_out');
      setup = await setUp();
      const env = { QUARRY_REDIS_URL: space.url, QUARRY_REDIS_KEY_PREFIX: space.prefix, ...setup.env };
      // The first instance applies the migrations (PostgreSQL) before the accounts are made.
      a = await serve(setup.database, env);
      const backends = await openAccountBackends(loadConfig({ overrides: { database: setup.database } }));
      const accounts = new AccountService({ store: backends.accountStore, sessions: backends.sessions });
      try {
        await accounts.createAccount({ email: HOLDER.email, password: HOLDER.password, activate: true });
        await accounts.createAccount({ email: 'burst@example.org', activate: true });
        await accounts.createAccount({ email: 'other@example.org', activate: true });
        for (const [name, email] of [
          ['cross', HOLDER.email],
          ['burst', 'burst@example.org'],
          ['other', 'other@example.org'],
        ] as const) {
          const made = await accounts.createKey(email, name);
          keys.set(name, { key: made.key, id: made.info.id });
        }
      } finally {
        await accounts.shutdown();
        await backends.close();
      }
      b = await serve(setup.database, env);
    });

    after(async () => {
      await Promise.all([...children].map((child) => kill(child)));
      await setup?.cleanUp();
      await space?.drop();
    });

    test('a token got from one instance works on the other', async () => {
      address = `198.51.100.${2 + offset}`;
      const token = await opaqueToken(a.url, key('cross'));
      assert.equal((await query(b.url, '/v2/api/query', `Bearer ${token}`)).status, 200);
      const signed = await jwt(b.url, key('cross'));
      assert.equal((await query(a.url, '/api/dsl/v2', `JWT ${signed}`)).status, 200);
    });

    test('200 concurrent callers over both: 30 a minute per account on /v2', async () => {
      address = `198.51.100.${3 + offset}`;
      const token = await opaqueToken(b.url, key('burst'));
      await burst([a, b], '/v2/api/query', `Bearer ${token}`);
    });

    test('200 concurrent callers over both: 30 a minute per address on /v3, whoever the account', async () => {
      address = `198.51.100.${4 + offset}`;
      const token = await opaqueToken(a.url, key('other'));
      const another = await opaqueToken(b.url, key('cross'));
      const minute = Math.floor(Date.now() / 60_000);
      await burst([a, b], '/v3/api/query', `Bearer ${token}`);
      // The address's budget is spent for another account's token too (within that minute).
      const answer = await query(a.url, '/v3/api/query', `Bearer ${another}`);
      if (Math.floor(Date.now() / 60_000) === minute) assert.equal(answer.status, 429);
    });

    test('200 concurrent callers over both: 30 a minute per address on the auth path', async () => {
      address = `198.51.100.${5 + offset}`;
      await burst([b, a], '/api/dsl/v2', `JWT ${await jwt(a.url, key('other'))}`);
    });

    test('a key revoked through one instance is refused by the other on the next request', async () => {
      address = `198.51.100.${6 + offset}`;
      const token = await opaqueToken(a.url, key('cross'));
      const signed = await jwt(a.url, key('cross'));
      assert.equal((await query(a.url, '/v2/api/query', `Bearer ${token}`)).status, 200);
      // Signed in on A; the session (in Redis) carries the revocation through B.
      const browser = new Browser();
      await browser.send(`${a.url}/`);
      const signIn = await browser.send(`${a.url}/sign-in`, { ...HOLDER, next: '/' });
      assert.equal(signIn.status, 303, signIn.text);
      const confirm = await browser.send(`${b.url}/keys/${keys.get('cross')!.id}/revoke`);
      assert.equal(confirm.status, 200, 'B knows the session made on A');
      const revoked = await browser.send(`${b.url}/keys/${keys.get('cross')!.id}/revoke`, {
        confirm: 'yes',
        back: '/',
      });
      assert.equal(revoked.status, 303, revoked.text);
      const refused = await query(a.url, '/v2/api/query', `Bearer ${token}`);
      assert.deepEqual([refused.status, refused.code], [403, 'SERVICE_TOKEN_REVOKED']);
      const refusedJwt = await query(a.url, '/api/dsl/v2', `JWT ${signed}`);
      assert.deepEqual([refusedJwt.status, refusedJwt.code], [403, 'SERVICE_TOKEN_REVOKED']);
      const newToken = await fetch(`${a.url}/v3/token?api_key=${encodeURIComponent(key('cross'))}`, {
        headers: { 'x-forwarded-for': address },
      });
      assert.equal(newToken.status, 401, 'no new token for the revoked key');
    });

    test('an instance killed with SIGKILL loses nothing; the other keeps answering', async () => {
      address = `198.51.100.${7 + offset}`;
      // Written through A just before it dies: a token row (opaque) and a JWT's row.
      await roomInWindow();
      const token = await opaqueToken(a.url, key('other'));
      const signed = await jwt(a.url, key('other'));
      const minute = Math.floor(Date.now() / 60_000);
      const viaA = await query(a.url, '/v2/api/query', `Bearer ${token}`);
      assert.equal(viaA.status, 200);
      await kill(a.child);
      await assert.rejects(fetch(`${a.url}/healthz`), 'A is gone');
      const onB = await query(b.url, '/v2/api/query', `Bearer ${token}`);
      assert.equal(onB.status, 200, 'the token A issued still works on B');
      // The account's budget goes on from where A left it (when still in the same minute).
      if (Math.floor(Date.now() / 60_000) === minute)
        assert.equal(
          Number(onB.headers.get('ratelimit-remaining')),
          Number(viaA.headers.get('ratelimit-remaining')) - 1,
        );
      assert.equal((await query(b.url, '/api/dsl/v2', `JWT ${signed}`)).status, 200, 'and the JWT A signed');
      assert.equal((await fetch(`${b.url}/readyz`)).status, 200);
      const stillRevoked = await fetch(`${b.url}/v3/token?api_key=${encodeURIComponent(key('cross'))}`, {
        headers: { 'x-forwarded-for': address },
      });
      assert.equal(stillRevoked.status, 401, 'the revocation survived');
    });
  });
}

test(
  'quarry serve refuses to start without its Redis: a coded message, no stack trace',
  { timeout: 30_000 },
  async () => {
    const database = syntheticDatabase(5);
    try {
      const child = spawn(process.execPath, [bin, 'serve', '--db', database, '--host', '127.0.0.1', '--port', '0'], {
        env: { ...process.env, QUARRY_REDIS_URL: 'redis://:hunter2@127.0.0.1:1/0' },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      children.add(child);
      let out = '';
      child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString('utf8')));
      child.stderr.on('data', (chunk: Buffer) => (out += chunk.toString('utf8')));
      const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
      children.delete(child);
      assert.equal(code, 5, out); // the exit code of an unavailable back end (docs/errors.md)
      assert.match(out, /SERVICE_BACKEND_UNREACHABLE/);
      assert.match(out, /The Redis server at redis:\/\/:\*\*\*@127\.0\.0\.1:1\/0 cannot be reached: .*ECONNREFUSED/);
      assert.doesNotMatch(out, /hunter2/);
      assert.doesNotMatch(out, /^\s+at /m, 'no stack trace');
      assert.doesNotMatch(out, /listening/);
    } finally {
      rmSync(dirname(database), { recursive: true, force: true });
    }
  },
);
