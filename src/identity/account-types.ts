/** The API families of spec/protocol.md: token-path (`/v2`, `/v3`) and auth-path (`/api/...`). */
export const FAMILIES = ['token', 'auth'] as const;
export type Family = (typeof FAMILIES)[number];

/** pending → active ⇄ suspended → closed (closed from any other state; never reopened). */
export const ACCOUNT_STATES = ['pending', 'active', 'suspended', 'closed'] as const;
export type AccountState = (typeof ACCOUNT_STATES)[number];

/** What an account may use. `sources: 'all'` follows whatever sources the deployment has. */
export interface Subscription {
  readonly families: readonly Family[];
  readonly sources: readonly string[] | 'all';
}

/** Per-account rate-limit overrides for query requests; absent members use the family default. */
export interface LimitOverrides {
  /** Query requests allowed per window. */
  readonly queriesPerWindow?: number;
  /** The window length in seconds. */
  readonly windowSeconds?: number;
}

export interface Account {
  readonly id: number;
  readonly email: string;
  readonly name: string | null;
  /** Only legacy accounts that log in with username and password have one. */
  readonly username: string | null;
  readonly hasPassword: boolean;
  readonly state: AccountState;
  readonly subscription: Subscription;
  readonly limits: LimitOverrides;
  /** ISO 8601. */
  readonly createdAt: string;
  readonly stateChangedAt: string;
}

/** An API key as it can be shown after creation: never the key itself. */
export interface ApiKeyInfo {
  readonly id: number;
  readonly accountId: number;
  readonly name: string;
  /** The first characters of the key (`qry_AbCdEf`), to tell keys apart in a list. */
  readonly prefix: string;
  readonly createdAt: string;
  readonly lastUsedAt: string | null;
  /** When the key stops or stopped working: in the future for an expiry or a rotation's grace period. */
  readonly revokedAt: string | null;
}

/** Requests and rate-limit rejections of one account on one UTC day. */
export interface DailyUsage {
  /** `YYYY-MM-DD` (UTC). */
  readonly day: string;
  readonly requests: number;
  readonly rejections: number;
}
