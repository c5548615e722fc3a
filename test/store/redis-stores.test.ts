// The Redis stores several instances share: rate-limit counters (atomic under concurrency,
// from two connections), sessions and login codes; and what they do when Redis goes away.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { connectRedis, type Redis } from '../../src/store/redis/connect.ts';
import { redisLoginCodeStore } from '../../src/store/redis/login-code-store.ts';
import { RedisRateLimitStore } from '../../src/store/redis/rate-limit-store.ts';
import { redisSessionStore } from '../../src/store/redis/session-store.ts';
import { isQuarryError } from '../../src/errors/index.ts';
import { privateRedis, testRedisPrefix, type TestRedisPrefix } from '../fixtures/redis.ts';

function unavailable(error: unknown): boolean {
  assert.ok(isQuarryError(error), String(error));
  assert.equal(error.code, 'SERVICE_UNAVAILABLE');
  assert.equal(error.category, 'unavailable');
  return true;
}

describe('Redis stores', () => {
  let space: TestRedisPrefix;
  let one: Redis;
  let two: Redis;
  before(async () => {
    space = testRedisPrefix('stores');
    one = await connectRedis(space.url);
    two = await connectRedis(space.url);
  });
  after(async () => {
    one.disconnect();
    two.disconnect();
    await space.drop();
  });

  test('200 concurrent hits from two connections count 1..200 exactly once each', async () => {
    const stores = [new RedisRateLimitStore(one, space.prefix), new RedisRateLimitStore(two, space.prefix)];
    const now = Date.parse('2026-01-01T00:00:10Z');
    const results = await Promise.all(
      Array.from({ length: 200 }, (_, i) =>
        (stores[i % 2] as RedisRateLimitStore).increment('v2:account:1', 60_000, now),
      ),
    );
    const counts = results.map((r) => r.count).sort((a, b) => a - b);
    assert.deepEqual(
      counts,
      Array.from({ length: 200 }, (_, i) => i + 1),
    );
    assert.equal(results.filter((r) => r.count <= 30).length, 30, 'a limit of 30 lets exactly 30 through');
    assert.ok(
      results.every((r) => r.resetAtMs === Date.parse('2026-01-01T00:01:00Z')),
      'windows align to the minute',
    );
    // The next window starts again at 1, and the key expires with its window.
    assert.equal((await stores[0]!.increment('v2:account:1', 60_000, now + 60_000)).count, 1);
    const ttl = await one.pttl(`${space.prefix}rl:v2:account:1@60000:${Date.parse('2026-01-01T00:01:00Z')}`);
    assert.ok(ttl > 0 && ttl <= 61_000, `ttl ${ttl}`);
  });

  test('a session written through one connection is read through the other, ends everywhere, and expires', async () => {
    const a = redisSessionStore(one, space.prefix);
    const b = redisSessionStore(two, space.prefix);
    const now = Date.now();
    const row = { id: 'hash-1', accountId: 7, createdAt: now, expiresAt: now + 60_000 };
    await a.insertSession(row);
    assert.deepEqual(await b.sessionById('hash-1'), row);
    await b.deleteSession('hash-1');
    assert.equal(await a.sessionById('hash-1'), undefined);
    await a.insertSession({ id: 'hash-2', accountId: 7, createdAt: now, expiresAt: Date.now() + 150 });
    await new Promise((r) => setTimeout(r, 300));
    assert.equal(await b.sessionById('hash-2'), undefined, 'Redis dropped it with the session');
  });

  test("an account's sessions end together, through either connection, and no other account's", async () => {
    const a = redisSessionStore(one, space.prefix);
    const b = redisSessionStore(two, space.prefix);
    const now = Date.now();
    const row = (id: string, accountId: number, ms = 60_000) => ({
      id,
      accountId,
      createdAt: now,
      expiresAt: now + ms,
    });
    await a.insertSession(row('s-1', 21));
    await b.insertSession(row('s-2', 21, 120_000));
    await a.insertSession(row('s-3', 22));
    await b.deleteSession('s-2');
    assert.equal(await b.deleteSessionsOf(21), 1, 'the one still live');
    assert.equal(await a.sessionById('s-1'), undefined);
    assert.ok(await a.sessionById('s-3'), "another account's session stays");
    assert.equal(await a.deleteSessionsOf(21), 0, 'nothing left');
    // The account's list lives as long as its longest session, and forgets ended ones.
    await a.insertSession(row('s-4', 23, 90_000));
    await a.insertSession(row('s-5', 23, 30_000));
    const ttl = await one.pttl(`${space.prefix}sessions-of:23`);
    assert.ok(ttl > 80_000 && ttl <= 90_000, `ttl ${ttl}`);
    await a.insertSession({ id: 's-6', accountId: 24, createdAt: now, expiresAt: Date.now() + 150 });
    await new Promise((r) => setTimeout(r, 300));
    await a.insertSession(row('s-7', 24));
    assert.deepEqual(await one.zrange(`${space.prefix}sessions-of:24`, '0', '-1'), ['s-7']);
  });

  test('a login code works once on any instance; a new code replaces the old; an expired code fails', async () => {
    const a = redisLoginCodeStore(one, space.prefix);
    const b = redisLoginCodeStore(two, space.prefix);
    const now = Date.now();
    await a.saveLoginCode({ codeHash: 'old', accountId: 7, createdAt: now, expiresAt: now + 60_000 });
    await a.saveLoginCode({ codeHash: 'new', accountId: 7, createdAt: now, expiresAt: now + 60_000 });
    await a.saveLoginCode({ codeHash: 'other', accountId: 8, createdAt: now, expiresAt: now + 60_000 });
    assert.equal(await b.consumeLoginCode('old', now), undefined, 'replaced');
    const racing = await Promise.all([a.consumeLoginCode('new', now), b.consumeLoginCode('new', now)]);
    assert.deepEqual(racing.sort(), [7, undefined], 'one of two racing sign-ins gets it');
    assert.equal(await b.consumeLoginCode('other', now), 8);
    await a.saveLoginCode({ codeHash: 'late', accountId: 9, createdAt: now, expiresAt: now + 60_000 });
    assert.equal(await b.consumeLoginCode('late', now + 60_000), undefined, 'expired');
  });
});

describe('when Redis goes away', () => {
  test('every store answers SERVICE_UNAVAILABLE at once, and works again when Redis is back', async () => {
    const redis = await privateRedis();
    const client = await connectRedis(redis.url);
    try {
      const limits = new RedisRateLimitStore(client, 'q:');
      const sessions = redisSessionStore(client, 'q:');
      const codes = redisLoginCodeStore(client, 'q:');
      assert.equal((await limits.increment('k', 60_000, Date.now())).count, 1);
      await redis.stop();
      const started = Date.now();
      await assert.rejects(limits.increment('k', 60_000, Date.now()), unavailable);
      await assert.rejects(sessions.sessionById('x'), unavailable);
      await assert.rejects(sessions.deleteSessionsOf(1), unavailable);
      await assert.rejects(codes.consumeLoginCode('x', Date.now()), unavailable);
      assert.ok(Date.now() - started < 5000, `failed fast (${Date.now() - started} ms)`);
      await redis.start();
      let count: number | undefined;
      for (let i = 0; i < 40 && count === undefined; i++) {
        count = await limits.increment('k', 60_000, Date.now()).then(
          (r) => r.count,
          () => undefined,
        );
        if (count === undefined) await new Promise((r) => setTimeout(r, 250));
      }
      assert.equal(count, 1, 'reconnected by itself (a fresh, empty server)');
    } finally {
      client.disconnect();
      await redis.stop();
    }
  });

  test('connecting to a Redis that is not there fails at once', async () => {
    await assert.rejects(connectRedis('redis://127.0.0.1:1'), /ECONNREFUSED|connect/);
  });
});
