/**
 * The web pages' operator commands, added under `quarry accounts`:
 * `quarry accounts login-code EMAIL` issues a one-time login code for the web pages (valid 30
 * minutes, shown once; active accounts only), and `quarry accounts admin EMAIL [--revoke]`
 * grants or withdraws the administrator role that opens the administration page at /admin.
 */
import type { Command } from 'commander';
import { issueLoginCode } from '../../accounts/login-codes.ts';
import { exitWithError } from '../exit.ts';
import { DB_OPTION_HELP, withAccounts, type AdminFlags } from './admin-store.ts';

/** The `accounts` command `accounts.ts` registered (or a new one, should it be missing). */
function accountsCommand(program: Command): Command {
  return (
    program.commands.find((c) => c.name() === 'accounts') ??
    program.command('accounts').description('create and administer accounts')
  );
}

export function register(program: Command): void {
  const accounts = accountsCommand(program);
  accounts
    .command('login-code')
    .description(
      'issue a one-time code to sign in to the web pages (active accounts; valid 30 minutes; earlier codes stop working)',
    )
    .argument('<email>', 'the account e-mail address')
    .option('--db <file|url>', DB_OPTION_HELP)
    .option('--config <file>', 'a JSON configuration file')
    .action(async (email: string, flags: AdminFlags) => {
      try {
        const { code, expiresAt } = await withAccounts(flags, async (accounts, backends) =>
          issueLoginCode(backends.loginCodes, await accounts.getAccount(email), Date.now()),
        );
        process.stdout.write(
          `Login code for ${email} (sign in at / with "With a login code"), valid until ${new Date(expiresAt).toISOString()}:\n${code}\n`,
        );
      } catch (error) {
        exitWithError(error);
      }
    });
  accounts
    .command('admin')
    .description('let an account use the administration page (/admin); --revoke withdraws it')
    .argument('<email>', 'the account e-mail address')
    .option('--revoke', 'withdraw the administrator role')
    .option('--db <file|url>', DB_OPTION_HELP)
    .option('--config <file>', 'a JSON configuration file')
    .action(async (email: string, flags: AdminFlags & { revoke?: boolean }) => {
      try {
        await withAccounts(flags, async (accounts, backends) =>
          backends.webStore.setAdmin((await accounts.getAccount(email)).id, !flags.revoke, Date.now()),
        );
        process.stdout.write(`${email} ${flags.revoke ? 'is no longer' : 'is'} an administrator\n`);
      } catch (error) {
        exitWithError(error);
      }
    });
}
