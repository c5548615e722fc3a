/**
 * `quarry jwt-secret [--from-database --db URL]`: prints a token-signing secret on stdout,
 * for `QUARRY_JWT_SECRET` or the file `QUARRY_JWT_SECRET_FILE` names, the same on every
 * instance. A new one (256 random bits) by default; with `--from-database`, the one an
 * earlier Quarry kept in a PostgreSQL database, so that tokens issued before the upgrade
 * stay valid. Nothing is written anywhere but stdout, nothing in the database changes.
 *
 * @example (umask 077; quarry jwt-secret > /etc/quarry/jwt-secret)
 */
import type { Command } from 'commander';
import { randomSecret } from '../../auth/secrets.ts';
import { loadConfig } from '../../config.ts';
import { exitWithError } from '../exit.ts';
import { DB_OPTION_HELP, type AdminFlags } from './admin-store.ts';

export function register(program: Command): void {
  program
    .command('jwt-secret')
    .description(
      'print a new token-signing secret (or, with --from-database, the one an earlier Quarry kept in the database)',
    )
    .option('--from-database', 'print the secret an earlier Quarry kept in the PostgreSQL database instead')
    .option('--db <file|url>', DB_OPTION_HELP)
    .option('--config <file>', 'a JSON configuration file')
    .action(async (flags: AdminFlags & { fromDatabase?: boolean }) => {
      try {
        if (flags.fromDatabase !== true) {
          process.stdout.write(`${randomSecret(32)}\n`);
          return;
        }
        const config = loadConfig({
          file: flags.config,
          env: process.env,
          overrides: flags.db === undefined ? {} : { database: flags.db },
        });
        // Loaded on use: the back ends would slow the start of every other command.
        const { databaseJwtSecret } = await import('../../backends.ts');
        process.stdout.write(`${await databaseJwtSecret(config)}\n`);
      } catch (error) {
        exitWithError(error);
      }
    });
}
