/**
 * `quarry query --db FILE [--dsl-version 1|2] "QUERY"`: runs one query against a local
 * database file, in process, and prints the JSON result.
 *
 * Without `--db` it asks a remote Quarry service through the client library (the stored
 * profile or `--url`/`--key`; `--format`, `--all`, `--out`, `--resume`): see query-remote.ts.
 */
import { Command, Option } from 'commander';
import { runQuery } from '../../engine/run-query.ts';
import type { DslVersion } from '../../engine/types.ts';
import { openReadOnly } from '../../store/sqlite/open.ts';
import { exitWithError } from '../exit.ts';
import { addRemoteQueryOptions, runRemoteQuery } from './query-remote.ts';

export interface QueryCommandOptions {
  readonly db?: string;
  readonly dslVersion: DslVersion;
  /** Any further options other modes added to the command. */
  readonly [option: string]: unknown;
}

/** Runs one query against a database file in this process. */
export function runLocalQuery(dbPath: string, text: string, dslVersion: DslVersion): unknown {
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
    .description('run one query and print the JSON result (locally with --db FILE, else on the service of the stored profile or --url)')
    .argument('<query>', 'the query text, e.g. "search publications return year"')
    .option('--db <file>', 'a Quarry record database to query in process')
    .addOption(new Option('--dsl-version <version>', 'language version').choices(['1', '2']).default('2'))
    .action(async (text: string, raw: Record<string, unknown>) => {
      const options: QueryCommandOptions = { ...raw, dslVersion: raw.dslVersion === '1' ? 1 : 2 };
      try {
        let result: unknown;
        if (typeof options.db === 'string') result = runLocalQuery(options.db, text, options.dslVersion);
        else return await runRemoteQuery(text, options);
        process.stdout.write(`${JSON.stringify(result, null, 2)}\n`);
      } catch (error) {
        exitWithError(error, text);
      }
    });
}

export function register(program: Command): void {
  program.addCommand(queryCommand());
}
