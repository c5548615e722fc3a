/**
 * `quarry query "QUERY"`: runs one query and prints (or writes) the result; `--all` pages
 * through every record. With `--db FILE` it runs on a local database in this process;
 * otherwise on a Quarry service through the client library (see query-remote.ts).
 */
import { Command, Option } from 'commander';
import { QuarryClient } from '../../client/client.ts';
import { QuarryClientError } from '../../client/errors.ts';
import type { DslVersion } from '../../engine/types.ts';
import { exitWithError } from '../exit.ts';
import { addRemoteQueryOptions, runQueryWith, runRemoteQuery, SERVICE_OPTIONS } from './query-remote.ts';

const flagName = (option: string): string => `--${option.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)}`;

export interface QueryCommandOptions {
  readonly db?: string;
  readonly dslVersion: DslVersion;
  /** Any further options other modes added to the command. */
  readonly [option: string]: unknown;
}

/** Runs the command on a local database: the client's paging and export over in-process queries. */
async function runLocal(database: string, text: string, options: QueryCommandOptions): Promise<void> {
  // Loaded on use: the database driver would slow the start of every other command.
  const { openLocalQueries } = await import('../../backends.ts');
  const local = await openLocalQueries(database, options.dslVersion);
  try {
    await runQueryWith(text, options, (onEvent) => new QuarryClient(local, { emit: onEvent }));
  } finally {
    await local.close();
  }
}

/** The command: local with `--db`, remote (the client's options from query-remote.ts) otherwise. */
export function queryCommand(): Command {
  return addRemoteQueryOptions(new Command('query'))
    .description(
      'run one query and print the result (on a local database with --db FILE|URL, else on the service of --url, $QUARRY_URL or a stored profile)',
    )
    .argument('<query>', 'the query text, e.g. "search publications return year"')
    .option('--db <file|url>', 'a Quarry database (SQLite file or postgres:// URL) to query in this process')
    .addOption(new Option('--dsl-version <version>', 'language version').choices(['1', '2']).default('2'))
    .action(async function (this: Command, text: string, raw: Record<string, unknown>) {
      const options: QueryCommandOptions = { ...raw, dslVersion: raw.dslVersion === '1' ? 1 : 2 };
      try {
        if (typeof options.db !== 'string') return await runRemoteQuery(text, options);
        const remote = SERVICE_OPTIONS.find((option) => this.getOptionValueSource(option) === 'cli');
        if (remote !== undefined) {
          throw QuarryClientError.client('CLIENT_OPTION_INVALID', {
            option: flagName(remote),
            reason: 'it chooses a Quarry service; with --db the query runs on that database, in this process',
          });
        }
        await runLocal(options.db, text, options);
      } catch (error) {
        exitWithError(error, text);
      }
    });
}

export function register(program: Command): void {
  program.addCommand(queryCommand());
}
