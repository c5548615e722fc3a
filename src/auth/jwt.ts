import { errors as joseErrors, jwtVerify, SignJWT } from 'jose';
import type { AccountStore } from '../accounts/store.ts';
import { randomSecret } from './secrets.ts';

const ALGORITHM = 'HS256';
const SECRET_SETTING = 'jwt_secret';

export interface JwtClaims {
  readonly sub: string;
  readonly jti: string;
  readonly iat: number;
  readonly exp: number;
}

/**
 * The signing secret: the configured one, else the one persisted in the database, else a
 * new random one persisted now (so tokens survive restarts and are shared by instances on
 * the same database).
 */
export async function resolveJwtSecret(store: AccountStore, configured?: string): Promise<Uint8Array> {
  const secret = configured ?? (await store.settingOrInsert(SECRET_SETTING, randomSecret(32)));
  return new TextEncoder().encode(secret);
}

/** Signs a JWT (HS256) with `sub`, `jti`, `iat` and `exp` (seconds). */
export function signJwt(secret: Uint8Array, claims: JwtClaims): Promise<string> {
  return new SignJWT({})
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
    if (
      typeof payload.sub !== 'string' ||
      typeof payload.jti !== 'string' ||
      payload.exp === undefined ||
      payload.iat === undefined
    ) {
      return { ok: false, reason: 'invalid' };
    }
    return { ok: true, claims: { sub: payload.sub, jti: payload.jti, iat: payload.iat, exp: payload.exp } };
  } catch (error) {
    return { ok: false, reason: error instanceof joseErrors.JWTExpired ? 'expired' : 'invalid' };
  }
}
