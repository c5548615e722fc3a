/**
 * The SQL functions of posting lists, registered on each connection that needs them. Compiled
 * statements read a list's keys as rows through `json_each(postings_json(list))` (the SQLite
 * dialect's `postingRows`): one JavaScript call per list, the rows themselves from SQLite's
 * own JSON reader.
 */
import type { Database } from 'better-sqlite3';
import { encodePostings, postingsCount, postingsJson } from './encoding.ts';

/** The SQL function compiled statements read a list through: its keys as a JSON array. */
export const POSTINGS_JSON_FUNCTION = 'postings_json';

/** The SQL aggregate that turns a group's keys into a list (`rebuildPostings`). */
export const POSTINGS_OF_AGGREGATE = 'postings_of';

/** The SQL function giving the number of keys a list holds (`ownerCountSql`). */
export const POSTINGS_COUNT_FUNCTION = 'postings_count';

/**
 * Registers `postings_json(list)` (the keys as a JSON array, `[]` for NULL),
 * `postings_count(list)` (0 for NULL), both deterministic, and the aggregate
 * `postings_of(key)` on a connection. Every connection that runs compiled statements needs
 * the first (the writer, the engine's read-only connections).
 */
export function registerPostingFunctions(db: Database): void {
  db.function(POSTINGS_JSON_FUNCTION, { deterministic: true }, (list: unknown) =>
    list instanceof Uint8Array ? postingsJson(list) : '[]',
  );
  db.function(POSTINGS_COUNT_FUNCTION, { deterministic: true }, (list: unknown) =>
    list instanceof Uint8Array ? postingsCount(list) : 0,
  );
  db.aggregate(POSTINGS_OF_AGGREGATE, {
    start: () => [] as number[],
    step: (keys: number[], key: unknown) => {
      if (typeof key === 'number') keys.push(key);
      else if (typeof key === 'bigint') keys.push(Number(key));
    },
    result: (keys: number[]) => encodePostings(keys),
  });
}
