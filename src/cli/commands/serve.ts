/**
 * `quarry serve [--db FILE|URL] [--host H] [--port N] [--config FILE] [--demo]`: runs the HTTP
 * service until SIGINT/SIGTERM. With `--demo` (what `npm start` uses) a missing database is
 * generated with a demo dataset, and a demo account with a key is made ready.
 */
import type { Command } from 'commander';
import { loadConfig, type DeepPartial, type QuarryConfig } from '../../config.ts';
import { QuarryError } from '../../errors/index.ts';
import { exitWithError } from '../exit.ts';
import { DB_OPTION_HELP } from './admin-store.ts';

interface ServeFlags {
  readonly db?: string;
  readonly host?: string;
  readonly port?: string;
  readonly config?: string;
  readonly demo?: boolean;
}

/** Configuration from file + environment + flags (flags win). */
export function configFromFlags(flags: {
  db?: string | undefined;
  host?: string | undefined;
  port?: string | undefined;
  config?: string | undefined;
}): QuarryConfig {
  const overrides: DeepPartial<QuarryConfig> = {};
  if (flags.db !== undefined) overrides.database = flags.db;
  if (flags.host !== undefined) overrides.host = flags.host;
  if (flags.port !== undefined) {
    const port = Number(flags.port);
    if (!/^\d+$/.test(flags.port))
      throw QuarryError.of('SERVICE_CONFIG_INVALID', {
        params: { detail: `--port ${flags.port} is not a port number` },
      });
    overrides.port = port;
  }
  return loadConfig({ file: flags.config, env: process.env, overrides });
}

export function register(program: Command): void {
  program
    .command('serve')
    .description('run the HTTP service (both protocol families, web pages, /docs, /metrics)')
    .option('--db <file|url>', DB_OPTION_HELP)
    .option('--host <host>', 'address to listen on (default 127.0.0.1)')
    .option('--port <port>', 'port to listen on; 0 picks a free one (default 8080)')
    .option('--config <file>', 'a JSON configuration file (see docs/operations.md)')
    .option('--demo', 'create a demo dataset and a demo account on first run, and print how to use them')
    .action(async (flags: ServeFlags) => {
      try {
        // Loaded here, not at the top: the service's modules would slow every other command's start.
        const { assertAddressFree, closeOnSignals, prepareDemo, startService } = await import('../../main.ts');
        const config = configFromFlags(flags);
        // Before the demo's minute of generation: a taken port fails at once.
        await assertAddressFree(config.host, config.port);
        // stdout carries the JSON log only (log shippers parse every line); the words for a
        // person go to stderr, which a terminal shows just the same.
        const demo = flags.demo ? await prepareDemo(config, (line) => process.stderr.write(line)) : undefined;
        const service = await startService(config);
        process.stderr.write(`Quarry is listening on ${service.url}\n`);
        if (demo) process.stderr.write(demo.instructions(service.url));
        closeOnSignals(service);
      } catch (error) {
        exitWithError(error);
      }
    });
}
