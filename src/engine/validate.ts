/**
 * Validation of a parsed query against the schema, for the engine. Delegates to `schema/`.
 */
import type { Query } from '../dsl/index.ts';
import type { DslVersion, QueryPermissions } from './types.ts';

export interface ValidateOptions {
  readonly dslVersion: DslVersion;
  readonly source: string;
  readonly permissions?: QueryPermissions;
}

/** Throws QuarryError with every problem found; returns the warnings otherwise. */
export function validateQuery(_ast: Query, _options: ValidateOptions): { readonly warnings: readonly string[] } {
  // PENDING: schema/ validate(ast, options) is wired here as soon as it lands.
  return { warnings: [] };
}
