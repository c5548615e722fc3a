import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { decodeJwt, SignJWT } from 'jose';
import { hashPassword, verifyPassword } from '../../src/auth/passwords.ts';
import { constantTimeEqual, hashSecret, newApiKey, randomSecret } from '../../src/auth/secrets.ts';
import { signJwt, verifyJwt } from '../../src/auth/jwt.ts';

describe('secrets, passwords and JWTs', () => {
  test('random secrets carry 256 bits by default and do not repeat', () => {
    const seen = new Set(Array.from({ length: 200 }, () => randomSecret()));
    assert.equal(seen.size, 200);
    for (const s of seen) assert.equal(Buffer.from(s, 'base64url').length, 32);
  });

  test('API keys are recognisable by their prefix', () => {
    assert.match(newApiKey(), /^qry_/);
  });

  test('hashSecret is SHA-256 in base64url', () => {
    assert.equal(hashSecret('abc'), 'ungWv48Bz-pBQUDeXa4iI7ADYaOWF3qctBD_YfIAFa0');
    assert.ok(constantTimeEqual('abc', 'abc'));
    assert.ok(!constantTimeEqual('abc', 'abd'));
    assert.ok(!constantTimeEqual('abc', 'abcd'));
  });

  test('scrypt password hashes are salted and verify only the right password', async () => {
    const a = await hashPassword('Pässwörd 1');
    const b = await hashPassword('Pässwörd 1');
    assert.notEqual(a, b);
    assert.ok(await verifyPassword('Pässwörd 1', a));
    assert.ok(!(await verifyPassword('Pässwörd 2', a)));
    assert.ok(!(await verifyPassword('Pässwörd 1', 'scrypt$1$1$1$$')));
    assert.ok(!(await verifyPassword('x', 'bcrypt$whatever')));
  });

  test('JWTs: HS256, claims set, expiry judged on the given clock, tampering refused', async () => {
    const secret = new TextEncoder().encode('s'.repeat(32));
    const claims = { sub: '7', jti: 'j1', iat: 1000, exp: 2000, key: 3, family: 'auth' } as const;
    const token = await signJwt(secret, claims);
    assert.deepEqual(decodeJwt(token), claims);
    assert.deepEqual(await verifyJwt(secret, token, 1_999_000), { ok: true, claims });
    const passwordLogin = await signJwt(secret, { ...claims, key: null });
    assert.deepEqual(await verifyJwt(secret, passwordLogin, 1_999_000), { ok: true, claims: { ...claims, key: null } });
    // A token without the key and family claims (or with ill-typed ones) is not ours.
    for (const payload of [
      {},
      { key: 3 },
      { family: 'auth' },
      { key: '3', family: 'auth' },
      { key: 3, family: 'web' },
    ]) {
      const partial = await new SignJWT(payload)
        .setProtectedHeader({ alg: 'HS256' })
        .setSubject('7')
        .setJti('j1')
        .setIssuedAt(1000)
        .setExpirationTime(2000)
        .sign(secret);
      assert.deepEqual(
        await verifyJwt(secret, partial, 1_500_000),
        { ok: false, reason: 'invalid' },
        JSON.stringify(payload),
      );
    }
    assert.deepEqual(await verifyJwt(secret, token, 2_000_000), { ok: false, reason: 'expired' });
    assert.deepEqual(await verifyJwt(new TextEncoder().encode('t'.repeat(32)), token, 1_500_000), {
      ok: false,
      reason: 'invalid',
    });
    const none = `${Buffer.from('{"alg":"none"}').toString('base64url')}.${token.split('.')[1]}.`;
    assert.deepEqual(await verifyJwt(secret, none, 1_500_000), { ok: false, reason: 'invalid' });
  });
});
