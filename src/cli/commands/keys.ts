/**
 * `quarry keys create|revoke|list --account EMAIL`: API keys for an account. A new key is
 * printed once, alone on the last line, and never again (only its hash is kept).
 */
import type { Command } from 'commander';
import { exitWithError } from '../exit.ts';
import { DB_OPTION_HELP, withAccounts, type AdminFlags } from './admin-store.ts';

type KeyFlags = AdminFlags & { account: string; name?: string };

export function register(program: Command): void {
  const keys = program.command('keys').description('create, revoke and list API keys');
  const withDb = (c: Command) =>
    c
      .requiredOption('--account <email>', 'the account e-mail address')
      .option('--db <file|url>', DB_OPTION_HELP)
      .option('--config <file>', 'a JSON configuration file');

  withDb(
    keys
      .command('create')
      .description('generate a new key (shown once, on the last line)')
      .option('--name <name>', 'a name to tell keys apart'),
  ).action(async (flags: KeyFlags) => {
    try {
      const { key, info } = await withAccounts(flags, (service) => service.createKey(flags.account, flags.name));
      process.stdout.write(
        `Created key ${info.id} "${info.name}" for ${flags.account}. It is shown only now; store it safely:\n${key}\n`,
      );
    } catch (error) {
      exitWithError(error);
    }
  });

  withDb(
    keys
      .command('revoke')
      .description('revoke a key by id or name; its tokens fail from now on')
      .argument('<key>', 'the key id or name'),
  ).action(async (key: string, flags: KeyFlags) => {
    try {
      const info = await withAccounts(flags, (service) => service.revokeKey(flags.account, key));
      process.stdout.write(`Revoked key ${info.id} "${info.name}" (${info.prefix}…)\n`);
    } catch (error) {
      exitWithError(error);
    }
  });

  withDb(keys.command('list').description("list an account's keys (never the keys themselves)")).action(
    async (flags: KeyFlags) => {
      try {
        const list = await withAccounts(flags, (service) => service.listKeys(flags.account));
        for (const k of list) {
          process.stdout.write(
            `${k.id}\t${k.prefix}…\t${k.name}\tcreated ${k.createdAt}\t${k.revokedAt ? `revoked ${k.revokedAt}` : `last used ${k.lastUsedAt ?? 'never'}`}\n`,
          );
        }
        if (list.length === 0) process.stdout.write('no keys\n');
      } catch (error) {
        exitWithError(error);
      }
    },
  );
}
