/**
 * `quarry query --db FILE [--dsl-version 1|2] [--format F] [--out FILE] "QUERY"`: runs one
 * query against a local database file, in process, and prints (or writes) the result.
 *
 * Without `--db` it asks a remote Quarry service through the client library (the stored
 * profile or `--url`/`--key`; `--format`, `--all`, `--out`, `--resume`): see query-remote.ts.
 */
import { writeFileSync } from 'node:fs';
import { Command, Option } from 'commander';
import { QuarryClientError } from '../../client/errors.ts';
import type { OutputFormat } from '../../client/output.ts';
import type { QueryResult } from '../../client/records.ts';
import { runQuery } from '../../engine/backends/sqlite/query-context.ts';
import type { DslVersion } from '../../engine/types.ts';
import { openReadOnly } from '../../store/sqlite/open.ts';
import { upgradeRecordDatabase } from '../../store/sqlite/records-store.ts';
import { exitWithError } from '../exit.ts';
import { addRemoteQueryOptions, formatResult, runRemoteQuery } from './query-remote.ts';

/** Options that only make sense against a service; with `--db` they are refused, not ignored. */
const REMOTE_ONLY = ['profile', 'url', 'key', 'family', 'all', 'resume', 'pageSize', 'maxRecords'] as const;

const flagName = (option: string): string => `--${option.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)}`;

export interface QueryCommandOptions {
  readonly db?: string;
  readonly dslVersion: DslVersion;
  /** Any further options other modes added to the command. */
  readonly [option: string]: unknown;
}

/** Runs one query against a database file in this process. */
export function runLocalQuery(dbPath: string, text: string, dslVersion: DslVersion): unknown {
  // As `quarry serve` does: a database from an older Quarry gets its missing migrations first.
  upgradeRecordDatabase(dbPath);
  const db = openReadOnly(dbPath);
  try {
    return runQuery(db, text, { dslVersion });
  } finally {
    db.close();
  }
}

/** The command: local with `--db`, remote (the client's options from query-remote.ts) otherwise. */
export function queryCommand(): Command {
  return addRemoteQueryOptions(new Command('query'))
    .description(
      'run one query and print the JSON result (locally with --db FILE, else on the service of the stored profile or --url)',
    )
    .argument('<query>', 'the query text, e.g. "search publications return year"')
    .option('--db <file>', 'a Quarry record database to query in process')
    .addOption(new Option('--dsl-version <version>', 'language version').choices(['1', '2']).default('2'))
    .action(async function (this: Command, text: string, raw: Record<string, unknown>) {
      const options: QueryCommandOptions = { ...raw, dslVersion: raw.dslVersion === '1' ? 1 : 2 };
      try {
        if (typeof options.db !== 'string') return await runRemoteQuery(text, options);
        const remote = REMOTE_ONLY.find((option) => this.getOptionValueSource(option) === 'cli');
        if (remote !== undefined) {
          throw QuarryClientError.client('CLIENT_OPTION_INVALID', {
            option: flagName(remote),
            reason:
              'it is for a Quarry service; with --db the query runs once, in this process (--format and --out still apply)',
          });
        }
        const result = runLocalQuery(options.db, text, options.dslVersion) as QueryResult;
        const output = formatResult(result, (options.format ?? 'json') as OutputFormat);
        if (typeof options.out === 'string') writeFileSync(options.out, output);
        else process.stdout.write(output);
      } catch (error) {
        exitWithError(error, text);
      }
    });
}

export function register(program: Command): void {
  program.addCommand(queryCommand());
}
