/**
 * The contract of the analytic statements (`extract_affiliations(...)`, `classify(...)`,
 * `identify experts ...`): what the engine needs to run one, and what one may ask of the
 * deployment's data. Each function lives in its own file beside this one and is listed in
 * `registry.ts`; none of them knows which database engine answers its reads.
 */
import type { FunctionCall } from '../dsl/ast.ts';
import type { Span } from '../errors/index.ts';
import type { SourceName } from '../model/sources.ts';

/** A function's answer: the protocol's JSON result body (the engines' `QueryResult`). */
export type QueryResult = Record<string, unknown>;

/** A JSON value, as function arguments carry them (`json=[{"affiliation": "…"}]`). */
export type JsonValue = string | number | boolean | null | readonly JsonValue[] | { readonly [key: string]: JsonValue };

/** One parameter, for `describe` and for the argument checks' messages. */
export interface StatementParameter {
  readonly name: string;
  /** `string`, `integer`, `boolean`, `list`, `object` or a union such as `string|list`. */
  readonly type: string;
  readonly required: boolean;
  readonly description: string;
}

/** Reports a bad argument as a positioned 400 (the span is in the query text). Never returns. */
export type ArgumentFailure = (message: string, span: Span) => never;

/** What a function may ask of the deployment while it runs. */
export interface FunctionContext {
  /** Runs a DSL query (version 2) over this deployment's data, under the caller's time limit. */
  query(text: string): Promise<QueryResult>;
  /**
   * Reads every record of a source, the named fields of each in the protocol's JSON shape,
   * in batches, all from one data epoch. Not bounded by the 50,000-record paging window.
   */
  readAll(source: SourceName, fields: readonly string[]): AsyncIterable<readonly Record<string, unknown>[]>;
  /**
   * A value derived from the data (a matcher's index, a trained classifier), built once per
   * data epoch and process under `key`, built again after an import changes the data.
   */
  derived<T>(key: string, build: () => Promise<T>): Promise<T>;
  /** Aborts with the query (client gone, time limit reached). */
  readonly signal?: AbortSignal;
  readonly dslVersion: 1 | 2;
}

/** A checked statement, ready to run against the data: what the engine receives. */
export interface PreparedFunction {
  /** The function's name, for metrics and logs. */
  readonly name: string;
  /** Sources it reads; the caller must be entitled to each. */
  readonly reads: readonly SourceName[];
  run(context: FunctionContext): Promise<QueryResult>;
}

/** A function called as a whole statement: `extract_grants(grant_number="…", funder_name="…")`. */
export interface StatementFunction<Args = unknown> {
  readonly name: string;
  /** What it does and what it answers, for `describe` and the docs. */
  readonly description: string;
  readonly parameters: readonly StatementParameter[];
  readonly reads: readonly SourceName[];
  /** Checks the arguments on the calling thread, with no data: every mistake is a positioned 400. */
  check(call: FunctionCall, fail: ArgumentFailure): Args;
  run(args: Args, context: FunctionContext): Promise<QueryResult>;
}
