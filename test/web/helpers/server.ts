// A real Quarry server for the web tests: build() with the web plugin, on the back ends the
// composition root opens for a private copy of the small generated demo database
// (test/fixtures/demo-db.ts), accounts in the same file, listening on 127.0.0.1:0. Three accounts: an active holder with a
// password, a pending one, and an administrator.
import { mkdtempSync, writeFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import type { FastifyInstance } from 'fastify';
import { AccountService } from '../../../src/accounts/service.ts';
import { openServiceBackends, recordWriterFor } from '../../../src/backends.ts';
import { groupAdministration } from '../../../src/data/groups/index.ts';
import { loadConfig, type DeepPartial, type QuarryConfig } from '../../../src/config.ts';
import type { QueryEngine } from '../../../src/engine/types.ts';
import { build } from '../../../src/http/app.ts';
import { webPlugin } from '../../../src/web/plugin.ts';
import type { WebStore } from '../../../src/store/web.ts';
import { smallDatabase } from '../../fixtures/demo-db.ts';

export const HOLDER = { email: 'ana@example.org', password: 'correct horse battery' };
export const PENDING = { email: 'pat@example.org', password: 'pending password 1' };
export const ADMIN = { email: 'admin@example.org', password: 'admin password 1' };

export interface WebServer {
  readonly url: string;
  readonly app: FastifyInstance;
  readonly accounts: AccountService;
  readonly engine: QueryEngine;
  readonly webStore: WebStore;
  readonly config: QuarryConfig;
  close(): Promise<void>;
}

/**
 * A private copy of the fixture record database: the accounts and web tables of each server
 * go into it, so servers never share accounts.
 */
async function freshDatabase(): Promise<string> {
  const source = new Database(await smallDatabase(), { readonly: true });
  const path = join(mkdtempSync(join(tmpdir(), 'quarry-web-')), 'quarry.db');
  writeFileSync(path, source.serialize());
  source.close();
  return path;
}

export async function startWebServer(options: { config?: DeepPartial<QuarryConfig> } = {}): Promise<WebServer> {
  const db = await freshDatabase();
  const config = loadConfig({
    overrides: { db, logLevel: 'silent', adminContact: 'data-office@example.org', ...options.config },
  });
  const backends = await openServiceBackends({ ...config, query: { ...config.query, workers: 1 } });
  const { engine, webStore } = backends;
  const accounts = new AccountService({ store: backends.accountStore, sessions: backends.sessions });
  await accounts.createAccount({ email: HOLDER.email, name: 'Ana Silva', password: HOLDER.password, activate: true });
  await accounts.createAccount({ email: PENDING.email, password: PENDING.password });
  const admin = await accounts.createAccount({ email: ADMIN.email, password: ADMIN.password, activate: true });
  await webStore.setAdmin(admin.id, true, Date.now());
  const app = await build({
    config: { ...config, tokens: { ...config.tokens, jwtSecret: backends.jwtSecret } },
    engine,
    accounts,
    tokenStore: backends.tokenStore,
    rateLimitStore: backends.rateLimitStore,
    webStore,
    loginCodes: backends.loginCodes,
    logger: false,
    web: webPlugin,
    // As the composition root gives it (src/main.ts): /admin/groups writes to this database.
    groups: groupAdministration({
      target: () => recordWriterFor(db),
      queries: { post: async (text) => (await engine.run(text, { dslVersion: 2 })).result },
    }),
  });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const { port } = app.server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    app,
    accounts,
    engine,
    webStore,
    config,
    async close() {
      await app.close();
      await accounts.shutdown();
      await backends.close();
    },
  };
}

/**
 * A cookie-keeping HTTP client for the pages without a browser: remembers cookies, and
 * reads the CSRF token from the last page it fetched.
 */
export class FormClient {
  readonly #base: string;
  readonly #cookies = new Map<string, string>();
  csrf = '';

  constructor(base: string) {
    this.#base = base;
  }

  cookie(name: string): string | undefined {
    return this.#cookies.get(name);
  }

  async #send(path: string, init: RequestInit): Promise<{ status: number; headers: Headers; text: string }> {
    const headers = new Headers(init.headers);
    if (this.#cookies.size > 0) headers.set('cookie', [...this.#cookies].map(([k, v]) => `${k}=${v}`).join('; '));
    const response = await fetch(this.#base + path, { ...init, headers, redirect: 'manual' });
    for (const line of response.headers.getSetCookie()) {
      const [pair] = line.split(';');
      const [name, ...rest] = (pair ?? '').split('=');
      const value = rest.join('=');
      if (!name) continue;
      if (value === '' || /expires=Thu, 01 Jan 1970/i.test(line)) this.#cookies.delete(name.trim());
      else this.#cookies.set(name.trim(), value);
    }
    const text = await response.text();
    const token = /name="_csrf" value="([^"]+)"/.exec(text)?.[1] ?? /"csrfToken":"([^"]+)"/.exec(text)?.[1];
    if (token) this.csrf = token;
    return { status: response.status, headers: response.headers, text };
  }

  get(path: string) {
    return this.#send(path, { method: 'GET' });
  }

  /** POSTs a form, adding the current CSRF token unless `_csrf` is given. */
  post(path: string, form: Record<string, string | string[]> = {}) {
    const body = new URLSearchParams();
    if (!('_csrf' in form)) body.append('_csrf', this.csrf);
    for (const [k, v] of Object.entries(form)) for (const item of Array.isArray(v) ? v : [v]) body.append(k, item);
    return this.#send(path, { method: 'POST', body, headers: { 'content-type': 'application/x-www-form-urlencoded' } });
  }

  postJson(path: string, value: unknown, headers: Record<string, string> = {}) {
    return this.#send(path, {
      method: 'POST',
      body: JSON.stringify(value),
      headers: { 'content-type': 'application/json', 'x-csrf-token': this.csrf, ...headers },
    });
  }

  async signIn(email: string, password: string) {
    await this.get('/');
    return this.post('/sign-in', { email, password, next: '/' });
  }
}
