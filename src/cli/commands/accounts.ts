/**
 * `quarry accounts ...`: the operator's account administration. Every sub-command takes
 * `--db FILE|URL` (and `--config FILE`) like `serve`.
 */
import type { Command } from 'commander';
import type { Account, Family } from '../../identity/account-types.ts';
import { QuarryError } from '../../errors/index.ts';
import { exitWithError } from '../exit.ts';
import { DB_OPTION_HELP, withAccounts, type AdminFlags } from './admin-store.ts';

function dbOptions(command: Command): Command {
  return command.option('--db <file|url>', DB_OPTION_HELP).option('--config <file>', 'a JSON configuration file');
}

/** Runs an action and reports a QuarryError the CLI way (message + exit code by category). */
function guarded<A extends unknown[]>(action: (...args: A) => Promise<void>): (...args: A) => Promise<void> {
  return async (...args: A) => {
    try {
      await action(...args);
    } catch (error) {
      exitWithError(error);
    }
  };
}

async function readStdin(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks)
    .toString('utf8')
    .replace(/\r?\n$/, '');
}

/** One account as the CLI shows it. */
export function describeAccount(a: Account): string {
  const { families, sources } = a.subscription;
  return [
    `email:        ${a.email}`,
    `name:         ${a.name ?? '-'}`,
    `state:        ${a.state} (since ${a.stateChangedAt})`,
    `username:     ${a.username ?? '-'}${a.hasPassword ? ' (has a password)' : ''}`,
    `families:     ${families.length > 0 ? families.join(', ') : 'none'}`,
    `sources:      ${sources === 'all' ? 'all' : sources.join(', ') || 'none'}`,
    `limits:       ${a.limits.queriesPerWindow === undefined && a.limits.windowSeconds === undefined ? 'family defaults' : JSON.stringify(a.limits)}`,
    `created:      ${a.createdAt}`,
  ].join('\n');
}

function list(value: string): string[] {
  return value
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s.length > 0);
}

export function register(program: Command): void {
  const accounts = program
    .command('accounts')
    .description('create and administer accounts (pending → active ⇄ suspended → closed)');

  dbOptions(
    accounts
      .command('create')
      .description('create an account (pending unless --activate; subscribed to every family and source)')
      .requiredOption('--email <email>', 'the account e-mail address')
      .option('--name <name>', 'display name')
      .option('--activate', 'create it active')
      .option('--username <username>', 'legacy username for username/password login (needs --password-stdin)')
      .option('--password-stdin', 'read the password from standard input'),
  ).action(
    guarded(
      async (
        flags: AdminFlags & {
          email: string;
          name?: string;
          activate?: boolean;
          username?: string;
          passwordStdin?: boolean;
        },
      ) => {
        if (flags.username !== undefined && !flags.passwordStdin) {
          throw QuarryError.of('SERVICE_INVALID_ACCOUNT_INPUT', {
            params: { field: 'username', detail: 'a username needs a password: add --password-stdin' },
          });
        }
        const password = flags.passwordStdin ? await readStdin() : undefined;
        const account = await withAccounts(flags, (service) =>
          service.createAccount({
            email: flags.email,
            ...(flags.name === undefined ? {} : { name: flags.name }),
            ...(flags.username === undefined ? {} : { username: flags.username }),
            ...(password === undefined ? {} : { password }),
            activate: flags.activate === true,
          }),
        );
        process.stdout.write(`${describeAccount(account)}\n`);
      },
    ),
  );

  for (const [name, description] of [
    ['activate', 'activate a pending or suspended account'],
    ['suspend', 'suspend an active account (its tokens fail from now on)'],
    ['close', 'close an account for good (its tokens fail from now on)'],
    ['show', 'show an account, its subscription and its keys'],
  ] as const) {
    dbOptions(accounts.command(name).description(description).argument('<email>', 'the account e-mail address')).action(
      guarded(async (email: string, flags: AdminFlags) => {
        const text = await withAccounts(flags, async (service) => {
          if (name === 'show') {
            const account = await service.getAccount(email);
            const keys = await service.listKeys(email);
            const keyLines = keys.map(
              (k) =>
                `  ${k.id}  ${k.prefix}…  ${k.name}  ${k.revokedAt ? `revoked ${k.revokedAt}` : `last used ${k.lastUsedAt ?? 'never'}`}`,
            );
            return `${describeAccount(account)}\nkeys:${keys.length === 0 ? ' none' : `\n${keyLines.join('\n')}`}`;
          }
          const account = await service[name](email);
          return `${account.email} is ${account.state}`;
        });
        process.stdout.write(`${text}\n`);
      }),
    );
  }

  dbOptions(accounts.command('list').description('list every account')).action(
    guarded(async (flags: AdminFlags) => {
      const all = await withAccounts(flags, (service) => service.listAccounts());
      for (const a of all) {
        process.stdout.write(
          `${a.email}\t${a.state}\t${a.subscription.families.join(',') || '-'}\t${a.subscription.sources === 'all' ? 'all' : a.subscription.sources.join(',')}\n`,
        );
      }
      if (all.length === 0) process.stdout.write('no accounts\n');
    }),
  );

  dbOptions(
    accounts
      .command('subscribe')
      .description('set which families and sources an account may use')
      .argument('<email>', 'the account e-mail address')
      .option('--families <list>', 'comma-separated: auth,token (empty for none)')
      .option('--sources <list>', 'comma-separated source names, or "all"'),
  ).action(
    guarded(async (email: string, flags: AdminFlags & { families?: string; sources?: string }) => {
      const account = await withAccounts(flags, (service) =>
        service.subscribe(email, {
          ...(flags.families === undefined ? {} : { families: list(flags.families) as Family[] }),
          ...(flags.sources === undefined
            ? {}
            : { sources: flags.sources.trim() === 'all' ? 'all' : list(flags.sources) }),
        }),
      );
      process.stdout.write(`${describeAccount(account)}\n`);
    }),
  );

  dbOptions(
    accounts
      .command('limits')
      .description("override the account's query rate limit (--reset returns to the family defaults)")
      .argument('<email>', 'the account e-mail address')
      .option('--queries <n>', 'query requests per window')
      .option('--window <seconds>', 'window length in seconds')
      .option('--reset', 'remove the overrides'),
  ).action(
    guarded(async (email: string, flags: AdminFlags & { queries?: string; window?: string; reset?: boolean }) => {
      const limits = flags.reset
        ? {}
        : {
            ...(flags.queries === undefined ? {} : { queriesPerWindow: Number(flags.queries) }),
            ...(flags.window === undefined ? {} : { windowSeconds: Number(flags.window) }),
          };
      const account = await withAccounts(flags, (service) => service.setLimits(email, limits));
      process.stdout.write(`${describeAccount(account)}\n`);
    }),
  );

  dbOptions(
    accounts
      .command('usage')
      .description('query requests and rate-limit rejections per day')
      .argument('<email>', 'the account e-mail address')
      .option('--days <n>', 'how many days back', '30'),
  ).action(
    guarded(async (email: string, flags: AdminFlags & { days: string }) => {
      const usage = await withAccounts(flags, (service) => service.usage(email, Number(flags.days)));
      for (const u of usage) process.stdout.write(`${u.day}\t${u.requests} requests\t${u.rejections} rejected\n`);
      if (usage.length === 0) process.stdout.write('no requests in that period\n');
    }),
  );
}
