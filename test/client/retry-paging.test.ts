// The client's retry, backoff, re-login and paging logic, driven through a PROTOCOL DOUBLE
// (test/client/protocol-double.ts: a scripted node:http server on 127.0.0.1, not Quarry).
// Waits go through an injected sleep that records the delay and returns at once, so the
// arithmetic is checked without waiting. The same behaviours against the real server are in
// real-server.test.ts.
import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, test } from 'node:test';
import { connect, type ClientEvent, type ConnectOptions } from '../../src/client/index.ts';
import { QuarryClientError } from '../../src/client/errors.ts';
import { formatWithCaret } from '../../src/errors/index.ts';
import { GOOD_KEY, startProtocolDouble, type ProtocolDouble } from './protocol-double.ts';

const PAGED = 'search publications return publications[id]';

let double: ProtocolDouble;
before(async () => {
  double = await startProtocolDouble();
});
after(() => double.close());
beforeEach(() => {
  double.log.length = 0;
  double.script.length = 0;
  double.records = 0;
  double.refuseAllTokens = false;
  double.accountRefusal = undefined;
  double.tokenUses = 0;
  double.expireTokens();
});

function client(options: ConnectOptions = {}) {
  const sleeps: number[] = [];
  const events: ClientEvent[] = [];
  const c = connect(
    { url: double.url, key: GOOD_KEY },
    {
      family: 'auth',
      sleep: (ms, signal) => {
        sleeps.push(ms);
        signal?.throwIfAborted();
        return Promise.resolve();
      },
      random: () => 0.5,
      onEvent: (e) => events.push(e),
      ...options,
    },
  );
  return { c, sleeps, events };
}

const queries = () => double.log.filter((r) => r.path.startsWith('/api/dsl') || r.path.endsWith('/api/query'));
const logins = () => double.log.filter((r) => r.path === '/api/auth' || r.path.endsWith('/token'));

async function rejection(promise: Promise<unknown>): Promise<QuarryClientError> {
  try {
    await promise;
  } catch (error) {
    assert.ok(error instanceof QuarryClientError, `expected a QuarryClientError, got ${String(error)}`);
    return error;
  }
  assert.fail('expected a rejection');
}

describe('paging', () => {
  test('appends limit/skip page by page and stops exactly at total_count', async () => {
    double.records = 2345;
    const { c } = client();
    const stream = c.iterate(PAGED);
    const ids: string[] = [];
    for await (const record of stream) ids.push(record.id as string);
    assert.deepEqual(
      queries().map((q) => q.body),
      [`${PAGED} limit 1000 skip 0`, `${PAGED} limit 1000 skip 1000`, `${PAGED} limit 1000 skip 2000`],
    );
    assert.equal(ids.length, 2345);
    assert.equal(new Set(ids).size, 2345);
    assert.equal(ids.at(-1), 'pub.002345');
    assert.equal(stream.summary.stoppedBy, 'total');
    assert.equal(stream.summary.total, 2345);
  });

  test('an exact multiple of the page size asks no empty page; a trailing ";" and blanks are dropped', async () => {
    double.records = 2000;
    const { c } = client();
    const all = await c.all(`${PAGED} ;\n`, { pageSize: 500 });
    assert.equal(all.length, 2000);
    assert.equal(queries().length, 4);
    assert.equal(queries().at(-1)?.body, `${PAGED} limit 500 skip 1500`);
  });

  test('maxRecords shortens the last page', async () => {
    double.records = 5000;
    const { c } = client();
    const stream = c.iterate(PAGED, { maxRecords: 1500 });
    let n = 0;
    for await (const _ of stream) n++;
    assert.equal(n, 1500);
    assert.deepEqual(
      queries().map((q) => q.body.slice(PAGED.length)),
      [' limit 1000 skip 0', ' limit 500 skip 1000'],
    );
    assert.equal(stream.summary.stoppedBy, 'max_records');
  });

  test('the depth limit: never asks past skip + limit = 50,000, delivers 50,000 records, then says so', async () => {
    double.records = 60_000;
    const { c } = client();
    const stream = c.iterate(PAGED, { pageSize: 700 });
    let n = 0;
    const error = await rejection(
      (async () => {
        for await (const _ of stream) n++;
      })(),
    );
    assert.equal(error.code, 'CLIENT_DEPTH_LIMIT_REACHED');
    assert.equal(error.category, 'budget');
    assert.match(error.message, /50000 of 60000/);
    assert.equal(n, 50_000);
    const last = queries().at(-1)?.body ?? '';
    assert.match(last, /limit 300 skip 49700$/);
    for (const q of queries()) {
      const [, limit, skip] = /limit (\d+) skip (\d+)$/.exec(q.body) ?? [];
      assert.ok(Number(limit) + Number(skip) <= 50_000);
    }
  });

  test('onDepthLimit "stop" ends quietly and the summary says why', async () => {
    double.records = 51_000;
    const { c } = client();
    const stream = c.iterate(PAGED, { onDepthLimit: 'stop' });
    let n = 0;
    for await (const _ of stream) n++;
    assert.equal(n, 50_000);
    assert.equal(stream.summary.stoppedBy, 'depth_limit');
    assert.match(stream.summary.warnings.join(' '), /depth limit/);
  });

  test('startAt continues from an offset', async () => {
    double.records = 1200;
    const { c } = client();
    const all = await c.all(PAGED, { startAt: 1000 });
    assert.equal(all.length, 200);
    assert.equal((all[0] as { id: string }).id, 'pub.001001');
  });

  test('queries that cannot be paged are refused before anything is sent', () => {
    const { c } = client();
    for (const text of [
      'describe schema',
      'search publications return year',
      'search publications return publications limit 5',
      'search publications return publications return year',
    ]) {
      assert.throws(
        () => c.iterate(text),
        (e: QuarryClientError) => e.code === 'CLIENT_NOT_PAGEABLE',
      );
    }
    assert.throws(
      () => c.iterate(PAGED, { pageSize: 1001 }),
      (e: QuarryClientError) => e.code === 'CLIENT_OPTION_INVALID',
    );
    assert.equal(double.log.length, 0);
  });
});

describe('token expiry', () => {
  test('a 403 for the token logs in once again and retries; nothing is lost or repeated', async () => {
    double.records = 3000;
    double.tokenUses = 1;
    const { c, events } = client();
    const ids = (await c.all(PAGED)).map((r) => r.id);
    assert.equal(new Set(ids).size, 3000);
    assert.equal(logins().length, 3);
    assert.equal(events.filter((e) => e.kind === 'relogin').length, 2);
    assert.deepEqual(
      queries().map((q) => q.status),
      [200, 403, 200, 403, 200],
    );
  });

  test('a second refusal right after logging in is an error', async () => {
    double.refuseAllTokens = true;
    const { c } = client();
    const error = await rejection(c.query('describe version'));
    assert.equal(error.code, 'CLIENT_TOKEN_REFUSED_AFTER_LOGIN');
    assert.equal(error.category, 'token');
    assert.equal(error.status, 403);
    assert.equal(error.server?.code, 'SERVICE_TOKEN_EXPIRED');
    assert.equal(logins().length, 2);
    assert.equal(queries().length, 2);
  });

  test('a new token that expired while waiting out a 429 gets one more login; the bound holds', async () => {
    double.records = 5;
    double.tokenUses = 1;
    const { c: first } = client();
    await first.query('describe version');
    // The next query: 403 (token used up), login, 429 during which the new token expires,
    // 403 again (after a wait, so not "refused at first use"), login, success.
    double.script.push({ status: 429, headers: { 'Retry-After': '1' }, body: '{}', thenExpire: true });
    double.log.length = 0;
    assert.equal((await first.all(PAGED)).length, 5);
    assert.equal(logins().length, 2);
    assert.deepEqual(
      queries().map((q) => q.status),
      [403, 429, 403, 200],
    );

    // Every new token expiring during its wait: at most three logins, then an error.
    double.log.length = 0;
    double.tokenUses = 0;
    for (let i = 0; i < 10; i++)
      double.script.push({ status: 429, headers: { 'Retry-After': '1' }, body: '{}', thenExpire: true });
    const error = await rejection(first.query('describe version'));
    assert.equal(error.code, 'CLIENT_TOKEN_REFUSED_AFTER_LOGIN');
    assert.equal(logins().length, 3);
  });

  test('a 403 about the account (not the token) does not log in again', async () => {
    double.accountRefusal = 'SERVICE_ACCOUNT_SUSPENDED';
    const { c } = client();
    const error = await rejection(c.query('describe version'));
    assert.equal(error.code, 'SERVICE_ACCOUNT_SUSPENDED');
    assert.equal(error.category, 'permission');
    assert.equal(logins().length, 1);
  });

  test('a bad key is an authentication error that does not repeat the key', async () => {
    const c = connect({ url: double.url, key: 'wrong-key-secret' }, { family: 'token' });
    const error = await rejection(c.query('describe version'));
    assert.equal(error.code, 'SERVICE_CREDENTIALS_INVALID');
    assert.equal(error.category, 'authentication');
    assert.equal(error.status, 401);
    assert.doesNotMatch(error.message, /wrong-key-secret/);
  });

  test('the token family: GET /v3/token, then Bearer on /v3/api/query; no username/password', async () => {
    double.records = 3;
    const c = connect({ url: double.url, key: GOOD_KEY }, { family: 'token' });
    assert.equal((await c.all(PAGED)).length, 3);
    assert.equal(logins()[0]?.path, '/v3/token');
    assert.match(queries()[0]?.authorization ?? '', /^Bearer tok-\d+$/);
    assert.throws(
      () => connect({ url: double.url, username: 'u', password: 'p' }, { family: 'token' }),
      (e: QuarryClientError) => e.code === 'CLIENT_CREDENTIALS_UNSUPPORTED',
    );
  });
});

describe('429 and passing failures', () => {
  test('429 waits for Retry-After, then retries', async () => {
    double.records = 10;
    double.script.push(
      { status: 429, headers: { 'Retry-After': '2' }, body: '{}' },
      { status: 429, headers: { 'Retry-After': '1' }, body: '{}' },
    );
    const { c, sleeps, events } = client();
    assert.equal((await c.all(PAGED)).length, 10);
    // Retry-After plus at most 100 ms of jitter (0.5 here).
    assert.deepEqual(sleeps, [2050, 1050]);
    assert.equal(events.filter((e) => e.kind === 'rate_limited').length, 2);
  });

  test('429 without Retry-After backs off, until the configured total is spent', async () => {
    for (let i = 0; i < 20; i++) double.script.push({ status: 429, body: '{}' });
    const { c, sleeps } = client({ retry: { baseDelayMs: 1000, maxDelayMs: 8000, rateLimitBudgetMs: 20_000 } });
    const error = await rejection(c.query('describe version'));
    assert.equal(error.code, 'CLIENT_RATE_LIMIT_BUDGET_EXHAUSTED');
    assert.equal(error.category, 'rate_limit');
    // Equal jitter with random 0.5: 3/4 of 1 s, 2 s, 4 s, 8 s, 8 s ...
    assert.deepEqual(sleeps, [750, 1500, 3000, 6000, 6000]);
    assert.ok(sleeps.reduce((a, b) => a + b, 0) <= 20_000);
  });

  test('a burst of 5xx is retried with growing, jittered waits', async () => {
    double.script.push(
      { status: 503, body: 'busy' },
      { status: 502, body: '<html>bad gateway</html>' },
      { status: 500, body: '{}' },
    );
    const { c, sleeps, events } = client({ retry: { baseDelayMs: 100 }, random: () => 1 });
    assert.deepEqual(await c.query('describe version'), { release: '2.0', version: '2.0.0' });
    assert.deepEqual(sleeps, [100, 200, 400]);
    assert.deepEqual(
      events.filter((e) => e.kind === 'retry').map((e) => (e as { cause: string }).cause),
      ['HTTP 503', 'HTTP 502', 'HTTP 500'],
    );
  });

  test('retries are bounded: after maxRetries the 5xx is an error', async () => {
    for (let i = 0; i < 10; i++) double.script.push({ status: 503, body: 'busy' });
    const { c } = client({ retry: { maxRetries: 2 } });
    const error = await rejection(c.query('describe version'));
    assert.equal(error.code, 'CLIENT_SERVER_UNAVAILABLE');
    assert.equal(error.category, 'unavailable');
    assert.equal(queries().length, 3);
  });

  test('a query that timed out on the server is not sent again', async () => {
    double.script.push({
      status: 504,
      body: JSON.stringify({
        errors: {
          query: { header: 'Query Timeout', details: ['The query took longer than 30000 ms.'], code: 'ENGINE_TIMEOUT' },
        },
      }),
    });
    const { c } = client();
    const error = await rejection(c.query('describe version'));
    assert.equal(error.code, 'ENGINE_TIMEOUT');
    assert.equal(queries().length, 1);
  });

  test('a dropped connection is retried', async () => {
    double.script.push('reset', 'reset');
    const { c, events } = client();
    assert.deepEqual(await c.query('describe version'), { release: '2.0', version: '2.0.0' });
    assert.equal(events.filter((e) => e.kind === 'retry').length, 2);
  });

  test('a service that cannot be reached is a network error after the bounded retries', async () => {
    const closed = await startProtocolDouble();
    const url = closed.url;
    await closed.close();
    const attempts: number[] = [];
    const c = connect(
      { url, key: GOOD_KEY },
      {
        retry: { maxRetries: 3 },
        sleep: () => Promise.resolve(),
        onEvent: (e) => e.kind === 'retry' && attempts.push(e.attempt),
      },
    );
    const error = await rejection(c.query('describe version'));
    assert.equal(error.code, 'CLIENT_NETWORK_FAILED');
    assert.equal(error.category, 'unavailable');
    assert.match(error.message, /after 4 attempts: ECONNREFUSED/);
    assert.deepEqual(attempts, [1, 2, 3]);
  });

  test('an abort stops a wait at once', async () => {
    double.script.push({ status: 429, headers: { 'Retry-After': '30' }, body: '{}' });
    const c = connect({ url: double.url, key: GOOD_KEY });
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 50);
    const started = Date.now();
    await assert.rejects(c.query('describe version', { signal: controller.signal }), { name: 'AbortError' });
    assert.ok(Date.now() - started < 5000);
  });
});

describe('query errors', () => {
  test('a typed error with code, line, column and the server text; the caret lands on the field', async () => {
    const text = 'search publications return publications[titel]';
    const { c } = client();
    const error = await rejection(c.query(text));
    assert.equal(error.code, 'SCHEMA_UNKNOWN_FIELD');
    assert.equal(error.category, 'semantic');
    assert.equal(error.status, 400);
    assert.equal(error.line, 1);
    assert.equal(error.column, 41);
    assert.equal(error.header, '1 QueryError found');
    assert.match(error.details[0] ?? '', /Did you mean 'title'\?/);
    const shown = formatWithCaret(text, error.first);
    assert.match(shown, /\n {2}1 \| search publications return publications\[titel\]\n {4}\| {41}\^{5}$/);
    // A service that echoes nothing (header and details only): positions count in the text sent.
    assert.equal(error.server?.query, undefined);
    assert.equal(error.server?.message, undefined);
    assert.equal(error.query, text);
  });

  test('a refusal with an unknown code, line, column and an echo points into the echoed query', async () => {
    const echoed = 'search publications\n  return publications[id + wrong_field]';
    double.script.push({
      status: 400,
      body: JSON.stringify({
        errors: {
          query: {
            header: '1 QueryError found',
            details: ["Field 'wrong_field' is not known. (line 2, column 28)"],
            code: 'NEWER_SERVICE_CODE',
            line: 2,
            column: 28,
            query: echoed,
          },
        },
        error: { message: "Field 'wrong_field' is not known. (line 2, column 28)" },
      }),
    });
    const { c } = client();
    const error = await rejection(c.query('search publications return publications[id + wrong_field]'));
    assert.equal(error.code, 'CLIENT_QUERY_REJECTED');
    assert.equal(error.query, echoed);
    assert.deepEqual(error.first.position, { line: 2, column: 28 });
    assert.match(
      formatWithCaret(error.query ?? '', error.first),
      /\n {2}2 \| {3}return publications\[id \+ wrong_field\]\n {4}\| {28}\^{11}$/,
    );
  });

  test('a body with only error.message still gives the reason', async () => {
    double.script.push({ status: 400, body: JSON.stringify({ error: { message: 'Unknown source: pubs.' } }) });
    const { c } = client();
    const error = await rejection(c.query('search pubs return pubs'));
    assert.equal(error.code, 'CLIENT_QUERY_REJECTED');
    assert.deepEqual(error.details, ['Unknown source: pubs.']);
    assert.match(error.message, /Unknown source: pubs\./);
    assert.equal(error.query, 'search pubs return pubs');
  });

  test('a refusal with a code Quarry does not know keeps the server text under a client code', async () => {
    double.script.push({
      status: 400,
      body: JSON.stringify({
        errors: { query: { header: 'Semantic Error', details: ['Something odd.'], code: 'OTHER_SERVICE_CODE' } },
      }),
    });
    const { c } = client();
    const error = await rejection(c.query('describe version'));
    assert.equal(error.code, 'CLIENT_QUERY_REJECTED');
    assert.equal(error.server?.code, 'OTHER_SERVICE_CODE');
    assert.match(error.message, /Something odd\./);
  });

  test('an answer that is not the protocol is a clear error', async () => {
    double.script.push({ status: 200, headers: { 'Content-Type': 'text/html' }, body: '<html>login portal</html>' });
    const { c } = client();
    const error = await rejection(c.query('describe version'));
    assert.equal(error.code, 'CLIENT_BAD_RESPONSE');
  });
});
