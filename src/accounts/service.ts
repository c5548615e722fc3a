import { isQuarryError, QuarryError } from '../errors/index.ts';
import { systemClock, type Clock } from '../identity/clock.ts';
import { hashPassword, verifyPassword } from '../auth/passwords.ts';
import { displayPrefix, hashSecret, newApiKey, randomSecret } from '../auth/secrets.ts';
import type { AccountRow, AccountStore, KeyRow, SessionStore } from '../store/accounts.ts';
import {
  FAMILIES,
  type Account,
  type AccountState,
  type ApiKeyInfo,
  type DailyUsage,
  type Family,
  type LimitOverrides,
  type Subscription,
} from '../identity/account-types.ts';

/** An account named by its e-mail address (string) or its id (number). */
export type AccountRef = string | number;

export interface NewAccount {
  readonly email: string;
  readonly name?: string;
  /** Legacy login name; requires `password`. */
  readonly username?: string;
  readonly password?: string;
  /** Create the account active instead of pending. */
  readonly activate?: boolean;
  /** Defaults to every family and every source. */
  readonly subscription?: Partial<Subscription>;
}

/** The allowed moves between states; closing is allowed from any state but closed. */
const TRANSITIONS: Record<
  'activate' | 'suspend' | 'close',
  { readonly from: readonly AccountState[]; readonly to: AccountState }
> = {
  activate: { from: ['pending', 'suspended'], to: 'active' },
  suspend: { from: ['active'], to: 'suspended' },
  close: { from: ['pending', 'active', 'suspended'], to: 'closed' },
};

const MIN_PASSWORD_LENGTH = 8;
const SESSION_LIFETIME_MS = 7 * 24 * 3600 * 1000;
const DAY_MS = 24 * 3600 * 1000;

/**
 * Account lifecycle, API keys, passwords, web sessions and usage counters. The HTTP layer,
 * the web pages and the administration commands all go through this class; it holds the
 * rules (state transitions, what a key looks like, what is stored hashed), the store holds
 * the rows.
 *
 * @example
 * const accounts = new AccountService({ store: (await openAccountBackends(config)).accountStore });
 * await accounts.createAccount({ email: 'ana@example.org', activate: true });
 * const { key } = await accounts.createKey('ana@example.org', 'laptop'); // shown once
 */
export class AccountService {
  readonly store: AccountStore;
  readonly #sessions: SessionStore;
  readonly #clock: Clock;
  /** Usage counts not yet written, keyed by `accountId|day`; flushed in batches. */
  readonly #pendingUsage = new Map<string, { accountId: number; day: string; requests: number; rejections: number }>();
  readonly #flushTimer: NodeJS.Timeout;

  /** `sessions` defaults to the account store; a shared store (Redis) can hold them instead. */
  constructor(options: { store: AccountStore; sessions?: SessionStore; clock?: Clock; usageFlushMs?: number }) {
    this.store = options.store;
    this.#sessions = options.sessions ?? options.store;
    this.#clock = options.clock ?? systemClock;
    this.#flushTimer = setInterval(() => void this.flushUsage(), options.usageFlushMs ?? 2000);
    this.#flushTimer.unref();
  }

  /** Creates an account: pending unless `activate`, subscribed to everything unless told otherwise. */
  async createAccount(input: NewAccount): Promise<Account> {
    const email = input.email.trim();
    if (!/^[^\s@]+@[^\s@]+$/.test(email) || email.length > 254) {
      throw QuarryError.of('SERVICE_INVALID_ACCOUNT_INPUT', {
        params: { field: 'e-mail address', detail: `'${email}' is not an e-mail address` },
      });
    }
    if (await this.store.accountByEmail(email)) {
      throw QuarryError.of('SERVICE_ACCOUNT_EXISTS', { params: { field: 'e-mail address', value: email } });
    }
    const username = input.username?.trim() || null;
    if (username !== null) {
      if (input.password === undefined) {
        throw QuarryError.of('SERVICE_INVALID_ACCOUNT_INPUT', {
          params: { field: 'username', detail: 'a username needs a password' },
        });
      }
      if (await this.store.accountByUsername(username)) {
        throw QuarryError.of('SERVICE_ACCOUNT_EXISTS', { params: { field: 'username', value: username } });
      }
    }
    const passwordHash = input.password === undefined ? null : await hashPassword(checkPassword(input.password));
    const subscription = normaliseSubscription({ families: FAMILIES, sources: 'all', ...input.subscription });
    const now = this.#clock.now();
    const id = await this.store.insertAccount({
      email,
      name: input.name?.trim() || null,
      username,
      passwordHash,
      state: input.activate ? 'active' : 'pending',
      families: JSON.stringify(subscription.families),
      sources: subscription.sources === 'all' ? null : JSON.stringify(subscription.sources),
      limits: '{}',
      createdAt: now,
    });
    return this.getAccount(id);
  }

  /** The account, or SERVICE_ACCOUNT_NOT_FOUND. */
  async getAccount(ref: AccountRef): Promise<Account> {
    const row = await this.#row(ref);
    return toAccount(row);
  }

  /** The account, or undefined. */
  async findAccount(ref: AccountRef): Promise<Account | undefined> {
    const row =
      typeof ref === 'number' ? await this.store.accountById(ref) : await this.store.accountByEmail(ref.trim());
    return row ? toAccount(row) : undefined;
  }

  async listAccounts(): Promise<Account[]> {
    return (await this.store.listAccounts()).map(toAccount);
  }

  activate(ref: AccountRef): Promise<Account> {
    return this.#transition(ref, 'activate');
  }

  /**
   * Suspends an account: its tokens fail with 403 from the next request on, and its web
   * sessions end.
   */
  suspend(ref: AccountRef): Promise<Account> {
    return this.#transition(ref, 'suspend');
  }

  /**
   * Closes an account for good: its tokens fail with 403 from the next request on, and its
   * web sessions end.
   */
  close(ref: AccountRef): Promise<Account> {
    return this.#transition(ref, 'close');
  }

  /** Changes which families and sources an account may use; members left out stay as they are. */
  async subscribe(ref: AccountRef, change: Partial<Subscription>): Promise<Account> {
    const row = await this.#row(ref);
    const current = toAccount(row).subscription;
    const next = normaliseSubscription({ ...current, ...change });
    await this.store.updateAccount(row.id, {
      families: JSON.stringify(next.families),
      sources: next.sources === 'all' ? null : JSON.stringify(next.sources),
    });
    return this.getAccount(row.id);
  }

  /** Sets per-account rate-limit overrides; an empty object returns to the defaults. */
  async setLimits(ref: AccountRef, limits: LimitOverrides): Promise<Account> {
    for (const [field, value] of Object.entries(limits)) {
      if (value !== undefined && (!Number.isInteger(value) || (value as number) < 1)) {
        throw QuarryError.of('SERVICE_INVALID_ACCOUNT_INPUT', {
          params: { field, detail: 'must be a whole number of at least 1' },
        });
      }
    }
    const row = await this.#row(ref);
    await this.store.updateAccount(row.id, { limits: JSON.stringify(limits) });
    return this.getAccount(row.id);
  }

  /** Sets (or replaces) the account's password, hashed with scrypt. */
  async setPassword(ref: AccountRef, password: string): Promise<void> {
    const row = await this.#row(ref);
    await this.store.updateAccount(row.id, { passwordHash: await hashPassword(checkPassword(password)) });
  }

  /**
   * The account whose username (or e-mail address) and password match, whatever its state;
   * undefined otherwise. Callers check the state themselves.
   */
  async verifyPassword(login: string, password: string): Promise<Account | undefined> {
    const name = login.trim();
    const row = (await this.store.accountByUsername(name)) ?? (await this.store.accountByEmail(name));
    if (!row?.passwordHash) {
      // Spend the same time as a real check so response times do not tell which logins exist.
      await hashPassword(password);
      return undefined;
    }
    return (await verifyPassword(password, row.passwordHash)) ? toAccount(row) : undefined;
  }

  /**
   * Generates a new API key, optionally expiring at `expiresAt` (ms). The key itself is
   * returned only here: only its hash is stored.
   */
  async createKey(
    ref: AccountRef,
    name?: string,
    options: { readonly expiresAt?: number } = {},
  ): Promise<{ key: string; info: ApiKeyInfo }> {
    const row = await this.#row(ref);
    const now = this.#clock.now();
    const existing = await this.store.keysOf(row.id);
    // Names tell keys apart (the pages and `quarry keys revoke NAME` use them), so the keys
    // in use have different names; an ended key's name may be given again.
    const inUse = new Set(existing.filter((k) => keyInUse(k, now)).map((k) => k.name.toLowerCase()));
    let keyName = name?.trim() ?? '';
    if (keyName === '') {
      for (let n = existing.length + 1; keyName === '' || inUse.has(keyName); n++) keyName = `key ${n}`;
    }
    if (/^\d+$/.test(keyName)) {
      throw QuarryError.of('SERVICE_INVALID_ACCOUNT_INPUT', {
        params: { field: 'key name', detail: 'a name of digits only would read as a key id; add a letter' },
      });
    }
    if (keyName.length > 100) {
      throw QuarryError.of('SERVICE_INVALID_ACCOUNT_INPUT', {
        params: { field: 'key name', detail: 'at most 100 characters' },
      });
    }
    if (inUse.has(keyName.toLowerCase())) {
      throw QuarryError.of('SERVICE_INVALID_ACCOUNT_INPUT', {
        params: { field: 'key name', detail: `you already have a key named "${keyName}"; choose another name` },
      });
    }
    if (options.expiresAt !== undefined && !(options.expiresAt > now)) {
      throw QuarryError.of('SERVICE_INVALID_ACCOUNT_INPUT', {
        params: { field: 'key expiry', detail: 'it must lie in the future' },
      });
    }
    return this.#insertKey(row.id, keyName, options.expiresAt ?? null);
  }

  async #insertKey(accountId: number, name: string, endsAt: number | null): Promise<{ key: string; info: ApiKeyInfo }> {
    const key = newApiKey();
    const id = await this.store.insertKey({
      accountId,
      name,
      keyHash: hashSecret(key),
      prefix: displayPrefix(key),
      createdAt: this.#clock.now(),
      revokedAt: endsAt,
    });
    const info = (await this.store.keysOf(accountId)).find((k) => k.id === id);
    return { key, info: toKeyInfo(info as KeyRow) };
  }

  /**
   * Rotates a key: a new key with a name of its own (`NAME (rotated 2026-11-28)`, so that
   * the two keys in use during the grace period are told apart by name) and the old key's
   * expiry, while the old one keeps working for `graceMs` so programs can move over, then
   * stops as if revoked.
   *
   * @example const { key, old } = await accounts.rotateKey(accountId, 7, 24 * 3600_000);
   */
  async rotateKey(
    ref: AccountRef,
    keyId: number,
    graceMs: number,
  ): Promise<{ key: string; info: ApiKeyInfo; old: ApiKeyInfo }> {
    const row = await this.#row(ref);
    const now = this.#clock.now();
    const found = (await this.store.keysOf(row.id)).find((k) => k.id === keyId && keyInUse(k, now));
    if (!found) throw QuarryError.of('SERVICE_KEY_NOT_FOUND', { params: { key: String(keyId) } });
    const keys = await this.store.keysOf(row.id);
    const inUse = new Set(keys.filter((k) => keyInUse(k, now)).map((k) => k.name.toLowerCase()));
    const created = await this.#insertKey(row.id, rotatedName(found.name, now, inUse), found.revokedAt);
    await this.store.revokeKey(found.id, Math.min(found.revokedAt ?? Infinity, now + Math.max(0, graceMs)));
    const old = (await this.store.keysOf(row.id)).find((k) => k.id === found.id) as KeyRow;
    return { ...created, old: toKeyInfo(old) };
  }

  async listKeys(ref: AccountRef): Promise<ApiKeyInfo[]> {
    const row = await this.#row(ref);
    return (await this.store.keysOf(row.id)).map(toKeyInfo);
  }

  /**
   * Revokes a key named by its id or its name; tokens issued for it fail with 403 from the
   * next request on.
   */
  async revokeKey(ref: AccountRef, key: number | string): Promise<ApiKeyInfo> {
    const row = await this.#row(ref);
    const keys = await this.store.keysOf(row.id);
    const found =
      keys.find((k) => k.id === Number(key) && String(k.id) === String(key)) ??
      keys.find((k) => k.name === key && keyInUse(k, this.#clock.now()));
    if (!found) throw QuarryError.of('SERVICE_KEY_NOT_FOUND', { params: { key: String(key) } });
    await this.store.revokeKey(found.id, this.#clock.now());
    return toKeyInfo((await this.store.keysOf(row.id)).find((k) => k.id === found.id) as KeyRow);
  }

  /** The account and key a presented API key belongs to (not revoked); records its use. */
  async resolveKey(key: string): Promise<{ account: Account; key: ApiKeyInfo } | undefined> {
    const row = await this.store.keyByHash(hashSecret(key.trim()));
    if (!row || !keyInUse(row, this.#clock.now())) return undefined;
    const account = await this.store.accountById(row.accountId);
    if (!account) return undefined;
    await this.store.touchKey(row.id, this.#clock.now());
    return { account: toAccount(account), key: toKeyInfo(row) };
  }

  /** Counts a query request (and whether it was rejected by a rate limit) for the account's usage page. */
  recordUsage(accountId: number, counts: { requests?: number; rejections?: number }): void {
    const day = new Date(this.#clock.now()).toISOString().slice(0, 10);
    const k = `${accountId}|${day}`;
    const entry = this.#pendingUsage.get(k) ?? { accountId, day, requests: 0, rejections: 0 };
    entry.requests += counts.requests ?? 0;
    entry.rejections += counts.rejections ?? 0;
    this.#pendingUsage.set(k, entry);
  }

  /** Writes the buffered usage counts. */
  async flushUsage(): Promise<void> {
    const entries = [...this.#pendingUsage.values()];
    this.#pendingUsage.clear();
    for (const e of entries) await this.store.addUsage(e.accountId, e.day, e.requests, e.rejections);
  }

  /** Requests and rejections per UTC day over the last `days` days (days without use left out), oldest first. */
  async usage(ref: AccountRef, days = 30): Promise<DailyUsage[]> {
    const row = await this.#row(ref);
    await this.flushUsage();
    const from = new Date(this.#clock.now() - (days - 1) * DAY_MS).toISOString().slice(0, 10);
    return this.store.usageOf(row.id, from);
  }

  /** Starts a web session; the returned secret goes into the browser's cookie, only its hash is stored. */
  async createSession(ref: AccountRef): Promise<{ sessionId: string; expiresAt: string }> {
    const row = await this.#row(ref);
    const secret = randomSecret(32);
    const now = this.#clock.now();
    await this.#sessions.insertSession({
      id: hashSecret(secret),
      accountId: row.id,
      createdAt: now,
      expiresAt: now + SESSION_LIFETIME_MS,
    });
    return { sessionId: secret, expiresAt: new Date(now + SESSION_LIFETIME_MS).toISOString() };
  }

  /**
   * The account of a live session, whatever its state (the web pages refuse a session whose
   * account is not active), or undefined when the session is unknown or expired.
   */
  async resolveSession(sessionId: string): Promise<Account | undefined> {
    const session = await this.#sessions.sessionById(hashSecret(sessionId));
    if (!session || session.expiresAt <= this.#clock.now()) return undefined;
    const row = await this.store.accountById(session.accountId);
    return row ? toAccount(row) : undefined;
  }

  async endSession(sessionId: string): Promise<void> {
    await this.#sessions.deleteSession(hashSecret(sessionId));
  }

  /** Ends every web session of the account; returns how many there were. */
  async endSessionsOf(accountId: number): Promise<number> {
    return this.#sessions.deleteSessionsOf(accountId);
  }

  /** Writes pending usage and stops the flush timer; the store stays open (its owner closes it). */
  async shutdown(): Promise<void> {
    clearInterval(this.#flushTimer);
    await this.flushUsage();
  }

  async #row(ref: AccountRef): Promise<AccountRow> {
    const row =
      typeof ref === 'number' ? await this.store.accountById(ref) : await this.store.accountByEmail(ref.trim());
    if (!row) throw QuarryError.of('SERVICE_ACCOUNT_NOT_FOUND', { params: { account: String(ref) } });
    return row;
  }

  async #transition(ref: AccountRef, action: keyof typeof TRANSITIONS): Promise<Account> {
    const row = await this.#row(ref);
    const { from, to } = TRANSITIONS[action];
    if (row.state === to) return toAccount(row);
    if (!from.includes(row.state)) {
      throw QuarryError.of('SERVICE_ACCOUNT_STATE_CHANGE', {
        params: {
          state: row.state,
          target: `${action === 'activate' ? 'activated' : action === 'suspend' ? 'suspended' : 'closed'}`,
        },
      });
    }
    await this.store.updateAccount(row.id, { state: to, stateChangedAt: this.#clock.now() });
    if (to !== 'active') await this.#endSessionsAfterChange(row.id);
    return this.getAccount(row.id);
  }

  /**
   * Ends the sessions of an account that may no longer act. After the state change, so no
   * sign-in can start a session in between. The web pages check the account's state on every
   * request too, so a session this misses (its shared store unreachable, as during a Redis
   * outage for `quarry accounts suspend`) is refused all the same: the change stands.
   */
  async #endSessionsAfterChange(accountId: number): Promise<void> {
    try {
      await this.endSessionsOf(accountId);
    } catch (error) {
      if (!isQuarryError(error)) throw error;
    }
  }
}

function checkPassword(password: string): string {
  if (password.length < MIN_PASSWORD_LENGTH) {
    throw QuarryError.of('SERVICE_INVALID_ACCOUNT_INPUT', {
      params: { field: 'password', detail: `at least ${MIN_PASSWORD_LENGTH} characters` },
    });
  }
  return password;
}

/** Checks and de-duplicates a subscription. Source names are checked by the engine, which knows them. */
export function normaliseSubscription(s: {
  families: readonly string[];
  sources: readonly string[] | 'all';
}): Subscription {
  const unknown = s.families.filter((f) => !(FAMILIES as readonly string[]).includes(f));
  if (unknown.length > 0) {
    throw QuarryError.of('SERVICE_INVALID_ACCOUNT_INPUT', {
      params: { field: 'families', detail: `unknown ${unknown.join(', ')}; the families are ${FAMILIES.join(', ')}` },
    });
  }
  const families = FAMILIES.filter((f) => s.families.includes(f));
  if (s.sources === 'all') return { families, sources: 'all' };
  const sources = [...new Set(s.sources.map((x) => x.trim()).filter((x) => x.length > 0))];
  if (sources.some((x) => !/^[a-z_]+$/.test(x))) {
    throw QuarryError.of('SERVICE_INVALID_ACCOUNT_INPUT', {
      params: { field: 'sources', detail: 'source names are lower-case words such as publications' },
    });
  }
  return { families, sources };
}

function iso(ms: number): string {
  return new Date(ms).toISOString();
}

function toAccount(row: AccountRow): Account {
  return {
    id: row.id,
    email: row.email,
    name: row.name,
    username: row.username,
    hasPassword: row.passwordHash !== null,
    state: row.state,
    subscription: {
      families: JSON.parse(row.families) as Family[],
      sources: row.sources === null ? 'all' : (JSON.parse(row.sources) as string[]),
    },
    limits: JSON.parse(row.limits) as LimitOverrides,
    createdAt: iso(row.createdAt),
    stateChangedAt: iso(row.stateChangedAt),
  };
}

/** A key works until its end (revocation, expiry or the end of a rotation's grace period). */
/**
 * The name of a rotated key: its base name (without an earlier rotation's suffix) and the
 * day, numbered when a key of that name is already in use; at most 100 characters.
 *
 * @example rotatedName('laptop (rotated 2026-01-02)', Date.parse('2026-11-28'), new Set()) // 'laptop (rotated 2026-11-28)'
 */
export function rotatedName(name: string, now: number, inUse: ReadonlySet<string>): string {
  const base = name.replace(/ \(rotated \d{4}-\d{2}-\d{2}(?: #\d+)?\)$/, '').slice(0, 70);
  const day = new Date(now).toISOString().slice(0, 10);
  for (let n = 1; ; n++) {
    const candidate = `${base} (rotated ${day}${n === 1 ? '' : ` #${n}`})`;
    if (!inUse.has(candidate.toLowerCase())) return candidate;
  }
}

function keyInUse(row: Pick<KeyRow, 'revokedAt'>, now: number): boolean {
  return row.revokedAt === null || row.revokedAt > now;
}

function toKeyInfo(row: KeyRow): ApiKeyInfo {
  return {
    id: row.id,
    accountId: row.accountId,
    name: row.name,
    prefix: row.prefix,
    createdAt: iso(row.createdAt),
    lastUsedAt: row.lastUsedAt === null ? null : iso(row.lastUsedAt),
    revokedAt: row.revokedAt === null ? null : iso(row.revokedAt),
  };
}
