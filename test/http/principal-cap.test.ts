import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { opaqueToken, QUERY, testApp, type TestApp } from './helpers/app.ts';

// Issue 12: past the per-principal cap of queries at once the engine refuses a query;
// over HTTP that is 429 with Retry-After, not a 504 after the time limit.
describe('the per-principal cap over HTTP', () => {
  let t: TestApp;
  let token: string;
  before(async () => {
    t = await testApp({ config: { rateLimits: { enabled: false } } });
    token = await opaqueToken(t);
  });
  after(() => t.close());

  test('the engine learns who sends each query (the account id)', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/v3/api/query',
      headers: { authorization: `Bearer ${token}` },
      payload: QUERY,
    });
    assert.equal(res.statusCode, 200);
    const account = await t.accounts.getAccount(t.email);
    assert.equal(t.engine.calls.at(-1)?.options.principal, String(account.id));
  });

  test('ENGINE_PRINCIPAL_BUSY answers 429 with Retry-After in the protocol body', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/v3/api/query',
      headers: { authorization: `Bearer ${token}` },
      payload: 'search publications for "BUSY" return publications',
    });
    assert.equal(res.statusCode, 429);
    assert.equal(res.headers['retry-after'], '1');
    const error = res.json().errors.query;
    assert.equal(error.code, 'ENGINE_PRINCIPAL_BUSY');
    assert.equal(error.header, 'Rate Limit Exceeded');
    assert.match(error.details[0], /4 queries running or waiting.*Retry after 1 seconds/);
  });
});
