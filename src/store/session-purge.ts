/**
 * When the database session stores (SQLite, PostgreSQL) drop expired web sessions, which
 * would otherwise stay for ever: as a session is created, at most once a minute per store
 * (so per process), and at most `SESSION_PURGE_BATCH` rows at a time, so a sign-in never
 * waits on a long delete (SQLite's runs on the main thread) and a backlog drains over a few
 * sign-ins. Redis expires its sessions itself.
 */
export const SESSION_PURGE_EVERY_MS = 60_000;
export const SESSION_PURGE_BATCH = 1000;

export class SessionPurgeSchedule {
  #last: number | undefined;

  /**
   * True, and noted, when a purge is due at `now` (milliseconds since the epoch): the first
   * time, a minute after the last purge, or when the clock went back.
   *
   * @example if (schedule.due(row.createdAt)) deleteExpired(row.createdAt);
   */
  due(now: number): boolean {
    if (this.#last !== undefined && now >= this.#last && now - this.#last < SESSION_PURGE_EVERY_MS) return false;
    this.#last = now;
    return true;
  }
}
