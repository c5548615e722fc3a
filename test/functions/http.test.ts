// A statement function goes through the query endpoints like any query: the JSON answer on
// the auth-path (/api/dsl/v2, what the Python client calls), the account's subscription,
// a positioned 400 for a bad argument, and the same rate limit as searches.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { FastifyInstance } from 'fastify';
import { AccountService } from '../../src/accounts/service.ts';
import { loadConfig } from '../../src/config.ts';
import { createSqliteEngine } from '../../src/engine/backends/sqlite/engine.ts';
import type { QueryEngine } from '../../src/engine/types.ts';
import { build } from '../../src/http/app.ts';
import { manualClock } from '../../src/identity/clock.ts';
import { MemoryRateLimitStore } from '../../src/ratelimit/memory-store.ts';
import { openSqliteAccountStores } from '../../src/store/sqlite/account-store.ts';
import { TEST_JWT_SECRET } from '../http/helpers/app.ts';
import { functionsDatabase } from './fixture.ts';

describe('statement functions over HTTP', { timeout: 60_000 }, () => {
  let app: FastifyInstance;
  let engine: QueryEngine;
  let accounts: AccountService;
  let close: () => Promise<void>;
  const keys: Record<string, string> = {};

  before(async () => {
    const { accountStore: store, tokenStore } = openSqliteAccountStores(':memory:');
    const clock = manualClock('2023-03-01T12:00:00Z');
    accounts = new AccountService({ store, clock });
    engine = createSqliteEngine({ dbPath: functionsDatabase(), workers: 1, expensiveWorkers: 1 });
    const config = loadConfig({ overrides: { logLevel: 'silent', tokens: { jwtSecret: TEST_JWT_SECRET } } });
    for (const [email, sources] of [
      ['all@example.org', undefined],
      ['grants@example.org', ['grants']],
    ] as const) {
      await accounts.createAccount({
        email,
        activate: true,
        ...(sources === undefined ? {} : { subscription: { sources: [...sources] } }),
      });
      keys[email] = (await accounts.createKey(email, 'test')).key;
    }
    app = await build({
      config,
      engine,
      accounts,
      tokenStore,
      clock,
      rateLimitStore: new MemoryRateLimitStore(),
    });
    close = async () => {
      await app.close();
      await engine.close();
      await accounts.shutdown();
      await store.close();
    };
  });
  after(() => close());

  async function jwt(email: string, ip: string): Promise<string> {
    const res = await app.inject({
      method: 'POST',
      url: '/api/auth',
      payload: { key: keys[email] },
      remoteAddress: ip,
    });
    assert.equal(res.statusCode, 200, res.body);
    return res.json<{ token: string }>().token;
  }

  const dsl = (token: string, query: string, ip: string) =>
    app.inject({
      method: 'POST',
      url: '/api/dsl/v2',
      headers: { authorization: `JWT ${token}` },
      payload: query,
      remoteAddress: ip,
    });

  test('extract_grants answers {"grant_id": ...}', async () => {
    const token = await jwt('all@example.org', '10.1.0.1');
    const res = await dsl(token, 'extract_grants(grant_number="R01 CA123456", funder_name="NCI")', '10.1.0.1');
    assert.equal(res.statusCode, 200, res.body);
    assert.deepEqual(res.json(), { grant_id: 'grant.1002' });
  });

  test('check_researcher_ids answers the documented shape', async () => {
    const token = await jwt('all@example.org', '10.1.0.2');
    const res = await dsl(token, 'check_researcher_ids(["ur.0100000002.02"])', '10.1.0.2');
    assert.equal(res.statusCode, 200, res.body);
    assert.deepEqual(res.json(), {
      researcher_ids: [{ id: 'ur.0100000002.02', obsolete: 1, redirect: ['ur.0100000001.01'] }],
    });
  });

  test('a bad argument is a positioned 400', async () => {
    const token = await jwt('all@example.org', '10.1.0.3');
    const query = 'extract_grants(grant_number="R01", fundre="100000054")';
    const res = await dsl(token, query, '10.1.0.3');
    assert.equal(res.statusCode, 400, res.body);
    const body = res.json<{ errors: { query: { code: string; details: string[]; line: number; column: number } } }>();
    assert.equal(body.errors.query.code, 'SCHEMA_STATEMENT_ARGUMENTS');
    assert.match(body.errors.query.details.join('\n'), /did you mean 'fundref'/);
    assert.equal(body.errors.query.line, 1);
    assert.equal(body.errors.query.column, query.indexOf('fundre') + 1);
  });

  test('the subscription applies: researchers are needed for check_researcher_ids', async () => {
    const token = await jwt('grants@example.org', '10.1.0.4');
    const refused = await dsl(token, 'check_researcher_ids(["ur.0100000001.01"])', '10.1.0.4');
    assert.equal(refused.statusCode, 403, refused.body);
    const allowed = await dsl(token, 'extract_grants(grant_number="EP/K012345/1", funder_name="EPSRC")', '10.1.0.4');
    assert.equal(allowed.statusCode, 200, allowed.body);
    assert.deepEqual(allowed.json(), { grant_id: 'grant.1003' });
  });

  test('functions count against the rate limit like any query', async () => {
    const ip = '10.1.0.5';
    const token = await jwt('all@example.org', ip);
    let last = 0;
    for (let i = 0; i < 31; i++) {
      const res = await dsl(token, 'extract_grants(grant_number="CA123456")', ip);
      last = res.statusCode;
      if (i < 30) assert.equal(res.statusCode, 200, `request ${i + 1}: ${res.body}`);
    }
    assert.equal(last, 429);
  });
});
