/**
 * Turning a link table's lists by record around into its lists by value in memory, a range of
 * values at a time (a counting sort), instead of SQLite's grouped pass over the view, which
 * expands every record's list as JSON (the timings are at `rebuildPostings`). rebuild.ts
 * writes each range as it is made; `finish()` may turn a table's lists around in one range
 * while it cannot yet write them (`listsTurnedAround`).
 */
import type { Database } from 'better-sqlite3';
import { ownerKey, type LinkTableSpec, type PostingListsSpec } from '../../../model/storage.ts';
import { encodeAscendingInto, forEachPosting } from './encoding.ts';

/**
 * Keys placed in memory at once while turning lists by record around (4 bytes each): 32M
 * keys, 128 MiB. At 1M publications the 19.1M references take one pass; at 10M, about six.
 */
export const TURNAROUND_KEYS = 32 * 2 ** 20;

/**
 * One range of a link table's lists turned around from its lists by record: the values that
 * have owners, ascending, and their lists one after another in `bytes` (value `values[i]`'s
 * list ends at `ends[i]` and starts where the one before ends).
 */
export interface TurnedLists {
  readonly values: Uint32Array;
  readonly ends: Uint32Array;
  readonly bytes: Buffer;
}

/** Each value of `turned` with its list (a view into `turned.bytes`). */
export function* turnedEntries(turned: TurnedLists): Generator<readonly [number, Uint8Array]> {
  let start = 0;
  for (let i = 0; i < turned.values.length; i++) {
    const end = turned.ends[i] as number;
    yield [turned.values[i] as number, turned.bytes.subarray(start, end)];
    start = end;
  }
}

/**
 * The lists of a link table kept as lists by record, turned around in memory in one range, to
 * be written later (`replacePostingsOf`): `finish()` turns them around while a worker thread
 * merges the full-text index, which holds the database's write lock. Undefined when they take
 * more than `budget` keys (or an owner key does not fit 32 bits): they are then rebuilt range
 * by range once the database can be written.
 */
export function listsTurnedAround(
  db: Database,
  link: LinkTableSpec & { readonly postings: PostingListsSpec; readonly listed: PostingListsSpec },
  budget: number = TURNAROUND_KEYS,
): TurnedLists | undefined {
  let turned: TurnedLists = { values: new Uint32Array(0), ends: new Uint32Array(0), bytes: Buffer.alloc(0) };
  const fits = turnListsAround(db, link, budget, (range) => (turned = range), { oneRange: true });
  return fits ? turned : undefined;
}

/**
 * A counting sort of a link table's lists by record into lists by value. One pass counts each
 * value's owners; then, for each range of values whose owners fit `budget`, a pass over every
 * record's list (in owner order, so each value's owners arrive ascending) places the owners of
 * the range's values into one array, and `onRange` gets the range's lists in value order
 * (written in that order, the table's pages are full). False when an owner key does not fit 32
 * bits (the arrays'), or, with `oneRange`, when the lists take more than one range.
 */
export function turnListsAround(
  db: Database,
  link: LinkTableSpec & { readonly postings: PostingListsSpec; readonly listed: PostingListsSpec },
  budget: number,
  onRange: (turned: TurnedLists) => void,
  { oneRange = false }: { readonly oneRange?: boolean } = {},
): boolean {
  const owner = ownerKey(link.owner);
  const lists = db
    .prepare<[], [number, Uint8Array]>(`SELECT ${owner}, ${link.listed.column} FROM ${link.listed.table}`)
    .raw();
  const largest = db.prepare<[], number | null>(`SELECT max(${owner}) FROM ${link.listed.table}`).pluck().get();
  if (largest === null || largest === undefined) return true;
  if (largest > 0xffffffff) return false;
  let counts = new Uint32Array(1024);
  for (const [, list] of lists.iterate())
    forEachPosting(list, (value) => {
      if (value >= counts.length) {
        const grown = new Uint32Array(Math.max(value + 1, counts.length * 2));
        grown.set(counts);
        counts = grown;
      }
      counts[value] = (counts[value] as number) + 1;
    });
  const keys = counts.reduce((s, n) => s + n, 0);
  if (oneRange && keys > budget) return false;
  const placed = new Uint32Array(Math.min(budget, keys));
  for (let low = 0; low < counts.length;) {
    // The range [low, high): as many values as fit the budget (at least one, whatever its size).
    let high = low;
    let total = 0;
    while (high < counts.length && (high === low || total + (counts[high] as number) <= placed.length))
      total += counts[high++] as number;
    const owners = total <= placed.length ? placed : new Uint32Array(total);
    const next = new Uint32Array(high - low + 1);
    for (let v = low; v < high; v++) next[v - low + 1] = (next[v - low] as number) + (counts[v] as number);
    const starts = next.slice();
    for (const [key, list] of lists.iterate())
      forEachPosting(list, (value) => {
        if (value < low || value >= high) return;
        const at = next[value - low] as number;
        next[value - low] = at + 1;
        owners[at] = key;
      });
    onRange(encodeRange(owners, starts, low));
    low = high;
  }
  return true;
}

/** The lists of one range: value `low + i`'s owners are `owners[starts[i]..starts[i + 1])`, ascending. */
function encodeRange(owners: Uint32Array, starts: Uint32Array, low: number): TurnedLists {
  let held = 0;
  for (let i = 0; i + 1 < starts.length; i++) if ((starts[i + 1] as number) > (starts[i] as number)) held++;
  const values = new Uint32Array(held);
  const ends = new Uint32Array(held);
  // A difference below 2^32 takes at most five bytes.
  const out = Buffer.allocUnsafe((starts[starts.length - 1] as number) * 5);
  let length = 0;
  let n = 0;
  for (let i = 0; i + 1 < starts.length; i++) {
    const start = starts[i] as number;
    const end = starts[i + 1] as number;
    if (end === start) continue;
    length = encodeAscendingInto(out, length, owners.subarray(start, end));
    values[n] = low + i;
    ends[n++] = length;
  }
  // A copy of the bytes used: the lists may be held while other work runs, the room for five
  // bytes a key is not.
  return { values, ends, bytes: Buffer.from(out.subarray(0, length)) };
}
