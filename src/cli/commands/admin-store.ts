import { existsSync } from 'node:fs';
import type { AccountService } from '../../accounts/service.ts';
import { loadConfig } from '../../config.ts';
import { QuarryError } from '../../errors/index.ts';

/** The options every administration command takes, like `serve`. */
export interface AdminFlags {
  readonly db?: string;
  readonly config?: string;
}

/**
 * Runs `work` with an AccountService on the database named by `--db` (or the configuration),
 * then closes it. The file must exist: administering a mistyped path would silently create
 * an empty database.
 */
export async function withAccounts<T>(flags: AdminFlags, work: (accounts: AccountService) => Promise<T>): Promise<T> {
  const config = loadConfig({
    file: flags.config,
    env: process.env,
    overrides: flags.db === undefined ? {} : { db: flags.db },
  });
  if (!existsSync(config.db)) {
    throw QuarryError.of('SERVICE_CONFIG_INVALID', {
      params: {
        detail: `the database ${config.db} does not exist; pass --db FILE, or create it with \`npm start\` or \`quarry import\``,
      },
    });
  }
  // Loaded on use, so that commands which do not touch the database start without it.
  const [{ AccountService }, { openSqliteAccountStore }] = await Promise.all([
    import('../../accounts/service.ts'),
    import('../../accounts/store.ts'),
  ]);
  const store = openSqliteAccountStore(config.db);
  const accounts = new AccountService({ store });
  try {
    return await work(accounts);
  } finally {
    await accounts.shutdown();
    await store.close();
  }
}
