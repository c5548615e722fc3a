// The client library against the REAL Quarry service on 127.0.0.1 (see real-server.ts):
// a 3-second token lifetime and 3 query requests per second, so a 5,000-record export runs
// into both token expiry and 429s; the ids it gets are compared with a direct read of the
// database.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { connect, type ClientEvent } from '../../src/client/index.ts';
import { QuarryClientError } from '../../src/client/errors.ts';
import { formatWithCaret } from '../../src/errors/index.ts';
import { publicationIdsInDatabase, recordDatabase, startRealServer, type RealServer } from './real-server.ts';

describe('client against the real service (short token lifetime, low rate limit)', { timeout: 60_000 }, () => {
  let server: RealServer;
  let expected: string[];

  before(async () => {
    const db = await recordDatabase(5000);
    expected = publicationIdsInDatabase(db).sort();
    server = await startRealServer(db, { tokenLifetimeSeconds: 3, queriesPerWindow: 3, windowSeconds: 1 });
  });
  after(() => server?.close());

  const pageSize = 250;
  for (const family of ['auth', 'token'] as const) {
    test(`${family} family, pages of ${pageSize}: 5,000 records through expiry and 429s, none lost, none twice`, async () => {
      const events: ClientEvent[] = [];
      const client = connect(
        { url: server.url, key: server.key },
        { family, dslVersion: 2, onEvent: (e) => events.push(e) },
      );
      const stream = client.iterate('search publications return publications[id + year]', { pageSize });
      const ids: string[] = [];
      for await (const pub of stream) {
        assert.equal(typeof pub.year, 'number');
        ids.push(pub.id as string);
      }
      assert.equal(ids.length, 5000);
      assert.equal(new Set(ids).size, 5000, 'no record twice');
      assert.deepEqual([...ids].sort(), expected, 'exactly the records in the database');
      assert.equal(stream.summary.total, 5000);
      assert.equal(stream.summary.stoppedBy, 'total');
      // The run really went through both: the service refused expired tokens and said 429.
      assert.ok(
        events.some((e) => e.kind === 'relogin'),
        'at least one token expired on the way',
      );
      assert.ok(
        events.some((e) => e.kind === 'rate_limited' && e.retryAfter),
        'at least one 429 with Retry-After',
      );
      assert.equal(events.filter((e) => e.kind === 'page').length, 5000 / pageSize);
    });
  }

  test('a query error from the real schema: code, line, column, server text, caret', async () => {
    const client = connect({ url: server.url, key: server.key }, { family: 'auth' });
    const text = 'search publications\nreturn publications[id + titel]';
    await assert.rejects(client.query(text), (error: QuarryClientError) => {
      assert.ok(error instanceof QuarryClientError);
      assert.equal(error.code, 'SCHEMA_UNKNOWN_FIELD');
      assert.equal(error.status, 400);
      assert.equal(error.line, 2);
      assert.equal(error.column, 26);
      assert.match(error.details[0] ?? '', /titel/);
      assert.match(formatWithCaret(text, error.first), /2 \| return publications\[id \+ titel\]\n\s+\| {26}\^{5}/);
      return true;
    });
  });

  test("the service's echo and error.message reach the error; the caret is drawn in the echoed query", async () => {
    const client = connect({ url: server.url, key: server.key }, { family: 'auth' });
    const text = 'search publications\nreturn publications[id + titel]';
    // Sent as text, the echo is that text.
    const plain = await client.query(text).then(
      () => assert.fail('the query should be refused'),
      (error: unknown) => error as QuarryClientError,
    );
    assert.equal(plain.server?.query, text);
    assert.equal(plain.query, text);
    assert.equal(plain.server?.message, plain.server?.details.join('\n'));
    assert.match(plain.server?.message ?? '', /'titel'.*Did you mean 'title'\?/);
    // Sent as a JSON body, the service reads (and counts positions in) the query member: the
    // caret belongs under the echo, not under the JSON the client sent.
    const wrapped = await client.query(JSON.stringify({ query: text })).then(
      () => assert.fail('the query should be refused'),
      (error: unknown) => error as QuarryClientError,
    );
    assert.equal(wrapped.code, 'SCHEMA_UNKNOWN_FIELD');
    assert.equal(wrapped.query, text);
    assert.equal(wrapped.line, 2);
    assert.equal(wrapped.column, 26);
    assert.match(
      formatWithCaret(wrapped.query ?? '', wrapped.first),
      /2 \| return publications\[id \+ titel\]\n\s+\| {26}\^{5}/,
    );
  });

  test('describe: version and a source, typed', async () => {
    const client = connect({ url: server.url, key: server.key }, { family: 'auth', dslVersion: 2 });
    const version = await client.describe('version');
    assert.equal(version.release, '2.14');
    const schema = await client.describe('schema');
    assert.ok(schema.sources.publications?.fields.year);
    assert.equal(schema.sources.publications?.fields.year?.is_facet, true);
  });

  test('a wrong key is an authentication error', async () => {
    const client = connect({ url: server.url, key: 'not-a-key' }, { family: 'token' });
    await assert.rejects(
      client.query('describe version'),
      (error: QuarryClientError) => error.category === 'authentication' && error.status === 401,
    );
  });
});
