import assert from 'node:assert/strict';
import { afterEach, beforeEach, describe, test } from 'node:test';
import { decodeJwt } from 'jose';
import { signJwt, type JwtClaims } from '../../src/auth/jwt.ts';
import { hashSecret } from '../../src/auth/secrets.ts';
import { jwtToken, opaqueToken, QUERY, testApp, type TestApp } from './helpers/app.ts';

// Issue 12: the stored token's account, key and family must all match what the token
// claims. The attacker here knows the real signing secret (taken from the app's
// configuration) and re-signs a genuine token with one claim changed.
describe('a token whose claims disagree with its stored record is refused with 403', () => {
  let t: TestApp;
  let secret: Uint8Array;
  beforeEach(async () => {
    t = await testApp({ config: { rateLimits: { enabled: false } } });
    secret = new TextEncoder().encode(t.config.tokens.jwtSecret ?? '');
  });
  afterEach(() => t.close());

  const queryWithJwt = (token: string) =>
    t.app.inject({
      method: 'POST',
      url: '/api/dsl/v2',
      headers: { authorization: `JWT ${token}` },
      payload: QUERY,
    });
  const claimsOf = (token: string) => decodeJwt(token) as unknown as JwtClaims;
  const assertInvalid = async (token: string) => {
    const res = await queryWithJwt(token);
    assert.equal(res.statusCode, 403, res.body);
    const error = res.json().errors.query;
    assert.equal(error.code, 'SERVICE_TOKEN_INVALID');
    assert.equal(error.header, 'Authentication Error');
    assert.match(error.details[0], /Log in again at POST \/api\/auth/);
  };

  test('re-signing the genuine claims with the real secret still works (the attack below is real)', async () => {
    const genuine = await jwtToken(t);
    const resigned = await signJwt(secret, claimsOf(genuine));
    assert.notEqual(resigned, '');
    assert.equal((await queryWithJwt(resigned)).statusCode, 200);
  });

  test('sub changed to another account and re-signed: 403 SERVICE_TOKEN_INVALID', async () => {
    const other = await t.accounts.createAccount({ email: 'bo@example.org', activate: true });
    await t.accounts.createKey('bo@example.org');
    const genuine = await jwtToken(t);
    assert.notEqual(String(other.id), claimsOf(genuine).sub);
    await assertInvalid(await signJwt(secret, { ...claimsOf(genuine), sub: String(other.id) }));
  });

  test("key swapped for another of the account's keys, or dropped, and re-signed: 403", async () => {
    const genuine = await jwtToken(t);
    const { info } = await t.accounts.createKey(t.email, 'second');
    assert.notEqual(info.id, claimsOf(genuine).key);
    await assertInvalid(await signJwt(secret, { ...claimsOf(genuine), key: info.id }));
    await assertInvalid(await signJwt(secret, { ...claimsOf(genuine), key: null }));
  });

  test('family swapped to token-path and re-signed: 403', async () => {
    const genuine = await jwtToken(t);
    assert.equal(claimsOf(genuine).family, 'auth');
    await assertInvalid(await signJwt(secret, { ...claimsOf(genuine), family: 'token' }));
  });

  test("a JWT naming an opaque token's record (its hash as jti) with matching claims: 403", async () => {
    const opaque = await opaqueToken(t);
    const genuine = await jwtToken(t);
    const claims = claimsOf(genuine);
    await assertInvalid(await signJwt(secret, { ...claims, jti: hashSecret(opaque) }));
    await assertInvalid(await signJwt(secret, { ...claims, jti: hashSecret(opaque), family: 'token' }));
  });

  test('an opaque token works only on the token-path family; a JWT is no opaque token', async () => {
    const opaque = await opaqueToken(t);
    const jwt = await jwtToken(t);
    const onTokenPath = (token: string) =>
      t.app.inject({
        method: 'POST',
        url: '/v3/api/query',
        headers: { authorization: `Bearer ${token}` },
        payload: QUERY,
      });
    assert.equal((await onTokenPath(opaque)).statusCode, 200);
    const jwtAsOpaque = await onTokenPath(jwt);
    assert.equal(jwtAsOpaque.statusCode, 403);
    assert.equal(jwtAsOpaque.json().errors.query.code, 'SERVICE_TOKEN_INVALID');
    await assertInvalid(opaque);
  });
});
