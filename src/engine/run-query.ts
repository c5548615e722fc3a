/**
 * The dialect-neutral front half of one query: parse → validate → lower. Every back end
 * runs this on the calling thread (mistakes are reported at once, without queueing), then
 * compiles and executes the plan in its own way (`backends/`).
 */
import { lowerValidated } from '../compile/lower-validated.ts';
import type { SearchPlan } from '../compile/plan.ts';
import { parse } from '../dsl/index.ts';
import { describe, validate } from '../schema/index.ts';
import type { DslVersion, QueryPermissions, QueryResult } from './types.ts';

export interface RunQueryOptions {
  readonly dslVersion: DslVersion;
  readonly permissions?: QueryPermissions;
}

/** A checked query, ready to run: a describe answer, or a plan to execute. */
export type PreparedQuery =
  { readonly kind: 'answer'; readonly result: QueryResult } | { readonly kind: 'plan'; readonly plan: SearchPlan };

/** Parse, validate and lower (no database needed). */
export function prepareQuery(text: string, options: RunQueryOptions): PreparedQuery {
  const { query } = validate(parse(text), {
    dslVersion: options.dslVersion,
    source: text,
    ...(options.permissions === undefined ? {} : { permissions: options.permissions }),
  });
  if (query.kind === 'describe') return { kind: 'answer', result: describe(query) };
  return { kind: 'plan', plan: lowerValidated(query) };
}
