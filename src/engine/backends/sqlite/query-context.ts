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
import { prepareQuery, type RunQueryOptions } from '../../run-query.ts';
import { shapeResult } from '../../shape.ts';
import type { QueryResult } from '../../types.ts';
import { executeCompiled, StatementCache } from './execute.ts';
import { vocabulary, type Vocabulary } from './vocabulary.ts';

/** A read connection with Quarry's statement and vocabulary caches; one per worker. */
export class SqliteQueryContext {
  readonly db: Database.Database;
  readonly statements: StatementCache;
  readonly vocabulary: Vocabulary;
  constructor(db: Database.Database) {
    this.db = db;
    this.statements = new StatementCache(db);
    this.vocabulary = vocabulary(db);
  }

  compile(plan: SearchPlan): CompiledSearch {
    return compileSearch(sqliteDialect, RECORDS_LAYOUT, plan, {
      expandPattern: (table, glob) => this.vocabulary.expand(table, glob),
    });
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
