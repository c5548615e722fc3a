import type { AccountService } from '../accounts/service.ts';
import type { TokenRow, TokenStore } from '../store/tokens.ts';
import type { Account, Family } from '../identity/account-types.ts';
import { requireActive } from '../accounts/standing.ts';
import { QuarryError } from '../errors/index.ts';
import type { Clock } from '../identity/clock.ts';
import { signJwt, verifyJwt, type JwtClaims } from './jwt.ts';
import type { Principal } from './principal.ts';
import { hashSecret, randomSecret } from './secrets.ts';

/** Credentials as the auth-path sends them; empty strings count as absent. */
export interface LoginCredentials {
  readonly key?: string | undefined;
  readonly username?: string | undefined;
  readonly password?: string | undefined;
}

export interface TokenServiceOptions {
  /** Who may log in: keys, passwords and the accounts behind tokens. */
  readonly accounts: AccountService;
  /** Where the issued tokens are recorded. */
  readonly store: TokenStore;
  readonly clock: Clock;
  readonly jwtSecret: Uint8Array;
  /** Token lifetime per family, in seconds. */
  readonly lifetimeSeconds: Readonly<Record<Family, number>>;
  /** Who to contact about an account, for 403 messages ("admin@example.org"). */
  readonly contact: string;
}

/** Where each family logs in, for the "log in again" messages. */
export const LOGIN_PATHS: Readonly<Record<Family, string>> = {
  token: 'GET /v3/token?api_key=...',
  auth: 'POST /api/auth',
};

/**
 * Exchanges credentials for tokens and tokens for principals. Token-path tokens are opaque
 * (256 random bits); auth-path tokens are JWTs whose `jti` (128 random bits) names their
 * record. Only the SHA-256 of either is stored, so a read of the database does not yield a
 * token, nor a `jti` to sign one with. Either way each check looks the token up, so
 * revoking a key or suspending an account takes effect on the next request.
 */
export class TokenService {
  readonly #o: TokenServiceOptions;

  constructor(options: TokenServiceOptions) {
    this.#o = options;
  }

  /** `GET /v2|v3/token`: an API key for an opaque token. `path` is quoted when the key is missing. */
  async issueOpaque(apiKey: string | undefined, path = '/v3/token'): Promise<string> {
    const { account, keyId } = await this.#login({ key: apiKey }, 'token', path);
    const token = randomSecret(32);
    await this.#record(hashSecret(token), 'opaque', account, keyId, 'token');
    return token;
  }

  /** `POST /api/auth`: a key (preferred) or username and password for a JWT. */
  async issueJwt(credentials: LoginCredentials): Promise<string> {
    const { account, keyId } = await this.#login(credentials, 'auth');
    const jti = randomSecret(16);
    const { issuedAt, expiresAt } = await this.#record(hashSecret(jti), 'jwt', account, keyId, 'auth');
    return signJwt(this.#o.jwtSecret, {
      sub: String(account.id),
      jti,
      iat: Math.floor(issuedAt / 1000),
      exp: Math.floor(expiresAt / 1000),
      key: keyId,
      family: 'auth',
    });
  }

  /**
   * The principal of an API key presented as is (the MCP endpoint's `Authorization: Bearer
   * <key>`): the same lookup and standing checks `GET /v2/token?api_key=` makes, with no token
   * issued. A missing, unknown or revoked key is SERVICE_CREDENTIALS_INVALID (401); an account
   * that is not active, or not subscribed to `family`, a permission error (403).
   */
  async principalForKey(apiKey: string, family: Family = 'token'): Promise<Principal> {
    const { account, keyId } = await this.#login({ key: apiKey }, family);
    return this.principalFor(account, family, keyId);
  }

  /** The principal behind an opaque token, or a token/permission error (HTTP 403). */
  async verifyOpaque(presented: string): Promise<Principal> {
    return this.#check(hashSecret(presented.trim()), { kind: 'opaque', family: 'token' });
  }

  /** The principal behind a JWT, or a token/permission error (HTTP 403). */
  async verifyJwt(presented: string): Promise<Principal> {
    const check = await verifyJwt(this.#o.jwtSecret, presented.trim(), this.#o.clock.now());
    if (!check.ok) {
      throw QuarryError.of(check.reason === 'expired' ? 'SERVICE_TOKEN_EXPIRED' : 'SERVICE_TOKEN_INVALID', {
        params: { loginPath: LOGIN_PATHS.auth },
      });
    }
    const { jti, sub, key, family } = check.claims;
    return this.#check(hashSecret(jti), { kind: 'jwt', family: 'auth', claims: { sub, key, family } });
  }

  /** Removes token records that expired more than a day ago. */
  async purgeExpired(): Promise<number> {
    return this.#o.store.deleteTokensExpiredBefore(this.#o.clock.now() - 24 * 3600 * 1000);
  }

  async #login(
    credentials: LoginCredentials,
    family: Family,
    path = '/v3/token',
  ): Promise<{ account: Account; keyId: number | null }> {
    const key = present(credentials.key);
    const username = present(credentials.username);
    const password = present(credentials.password);
    let found: { account: Account; keyId: number | null } | undefined;
    if (key !== undefined) {
      const resolved = await this.#o.accounts.resolveKey(key);
      if (resolved) found = { account: resolved.account, keyId: resolved.key.id };
    } else if (username !== undefined && password !== undefined) {
      const account = await this.#o.accounts.verifyPassword(username, password);
      if (account) found = { account, keyId: null };
    } else {
      throw QuarryError.of(family === 'token' ? 'SERVICE_API_KEY_MISSING' : 'SERVICE_CREDENTIALS_MISSING', {
        params: { path },
      });
    }
    if (!found) throw QuarryError.of('SERVICE_CREDENTIALS_INVALID');
    this.#requireStanding(found.account.state, found.account.subscription.families, family);
    return found;
  }

  async #record(id: string, kind: 'opaque' | 'jwt', account: Account, keyId: number | null, family: Family) {
    const issuedAt = this.#o.clock.now();
    const expiresAt = issuedAt + this.#o.lifetimeSeconds[family] * 1000;
    await this.#o.store.insertToken({ id, kind, accountId: account.id, keyId, family, issuedAt, expiresAt });
    return { issuedAt, expiresAt };
  }

  /**
   * The principal behind a stored token. The record must be of the kind and family the
   * endpoint expects and, for a JWT, agree with its account, key and family claims: a
   * token is refused as invalid when any of them differs.
   */
  async #check(id: string, expected: ExpectedToken): Promise<Principal> {
    const { family } = expected;
    const loginPath = LOGIN_PATHS[family];
    const token = await this.#o.store.tokenById(id);
    if (!token || !matches(token, expected)) throw QuarryError.of('SERVICE_TOKEN_INVALID', { params: { loginPath } });
    if (token.expiresAt <= this.#o.clock.now())
      throw QuarryError.of('SERVICE_TOKEN_EXPIRED', { params: { loginPath } });
    // A key's end may lie ahead (an expiry, a rotation's grace period): until then it works.
    if (token.keyRevokedAt !== null && token.keyRevokedAt <= this.#o.clock.now())
      throw QuarryError.of('SERVICE_TOKEN_REVOKED', { params: { loginPath } });
    const account = await this.#o.accounts.findAccount(token.accountId);
    if (!account) throw QuarryError.of('SERVICE_TOKEN_INVALID', { params: { loginPath } });
    return this.principalFor(account, family, token.keyId);
  }

  /**
   * The principal of an account acting in a family without a token (the web console, for a
   * signed-in holder), after the same checks a token gets: an active account subscribed to
   * the family, else 403.
   */
  principalFor(account: Account, family: Family, keyId: number | null = null): Principal {
    this.#requireStanding(account.state, account.subscription.families, family);
    return { accountId: account.id, keyId, family, subscription: account.subscription, limits: account.limits };
  }

  /** Only an active account subscribed to the family may get or use a token. */
  #requireStanding(state: Account['state'], families: readonly Family[], family: Family): void {
    const contact = this.#o.contact;
    requireActive({ state }, contact);
    if (!families.includes(family)) {
      throw QuarryError.of('SERVICE_FAMILY_NOT_SUBSCRIBED', {
        params: { family: family === 'token' ? 'token-path (/v2, /v3)' : 'auth-path (/api/dsl)', contact },
      });
    }
  }
}

/** What the endpoint and the presented token say the stored record must be. */
interface ExpectedToken {
  readonly kind: TokenRow['kind'];
  readonly family: Family;
  /** A JWT's claims; an opaque token carries none. */
  readonly claims?: Pick<JwtClaims, 'sub' | 'key' | 'family'>;
}

function matches(token: TokenRow, expected: ExpectedToken): boolean {
  if (token.kind !== expected.kind || token.family !== expected.family) return false;
  const claims = expected.claims;
  if (claims === undefined) return true;
  return claims.sub === String(token.accountId) && claims.key === token.keyId && claims.family === token.family;
}

/** Empty strings (and non-strings) count as absent: clients send all three fields. */
function present(value: unknown): string | undefined {
  return typeof value === 'string' && value.trim() !== '' ? value : undefined;
}
