/**
 * `quarry backup --db FILE --out FILE`: an online, consistent copy of the database (records,
 * accounts, import journal) with SQLite's backup API, while the service keeps running. The
 * token-signing secret is not in the database: keep `<db>.jwt-secret` (or QUARRY_JWT_SECRET)
 * with the backup if issued tokens must stay valid after a restore.
 */
import { Command } from 'commander';
import { exitWithError } from '../exit.ts';

export function register(program: Command): void {
  program.addCommand(
    new Command('backup')
      .description('copy a database while it is in use (SQLite online backup: one consistent state)')
      .requiredOption('--db <file>', 'the database to copy')
      .requiredOption('--out <file>', 'the copy to write (must not exist; created with mode 600)')
      .action(async (raw: { db: string; out: string }) => {
        // The back ends and the progress bar load only for this command (quarry --help stays quick).
        const [{ progressBar }, { backupDatabase }] = await Promise.all([
          import('../../data/progress-bar.ts'),
          import('../../backends.ts'),
        ]);
        const bar = progressBar('backup');
        try {
          const report = await backupDatabase(raw.db, raw.out, (done, total) => bar.update(done, total, 'pages'));
          bar.stop();
          process.stdout.write(
            `backed up ${raw.db} to ${raw.out}: ${report.pages.toLocaleString('en')} pages in ${(report.ms / 1000).toFixed(1)} s\n`,
          );
        } catch (error) {
          bar.stop();
          exitWithError(error);
        }
      }),
  );
}
