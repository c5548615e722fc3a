/**
 * `quarry migrate [--dry-run] [--db FILE|URL] [--config FILE]`: brings the database's tables
 * up to the layout this Quarry reads (numbered migrations per part: accounts, web, records),
 * or with `--dry-run` lists what it would apply. `quarry serve` applies them at start too;
 * this command lets an operator do it (or look) first, e.g. before starting several instances.
 */
import type { Command } from 'commander';
import { loadConfig } from '../../config.ts';
import { exitWithError } from '../exit.ts';
import { DB_OPTION_HELP, type AdminFlags } from './admin-store.ts';

export function register(program: Command): void {
  program
    .command('migrate')
    .description('apply the schema migrations the database has not seen (SQLite or PostgreSQL)')
    .option('--dry-run', 'list the pending migrations without applying them')
    .option('--db <file|url>', DB_OPTION_HELP)
    .option('--config <file>', 'a JSON configuration file')
    .action(async (flags: AdminFlags & { dryRun?: boolean }) => {
      try {
        const config = loadConfig({
          file: flags.config,
          env: process.env,
          overrides: flags.db === undefined ? {} : { database: flags.db },
        });
        const dryRun = flags.dryRun === true;
        // Loaded on use: the back ends would slow the start of every other command.
        const { migrateDatabase } = await import('../../backends.ts');
        const { target, steps } = await migrateDatabase(config, { dryRun });
        const lines =
          steps.length === 0
            ? [`${target} is up to date: no migration to apply`]
            : [
                `${dryRun ? 'would apply' : 'applied'} ${steps.length} migration(s) to ${target}:`,
                ...steps.map((s) => `  ${s.set} ${s.version}: ${s.name}`),
              ];
        process.stdout.write(`${lines.join('\n')}\n`);
      } catch (error) {
        exitWithError(error);
      }
    });
}
