/**
 * One query on a SQLite connection, in process: compile the plan with SQLite's dialect,
 * execute, shape. The worker threads run exactly this; tests and benchmarks call
 * `runQuery` directly.
 */
import type Database from 'better-sqlite3';
import { compileSearch, type CompiledSearch } from '../../../compile/compile-search.ts';
import type { SearchPlan } from '../../../compile/plan.ts';
import { RECORDS_LAYOUT } from '../../../compile/records-layout.ts';
import { sqliteDialect } from '../../../compile/sqlite/dialect.ts';
import { prepareQuery, type PreparedQuery, type RunQueryOptions } from '../../run-query.ts';
import { shapeResult } from '../../shape.ts';
import type { QueryResult } from '../../types.ts';
import { ColumnarFacets, type ColumnarFacetsOptions } from './columnar-facets.ts';
import { executeCompiled } from './execute.ts';
import { StatementCache } from './statement-cache.ts';
import { vocabulary, type Vocabulary } from './vocabulary.ts';

export interface SqliteQueryContextOptions {
  /** Link facets from in-memory columns (`columnar-facets.ts`); `false` keeps every facet in SQL. Default on. */
  readonly columnar?: false | ColumnarFacetsOptions;
}

/** A read connection with Quarry's statement, vocabulary and link-facet caches; one per worker. */
export class SqliteQueryContext {
  readonly db: Database.Database;
  readonly statements: StatementCache;
  readonly vocabulary: Vocabulary;
  readonly columnar: ColumnarFacets | undefined;
  constructor(db: Database.Database, options: SqliteQueryContextOptions = {}) {
    this.db = db;
    this.statements = new StatementCache(db);
    this.vocabulary = vocabulary(db);
    this.columnar = options.columnar === false ? undefined : new ColumnarFacets(db, options.columnar);
  }

  compile(plan: SearchPlan): CompiledSearch {
    return compileSearch(sqliteDialect, RECORDS_LAYOUT, plan, {
      expandPattern: (table, glob) => this.vocabulary.expand(table, glob),
    });
  }

  execute(plan: SearchPlan): QueryResult {
    const compiled = this.compile(plan);
    const executed = executeCompiled(this.statements, compiled, this.columnar);
    return shapeResult({ plan, ...executed, warnings: this.vocabulary.takeWarnings() });
  }

  /**
   * Runs one query's text on this connection, in this thread (an answer without a search, such
   * as `describe`, as it is). Statement functions read through an engine (`function-context.ts`)
   * and are not run here.
   */
  run(text: string, options: RunQueryOptions): QueryResult {
    return this.runPrepared(prepareQuery(text, options));
  }

  /** As `run`, for a query already parsed and validated. */
  runPrepared(prepared: PreparedQuery): QueryResult {
    switch (prepared.kind) {
      case 'answer':
        return prepared.result;
      case 'plan':
        return this.execute(prepared.plan);
      case 'function':
        throw new Error(`${prepared.prepared.name}() runs through a QueryEngine, not on one connection`);
    }
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
  return contextOf(db).run(text, options);
}

/** Runs a query already prepared (`prepareQuery`) on an open connection, in this thread. */
export function runPreparedQuery(db: Database.Database, prepared: PreparedQuery): QueryResult {
  return contextOf(db).runPrepared(prepared);
}
