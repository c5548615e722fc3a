/**
 * Runs query shapes in process and prints, for each, its first run (which reads what the
 * shape needs into memory) and its p50 wall and CPU time over the next runs. Each shape makes
 * its query from the run's number, so the runs vary their values.
 *
 * @example
 *   printShapeRuns('db.sqlite', [['year filter', (i) => `search publications where year = ${2000 + i} ...`]], 9, execute);
 */

import { parseArgs } from 'node:util';
import type { Database } from 'better-sqlite3';
import { SqliteQueryContext } from '../src/engine/backends/sqlite/query-context.ts';
import { openReadOnly } from '../src/store/sqlite/open.ts';

/** What a shape benchmark works on: its `--db` opened read-only, its `--runs`, and a query runner. */
export interface ShapeBench {
  readonly path: string;
  readonly runs: number;
  readonly db: Database;
  /** Runs a query in this thread, on `db`, through the engine (an answer without a search as it is). */
  readonly execute: (query: string) => Record<string, unknown>;
}

/** Reads `--db <records.db> [--runs 9]` and opens the database for a shape benchmark. */
export function openShapeBench(): ShapeBench {
  const { values: args } = parseArgs({
    options: { db: { type: 'string' }, runs: { type: 'string', default: '9' } },
  });
  if (args.db === undefined) throw new Error('--db <record database> is required');
  const db = openReadOnly(args.db, { tempStore: 'memory' });
  const ctx = new SqliteQueryContext(db);
  return {
    path: args.db,
    runs: Math.max(3, Number(args.runs)),
    db,
    execute: (query) => ctx.run(query, { dslVersion: 2 }),
  };
}

/** A shape's name and the query of its run `i` (0 is the first run). */
export type Shape = readonly [name: string, query: (i: number) => string];

const pct = (sorted: readonly number[], p: number): number =>
  sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] as number;

function timed(execute: (query: string) => unknown, query: string): { wall: number; cpu: number } {
  const c0 = process.cpuUsage();
  const t0 = performance.now();
  execute(query);
  const cpu = process.cpuUsage(c0);
  return { wall: performance.now() - t0, cpu: (cpu.user + cpu.system) / 1000 };
}

/** Prints a table of `shapes` run `runs` times each after a first run, through `execute`. */
export function printShapeRuns(
  database: string,
  shapes: readonly Shape[],
  runs: number,
  execute: (query: string) => unknown,
): void {
  const width = Math.max(...shapes.map(([name]) => name.length), 5);
  const ms = (v: number): string => `${v.toFixed(1)} ms`.padStart(9);
  console.log(`${database}: ${runs} runs per shape after a first run`);
  console.log(`  ${'shape'.padEnd(width)} ${'first'.padStart(9)} ${'p50'.padStart(9)} ${'cpu p50'.padStart(9)}`);
  for (const [name, query] of shapes) {
    const first = timed(execute, query(0)).wall;
    const walls: number[] = [];
    const cpus: number[] = [];
    for (let i = 1; i <= runs; i++) {
      const { wall, cpu } = timed(execute, query(i));
      walls.push(wall);
      cpus.push(cpu);
    }
    walls.sort((a, b) => a - b);
    cpus.sort((a, b) => a - b);
    console.log(`  ${name.padEnd(width)} ${ms(first)} ${ms(pct(walls, 50))} ${ms(pct(cpus, 50))}`);
  }
}
