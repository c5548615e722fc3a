/**
 * The contract between the service (and the CLI) and query execution. `http/` knows only
 * this: it hands over the query text and gets the protocol's JSON result back, or a
 * QuarryError. Parsing, validation, compilation and running the SQL all happen behind it.
 */

import type { CostClass } from './cost.ts';

export type DslVersion = 1 | 2;

/** What the caller may touch; the service fills it from the account's subscription. */
export interface QueryPermissions {
  /** Sources the account is subscribed to; undefined means all. */
  readonly sources?: readonly string[];
}

export interface QueryOptions {
  readonly dslVersion: DslVersion;
  readonly permissions?: QueryPermissions;
  /** Aborts the query (client went away, server shutting down). */
  readonly signal?: AbortSignal;
  /** Per-query time limit, counted from when the query starts; the engine cancels the query and throws a timeout error. */
  readonly timeoutMs?: number;
  /**
   * Who sends the query (an account id), for fair scheduling: callers take turns, and each may
   * have at most a configured number of queries at once. Without one (the command line,
   * benchmarks) queries share one turn and no cap applies.
   */
  readonly principal?: string;
  /**
   * A background task's query (a bulk export's chunk): it runs in the expensive lane whatever
   * its estimated cost, so it never takes a worker an interactive cheap query needs, and it
   * is never kept in a result cache (nobody asks for the same chunk twice).
   */
  readonly background?: boolean;
  /**
   * False: `_stats.total_count` is not computed and reads -1 (a bulk export's later chunks,
   * which would otherwise count every match after them, each time).
   */
  readonly countMatches?: boolean;
}

/**
 * A result in the protocol's shape (spec/protocol.md §3): one array per returned item kind,
 * plus `_stats`, `_warnings`, `_notes`, `_version`, `_copyright`. `describe` results are
 * returned as they are (spec/dsl.md §6).
 */
export type QueryResult = Record<string, unknown>;

export interface QueryTimings {
  /** Milliseconds spent parsing and validating. */
  readonly parseMs: number;
  /** Milliseconds spent compiling and executing (including queueing for a worker). */
  readonly executeMs: number;
  /** Of `executeMs`, the milliseconds spent waiting for a worker (absent when nothing waited). */
  readonly queueMs?: number;
}

/** What a query was, for metrics: the source searched and the kind of result. */
export interface QueryLabels {
  /** The searched source, `describe`, or `function` for a statement function. */
  readonly source: string;
  /** `records`, `facet`, `citations_per_year`, `mixed` (several kinds), `describe`, or the statement function's name. */
  readonly result: string;
  /**
   * The lane the engine ran it in by its estimated cost (`engine/cost.ts`), `cached` when a
   * result cache answered it; absent when nothing ran (a describe).
   */
  readonly cost?: CostClass | 'cached';
}

/** How busy an engine is, for `/metrics`. */
export interface EngineLoad {
  /** Queries accepted that no worker has started yet. */
  readonly queued: number;
  /** Queries running now. */
  readonly active: number;
  /** Queries that can run at once. */
  readonly workers: number;
}

export interface QueryOutcome {
  /** The result as data (for callers that look inside it: the console, tests). */
  readonly result: QueryResult;
  /**
   * The same result as JSON text. The SQLite engine serializes it in the worker that ran the
   * query, so a server only has to send these bytes: the calling thread never copies an
   * object graph across threads nor stringifies it (`result` is parsed from this on demand).
   */
  readonly json: string;
  readonly timings: QueryTimings;
  readonly labels?: QueryLabels;
}

export interface QueryEngine {
  /** Runs one query. Throws QuarryError for anything the caller can fix or must be told. */
  run(text: string, options: QueryOptions): Promise<QueryOutcome>;
  /** True when the database answers. */
  ready(): Promise<boolean>;
  /** Queries waiting for a worker, for `/metrics`. */
  queueDepth(): number;
  /** Queued and running queries, for `/metrics`; engines without workers may leave it out. */
  load?(): EngineLoad;
  /**
   * The data's import epoch: a value that changes whenever an import changes the records. A
   * reader that spans many queries (a bulk export) compares it before and after to know it
   * read one version of the data. Engines that cannot tell leave it out.
   */
  dataEpoch?(): string | Promise<string>;
  /** Finishes in-flight queries, then releases workers and connections. */
  close(): Promise<void>;
}
