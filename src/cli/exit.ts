import type { ErrorCategory } from '../errors/index.ts';
import { formatWithCaret, isQuarryError } from '../errors/index.ts';

/** Exit codes by error category; docs/errors.md lists the same table. */
export const EXIT_CODES: Record<ErrorCategory, number> = {
  syntax: 2,
  semantic: 2,
  unsupported: 2,
  budget: 2,
  gone: 2,
  authentication: 3,
  token: 3,
  permission: 3,
  rate_limit: 4,
  timeout: 5,
  unavailable: 5,
  not_found: 1,
  input: 1,
  conflict: 1,
  internal: 1,
};

/**
 * Prints an error for a person and sets the exit code from its category. With the query
 * text, query errors show the line and a caret under the position.
 */
export function exitWithError(error: unknown, queryText?: string): void {
  if (isQuarryError(error)) {
    for (const p of error.problems) {
      process.stderr.write(`${queryText === undefined ? `${p.message} [${p.code}]` : formatWithCaret(queryText, p)}\n`);
    }
    process.exitCode = EXIT_CODES[error.category];
    return;
  }
  process.stderr.write(`quarry: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exitCode = 1;
}
