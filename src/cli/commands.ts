import type { Command } from 'commander';
import { register as registerQuery } from './commands/query.ts';
import { register as registerExport } from './commands/export.ts';
import { register as registerServe } from './commands/serve.ts';
import { register as registerAccounts } from './commands/accounts.ts';
import { register as registerKeys } from './commands/keys.ts';
import { register as registerCheck } from './commands/check.ts';
import { register as registerLogin } from './commands/login.ts';
import { register as registerShell } from './commands/shell.ts';
import { register as registerGenerate } from './commands/generate.ts';
import { register as registerImport } from './commands/import.ts';
import { register as registerLoginCode } from './commands/login-code.ts';
import { register as registerBackup } from './commands/backup.ts';
import { register as registerMigrate } from './commands/migrate.ts';
import { register as registerJwtSecret } from './commands/jwt-secret.ts';
import { register as registerGroups } from './commands/groups.ts';
import { register as registerMatchAffiliations } from './commands/match-affiliations.ts';
import { register as registerMcp } from './commands/mcp.ts';

/**
 * The sub-commands of `quarry`, one module each. A module exports a function that adds its
 * command to the program; add a line here when adding a command.
 */
export const commandModules: ReadonlyArray<(program: Command) => void> = [
  registerQuery,
  registerExport,
  registerServe,
  registerAccounts,
  registerKeys,
  registerLoginCode,
  registerCheck,
  registerLogin,
  registerShell,
  registerGenerate,
  registerImport,
  registerBackup,
  registerMigrate,
  registerJwtSecret,
  registerGroups,
  registerMatchAffiliations,
  registerMcp,
];
