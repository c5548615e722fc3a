/**
 * `quarry query --db FILE [--dsl-version 1|2] "QUERY"`: runs one query against a local
 * database file, in process, and prints the JSON result.
 *
 * Without `--db` the command is meant to ask a remote Quarry service; that mode belongs to
 * the client (it adds its options and a handler through `setRemoteQuery`).
 */
import { Command, Option } from 'commander';
import { runQuery } from '../../engine/run-query.ts';
import type { DslVersion } from '../../engine/types.ts';
import { QuarryError } from '../../errors/index.ts';
import { openReadOnly } from '../../store/sqlite/open.ts';
import { exitWithError } from '../exit.ts';

export interface QueryCommandOptions {
  readonly db?: string;
  readonly dslVersion: DslVersion;
  /** Any further options other modes added to the command. */
  readonly [option: string]: unknown;
}

/** Runs a query without `--db` (remote mode); set by the client module. */
export type RemoteQuery = (text: string, options: QueryCommandOptions) => Promise<unknown>;

let remoteQuery: RemoteQuery | undefined;

/** Lets the client add the remote mode of `quarry query`. */
export function setRemoteQuery(handler: RemoteQuery): void {
  remoteQuery = handler;
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

/** The command, exported so the client can add its options (`--url`, `--key`, ...). */
export function queryCommand(): Command {
  return new Command('query')
    .description('run one query and print the JSON result (locally with --db FILE)')
    .argument('<query>', 'the query text, e.g. "search publications return year"')
    .option('--db <file>', 'a Quarry record database to query in process')
    .addOption(new Option('--dsl-version <version>', 'language version').choices(['1', '2']).default('2'))
    .action(async (text: string, raw: Record<string, unknown>) => {
      const options: QueryCommandOptions = { ...raw, dslVersion: raw.dslVersion === '1' ? 1 : 2 };
      try {
        let result: unknown;
        if (typeof options.db === 'string') result = runLocalQuery(options.db, text, options.dslVersion);
        else if (remoteQuery !== undefined) result = await remoteQuery(text, options);
        else throw QuarryError.of('ENGINE_NO_DATABASE');
        process.stdout.write(`${JSON.stringify(result, null, 2)}\n`);
      } catch (error) {
        exitWithError(error, text);
      }
    });
}

export function register(program: Command): void {
  program.addCommand(queryCommand());
}
