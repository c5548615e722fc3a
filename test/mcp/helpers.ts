// The service the MCP tests talk to: the app listening on 127.0.0.1 with a real engine
// (SQLite, or PostgreSQL in a database of its own) on the statement functions' small
// database (test/functions/fixture.ts), one active account with a key.
import type { AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { AccountService } from '../../src/accounts/service.ts';
import { loadConfig } from '../../src/config.ts';
import { createPostgresEngine } from '../../src/engine/backends/postgres/engine.ts';
import { createSqliteEngine } from '../../src/engine/backends/sqlite/engine.ts';
import type { QueryEngine } from '../../src/engine/types.ts';
import { build } from '../../src/http/app.ts';
import { manualClock } from '../../src/identity/clock.ts';
import { MemoryRateLimitStore } from '../../src/ratelimit/memory-store.ts';
import { openSqliteAccountStores } from '../../src/store/sqlite/account-store.ts';
import { functionsDatabase, functionsPgDatabase } from '../functions/fixture.ts';
import { TEST_JWT_SECRET } from '../http/helpers/app.ts';

export interface McpTestService {
  readonly app: FastifyInstance;
  readonly accounts: AccountService;
  /** The service's base URL (`http://127.0.0.1:PORT`). */
  readonly base: string;
  /** The SQLite record database (with the `sqlite` engine the one the service reads). */
  readonly dbPath: string;
  readonly email: string;
  readonly key: string;
  close(): Promise<void>;
}

export type TestEngine = 'sqlite' | 'postgres';
export const TEST_ENGINES: readonly TestEngine[] = ['sqlite', 'postgres'];

export async function mcpTestService(kind: TestEngine = 'sqlite'): Promise<McpTestService> {
  const { accountStore: store, tokenStore } = openSqliteAccountStores(':memory:');
  const clock = manualClock('2023-03-01T12:00:00Z');
  const accounts = new AccountService({ store, clock });
  const dbPath = functionsDatabase();
  const pgDb = kind === 'postgres' ? await functionsPgDatabase() : undefined;
  const engine: QueryEngine =
    pgDb === undefined
      ? createSqliteEngine({ dbPath, workers: 1, expensiveWorkers: 1 })
      : createPostgresEngine({ url: pgDb.url, connections: 2 });
  const config = loadConfig({ overrides: { logLevel: 'silent', tokens: { jwtSecret: TEST_JWT_SECRET } } });
  const email = 'ana@example.org';
  await accounts.createAccount({ email, activate: true });
  const { key } = await accounts.createKey(email, 'assistant');
  const app = await build({ config, engine, accounts, tokenStore, clock, rateLimitStore: new MemoryRateLimitStore() });
  await app.listen({ host: '127.0.0.1', port: 0 });
  const base = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
  return {
    app,
    accounts,
    base,
    dbPath,
    email,
    key,
    async close() {
      await app.close();
      await engine.close();
      await pgDb?.drop();
      await accounts.shutdown();
      await store.close();
    },
  };
}
