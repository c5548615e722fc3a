/**
 * `quarry mcp`: Quarry's MCP tools over stdio, for a desktop assistant that starts the
 * command itself. With `--db FILE|URL` the tools query that database in this process; without
 * it they query a Quarry service chosen as `quarry query` chooses it (`--url` with `--key` or
 * $QUARRY_KEY, `--profile`, $QUARRY_URL, the stored default profile).
 */
import { Command } from 'commander';
import { QuarryClient } from '../../client/client.ts';
import { QuarryClientError } from '../../client/errors.ts';
import type { QuarryBackend } from '../../mcp/tools.ts';
import { packageVersion } from '../../package-root.ts';
import { exitWithError } from '../exit.ts';
import { clientFromFlags, remoteQueryOptions, SERVICE_OPTIONS, type ConnectionFlags } from './query-remote.ts';

/** Loaded on use: the MCP SDK (and its JSON Schema validator) would slow the start of every other command. */
const mcpStdio = () => import('../../mcp/stdio.ts');

interface McpOptions extends ConnectionFlags {
  readonly db?: string;
}

/** The tools' queries through a client (local or remote): its errors are QuarryErrors already. */
function clientBackend(client: QuarryClient): QuarryBackend {
  return { query: (text, signal) => client.query(text, signal ? { signal } : {}) };
}

async function serveLocal(database: string): Promise<void> {
  // Loaded on use: the database driver would slow the start of every other command.
  const { openLocalQueries } = await import('../../backends.ts');
  const local = await openLocalQueries(database, 2);
  try {
    await (
      await mcpStdio()
    ).serveStdio(clientBackend(new QuarryClient(local, { emit: () => undefined })), packageVersion());
  } finally {
    await local.close();
  }
}

export function mcpCommand(): Command {
  const command = new Command('mcp')
    .description(
      'serve the MCP tools (run_query, describe_schema, explain_query, fetch_record, the analytic functions) over stdio for a local assistant; on a local database with --db, else on the service of --url, $QUARRY_URL or a stored profile',
    )
    .option('--db <file|url>', 'a Quarry database (SQLite file or postgres:// URL) to query in this process');
  for (const option of remoteQueryOptions())
    if ((SERVICE_OPTIONS as readonly string[]).includes(option.attributeName())) command.addOption(option);
  return command.action(async function (this: Command, options: McpOptions) {
    try {
      if (typeof options.db !== 'string') {
        await (
          await mcpStdio()
        ).serveStdio(clientBackend(clientFromFlags({ ...options, dslVersion: 2 })), packageVersion());
        return;
      }
      const remote = SERVICE_OPTIONS.find((option) => this.getOptionValueSource(option) === 'cli');
      if (remote !== undefined) {
        throw QuarryClientError.client('CLIENT_OPTION_INVALID', {
          option: `--${remote}`,
          reason: 'it chooses a Quarry service; with --db the tools query that database, in this process',
        });
      }
      await serveLocal(options.db);
    } catch (error) {
      exitWithError(error);
    }
  });
}

export function register(program: Command): void {
  program.addCommand(mcpCommand());
}
