/**
 * The composition root of the service: opens the back ends the configuration names (through
 * `./backends.ts`, the one module that knows concrete back ends), builds the app, listens,
 * and shuts down cleanly.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { dirname } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { AccountService } from './accounts/service.ts';
import { demoDatabaseFile, openAccountBackends, openServiceBackends, recordWriterFor } from './backends.ts';
import { DEFAULT_CONFIG, exportDirOf, type QuarryConfig } from './config.ts';
import { ExportService } from './exports/export-service.ts';
import { systemClock } from './identity/clock.ts';
import { buildDemoDatabase } from './data/demo.ts';
import { build, type WebPlugin } from './http/app.ts';
import { addressInUseError } from './http/listen-address.ts';
import { restrictToOwner } from './owner-only.ts';
import { webPlugin } from './web/plugin.ts';
import { groupAdministration } from './data/groups/index.ts';

export { assertAddressFree } from './http/listen-address.ts';

export interface RunningService {
  /** The base URL it listens on, e.g. `http://127.0.0.1:8080`. */
  readonly url: string;
  readonly app: FastifyInstance;
  readonly accounts: AccountService;
  /**
   * Stops accepting connections, lets in-flight queries finish, then closes the engine's
   * workers and the database.
   */
  close(): Promise<void>;
}

/**
 * Opens the database, builds the app (with the web pages unless `config.web.enabled` is
 * false) and listens on `config.host:config.port` (port 0 picks a free one).
 *
 * @example const service = await startService(loadConfig({ env: process.env })); console.log(service.url);
 */
export async function startService(
  config: QuarryConfig,
  options: { web?: WebPlugin } = { web: webPlugin },
): Promise<RunningService> {
  const backends = await openServiceBackends(config);
  const accounts = new AccountService({ store: backends.accountStore, sessions: backends.sessions });
  let app: FastifyInstance;
  try {
    const exports = new ExportService({
      store: backends.exportStore,
      engine: backends.engine,
      dir: exportDirOf(config),
      clock: systemClock,
      chunkRecords: config.exports.chunkRecords,
      maxRunning: config.exports.maxRunning,
      maxPerAccount: config.exports.maxPerAccount,
      retentionMs: config.exports.retentionHours * 3600_000,
      timeoutMs: config.query.timeoutMs,
    });
    app = await build({
      config: { ...config, tokens: { ...config.tokens, jwtSecret: backends.jwtSecret } },
      engine: backends.engine,
      accounts,
      tokenStore: backends.tokenStore,
      rateLimitStore: backends.rateLimitStore,
      webStore: backends.webStore,
      loginCodes: backends.loginCodes,
      recordsNotReady: backends.recordsNotReady,
      exports,
      groups: groupAdministration({
        target: () => recordWriterFor(config.database),
        queries: { post: async (text) => (await backends.engine.run(text, { dslVersion: 2 })).result },
      }),
      ...(options.web ? { web: options.web } : {}),
    });
    if (backends.upgraded.length > 0)
      app.log.info({ versions: backends.upgraded }, 'record tables upgraded to the current layout');
    if (backends.removedDatabaseSecret === 'same')
      app.log.info(
        'the token-signing secret an earlier Quarry kept in the database was removed from it; the configured secret is the same, so tokens issued before stay valid',
      );
    else if (backends.removedDatabaseSecret === 'different')
      app.log.warn(
        'the token-signing secret an earlier Quarry kept in the database was removed from it; the configured secret differs, so JWTs issued before are refused (their holders log in again)',
      );
    await app.listen({ host: config.host, port: config.port });
  } catch (error) {
    await accounts.shutdown();
    await backends.close();
    throw addressInUseError(error, config.host, config.port) ?? error;
  }
  const address = app.server.address() as AddressInfo;
  const host = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  let closing: Promise<void> | undefined;
  return {
    url: `http://${host}:${address.port}`,
    app,
    accounts,
    close() {
      closing ??= (async () => {
        await app.close();
        await accounts.shutdown();
        await backends.close();
      })();
      return closing;
    },
  };
}

/**
 * Closes the service on SIGINT/SIGTERM (a second signal exits at once).
 */
export function closeOnSignals(service: RunningService): void {
  let signalled = false;
  const onSignal = (signal: NodeJS.Signals) => {
    if (signalled) process.exit(130);
    signalled = true;
    service.app.log.info({ signal }, 'shutting down: finishing in-flight queries');
    service.close().then(
      () => {
        service.app.log.info('stopped');
        process.exitCode = 0;
      },
      (error: unknown) => {
        service.app.log.error({ err: error }, 'error while shutting down');
        process.exitCode = 1;
      },
    );
  };
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);
}

/** The demo account `npm start` creates. */
export const DEMO_EMAIL = 'demo@quarry.local';
const DEMO_PUBLICATIONS = 10_000;
const DEMO_SEED = 20211201;

/**
 * `npm start`'s first-run set-up: generates and imports the demo dataset when the database
 * file is missing (with a progress bar), then makes sure an active demo account with a key
 * exists. The key is kept next to the database (mode 600) so later starts can print it
 * again; only its hash is in the database.
 */
export async function prepareDemo(
  config: QuarryConfig,
  write: (text: string) => void,
): Promise<{ key: string; instructions(url: string): string }> {
  const demoFile = demoDatabaseFile(config.database);
  if (demoFile !== undefined) {
    mkdirSync(dirname(demoFile), { recursive: true });
    write(
      `Creating ${demoFile} with a demo dataset of ${DEMO_PUBLICATIONS.toLocaleString('en')} publications (first run only)...\n`,
    );
    const { default: progress } = await import('cli-progress');
    const bar = new progress.SingleBar(
      { format: '  {bar} {percentage}% {phase}', hideCursor: true },
      progress.Presets.shades_classic,
    );
    bar.start(100, 0, { phase: '' });
    try {
      await buildDemoDatabase({
        dbPath: demoFile,
        writerFor: recordWriterFor,
        publications: DEMO_PUBLICATIONS,
        seed: DEMO_SEED,
        onProgress: ({ done, total, phase }) => bar.update(Math.round((100 * done) / Math.max(1, total)), { phase }),
      });
      bar.update(100, { phase: 'done' });
    } finally {
      bar.stop();
    }
  }
  const backends = await openAccountBackends(config);
  const accounts = new AccountService({ store: backends.accountStore, sessions: backends.sessions });
  try {
    if (!(await accounts.findAccount(DEMO_EMAIL)))
      await accounts.createAccount({ email: DEMO_EMAIL, name: 'Demo account', activate: true });
    const account = await accounts.getAccount(DEMO_EMAIL);
    if (account.state !== 'active') await accounts.activate(DEMO_EMAIL);
    const keyFile = `${config.database}.demo-key`;
    let key = existsSync(keyFile) ? readFileSync(keyFile, 'utf8').trim() : '';
    const resolved = key === '' ? undefined : await accounts.resolveKey(key);
    if (resolved?.account.email !== DEMO_EMAIL) {
      // Key names are unique among keys in use: a lost key file leaves its key behind.
      const taken = (await accounts.listKeys(DEMO_EMAIL)).some(
        (k) => k.name === 'demo' && (k.revokedAt === null || Date.parse(k.revokedAt) > Date.now()),
      );
      key = (await accounts.createKey(DEMO_EMAIL, taken ? `demo ${new Date().toISOString()}` : 'demo')).key;
      writeFileSync(keyFile, `${key}\n`, { mode: 0o600 });
    }
    // The mode above applies to a new file only; one an older version left 644 is tightened.
    restrictToOwner(keyFile);
    return { key, instructions: (url) => demoInstructions(url, key, config.database) };
  } finally {
    await accounts.shutdown();
    await backends.close();
  }
}

function demoInstructions(url: string, key: string, db: string): string {
  const dbFlag = db === DEFAULT_CONFIG.database ? '' : ` --db ${db}`;
  return [
    '',
    `Demo API key: ${key}`,
    '',
    'Token-path family (/v3, limited per client IP; /v2 is limited per account):',
    `  TOKEN=$(curl -s "${url}/v3/token?api_key=${key}")`,
    `  curl -s -X POST "${url}/v3/api/query" -H "Authorization: Bearer $TOKEN" --data-binary 'search publications for "clinical AND immunology" return publications[id + title + year] limit 5'`,
    '',
    'Auth-path family (JWT):',
    `  JWT=$(curl -s -X POST "${url}/api/auth" -H 'Content-Type: application/json' -d '{"key": "${key}"}' | sed -E 's/.*"token":"([^"]+)".*/\\1/')`,
    `  curl -s -X POST "${url}/api/dsl/v2" -H "Authorization: JWT $JWT" --data-binary 'search publications return year limit 5'`,
    '',
    `Web pages: the API home at ${url}/ and the query console at ${url}/console; sign in with a one-time code:`,
    `  npx quarry accounts login-code ${DEMO_EMAIL}${dbFlag}`,
    '',
    `API description: ${url}/docs    health: ${url}/healthz    metrics: ${url}/metrics`,
    '',
  ].join('\n');
}
