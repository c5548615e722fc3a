// Only an active account may use the web pages. A pending, suspended or closed one is refused
// at sign-in (password or login code), its sessions end when it is suspended or closed (by
// the service the command line and the administration page use), and a session that
// survives the change anyway (another instance, a store that did not answer) is refused on
// every page and form, the administration page's included, and ended: always 403 saying the
// account's state and whom to contact. Run with the sessions in SQLite, in PostgreSQL and in
// Redis.
import assert from 'node:assert/strict';
import type { AddressInfo } from 'node:net';
import { after, afterEach, before, beforeEach, describe, test } from 'node:test';
import { LOGIN_CODE_LIFETIME_MS, newLoginCode, normaliseLoginCode } from '../../src/accounts/login-codes.ts';
import { AccountService } from '../../src/accounts/service.ts';
import type { Account, AccountState } from '../../src/identity/account-types.ts';
import { hashSecret } from '../../src/auth/secrets.ts';
import { loadConfig } from '../../src/config.ts';
import { build } from '../../src/http/app.ts';
import { MemoryRateLimitStore } from '../../src/ratelimit/memory-store.ts';
import type { AccountStore, SessionStore } from '../../src/store/accounts.ts';
import { connectRedis, type Redis } from '../../src/store/redis/connect.ts';
import { redisSessionStore } from '../../src/store/redis/session-store.ts';
import type { LoginCodeStore, WebStore } from '../../src/store/web.ts';
import { webPlugin } from '../../src/web/plugin.ts';
import { accountBackends, type AccountBackend } from '../fixtures/account-backends.ts';
import { testRedisPrefix, type TestRedisPrefix } from '../fixtures/redis.ts';
import { fakeEngine } from '../http/helpers/fake-engine.ts';
import { TEST_JWT_SECRET } from '../http/helpers/app.ts';
import type { FastifyInstance } from 'fastify';
import { FormClient } from './helpers/server.ts';

const CONTACT = 'data-office@example.org';
const HOLDER = { email: 'ana@example.org', password: 'correct horse battery' };
const ADMIN = { email: 'admin@example.org', password: 'admin password 1' };
const OTHER = { email: 'ben@example.org', password: 'other password 1' };
const REFUSED_STATES = ['suspended', 'closed', 'pending'] as const;
const CODE_OF_STATE = {
  pending: 'SERVICE_ACCOUNT_PENDING',
  suspended: 'SERVICE_ACCOUNT_SUSPENDED',
  closed: 'SERVICE_ACCOUNT_CLOSED',
} as const;

function codeOf(html: string): string | undefined {
  return /class="error-box" role="alert" data-code="([A-Z_]+)"/.exec(html)?.[1];
}

interface Variant {
  readonly name: string;
  readonly backend: AccountBackend;
  /** Sessions in Redis under a prefix of this suite's own, instead of in the database. */
  readonly redis: boolean;
}

const [sqlite, postgres] = accountBackends();
const VARIANTS: Variant[] = [
  { name: 'sessions in SQLite', backend: sqlite!, redis: false },
  { name: 'sessions in PostgreSQL', backend: postgres!, redis: false },
  { name: 'sessions in Redis', backend: accountBackends()[0]!, redis: true },
];

for (const variant of VARIANTS) {
  describe(`account standing on the web pages, ${variant.name}`, () => {
    let space: TestRedisPrefix | undefined;
    let redis: Redis | undefined;
    let store: AccountStore;
    let webStore: WebStore;
    let sessions: SessionStore;
    let accounts: AccountService;
    let app: FastifyInstance;
    let url: string;
    /** Login codes saved through the app: none may be issued by a refused administrator. */
    let codesSaved: number;
    let holder: Account;
    let admin: Account;
    let other: Account;

    before(async () => {
      await variant.backend.setUp();
      if (variant.redis) {
        space = testRedisPrefix('standing');
        redis = await connectRedis(space.url);
      }
    });
    after(async () => {
      await variant.backend.tearDown();
      redis?.disconnect();
      await space?.drop();
    });

    beforeEach(async () => {
      const side = await variant.backend.fresh();
      store = side.accountStore;
      webStore = side.webStore;
      // A fresh prefix per test: the account ids start again at 1 in each fresh store.
      sessions = redis ? redisSessionStore(redis, `${space!.prefix}${Math.random()}:`) : store;
      accounts = new AccountService({ store, sessions });
      holder = await accounts.createAccount({ ...HOLDER, activate: true });
      admin = await accounts.createAccount({ ...ADMIN, activate: true });
      other = await accounts.createAccount({ ...OTHER, activate: true });
      await webStore.setAdmin(admin.id, true, Date.now());
      codesSaved = 0;
      const loginCodes: LoginCodeStore = {
        saveLoginCode: (row) => {
          codesSaved++;
          return webStore.saveLoginCode(row);
        },
        consumeLoginCode: (hash, now) => webStore.consumeLoginCode(hash, now),
      };
      const config = loadConfig({
        overrides: {
          logLevel: 'silent',
          adminContact: CONTACT,
          rateLimits: { authentication: { max: 1000, windowSeconds: 60, scope: 'ip' } },
          tokens: { jwtSecret: TEST_JWT_SECRET },
        },
      });
      app = await build({
        config,
        engine: fakeEngine(),
        accounts,
        tokenStore: side.tokenStore,
        rateLimitStore: new MemoryRateLimitStore(),
        webStore,
        loginCodes,
        logger: false,
        web: webPlugin,
      });
      await app.listen({ port: 0, host: '127.0.0.1' });
      url = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
    });
    afterEach(async () => {
      await app.close();
      await accounts.shutdown();
    });

    /** A browser signed in (asserted), holding a fresh CSRF token. */
    async function signedIn(who: { email: string; password: string }): Promise<FormClient> {
      const client = new FormClient(url);
      const res = await client.signIn(who.email, who.password);
      assert.equal(res.status, 303, `${who.email} signs in`);
      await client.get('/');
      return client;
    }

    const sessionOf = (client: FormClient) => hashSecret(client.cookie('quarry_session') ?? '');

    /**
     * Changes the state in the database alone, as another instance or an older release
     * would, or a suspension whose session store did not answer: the session is left behind.
     */
    const setStateBehindTheService = (account: Account, state: AccountState) =>
      store.updateAccount(account.id, { state, stateChangedAt: Date.now() });

    /** The request was refused for the account's state, said whom to contact, and ended the session. */
    async function assertRefused(
      client: FormClient,
      session: string,
      res: { status: number; text: string },
      state: keyof typeof CODE_OF_STATE,
      what: string,
    ) {
      assert.equal(res.status, 403, `${what}: ${res.text.slice(0, 200)}`);
      const json = res.text.startsWith('{') ? (JSON.parse(res.text) as { errors: { query: { code: string } } }) : null;
      assert.equal(json ? json.errors.query.code : codeOf(res.text), CODE_OF_STATE[state], what);
      assert.ok(res.text.includes(`contact ${CONTACT}`), `${what} says whom to contact`);
      assert.equal(client.cookie('quarry_session'), undefined, `${what} clears the cookie`);
      assert.equal(await sessions.sessionById(session), undefined, `${what} ends the session`);
    }

    describe('sign-in', () => {
      for (const state of REFUSED_STATES) {
        test(`a ${state} account's password is refused: 403 saying so, no session`, async () => {
          await setStateBehindTheService(holder, state);
          const client = new FormClient(url);
          const res = await client.signIn(HOLDER.email, HOLDER.password);
          assert.equal(res.status, 403);
          assert.equal(codeOf(res.text), CODE_OF_STATE[state]);
          assert.ok(res.text.includes(`contact ${CONTACT}`));
          assert.match(res.text, /<h2 id="sign-in-title">Sign in<\/h2>/, 'the sign-in forms again');
          assert.equal(client.cookie('quarry_session'), undefined);
          // A wrong password still says only that the credentials are wrong.
          const wrong = await new FormClient(url).signIn(HOLDER.email, 'not the password');
          assert.equal(codeOf(wrong.text), 'SERVICE_CREDENTIALS_INVALID');
        });

        test(`a ${state} account's login code is refused: 403 saying so, no session`, async () => {
          // A code issued while the account was active (codes are no longer issued otherwise).
          const code = newLoginCode();
          const now = Date.now();
          await webStore.saveLoginCode({
            codeHash: hashSecret(normaliseLoginCode(code)),
            accountId: holder.id,
            createdAt: now,
            expiresAt: now + LOGIN_CODE_LIFETIME_MS,
          });
          await setStateBehindTheService(holder, state);
          const client = new FormClient(url);
          await client.get('/');
          const res = await client.post('/sign-in/code', { email: HOLDER.email, code });
          assert.equal(res.status, 403);
          assert.equal(codeOf(res.text), CODE_OF_STATE[state]);
          assert.ok(res.text.includes(`contact ${CONTACT}`));
          assert.equal(client.cookie('quarry_session'), undefined);
        });
      }

      test('a closed administrator cannot sign in again, so /admin stays shut', async () => {
        await accounts.close(admin.id);
        const client = new FormClient(url);
        const res = await client.signIn(ADMIN.email, ADMIN.password);
        assert.equal(res.status, 403);
        assert.equal(codeOf(res.text), 'SERVICE_ACCOUNT_CLOSED');
        const page = await client.get('/admin');
        assert.equal(page.status, 303);
        assert.equal(page.headers.get('location'), '/?next=%2Fadmin#sign-in');
      });

      test('a stale session of a suspended account does not stand in the way of signing in as another', async () => {
        const client = await signedIn(HOLDER);
        await setStateBehindTheService(holder, 'suspended');
        const res = await client.post('/sign-in', { email: OTHER.email, password: OTHER.password, next: '/account' });
        assert.equal(res.status, 303);
        const page = await client.get('/account');
        assert.equal(page.status, 200);
        assert.ok(page.text.includes(OTHER.email));
      });
    });

    describe('suspending or closing ends the sessions', () => {
      test("through the service (the command line's way): every session of the account, no other's", async () => {
        for (const action of ['suspend', 'close'] as const) {
          if (action === 'close') await accounts.activate(holder.id);
          const first = await signedIn(HOLDER);
          const second = await signedIn(HOLDER);
          const bystander = await signedIn(OTHER);
          await accounts[action](holder.id);
          assert.equal(await sessions.sessionById(sessionOf(first)), undefined, `${action}: first session`);
          assert.equal(await sessions.sessionById(sessionOf(second)), undefined, `${action}: second session`);
          assert.ok(await sessions.sessionById(sessionOf(bystander)), `${action}: another account's session stays`);
          assert.equal((await first.get('/account')).status, 303, `${action}: sent to sign in`);
          const key = await second.post('/keys', { name: 'after' });
          assert.equal(key.status, 401, `${action}: no key for a session that ended`);
          assert.equal(codeOf(key.text), 'WEB_SIGN_IN_REQUIRED');
          assert.equal((await bystander.get('/account')).status, 200);
        }
        assert.deepEqual(await accounts.listKeys(holder.id), [], 'no key was made');
      });

      test('through the administration page: the holder is signed out at once', async () => {
        const holderBrowser = await signedIn(HOLDER);
        const adminBrowser = await signedIn(ADMIN);
        await adminBrowser.get('/admin');
        const done = await adminBrowser.post(`/admin/accounts/${holder.id}/suspend`, { confirm: 'yes' });
        assert.equal(done.status, 303);
        assert.equal(await sessions.sessionById(sessionOf(holderBrowser)), undefined);
        assert.equal((await holderBrowser.get('/account')).status, 303);
        assert.equal((await adminBrowser.get('/admin')).status, 200, "the administrator's own session stays");
      });
    });

    describe('a session that outlives the change', () => {
      test('is refused and ended on every page and form of the holder, and no key is made or changed', async () => {
        const { info } = await accounts.createKey(holder.id, 'laptop');
        const requests: Array<[string, (c: FormClient) => Promise<{ status: number; text: string }>]> = [
          ['GET /', (c) => c.get('/')],
          ['GET /account', (c) => c.get('/account')],
          ['GET /console', (c) => c.get('/console')],
          ['GET /keys/:id/revoke', (c) => c.get(`/keys/${info.id}/revoke?back=/account`)],
          ['POST /keys', (c) => c.post('/keys', { name: 'new' })],
          ['POST /account/keys', (c) => c.post('/account/keys', { name: 'new' })],
          ['POST /keys/:id/rotate', (c) => c.post(`/keys/${info.id}/rotate`, { back: '/account' })],
          ['POST /keys/:id/revoke', (c) => c.post(`/keys/${info.id}/revoke`, { confirm: 'yes', back: '/' })],
          [
            'POST /account/password',
            (c) =>
              c.post('/account/password', {
                current: HOLDER.password,
                password: 'a new password',
                confirm: 'a new password',
              }),
          ],
          ['POST /console/api/query', (c) => c.postJson('/console/api/query', { query: 'describe version' })],
          ['POST /sign-out', (c) => c.post('/sign-out')],
        ];
        for (const [i, [what, send]] of requests.entries()) {
          const state = REFUSED_STATES[i % REFUSED_STATES.length]!;
          await setStateBehindTheService(holder, 'active');
          const client = await signedIn(HOLDER);
          const session = sessionOf(client);
          await setStateBehindTheService(holder, state);
          await assertRefused(client, session, await send(client), state, `${what} (${state})`);
          assert.equal((await client.get('/account')).status, 303, `${what}: signed out afterwards`);
        }
        const keys = await accounts.listKeys(holder.id);
        assert.deepEqual(
          keys.map((k) => [k.name, k.revokedAt]),
          [['laptop', null]],
        );
        assert.ok(await accounts.verifyPassword(HOLDER.email, HOLDER.password), 'the password is unchanged');
      });

      test("is refused and ended on every administration page and action, and the administrator's powers are gone", async () => {
        const pending = await accounts.createAccount({ email: 'pat@example.org' });
        const requests: Array<[string, (c: FormClient) => Promise<{ status: number; text: string }>]> = [
          ['GET /admin', (c) => c.get('/admin')],
          ['POST login-code', (c) => c.post(`/admin/accounts/${other.id}/login-code`)],
          ['GET suspend', (c) => c.get(`/admin/accounts/${other.id}/suspend`)],
          ['POST suspend', (c) => c.post(`/admin/accounts/${other.id}/suspend`, { confirm: 'yes' })],
          ['POST activate', (c) => c.post(`/admin/accounts/${pending.id}/activate`)],
          [
            'POST subscription',
            (c) => c.post(`/admin/accounts/${other.id}/subscription`, { families: ['auth'], sources: 'grants' }),
          ],
        ];
        for (const [i, [what, send]] of requests.entries()) {
          const state = REFUSED_STATES[i % REFUSED_STATES.length]!;
          await setStateBehindTheService(admin, 'active');
          const client = await signedIn(ADMIN);
          await client.get('/admin');
          const session = sessionOf(client);
          await setStateBehindTheService(admin, state);
          await assertRefused(client, session, await send(client), state, `${what} (${state})`);
        }
        assert.equal(codesSaved, 0, 'no login code was issued');
        assert.equal((await accounts.getAccount(other.id)).state, 'active');
        assert.deepEqual((await accounts.getAccount(other.id)).subscription, other.subscription);
        assert.equal((await accounts.getAccount(pending.id)).state, 'pending');
      });
    });

    test('an administrator gets no login code for an account that is not active, and is not offered one', async () => {
      const client = await signedIn(ADMIN);
      await accounts.suspend(other.id);
      const pending = await accounts.createAccount({ email: 'pat@example.org' });
      const page = await client.get('/admin');
      assert.ok(!page.text.includes(`Issue a login code for ${OTHER.email}`), 'no button for the suspended account');
      assert.ok(!page.text.includes('Issue a login code for pat@example.org'), 'no button for the pending account');
      assert.ok(page.text.includes(`Issue a login code for ${HOLDER.email}`), 'a button for the active account');
      for (const [account, state] of [
        [other, 'suspended'],
        [pending, 'pending'],
      ] as const) {
        const res = await client.post(`/admin/accounts/${account.id}/login-code`);
        assert.equal(res.status, 409);
        assert.equal(codeOf(res.text), 'WEB_LOGIN_CODE_ACCOUNT_INACTIVE');
        assert.ok(res.text.includes(`${account.email} is ${state}, and only an active account may sign in`));
      }
      assert.equal(codesSaved, 0);
      assert.equal((await client.post(`/admin/accounts/${holder.id}/login-code`)).status, 303);
      assert.equal(codesSaved, 1);
    });
  });
}
