import type { Command } from 'commander';

/**
 * The sub-commands of `quarry`, one module each. A module exports a function that adds its
 * command to the program; add a line here when adding a command.
 */
export const commandModules: ReadonlyArray<(program: Command) => void> = [];
