import { Command, CommanderError, Option } from 'commander';
import { QuarryError } from '../errors/index.ts';
import { packageVersion } from '../package-root.ts';
import { commandModules } from './commands.ts';
import { ERROR_FORMATS, exitWithError, setErrorFormat, writeErrorJson, type ErrorFormat } from './exit.ts';

/**
 * `--error-format`, read from the arguments before Commander parses them, so that Commander's
 * own usage errors (an unknown option, a missing argument) are printed in that format too.
 */
function errorFormatOf(argv: readonly string[]): ErrorFormat {
  for (const [i, arg] of argv.entries()) {
    const value = arg === '--error-format' ? argv[i + 1] : arg.startsWith('--error-format=') ? arg.slice(15) : null;
    if (value !== null && (ERROR_FORMATS as readonly unknown[]).includes(value)) return value as ErrorFormat;
  }
  return 'text';
}

/** Builds the `quarry` program; every sub-command lives in its own module under `commands/`. */
export function buildProgram(errorFormat: ErrorFormat = 'text'): Command {
  const program = new Command('quarry')
    .description('Quarry: a self-hostable research-data query service')
    .version(packageVersion(), '-V, --version', 'print the version of Quarry')
    .addOption(
      new Option(
        '--error-format <format>',
        'errors on standard error: text for people, or json, one line in the API error body shape',
      )
        .choices([...ERROR_FORMATS])
        .default('text'),
    )
    .showHelpAfterError(errorFormat === 'text')
    .exitOverride();
  for (const register of commandModules) register(program);
  if (errorFormat === 'json') {
    // Every command, also those made with `new Command()` (which inherit no settings).
    const usageErrorsAsJson = (command: Command): void => {
      command.showHelpAfterError(false).configureOutput({
        outputError: (message) =>
          writeErrorJson(
            QuarryError.of('CLI_USAGE', {
              params: {
                detail: message
                  .replace(/^error: /, '')
                  .trim()
                  .replace(/\.$/, ''),
              },
            }),
          ),
      });
      command.commands.forEach(usageErrorsAsJson);
    };
    usageErrorsAsJson(program);
  }
  return program;
}

export async function main(argv: readonly string[]): Promise<void> {
  const errorFormat = errorFormatOf(argv);
  setErrorFormat(errorFormat);
  const program = buildProgram(errorFormat);
  try {
    await program.parseAsync([...argv]);
  } catch (error) {
    if (error instanceof CommanderError) {
      process.exitCode = error.exitCode;
      return;
    }
    exitWithError(error);
  }
}
