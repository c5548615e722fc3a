/**
 * One query, in process: parse → validate → lower → compile → execute → shape. The worker
 * threads run exactly this; tests and benchmarks call it directly.
 */
import type Database from 'better-sqlite3';
import { lowerValidated } from '../compile/lower-validated.ts';
import type { SearchPlan } from '../compile/plan.ts';
import { compileSearch, type CompiledSearch } from '../compile/sqlite/compile-search.ts';
import { RECORDS_LAYOUT } from '../compile/records-layout.ts';
import { parse } from '../dsl/index.ts';
import { describe, validate } from '../schema/index.ts';
import { shapeResult } from './shape.ts';
import { executeCompiled, StatementCache } from './sqlite/execute.ts';
import { registerFunctions } from './sqlite/functions.ts';
import { vocabulary, type Vocabulary } from './sqlite/vocabulary.ts';
import type { DslVersion, QueryPermissions, QueryResult } from './types.ts';

export interface RunQueryOptions {
  readonly dslVersion: DslVersion;
  readonly permissions?: QueryPermissions;
}

/** A checked query, ready to run: a describe answer, or a plan to execute. */
export type PreparedQuery =
  { readonly kind: 'answer'; readonly result: QueryResult } | { readonly kind: 'plan'; readonly plan: SearchPlan };

/**
 * Parse, validate and lower (no database needed): cheap, so the engine does it on the
 * calling thread and reports mistakes without queueing for a worker.
 */
export function prepareQuery(text: string, options: RunQueryOptions): PreparedQuery {
  const { query } = validate(parse(text), {
    dslVersion: options.dslVersion,
    source: text,
    ...(options.permissions === undefined ? {} : { permissions: options.permissions }),
  });
  if (query.kind === 'describe') return { kind: 'answer', result: describe(query) };
  return { kind: 'plan', plan: lowerValidated(query) };
}

/** A read connection with Quarry's SQL functions and caches; one per worker. */
export class SqliteQueryContext {
  readonly db: Database.Database;
  readonly statements: StatementCache;
  readonly vocabulary: Vocabulary;
  constructor(db: Database.Database) {
    this.db = db;
    registerFunctions(db);
    this.statements = new StatementCache(db);
    this.vocabulary = vocabulary(db);
  }

  compile(plan: SearchPlan): CompiledSearch {
    return compileSearch(RECORDS_LAYOUT, plan, { expandPattern: (table, glob) => this.vocabulary.expand(table, glob) });
  }

  execute(plan: SearchPlan): QueryResult {
    const compiled = this.compile(plan);
    const executed = executeCompiled(this.statements, compiled);
    return shapeResult({ plan, ...executed, warnings: this.vocabulary.takeWarnings() });
  }
}

const contexts = new WeakMap<Database.Database, SqliteQueryContext>();

function contextOf(db: Database.Database): SqliteQueryContext {
  let ctx = contexts.get(db);
  if (ctx === undefined) {
    ctx = new SqliteQueryContext(db);
    contexts.set(db, ctx);
  }
  return ctx;
}

/**
 * Runs one query on an open connection, in this thread.
 *
 * @example runQuery(db, 'search publications where year = 2020 return year', { dslVersion: 2 })
 *   // { year: [{ id: 2020, count: 412 }], _stats: { total_count: 412 } }
 */
export function runQuery(db: Database.Database, text: string, options: RunQueryOptions): QueryResult {
  const prepared = prepareQuery(text, options);
  if (prepared.kind === 'answer') return prepared.result;
  return contextOf(db).execute(prepared.plan);
}
