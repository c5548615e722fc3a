/**
 * A filter tested on in-memory number columns (record key → value, NaN for NULL): the keys
 * of the records passing every test. NaN (a missing value, or a key with no record) fails
 * every test, as NULL does in SQL; the compiler only describes filters for which that holds
 * (`compile/column-conditions.ts`).
 */
import type { ColumnTest } from '../../compile/column-conditions.ts';

/** The test as a predicate on one value. */
export function numberTest(test: ColumnTest): (x: number) => boolean {
  switch (test.kind) {
    case 'range': {
      const { low, high } = test;
      return (x) => x >= low && x <= high;
    }
    case 'in': {
      const values = new Set(test.values);
      return (x) => values.has(x);
    }
    case 'compare': {
      const v = test.value;
      switch (test.op) {
        case '=':
          return (x) => x === v;
        case '<':
          return (x) => x < v;
        case '>':
          return (x) => x > v;
        case '<=':
          return (x) => x <= v;
        case '>=':
          return (x) => x >= v;
      }
    }
  }
}

/** The keys (indexes) at which every test passes on its column, ascending. */
export function keysPassing(
  tests: ReadonlyArray<{ column: Float64Array; passes: (x: number) => boolean }>,
): Int32Array {
  const length = Math.min(...tests.map((t) => t.column.length));
  const keys = new Int32Array(length);
  let n = 0;
  for (let k = 0; k < length; k++) {
    let ok = true;
    for (const t of tests) {
      const x = t.column[k] as number;
      if (Number.isNaN(x) || !t.passes(x)) {
        ok = false;
        break;
      }
    }
    if (ok) keys[n++] = k;
  }
  return keys.slice(0, n);
}
