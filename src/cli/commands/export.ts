/**
 * `quarry export --all "QUERY" --out FILE`: every record of a search through the service's
 * bulk export (docs/exports.md), past the 50,000-record window that `quarry query --all`
 * pages within. The service runs the job in the background; this command shows its
 * progress and downloads the file (kept gzipped when FILE ends in `.gz`).
 */
import { Command, Option } from 'commander';
import { QuarryClientError } from '../../client/errors.ts';
import type { ServerExportFormat } from '../../client/server-export.ts';
import { exitWithError } from '../exit.ts';
import { clientFromFlags, type ConnectionFlags } from './query-remote.ts';

interface ExportCommandOptions extends ConnectionFlags {
  readonly all?: boolean;
  readonly out?: string;
  readonly format?: ServerExportFormat;
  readonly progress?: boolean;
}

export function exportCommand(): Command {
  return new Command('export')
    .description(
      'export every record of a search through the service (no 50,000-record window): submits a background job, follows it, downloads the file',
    )
    .argument(
      '<query>',
      'a search returning its source, without limit/skip/sort, e.g. "search publications return publications"',
    )
    .option('--all', 'every record the query matches (the only mode)')
    .requiredOption('--out <file>', 'where to write; ending in .gz keeps the gzip the service wrote')
    .addOption(new Option('--format <format>', 'JSON lines or CSV').choices(['jsonl', 'csv']).default('jsonl'))
    .option('--profile <name>', 'the stored profile to use (default: $QUARRY_PROFILE, else the default profile)')
    .option('--url <url>', 'the service URL, instead of a profile (default $QUARRY_URL; with --key or $QUARRY_KEY)')
    .option('--key <key>', 'the API key with --url (prefer $QUARRY_KEY)')
    .addOption(new Option('--family <family>', 'the protocol family with --url').choices(['auth', 'token']))
    .option('--no-progress', 'no progress bar')
    .action(async (text: string, options: ExportCommandOptions) => {
      try {
        if (options.all !== true)
          throw QuarryClientError.client('CLIENT_OPTION_INVALID', {
            option: '--all',
            reason: 'an export holds every record; say so with --all (one page: `quarry query`)',
          });
        const client = clientFromFlags(options);
        // Loaded on use: `quarry --help` and other commands must not load the bar's package.
        const bar =
          options.progress === false ? undefined : (await import('../../data/progress-bar.ts')).progressBar('  export');
        const controller = new AbortController();
        const onSignal = () => controller.abort(new Error('interrupted'));
        process.once('SIGINT', onSignal);
        try {
          const report = await client.exportAll(text, {
            file: options.out as string,
            format: options.format ?? 'jsonl',
            signal: controller.signal,
            onProgress: (job) =>
              bar?.update(
                job.records,
                Math.max(job.total ?? job.records, job.records),
                `${job.state}, ${job.records} records`,
              ),
          });
          bar?.stop();
          process.stderr.write(`Wrote ${report.records} records to ${report.file} (export ${report.id}).\n`);
        } finally {
          bar?.stop();
          process.off('SIGINT', onSignal);
        }
      } catch (error) {
        exitWithError(error, text);
      }
    });
}

export function register(program: Command): void {
  program.addCommand(exportCommand());
}
