import { errors as joseErrors, jwtVerify, SignJWT } from 'jose';
import type { Family } from '../identity/account-types.ts';

const ALGORITHM = 'HS256';

/**
 * What a Quarry JWT asserts: the account (`sub`), the API key it was issued for (`key`, null
 * for a password login) and the family (`family`). The stored token record must agree with
 * every one of them, so a token re-signed with changed claims is refused even when the
 * signing secret is known.
 */
export interface JwtClaims {
  readonly sub: string;
  readonly jti: string;
  readonly iat: number;
  readonly exp: number;
  readonly key: number | null;
  readonly family: Family;
}

/**
 * The signing key for a secret. The secret comes from outside the database (the composition
 * root resolves it: `QUARRY_JWT_SECRET`, a secret file): one read from the database would
 * let whoever can read it sign tokens.
 */
export function jwtKey(secret: string): Uint8Array {
  return new TextEncoder().encode(secret);
}

/** Signs a JWT (HS256) with `sub`, `jti`, `iat`, `exp` (seconds), `key` and `family`. */
export function signJwt(secret: Uint8Array, claims: JwtClaims): Promise<string> {
  return new SignJWT({ key: claims.key, family: claims.family })
    .setProtectedHeader({ alg: ALGORITHM, typ: 'JWT' })
    .setSubject(claims.sub)
    .setJti(claims.jti)
    .setIssuedAt(claims.iat)
    .setExpirationTime(claims.exp)
    .sign(secret);
}

export type JwtCheck =
  { readonly ok: true; readonly claims: JwtClaims } | { readonly ok: false; readonly reason: 'expired' | 'invalid' };

/** Verifies signature, algorithm and expiry at `nowMs`; never throws for a bad token. */
export async function verifyJwt(secret: Uint8Array, token: string, nowMs: number): Promise<JwtCheck> {
  try {
    const { payload } = await jwtVerify(token, secret, {
      algorithms: [ALGORITHM],
      currentDate: new Date(nowMs),
      clockTolerance: 0,
    });
    const { sub, jti, iat, exp, key, family } = payload;
    if (
      typeof sub !== 'string' ||
      typeof jti !== 'string' ||
      exp === undefined ||
      iat === undefined ||
      !(key === null || (typeof key === 'number' && Number.isSafeInteger(key))) ||
      (family !== 'auth' && family !== 'token')
    ) {
      return { ok: false, reason: 'invalid' };
    }
    return { ok: true, claims: { sub, jti, iat, exp, key, family } };
  } catch (error) {
    return { ok: false, reason: error instanceof joseErrors.JWTExpired ? 'expired' : 'invalid' };
  }
}
