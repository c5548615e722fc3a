// The composition root with `redisUrl` set: two sets of service back ends on one database
// share their rate-limit counters, web sessions and login codes through Redis (as two
// instances would); the administration commands keep working without Redis, failing only
// what needs it.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { openAccountBackends, openServiceBackends, type ServiceBackends } from '../../src/backends.ts';
import { loadConfig, type QuarryConfig } from '../../src/config.ts';
import { isQuarryError } from '../../src/errors/index.ts';
import { syntheticDatabase } from '../e2e/records-db.ts';
import { testRedisPrefix, type TestRedisPrefix } from '../fixtures/redis.ts';

describe('the composition root with Redis', () => {
  let space: TestRedisPrefix;
  let config: QuarryConfig;
  let one: ServiceBackends;
  let two: ServiceBackends;
  before(async () => {
    space = testRedisPrefix('root');
    const database = syntheticDatabase(20);
    config = loadConfig({
      overrides: { database, redisUrl: space.url, redisKeyPrefix: space.prefix, query: { workers: 1 } },
    });
    one = await openServiceBackends(config);
    two = await openServiceBackends(config);
  });
  after(async () => {
    await one?.close();
    await two?.close();
    await space.drop();
  });

  test('rate-limit counters are one budget across both', async () => {
    const now = Date.now();
    const counts = [];
    for (let i = 0; i < 4; i++)
      counts.push((await (i % 2 === 0 ? one : two).rateLimitStore.increment('tokenV2:account:1', 60_000, now)).count);
    assert.deepEqual(counts, [1, 2, 3, 4]);
  });

  test('a session made through one is read and ended through the other', async () => {
    const row = { id: 'session-hash', accountId: 3, createdAt: Date.now(), expiresAt: Date.now() + 60_000 };
    await one.sessions.insertSession(row);
    assert.deepEqual(await two.sessions.sessionById('session-hash'), row);
    await two.sessions.deleteSession('session-hash');
    assert.equal(await one.sessions.sessionById('session-hash'), undefined);
  });

  test('a login code saved by an administration command is taken once by the service', async () => {
    const admin = await openAccountBackends(config);
    try {
      const now = Date.now();
      await admin.loginCodes.saveLoginCode({
        codeHash: 'code-hash',
        accountId: 5,
        createdAt: now,
        expiresAt: now + 60_000,
      });
      assert.equal(await one.loginCodes.consumeLoginCode('code-hash', now), 5);
      assert.equal(await two.loginCodes.consumeLoginCode('code-hash', now), undefined, 'used once in all');
    } finally {
      await admin.close();
    }
  });

  test('the counters are kept under the configured key prefix', async () => {
    const { Redis } = await import('ioredis');
    const probe = new Redis(space.url);
    try {
      const keys = await probe.keys(`${space.prefix}*`);
      assert.ok(
        keys.some((k) => k.startsWith(`${space.prefix}rl:tokenV2:account:1@60000:`)),
        keys.join(', '),
      );
    } finally {
      probe.disconnect();
    }
  });

  test('without Redis the administration commands work, and only login codes fail, coded', async () => {
    const admin = await openAccountBackends({ ...config, redisUrl: 'redis://127.0.0.1:1/0' });
    try {
      assert.ok(Array.isArray(await admin.accountStore.listAccounts()));
      await assert.rejects(
        admin.loginCodes.saveLoginCode({ codeHash: 'x', accountId: 1, createdAt: 0, expiresAt: 1 }),
        (error: unknown) => {
          assert.ok(isQuarryError(error));
          assert.equal(error.code, 'SERVICE_BACKEND_UNREACHABLE');
          assert.match(error.message, /Redis server at redis:\/\/127\.0\.0\.1:1\/0/);
          return true;
        },
      );
    } finally {
      await admin.close();
    }
  });

  test('the service refuses to start without its Redis, before opening the database', async () => {
    await assert.rejects(
      openServiceBackends({ ...config, redisUrl: 'redis://:hunter2@127.0.0.1:1/0' }),
      (error: unknown) => {
        assert.ok(isQuarryError(error));
        assert.equal(error.code, 'SERVICE_BACKEND_UNREACHABLE');
        assert.match(error.message, /Redis server at redis:\/\/:\*\*\*@127\.0\.0\.1:1\/0 cannot be reached/);
        assert.doesNotMatch(error.message, /hunter2/);
        return true;
      },
    );
  });
});
