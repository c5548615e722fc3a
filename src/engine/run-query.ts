/**
 * The dialect-neutral front half of one query: parse → validate → lower. Every back end
 * runs this on the calling thread (mistakes are reported at once, without queueing), then
 * compiles and executes the plan in its own way (`backends/`), or runs a statement
 * function with a FunctionContext (`function-context.ts`).
 */
import { lowerValidated } from '../compile/lower-validated.ts';
import type { SearchPlan } from '../compile/plan.ts';
import { parse } from '../dsl/index.ts';
import { STATEMENT_FUNCTIONS } from '../functions/registry.ts';
import type { PreparedFunction } from '../functions/types.ts';
import { describe, validate, type ValidatedStatement } from '../schema/index.ts';
import type { DslVersion, QueryPermissions, QueryResult } from './types.ts';

export interface RunQueryOptions {
  readonly dslVersion: DslVersion;
  readonly permissions?: QueryPermissions;
}

/** A checked query, ready to run: a describe answer, a plan to execute, or a statement function to run. */
export type PreparedQuery =
  | { readonly kind: 'answer'; readonly result: QueryResult }
  | { readonly kind: 'plan'; readonly plan: SearchPlan }
  | { readonly kind: 'function'; readonly prepared: PreparedFunction };

/** Parse, validate and lower (no database needed). */
export function prepareQuery(text: string, options: RunQueryOptions): PreparedQuery {
  const { query } = validate(parse(text), {
    dslVersion: options.dslVersion,
    source: text,
    statements: STATEMENT_FUNCTIONS,
    ...(options.permissions === undefined ? {} : { permissions: options.permissions }),
  });
  switch (query.kind) {
    case 'describe':
      return { kind: 'answer', result: describe(query, STATEMENT_FUNCTIONS) };
    case 'statement':
      return { kind: 'function', prepared: prepareStatement(query) };
    case 'search':
      return { kind: 'plan', plan: lowerValidated(query) };
  }
}

/**
 * Binds a validated statement to its function. Any statement kind whose validation gives a
 * `ValidatedStatement` (a function call, `identify experts ...`) runs this way: the name is
 * the function's key in `src/functions/registry.ts`.
 */
export function prepareStatement(statement: ValidatedStatement): PreparedFunction {
  const fn = STATEMENT_FUNCTIONS.get(statement.name);
  if (fn === undefined) throw new Error(`no statement function '${statement.name}' in the registry`);
  const prepared: PreparedFunction = {
    name: fn.name,
    reads: statement.reads,
    run: (context) => fn.run(statement.args, context),
  };
  return Object.freeze(prepared);
}
