/**
 * The token records' storage contract: what the token service needs from a database,
 * whichever database it is, and nothing else of the account side. SQLite
 * (`sqlite/token-store.ts`) and PostgreSQL (`postgres/token-store.ts`) implement it on the
 * account tables' connection (a look-up joins the token's account and key); the composition
 * root (`src/backends.ts`) picks one. Tokens arrive hashed: an implementation never sees a
 * token or a JWT's `jti`. All times are milliseconds since the epoch.
 */
import type { AccountState, Family } from '../identity/account-types.ts';

export interface TokenStore {
  /** Records an issued token. */
  insertToken(row: TokenRow): Promise<void>;
  /**
   * The token with the state of its account and key, in one indexed lookup: revoking the key
   * or suspending the account reaches every token issued for it.
   */
  tokenById(id: string): Promise<TokenView | undefined>;
  /** Removes the records of tokens that expired before `at`; returns how many. */
  deleteTokensExpiredBefore(at: number): Promise<number>;
}

export interface TokenRow {
  /** SHA-256 of an opaque token, or of the `jti` of a JWT (never the token or `jti` itself). */
  readonly id: string;
  readonly kind: 'opaque' | 'jwt';
  readonly accountId: number;
  readonly keyId: number | null;
  readonly family: Family;
  readonly issuedAt: number;
  readonly expiresAt: number;
}

export interface TokenView extends TokenRow {
  readonly accountState: AccountState;
  readonly keyRevokedAt: number | null;
}
