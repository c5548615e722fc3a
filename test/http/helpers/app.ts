import { Writable } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import { AccountService } from '../../../src/accounts/service.ts';
import { openSqliteAccountStores } from '../../../src/store/sqlite/account-store.ts';
import type { Subscription } from '../../../src/identity/account-types.ts';
import { manualClock } from '../../../src/identity/clock.ts';
import { loadConfig, type DeepPartial, type QuarryConfig } from '../../../src/config.ts';
import { build, type WebPlugin } from '../../../src/http/app.ts';
import { MemoryRateLimitStore } from '../../../src/ratelimit/memory-store.ts';
import type { RateLimitStore } from '../../../src/store/rate-limits.ts';
import { openSqliteWebStore } from '../../../src/store/sqlite/web-store.ts';
import type { TokenStore } from '../../../src/store/tokens.ts';
import { fakeEngine, type FakeEngine } from './fake-engine.ts';

export interface TestApp {
  readonly app: FastifyInstance;
  readonly accounts: AccountService;
  readonly tokenStore: TokenStore;
  readonly engine: FakeEngine;
  readonly clock: ReturnType<typeof manualClock>;
  readonly config: QuarryConfig;
  /** Every log line written, parsed. */
  readonly logs: Array<Record<string, unknown>>;
  /** An active account subscribed to everything, with one key. */
  readonly key: string;
  readonly email: string;
  close(): Promise<void>;
}

/** The token-signing secret of test apps (config.tokens.jwtSecret unless a test sets its own). */
export const TEST_JWT_SECRET = 'test-signing-secret-'.padEnd(43, 'x');

/** The default test instant: after the alias moved to v2 and after v1 was removed. */
export const AFTER_REMOVAL = '2023-03-01T12:00:00Z';

/**
 * An in-process app on an in-memory account store, a manual clock and the fake engine
 * (a test double, see fake-engine.ts).
 */
export async function testApp(
  options: {
    config?: DeepPartial<QuarryConfig>;
    at?: string;
    subscription?: Partial<Subscription>;
    web?: WebPlugin;
    /** Where rate-limit counters live; memory by default. */
    rateLimitStore?: RateLimitStore;
  } = {},
): Promise<TestApp> {
  const clock = manualClock(options.at ?? AFTER_REMOVAL);
  const { accountStore: store, tokenStore } = openSqliteAccountStores(':memory:');
  const accounts = new AccountService({ store, clock });
  const engine = fakeEngine();
  // The signing secret comes from outside the database, as src/backends.ts resolves it.
  const config = loadConfig({
    overrides: {
      logLevel: 'info',
      ...options.config,
      tokens: { jwtSecret: TEST_JWT_SECRET, ...options.config?.tokens },
    },
  });
  const email = 'ana@example.org';
  await accounts.createAccount({
    email,
    activate: true,
    ...(options.subscription ? { subscription: options.subscription } : {}),
  });
  const { key } = await accounts.createKey(email, 'test');
  const logs: Array<Record<string, unknown>> = [];
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      for (const line of chunk.toString('utf8').split('\n'))
        if (line.trim()) logs.push(JSON.parse(line) as Record<string, unknown>);
      done();
    },
  });
  const webStore = openSqliteWebStore(':memory:');
  const app = await build({
    config,
    engine,
    accounts,
    tokenStore,
    clock,
    logger: { stream },
    rateLimitStore: options.rateLimitStore ?? new MemoryRateLimitStore(),
    ...(options.web ? { web: options.web, webStore } : {}),
  });
  return {
    app,
    accounts,
    tokenStore,
    engine,
    clock,
    config,
    logs,
    key,
    email,
    async close() {
      await app.close();
      await accounts.shutdown();
      await webStore.close();
      await store.close();
    },
  };
}

/** A token-path token for `key` (asserts the exchange worked). */
export async function opaqueToken(
  t: TestApp,
  key = t.key,
  version: 'v2' | 'v3' = 'v3',
  ip = '127.0.0.1',
): Promise<string> {
  const res = await t.app.inject({
    method: 'GET',
    url: `/${version}/token?api_key=${encodeURIComponent(key)}`,
    remoteAddress: ip,
  });
  if (res.statusCode !== 200) throw new Error(`token exchange failed: ${res.statusCode} ${res.body}`);
  return res.body;
}

/** An auth-path JWT for `key`. */
export async function jwtToken(t: TestApp, key = t.key, ip = '127.0.0.1'): Promise<string> {
  const res = await t.app.inject({ method: 'POST', url: '/api/auth', payload: { key }, remoteAddress: ip });
  if (res.statusCode !== 200) throw new Error(`login failed: ${res.statusCode} ${res.body}`);
  return res.json<{ token: string }>().token;
}

export const QUERY = 'search publications return publications';
