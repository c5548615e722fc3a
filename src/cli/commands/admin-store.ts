import type { AccountService } from '../../accounts/service.ts';
import type { AccountBackends } from '../../backends.ts';
import { loadConfig } from '../../config.ts';

/** The options every administration command takes, like `serve`. */
export interface AdminFlags {
  /** A SQLite file or a postgres:// URL. */
  readonly db?: string;
  readonly config?: string;
}

/** The `--db` option's help text, the same on every command. */
export const DB_OPTION_HELP = 'the database: a SQLite file or a postgres:// URL (default ./data/quarry.db)';

/**
 * Runs `work` with an AccountService (and the account back ends under it) on the database
 * named by `--db` (or the configuration), then closes it. The composition root refuses a
 * SQLite file that does not exist: administering a mistyped path would silently create an
 * empty database.
 */
export async function withAccounts<T>(
  flags: AdminFlags,
  work: (accounts: AccountService, backends: AccountBackends) => Promise<T>,
): Promise<T> {
  const config = loadConfig({
    file: flags.config,
    env: process.env,
    overrides: flags.db === undefined ? {} : { database: flags.db },
  });
  // Loaded on use, so that commands which do not touch the database start without it.
  const [{ AccountService }, { openAccountBackends }] = await Promise.all([
    import('../../accounts/service.ts'),
    import('../../backends.ts'),
  ]);
  const backends = await openAccountBackends(config);
  const accounts = new AccountService({ store: backends.accountStore, sessions: backends.sessions });
  try {
    return await work(accounts, backends);
  } finally {
    await accounts.shutdown();
    await backends.close();
  }
}
