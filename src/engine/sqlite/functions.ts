/**
 * SQL functions the SQLite compiler relies on, registered once per connection.
 */
import type Database from 'better-sqlite3';
import { MEDIAN_FUNCTION, median } from '../../compile/sqlite/aggregates.ts';

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
