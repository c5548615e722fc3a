/**
 * What validation needs of the statement functions (`extract_grants(...)`, `classify(...)`):
 * their names, parameters, the sources they read, and the check of their arguments. The
 * functions themselves live in `src/functions/` (above the engine); the engine hands their
 * registry to `validate` (`ValidateOptions.statements`), so this layer never imports them.
 * `StatementFunction` in `src/functions/types.ts` fits `StatementCheck` as it is.
 */
import type { FunctionCall, Span } from '../dsl/ast.ts';
import type { SourceName } from './types.ts';

/** Reports a bad argument as a positioned 400 (`SCHEMA_STATEMENT_ARGUMENTS`). Never returns. */
export type StatementArgumentFailure = (message: string, span: Span) => never;

export interface StatementParameterDoc {
  readonly name: string;
  readonly type: string;
  readonly required: boolean;
  readonly description: string;
}

export interface StatementCheck {
  readonly name: string;
  readonly description: string;
  readonly parameters: readonly StatementParameterDoc[];
  /** Sources it reads; the caller must be subscribed to each. */
  readonly reads: readonly SourceName[];
  /** Checks the arguments (no data); what it returns is what the function runs with. */
  check(call: FunctionCall, fail: StatementArgumentFailure): unknown;
}

/** The statement functions a deployment offers, by name. */
export type StatementChecks = ReadonlyMap<string, StatementCheck>;
