import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { manualClock } from '../../src/identity/clock.ts';
import { RateLimiter, rateLimitHeaders } from '../../src/ratelimit/limiter.ts';
import { MemoryRateLimitStore } from '../../src/ratelimit/memory-store.ts';

describe('fixed-window rate limiter on an injected clock', () => {
  const rule = { max: 30, windowSeconds: 60 };

  test('30 pass, the 31st is refused with the seconds left in the window', async () => {
    const clock = manualClock('2024-01-01T00:00:15Z');
    const limiter = new RateLimiter({ store: new MemoryRateLimitStore(), clock });
    for (let i = 1; i <= 30; i++) {
      const d = await limiter.consume('k', rule);
      assert.equal(d.allowed, true);
      assert.equal(d.remaining, 30 - i);
    }
    const refused = await limiter.consume('k', rule);
    assert.deepEqual(refused, { allowed: false, limit: 30, remaining: 0, resetSeconds: 45, windowSeconds: 60 });
    assert.deepEqual(rateLimitHeaders(refused), {
      'RateLimit-Limit': '30',
      'RateLimit-Remaining': '0',
      'RateLimit-Reset': '45',
      'Retry-After': '45',
    });
    assert.equal((await limiter.consume('other', rule)).allowed, true, 'keys are independent');
    clock.advance(45_000);
    assert.equal((await limiter.consume('k', rule)).remaining, 29, 'a new window starts');
  });

  test('Reset never says 0 seconds', async () => {
    const clock = manualClock('2024-01-01T00:00:59.900Z');
    const limiter = new RateLimiter({ store: new MemoryRateLimitStore(), clock });
    assert.equal((await limiter.consume('k', rule)).resetSeconds, 1);
  });

  test('the memory store forgets ended windows', async () => {
    const clock = manualClock('2024-01-01T00:00:00Z');
    const store = new MemoryRateLimitStore();
    const limiter = new RateLimiter({ store, clock });
    for (let i = 0; i < 100; i++) await limiter.consume(`ip:${i}`, rule);
    assert.equal(store.size, 100);
    clock.advance(61_000);
    await limiter.consume('late', rule);
    assert.equal(store.size, 1);
  });
});
