/**
 * The web pages' storage contract: which accounts may use the administration page, and the
 * one-time login codes an administrator issues. Asynchronous so a networked back end fits;
 * the composition root (`src/backends.ts`) picks SQLite, PostgreSQL or (for login codes)
 * Redis. Codes arrive hashed: the store never sees one.
 */

/** One-time login codes, by the hash of their normalised text. */
export interface LoginCodeStore {
  /** Stores a code for the account; the account's earlier codes (and any expired ones) stop working. */
  saveLoginCode(row: { codeHash: string; accountId: number; createdAt: number; expiresAt: number }): Promise<void>;
  /**
   * The account a code belongs to, marking it used in the same step (so two sign-ins cannot
   * both use it); undefined for an unknown, used or expired code.
   */
  consumeLoginCode(codeHash: string, now: number): Promise<number | undefined>;
}

export interface WebStore extends LoginCodeStore {
  isAdmin(accountId: number): Promise<boolean>;
  setAdmin(accountId: number, admin: boolean, now: number): Promise<void>;
  adminIds(): Promise<Set<number>>;
  close(): Promise<void>;
}
