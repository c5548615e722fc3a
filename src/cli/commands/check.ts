/**
 * `quarry check [--dsl-version 1|2] FILE...`: validates query files (queries separated by
 * lines holding only `---`, `#` comments, `# expected: error (reason)` after a query that
 * must be rejected) against the language and the schema, without any database.
 *
 * Prints each failure with a caret under its position, then one line
 * `N ok, M failed, K unsupported`. Exit code 0 when nothing failed, 1 otherwise.
 */
import { Command, Option } from 'commander';
import type { CheckSummary } from '../check-run.ts';

export function register(program: Command): void {
  program.addCommand(
    new Command('check')
      .description('validate query files against the language and the schema (no database needed)')
      .argument('<files...>', 'query files: queries separated by lines holding only ---, # comments')
      .addOption(new Option('--dsl-version <version>', 'language version').choices(['1', '2']).default('2'))
      .action(async (files: string[], raw: { dslVersion?: string }) => {
        // The parser and the schema load only for this command (quarry --help stays quick).
        const { runCheck } = await import('../check-run.ts');
        let summary: CheckSummary;
        try {
          summary = runCheck(files, { dslVersion: raw.dslVersion === '1' ? 1 : 2 }, (t) => process.stdout.write(t));
        } catch (error) {
          const code = (error as NodeJS.ErrnoException).code;
          process.stderr.write(
            `quarry check: ${code === 'ENOENT' || code === 'EISDIR' ? `cannot read ${(error as NodeJS.ErrnoException).path ?? 'file'}` : error instanceof Error ? error.message : String(error)}\n`,
          );
          process.exitCode = 1;
          return;
        }
        process.exitCode = summary.failed === 0 ? 0 : 1;
      }),
  );
}
