import type { Family, LimitOverrides, Subscription } from '../identity/account-types.ts';

/** Who is behind a request that presented a valid token. */
export interface Principal {
  readonly accountId: number;
  /** The API key the token was issued for; null for a username/password login. */
  readonly keyId: number | null;
  readonly family: Family;
  readonly subscription: Subscription;
  readonly limits: LimitOverrides;
}
