/**
 * A connection's prepared statements, kept by their text, and what SQLite's planner says of
 * them; also the one way to unpack the connection's packed text. Every reader on the
 * connection (`execute.ts`, `columnar-facets.ts`) shares one.
 */
import type Database from 'better-sqlite3';
import type { Sql } from '../../../compile/sql.ts';
import type { UnpackText } from '../../compiled-rows.ts';
import { unpackText } from '../../../store/sqlite/packed-text.ts';
import { readDictionaries } from '../../../store/sqlite/text-dictionaries.ts';

/** Statements are prepared once per connection and reused (the text is the cache key). */
export class StatementCache {
  readonly #db: Database.Database;
  readonly #cache = new Map<string, Database.Statement>();
  readonly #plans = new Map<string, readonly string[]>();
  #dictionaries: ReadonlyMap<number, Uint8Array> | undefined;
  constructor(db: Database.Database) {
    this.#db = db;
  }

  /** The text of a packed value of this database (pages read `doc` and packed columns as stored). */
  readonly unpack: UnpackText = (packed) => {
    this.#dictionaries ??= readDictionaries(this.#db);
    return unpackText(packed, this.#dictionaries);
  };
  get(sql: string): Database.Statement {
    let stmt = this.#cache.get(sql);
    if (stmt === undefined) {
      stmt = this.#db.prepare(sql);
      if (this.#cache.size > 500) this.#cache.clear();
      this.#cache.set(sql, stmt);
    }
    return stmt;
  }

  /** SQLite's plan for a statement (EXPLAIN QUERY PLAN's steps), asked once per statement text. */
  plan(sql: Sql): readonly string[] {
    let steps = this.#plans.get(sql.text);
    if (steps === undefined) {
      steps = (this.#db.prepare(`EXPLAIN QUERY PLAN ${sql.text}`).all(...sql.params) as Array<{ detail: string }>).map(
        (step) => step.detail,
      );
      if (this.#plans.size > 500) this.#plans.clear();
      this.#plans.set(sql.text, steps);
    }
    return steps;
  }

  /**
   * Whether a statement sorts all its rows before the LIMIT (a temporary B-tree for the
   * whole ORDER BY), rather than reading an index in order and stopping early.
   */
  sortsEveryRow(sql: Sql): boolean {
    return this.plan(sql).includes('USE TEMP B-TREE FOR ORDER BY');
  }

  /**
   * Whether a statement reads one covering index and nothing else (a count that is cheap by
   * itself), counting distinct keys on the way or not.
   */
  readsOneCoveringIndex(sql: Sql): boolean {
    const steps = this.plan(sql).filter((step) => step !== 'USE TEMP B-TREE FOR count(DISTINCT)');
    return steps.length === 1 && steps[0]?.includes(' USING COVERING INDEX ') === true;
  }
}
