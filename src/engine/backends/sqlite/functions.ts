/**
 * SQL functions SQLite's dialect relies on, registered once per connection.
 */
import type Database from 'better-sqlite3';
import { MEDIAN_FUNCTION } from '../../../compile/sqlite/dialect.ts';

/** The median of the non-null numbers, or null; what `quarry_median` computes. */
export function median(values: readonly number[]): number | null {
  if (values.length === 0) return null;
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 === 1
    ? (sorted[mid] as number)
    : ((sorted[mid - 1] as number) + (sorted[mid] as number)) / 2;
}

/** Registers `quarry_median(x)`: the median of the non-null values of a group. */
export function registerFunctions(db: Database.Database): void {
  db.aggregate(MEDIAN_FUNCTION, {
    start: () => [] as number[],
    step: (values: number[], x: unknown) => {
      if (typeof x === 'number' || typeof x === 'bigint') values.push(Number(x));
      return values;
    },
    result: (values: number[]) => median(values),
  });
}
