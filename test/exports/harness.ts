/**
 * What the export suites run on: a SQLite database with more publications than the
 * 50,000-record paging window (synthetic rows, made in a second), the real engine, the
 * account and export stores in the same file, and the app built in process.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import type { FastifyInstance } from 'fastify';
import { AccountService } from '../../src/accounts/service.ts';
import { loadConfig, type DeepPartial, type QuarryConfig } from '../../src/config.ts';
import { createSqliteEngine } from '../../src/engine/backends/sqlite/engine.ts';
import type { QueryEngine } from '../../src/engine/types.ts';
import { ExportService } from '../../src/exports/export-service.ts';
import { build } from '../../src/http/app.ts';
import { manualClock } from '../../src/identity/clock.ts';
import { MemoryRateLimitStore } from '../../src/ratelimit/memory-store.ts';
import type { ExportJobStore } from '../../src/store/exports.ts';
import { openSqliteAccountStores } from '../../src/store/sqlite/account-store.ts';
import { openSqliteExportStore } from '../../src/store/sqlite/export-store.ts';
import { openRecordStore } from '../../src/store/sqlite/records-store.ts';

export const SECRET = 'export-test-signing-secret-'.padEnd(43, 'x');

/** Publications `pub.19NNNNNNNN` for N in 1..rows, years 1995..2024 (rows / 30 each). */
export function syntheticDatabase(dir: string, rows: number): string {
  const path = join(dir, 'records.db');
  const store = openRecordStore(path);
  store.db.exec(`
    WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ${rows})
    INSERT INTO publications (id, year, type, doi, issue, doc)
    SELECT printf('pub.19%08d', i), 1995 + i % 30, CASE i % 3 WHEN 0 THEN 'article' ELSE 'chapter' END,
      printf('10.99999/syn.%08d-%x', i, i * 7919), printf('%d', i % 97), '{}' FROM n`);
  store.close();
  return path;
}

export interface ExportApp {
  readonly app: FastifyInstance;
  readonly accounts: AccountService;
  readonly exports: ExportService;
  readonly store: ExportJobStore;
  readonly clock: ReturnType<typeof manualClock>;
  readonly config: QuarryConfig;
  close(): Promise<void>;
}

/** The app on `dbPath`, exports written to `exportDir`; `engine` wraps the real one when given. */
export async function exportApp(options: {
  dbPath: string;
  exportDir: string;
  engine: QueryEngine;
  config?: DeepPartial<QuarryConfig>;
  clock?: ReturnType<typeof manualClock>;
}): Promise<ExportApp> {
  const clock = options.clock ?? manualClock(Date.now());
  const config = loadConfig({
    overrides: {
      logLevel: 'silent',
      rateLimits: { enabled: false },
      ...options.config,
      tokens: { jwtSecret: SECRET },
    },
  });
  const { accountStore, tokenStore } = openSqliteAccountStores(options.dbPath);
  const accounts = new AccountService({ store: accountStore, clock });
  const store = openSqliteExportStore(options.dbPath);
  const exports = new ExportService({
    store,
    engine: options.engine,
    dir: options.exportDir,
    clock,
    chunkRecords: config.exports.chunkRecords,
    maxRunning: config.exports.maxRunning,
    maxPerAccount: config.exports.maxPerAccount,
    retentionMs: config.exports.retentionHours * 3600_000,
    timeoutMs: config.query.timeoutMs,
  });
  const app = await build({
    config,
    engine: options.engine,
    accounts,
    tokenStore,
    clock,
    logger: false,
    rateLimitStore: new MemoryRateLimitStore(),
    exports,
  });
  return {
    app,
    accounts,
    exports,
    store,
    clock,
    config,
    async close() {
      await app.close();
      await accounts.shutdown();
      await store.close();
      await accountStore.close();
    },
  };
}

/** An active account with a key; answers its JWT (auth-path) and its opaque token (token-path). */
export async function signIn(t: ExportApp, email: string): Promise<{ jwt: string; bearer: string }> {
  await t.accounts.createAccount({ email, activate: true });
  const { key } = await t.accounts.createKey(email, 'exports');
  const auth = await t.app.inject({ method: 'POST', url: '/api/auth', payload: { key } });
  if (auth.statusCode !== 200) throw new Error(`login failed: ${auth.body}`);
  const token = await t.app.inject({ method: 'GET', url: `/v3/token?api_key=${key}` });
  if (token.statusCode !== 200) throw new Error(`token failed: ${token.body}`);
  return { jwt: auth.json<{ token: string }>().token, bearer: token.body };
}

/** The records of a gzipped JSON-lines file. */
export function jsonLinesOf(gz: Buffer): Array<Record<string, unknown>> {
  return gunzipSync(gz)
    .toString('utf8')
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => JSON.parse(line) as Record<string, unknown>);
}

export function tempDir(prefix: string): { path: string; remove(): void } {
  const path = mkdtempSync(join(tmpdir(), prefix));
  return { path, remove: () => rmSync(path, { recursive: true, force: true }) };
}

/** The real engine on `dbPath`, one worker per lane. */
export function sqliteEngine(dbPath: string): QueryEngine {
  return createSqliteEngine({ dbPath, workers: 1, expensiveWorkers: 1, timeoutMs: 30_000 });
}
