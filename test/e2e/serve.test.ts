// End to end: the real `quarry serve` as a child process, on a free loopback port, with the
// real SQLite engine, driven with plain fetch. (The administration commands have their own
// test in test/accounts/cli.test.ts; here the account is made through the service.)
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { after, before, describe, test } from 'node:test';
import { AccountService } from '../../src/accounts/service.ts';
import { openSqliteAccountStore } from '../../src/store/sqlite/account-store.ts';
import { syntheticDatabase } from './records-db.ts';

const bin = new URL('../../bin/quarry.js', import.meta.url).pathname;
/**
 * Four broad facets with medians under a filter that reads every record's author list from
 * its document: ~340 ms of CPU on 15k publications, well past the 120 ms limit of the strict
 * server. (The facets alone now take ~40 ms: too quick to be cancelled on a quiet machine.)
 */
const HEAVY =
  'search publications where authors != "zzqq" return researchers aggregate citations_total, citations_median limit 1000 ' +
  'return research_orgs aggregate citations_median limit 1000 return year aggregate citations_median return type aggregate citations_median';
/** Selective: a few ms. */
const LIGHT = 'search publications where year = 2010 return publications[id + title + year] limit 5';

interface Server {
  readonly url: string;
  readonly child: ChildProcess;
  readonly output: () => string;
  /** What the process wrote to stdout alone. */
  readonly stdout: () => string;
}

/** Every serve child this file started; the after hook ends those still running, however start-up went. */
const children = new Set<ChildProcess>();
process.once('exit', () => {
  for (const child of children) child.kill('SIGKILL');
});

/**
 * Starts `quarry serve --port 0` and waits for the line naming its URL. When it does not
 * start in time, the child is killed before the promise rejects.
 */
function serve(db: string, env: Record<string, string>): Promise<Server> {
  const child = spawn(process.execPath, [bin, 'serve', '--db', db, '--host', '127.0.0.1', '--port', '0'], {
    env: { ...process.env, QUARRY_LOG_LEVEL: 'warn', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.add(child);
  child.once('exit', () => children.delete(child));
  let out = '';
  let stdout = '';
  child.stdout.on('data', (chunk: Buffer) => {
    out += chunk.toString('utf8');
    stdout += chunk.toString('utf8');
  });
  child.stderr.on('data', (chunk: Buffer) => (out += chunk.toString('utf8')));
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`serve did not start:\n${out}`));
    }, 20_000);
    const check = () => {
      const match = /Quarry is listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(out);
      if (match) {
        clearTimeout(timer);
        child.stderr.off('data', check);
        const server = { url: match[1]!, child, output: () => out, stdout: () => stdout };
        resolve(
          warmUp(server).catch((error: unknown) => {
            child.kill('SIGKILL');
            throw error;
          }),
        );
      }
    };
    child.stderr.on('data', check);
    child.once('exit', (code) => reject(new Error(`serve exited with ${code}:\n${out}`)));
  });
}

/**
 * Waits until the engine's workers have started (their start-up would otherwise count
 * against the short query time limit of the first queries).
 */
async function warmUp(server: Server): Promise<Server> {
  const deadline = Date.now() + 20_000;
  while (Date.now() < deadline) {
    if ((await fetch(`${server.url}/readyz`)).status === 200) break;
    await new Promise((r) => setTimeout(r, 100));
  }
  await Promise.all([fetch(`${server.url}/readyz`), fetch(`${server.url}/readyz`)]);
  await new Promise((r) => setTimeout(r, 1000));
  return server;
}

function stop(server: Server): Promise<number | null> {
  return new Promise((resolve) => {
    if (server.child.exitCode !== null) return resolve(server.child.exitCode);
    server.child.once('exit', (code) => resolve(code));
    server.child.kill('SIGTERM');
  });
}

function assertProtocolShape(body: Record<string, unknown>): void {
  const metadata = new Set(['_stats', '_warnings', '_notes', '_version', '_copyright']);
  for (const [key, value] of Object.entries(body))
    if (!metadata.has(key)) assert.ok(Array.isArray(value), `${key} must be an array`);
}

describe('quarry serve, end to end', { timeout: 120_000 }, () => {
  let db: string;
  let key: string;
  let server: Server;
  /** A second server with a short time limit, for the cancellation test. */
  let strict: Server;

  before(async () => {
    db = syntheticDatabase(15_000);
    const store = openSqliteAccountStore(db);
    const accounts = new AccountService({ store });
    await accounts.createAccount({ email: 'e2e@example.org', activate: true });
    key = (await accounts.createKey('e2e@example.org', 'e2e')).key;
    await accounts.shutdown();
    await store.close();
    // (A cancelled query's worker is replaced, and the replacement's start-up counts against
    // the limit of the query it takes next, so only the strict server gets the short limit.)
    [server, strict] = await Promise.all([
      serve(db, { QUARRY_QUERY_TIMEOUT_MS: '20000', QUARRY_QUERY_WORKERS: '1', QUARRY_RATE_LIMITS: 'off' }),
      serve(db, {
        QUARRY_QUERY_TIMEOUT_MS: '120',
        QUARRY_QUERY_WORKERS: '2',
        QUARRY_RATE_LIMITS: 'off',
        QUARRY_WEB: 'off',
        QUARRY_LOG_LEVEL: 'info',
      }),
    ]);
  });
  after(async () => {
    await Promise.all([server, strict].filter(Boolean).map((s) => stop(s)));
    // A server whose start-up failed (or that a test left running) must not outlive the file.
    for (const child of children) child.kill('SIGKILL');
  });

  test('token-path: GET /v3/token then POST /v3/api/query and /v2/api/query with Bearer', async () => {
    const tokenRes = await fetch(`${server.url}/v3/token?api_key=${encodeURIComponent(key)}`);
    assert.equal(tokenRes.status, 200);
    assert.match(tokenRes.headers.get('content-type') ?? '', /^text\/plain/);
    const token = await tokenRes.text();
    for (const version of ['v2', 'v3']) {
      const res = await fetch(`${server.url}/${version}/api/query`, {
        method: 'POST',
        headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'text/plain' },
        body: LIGHT,
      });
      assert.equal(res.status, 200);
      assert.ok(res.headers.get('server-timing'));
      assert.ok(res.headers.get('x-request-id'));
      const body = (await res.json()) as { publications: Array<{ year: number }>; _stats: { total_count: number } };
      assertProtocolShape(body);
      assert.equal(body.publications.length, 5);
      assert.ok(body.publications.every((p) => p.year === 2010));
      assert.ok(body._stats.total_count >= 5);
    }
  });

  test('auth-path: POST /api/auth with empty-string fields, then /api/dsl/v2 (no content type) and /api/dsl.json (form content type)', async () => {
    const login = await fetch(`${server.url}/api/auth`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ username: '', password: '', key }),
    });
    assert.equal(login.status, 200);
    const { token } = (await login.json()) as { token: string };
    assert.equal(token.split('.').length, 3);
    const raw = await fetch(`${server.url}/api/dsl/v2`, {
      method: 'POST',
      headers: { Authorization: `JWT ${token}` },
      body: new TextEncoder().encode(LIGHT),
    });
    assert.equal(raw.status, 200);
    assertProtocolShape((await raw.json()) as Record<string, unknown>);
    const form = await fetch(`${server.url}/api/dsl.json`, {
      method: 'POST',
      headers: { Authorization: `JWT ${token}`, 'Content-Type': 'application/x-www-form-urlencoded' },
      body: LIGHT,
    });
    assert.equal(form.status, 200);
    const described = await fetch(`${server.url}/api/dsl/v2`, {
      method: 'POST',
      headers: { Authorization: `JWT ${token}` },
      body: 'describe version',
    });
    assert.equal(((await described.json()) as { release: string }).release.split('.')[0], '2');
  });

  test('query errors: syntax and semantic 400s with code, line and column', async () => {
    const token = await (await fetch(`${server.url}/v3/token?api_key=${encodeURIComponent(key)}`)).text();
    const ask = (q: string) =>
      fetch(`${server.url}/v3/api/query`, { method: 'POST', headers: { Authorization: `Bearer ${token}` }, body: q });
    const syntax = await ask('search publications where year = 2010 return publications limit');
    assert.equal(syntax.status, 400);
    const s = (await syntax.json()) as {
      errors: { query: { header: string; details: string[]; code: string; line: number; column: number } };
    };
    assert.match(s.errors.query.code, /^DSL_/);
    assert.equal(s.errors.query.line, 1);
    assert.equal(typeof s.errors.query.column, 'number');
    const semantic = await ask('search publications return publications[titel]');
    assert.equal(semantic.status, 400);
    const m = (await semantic.json()) as { errors: { query: { details: string[]; code: string } } };
    assert.ok(m.errors.query.details.length > 0);
    assert.ok(!m.errors.query.code.startsWith('SERVICE_'));
  });

  test('per-query limits of spec §5 with the real engine: limit default 20 and at most 1000, paging depth at most 50,000', async () => {
    const token = await (await fetch(`${server.url}/v3/token?api_key=${encodeURIComponent(key)}`)).text();
    const ask = (q: string) =>
      fetch(`${server.url}/v3/api/query`, { method: 'POST', headers: { Authorization: `Bearer ${token}` }, body: q });
    const byDefault = (await (await ask('search publications return publications[id]')).json()) as {
      publications: unknown[];
    };
    assert.equal(byDefault.publications.length, 20);
    const most = (await (await ask('search publications return publications[id] limit 1000')).json()) as {
      publications: unknown[];
    };
    assert.equal(most.publications.length, 1000);
    for (const q of [
      'search publications return publications[id] limit 1001',
      'search publications return publications[id] limit 1000 skip 49001',
    ]) {
      const res = await ask(q);
      assert.equal(res.status, 400, q);
      const body = (await res.json()) as { errors: { query: { code: string } } };
      assert.match(body.errors.query.code, /^SCHEMA_/);
    }
  });

  test('a bad key is 401, a garbage token 403', async () => {
    assert.equal((await fetch(`${server.url}/v3/token?api_key=qry_nope`)).status, 401);
    assert.equal(
      (
        await fetch(`${server.url}/api/dsl/v2`, {
          method: 'POST',
          headers: { Authorization: 'JWT a.b.c' },
          body: LIGHT,
        })
      ).status,
      403,
    );
  });

  test('a query past the time limit is cancelled (504) while other requests keep being answered', async () => {
    {
      const token = await (await fetch(`${strict.url}/v3/token?api_key=${encodeURIComponent(key)}`)).text();
      const ask = (q: string) =>
        fetch(`${strict.url}/v3/api/query`, { method: 'POST', headers: { Authorization: `Bearer ${token}` }, body: q });
      const started = performance.now();
      const heavy = ask(HEAVY).then(async (res) => ({
        status: res.status,
        body: (await res.json()) as { errors: { query: { code: string; details: string[] } } },
        at: performance.now() - started,
      }));
      const light: Array<{ status: number; at: number }> = [];
      for (let i = 0; i < 5; i++) {
        const res = await ask(LIGHT);
        light.push({ status: res.status, at: performance.now() - started });
        await res.arrayBuffer();
      }
      const h = await heavy;
      assert.equal(h.status, 504, JSON.stringify(h.body));
      assert.equal(h.body.errors.query.code, 'ENGINE_TIMEOUT');
      assert.ok(
        light.every((l) => l.status === 200),
        JSON.stringify(light),
      );
      assert.ok(light[0]!.at < h.at, 'a light query was answered while the heavy one was still running');
      assert.equal((await fetch(`${strict.url}/readyz`)).status, 200, 'the service goes on after the cancellation');
      const metrics = await (await fetch(`${strict.url}/metrics`)).text();
      assert.match(metrics, /quarry_http_requests_total\{route="\/v3\/api\/query",method="POST",status="504"\} 1/);
      assert.match(
        metrics,
        /quarry_query_duration_seconds_count\{family="token",source="unknown",result="unknown",cost="unknown",outcome="timeout"\} 1/,
      );
    }
  });

  test('operations: /healthz, /metrics, /docs; the web pages are served at / unless switched off', async () => {
    assert.equal((await fetch(`${server.url}/healthz`)).status, 200);
    const home = await fetch(`${server.url}/`);
    assert.equal(home.status, 200);
    assert.match(home.headers.get('content-type') ?? '', /^text\/html/);
    assert.equal((await fetch(`${strict.url}/`)).status, 404);
    const metrics = await (await fetch(`${server.url}/metrics`)).text();
    assert.match(metrics, /quarry_http_requests_total\{route="\/v3\/api\/query",method="POST",status="200"\} \d+/);
    assert.match(metrics, /quarry_engine_queue_length \d+/);
    assert.equal((await fetch(`${server.url}/docs/json`)).status, 200);
  });

  test('graceful shutdown: SIGTERM lets an in-flight query finish, then the process exits 0', async () => {
    const token = await (await fetch(`${server.url}/v3/token?api_key=${encodeURIComponent(key)}`)).text();
    const inFlight = fetch(`${server.url}/v3/api/query`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${token}` },
      body: HEAVY,
    });
    await new Promise((r) => setTimeout(r, 40));
    const exited = stop(server);
    const res = await inFlight;
    assert.equal(res.status, 200, server.output());
    const body = (await res.json()) as { researchers: unknown[] };
    assert.ok(body.researchers.length > 0);
    assert.equal(await exited, 0, server.output());
  });

  test('stdout carries JSON log lines only; the banner goes to stderr', async () => {
    assert.equal((await fetch(`${strict.url}/healthz`)).status, 200);
    await new Promise((r) => setTimeout(r, 200));
    const lines = strict
      .stdout()
      .split('\n')
      .filter((line) => line.trim() !== '');
    assert.ok(lines.length > 0, 'the service logged at info level');
    for (const line of lines) {
      const entry = JSON.parse(line) as { level?: unknown; msg?: unknown };
      assert.equal(typeof entry.level, 'number', line);
    }
    assert.doesNotMatch(strict.stdout(), /Quarry is listening/);
    assert.match(strict.output(), /Quarry is listening on http:\/\/127\.0\.0\.1:\d+/);
  });
});
