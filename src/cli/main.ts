import { Command, CommanderError } from 'commander';
import { commandModules } from './commands.ts';
import { exitWithError } from './exit.ts';

/** Builds the `quarry` program; every sub-command lives in its own module under `commands/`. */
export function buildProgram(): Command {
  const program = new Command('quarry')
    .description('Quarry: a self-hostable research-data query service')
    .showHelpAfterError()
    .exitOverride();
  for (const register of commandModules) register(program);
  return program;
}

export async function main(argv: readonly string[]): Promise<void> {
  const program = buildProgram();
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
