// The REAL Quarry service for the client's tests: `startService` (what `quarry serve` runs:
// the SQLite engine, the account store, the HTTP app) listening on 127.0.0.1 with a free
// port, over a private copy of the generated demo database (test/fixtures/demo-db.ts; a copy
// because the test adds an account to it), with an active account and an API key. Token
// lifetime and rate limits come from the configuration, short and low so that expiry and
// 429s happen within a few seconds.
import { copyFileSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { AccountService } from '../../src/accounts/service.ts';
import { openSqliteAccountStore } from '../../src/store/sqlite/account-store.ts';
import { loadConfig } from '../../src/config.ts';
import { startService, type RunningService } from '../../src/main.ts';
import { demoDatabase } from '../fixtures/demo-db.ts';

export interface RealServer {
  readonly url: string;
  readonly key: string;
  readonly db: string;
  readonly service: RunningService;
  close(): Promise<void>;
}

export interface RealServerOptions {
  /** Token lifetime (both families), seconds. */
  readonly tokenLifetimeSeconds: number;
  /** Query requests allowed per window on each family. */
  readonly queriesPerWindow: number;
  readonly windowSeconds: number;
}

/** A private copy of the generated database with `publications` publications. */
export async function recordDatabase(publications: number): Promise<string> {
  const shared = await demoDatabase({ publications });
  const path = join(mkdtempSync(join(tmpdir(), 'quarry-client-')), 'records.db');
  copyFileSync(shared, path);
  return path;
}

/** The ids of every publication, read straight from the database file. */
export function publicationIdsInDatabase(db: string): string[] {
  const connection = new Database(db, { readonly: true });
  try {
    return (connection.prepare('SELECT id FROM publications').all() as Array<{ id: string }>).map((r) => r.id);
  } finally {
    connection.close();
  }
}

let accountsMade = 0;

export async function startRealServer(db: string, options: RealServerOptions): Promise<RealServer> {
  const store = openSqliteAccountStore(db);
  const accounts = new AccountService({ store });
  const email = `client-${process.pid}-${++accountsMade}-${Date.now()}@example.org`;
  await accounts.createAccount({ email, activate: true });
  const { key } = await accounts.createKey(email, 'client tests');
  await accounts.shutdown();
  await store.close();
  const limit = { max: options.queriesPerWindow, windowSeconds: options.windowSeconds };
  const config = loadConfig({
    overrides: {
      db,
      host: '127.0.0.1',
      port: 0,
      logLevel: 'silent',
      query: { workers: 1 },
      web: { enabled: false },
      docs: { enabled: false },
      tokens: {
        tokenPathLifetimeSeconds: options.tokenLifetimeSeconds,
        authPathLifetimeSeconds: options.tokenLifetimeSeconds,
      },
      rateLimits: {
        enabled: true,
        authPath: { ...limit, scope: 'ip' },
        tokenV3: { ...limit, scope: 'ip' },
        tokenV2: { ...limit, scope: 'account' },
        authentication: { max: 1000, windowSeconds: 60, scope: 'ip' },
      },
    },
  });
  const service = await startService(config, {});
  return { url: service.url, key, db, service, close: () => service.close() };
}
