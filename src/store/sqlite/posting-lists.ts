/**
 * Posting lists: the reverse side of a link table (`LinkTableSpec.postings`) as one row per
 * value holding the keys of the records that link to it, instead of a reverse index with one
 * entry per link. A B-tree entry costs about 12 bytes however small its integers are (cell
 * pointer, header, two varints); a list costs about 2 bytes a key. At 1M publications the
 * reverse index of `publication_references` took 218 MiB and its lists take 48; those of the
 * concept links 78 MiB, and their lists 12.5; those of the researcher links 167 MiB, and
 * their lists (keyed by text ids) 69.5.
 *
 * A list is the keys ascending, each written as the unsigned LEB128 varint of its difference
 * from the one before (the first from 0). Compiled statements read a list's keys as rows
 * through `json_each(postings_json(list))` (the SQLite dialect's `postingRows`): one
 * JavaScript call per list, the rows themselves from SQLite's own JSON reader.
 *
 * Lists are derived data. A bulk load leaves them to `finish()`, which rebuilds every list
 * from the link table in one grouped pass (`rebuildPostings`); other writes keep them up to
 * date record by record (`PostingListWriter`).
 */
import type { Database, Statement } from 'better-sqlite3';
import {
  listedLinks,
  ownerKey,
  postingLinks,
  type LinkTableSpec,
  type PostingListsSpec,
  type RecordKind,
} from '../../model/storage.ts';
import { batchedInsert } from './batched-insert.ts';
import { staleNote } from './stale-note.ts';

/** The SQL function compiled statements read a list through: its keys as a JSON array. */
export const POSTINGS_JSON_FUNCTION = 'postings_json';

/** The SQL aggregate that turns a group's keys into a list (`rebuildPostings`). */
const POSTINGS_OF_AGGREGATE = 'postings_of';

/** The SQL function giving the number of keys a list holds (`ownerCountSql`). */
const POSTINGS_COUNT_FUNCTION = 'postings_count';

/** The note that the lists do not hold every link row yet (a bulk load is under way). */
const STALE = staleNote('posting_lists_stale');

/**
 * The stored form of a list of keys (non-negative integers, in any order, repeats ignored).
 *
 * @example encodePostings([300, 5, 7]) // <05 02 a5 02>: 5, +2, +293
 */
export function encodePostings(keys: Iterable<number>): Buffer {
  const sorted = [...new Set(keys)].sort((a, b) => a - b);
  for (const key of sorted)
    if (!Number.isSafeInteger(key) || key < 0)
      throw new Error(`a posting list holds non-negative integers, not ${key}`);
  return encodeAscending(sorted);
}

/**
 * `encodePostings` of keys already ascending, distinct, and non-negative safe integers (no
 * copy, set, sort or check).
 */
function encodeAscending(keys: ArrayLike<number>): Buffer {
  // A difference below 2^35 takes at most five bytes.
  const out = Buffer.allocUnsafe(keys.length * 5);
  return out.subarray(0, encodeAscendingInto(out, 0, keys));
}

/** Writes `encodeAscending(keys)` into `out` from `at`; returns where it ends. */
function encodeAscendingInto(out: Buffer, at: number, keys: ArrayLike<number>): number {
  let length = at;
  let previous = 0;
  for (let k = 0; k < keys.length; k++) {
    const key = keys[k] as number;
    let gap = key - previous;
    previous = key;
    while (gap >= 0x80) {
      out[length++] = (gap % 0x80) | 0x80;
      gap = Math.floor(gap / 0x80);
    }
    out[length++] = gap;
  }
  return length;
}

/** The keys of a stored list, ascending. Throws on a list cut short inside a varint. */
export function decodePostings(list: Uint8Array): number[] {
  const keys: number[] = [];
  forEachPosting(list, (key) => keys.push(key));
  return keys;
}

/**
 * The keys of a stored list as a JSON array (`[3,5,300]`), written digit by digit into one
 * buffer: for the 99,905 keys of the longest concept list at 1M publications, 2.2 ms instead
 * of 7.0 ms through `decodePostings(list).join(',')` (the array and the join).
 */
export function postingsJson(list: Uint8Array): string {
  // A key takes at most 16 digits (below 2^53) and a comma; a byte of the list ends at most one key.
  const out = Buffer.allocUnsafe(2 + list.length * 17);
  const digits = new Uint8Array(16);
  let length = 0;
  out[length++] = 0x5b; // [
  // The varint loop of `forEachPosting`, written out: through its callback the list above took
  // 6.2 and 7.8 ms instead of 4.7 and 6.0 (two rounds, 2026-11-27), and queries call this per list.
  let key = 0;
  let gap = 0;
  let scale = 1;
  for (let at = 0; at < list.length; at++) {
    const byte = list[at] as number;
    gap += (byte & 0x7f) * scale;
    if (byte & 0x80) {
      scale *= 0x80;
      continue;
    }
    key += gap;
    gap = 0;
    scale = 1;
    if (length > 1) out[length++] = 0x2c; // ,
    let rest = key;
    let count = 0;
    // Integer division while the key fits 31 bits (every key below 2^31), floating beyond.
    while (rest >= 0x80000000) {
      digits[count++] = 0x30 + (rest % 10);
      rest = Math.floor(rest / 10);
    }
    do {
      const next = (rest / 10) | 0;
      digits[count++] = 0x30 + rest - next * 10;
      rest = next;
    } while (rest > 0);
    while (count > 0) out[length++] = digits[--count] as number;
  }
  if (scale !== 1) throw new Error('a posting list ends inside a key');
  out[length++] = 0x5d; // ]
  return out.toString('latin1', 0, length);
}

/** How many keys a stored list holds: its bytes that end a varint. */
export function postingsCount(list: Uint8Array): number {
  let count = 0;
  for (let at = 0; at < list.length; at++) if (((list[at] as number) & 0x80) === 0) count++;
  return count;
}

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

/**
 * The `CREATE TABLE` of a link table's lists: keyed by the rowid for an integer value, a
 * `WITHOUT ROWID` table for a text one (the key is stored once, in the B-tree).
 */
export function postingsTableSql(link: LinkTableSpec & { readonly postings: PostingListsSpec }): string {
  const { table, column } = link.postings;
  const value = valueColumn(link);
  if (link.key[link.key.length - 1]?.type === 'integer')
    return `CREATE TABLE IF NOT EXISTS ${table} (${value} INTEGER PRIMARY KEY, ${column} BLOB NOT NULL)`;
  return `CREATE TABLE IF NOT EXISTS ${table} (${value} TEXT PRIMARY KEY, ${column} BLOB NOT NULL) WITHOUT ROWID`;
}

function valueColumn(link: LinkTableSpec): string {
  const column = link.key[link.key.length - 1]?.name;
  if (column === undefined) throw new Error(`link table ${link.table} has no key column`);
  return column;
}

/**
 * The `CREATE TABLE` of a link table's lists by record (`LinkTableSpec.listed`) and the view
 * that reads them as the link table's rows, under its name: statements written for the table
 * read the view the same way (SQLite flattens it, so a record's rows are one lookup of its
 * list).
 */
export function listedTableSql(link: LinkTableSpec & { readonly listed: PostingListsSpec }): {
  table: string;
  view: string;
} {
  const owner = ownerKey(link.owner);
  const { table, column } = link.listed;
  return {
    table: `CREATE TABLE IF NOT EXISTS ${table} (${owner} INTEGER PRIMARY KEY, ${column} BLOB NOT NULL)`,
    view:
      `CREATE VIEW IF NOT EXISTS ${link.table} AS SELECT l.${owner} AS ${owner}, j.value AS ${valueColumn(link)} ` +
      `FROM ${table} l, json_each(${POSTINGS_JSON_FUNCTION}(l.${column})) j`,
  };
}

/**
 * Records migration 17: a link table kept as lists by record (`LinkTableSpec.listed`; of an
 * owner in `kinds`, where given) gets its lists from its rows (read in primary-key order, one
 * group a record) and becomes the view. A database that has the view already is left alone.
 */
export function keepListsByRecord(db: Database, { kinds }: { readonly kinds?: ReadonlySet<RecordKind> } = {}): void {
  registerPostingFunctions(db);
  for (const link of listedLinks().filter((l) => kinds === undefined || kinds.has(l.owner))) {
    if (schemaTypeOf(db, link.table) !== 'table') continue;
    const owner = ownerKey(link.owner);
    const { table, column } = link.listed;
    const sql = listedTableSql(link);
    db.exec(sql.table);
    db.exec(
      `INSERT INTO ${table} (${owner}, ${column}) SELECT ${owner}, ${POSTINGS_OF_AGGREGATE}(${valueColumn(link)}) ` +
        `FROM ${link.table} GROUP BY ${owner}`,
    );
    db.exec(`DROP TABLE ${link.table}`);
    db.exec(sql.view);
    db.exec(`ANALYZE ${table}`);
  }
}

/**
 * A record's values as its list by record (`LinkTableSpec.listed`): its vocabulary ids (NULL,
 * for a row without text, left out); undefined when it has none.
 */
export function listOfIds(ids: readonly (number | null)[]): Buffer | undefined {
  const values = ids.filter((v): v is number => v !== null);
  return values.length === 0 ? undefined : encodePostings(values);
}

/**
 * SQL for the number of a link table's owners linking to `value` (an SQL expression, such
 * as a column of the outer statement): one list's count where the table has lists, else a
 * count of the rows by its reverse index.
 *
 * @example ownerCountSql(publicationResearchers, 'researchers.id')
 *   // coalesce((SELECT postings_count(x.publication_pks) FROM publication_researchers_postings x WHERE x.researcher_id = researchers.id), 0)
 */
export function ownerCountSql(link: LinkTableSpec, value: string): string {
  if (link.postings === undefined)
    return `(SELECT COUNT(*) FROM ${link.table} x WHERE x.${valueColumn(link)} = ${value})`;
  return `coalesce((SELECT ${POSTINGS_COUNT_FUNCTION}(x.${link.postings.column}) FROM ${link.postings.table} x WHERE x.${valueColumn(link)} = ${value}), 0)`;
}

/**
 * SQL for the number of rows a record has in a link table (`owner`: the record's key, an SQL
 * expression, such as `s.pk`): its list's count where the table is kept as lists by record,
 * where the view would expand the list as JSON to count it (the references of 1M
 * publications: 2.8 s instead of 6.7 s, the concepts 2.2 instead of 3.8, each with the scan of
 * the publications), else a range of the table's primary key.
 */
export function recordRowCountSql(db: Database, link: LinkTableSpec, owner: string): string {
  const key = ownerKey(link.owner);
  const listed = heldListsByRecord(db, link);
  if (listed === undefined) return `(SELECT count(*) FROM ${link.table} l WHERE l.${key} = ${owner})`;
  return `coalesce((SELECT ${POSTINGS_COUNT_FUNCTION}(l.${listed.column}) FROM ${listed.table} l WHERE l.${key} = ${owner}), 0)`;
}

/**
 * The owners of a link table linking to `value`, as parts of a statement: `from` (items
 * aliased `x` and `j`), `owner` (the owner key's expression) and `where`.
 *
 * @example `SELECT MIN(p.year) FROM ${o.from} JOIN publications p ON p.pk = ${o.owner} WHERE ${o.where}`
 */
export function ownersOf(link: LinkTableSpec, value: string): { from: string; owner: string; where: string } {
  const where = `x.${valueColumn(link)} = ${value}`;
  if (link.postings === undefined) return { from: `${link.table} x`, owner: `x.${ownerKey(link.owner)}`, where };
  return {
    from: `${link.postings.table} x, json_each(${POSTINGS_JSON_FUNCTION}(x.${link.postings.column})) j`,
    owner: 'j.value',
    where,
  };
}

/**
 * Rewrites every list (of the link tables whose owner is in `kinds`, where given) from its
 * link table. A table kept as lists by record (the references,
 * the concepts) is turned around from those lists in JavaScript (`rebuildFromListsByRecord`);
 * the others in one grouped pass sorted by SQLite (its sorter spills to disk, so memory stays
 * bounded). At 1M publications the grouped pass took 27.3 s for the 19.1M references and
 * 12.5 s for the 7.6M publications' concept links, read through the views that expand each
 * record's list as JSON; turned around, 7.3 s and 4.0 s, the same lists byte for byte
 * (2026-11-27, the writes included).
 */
export function rebuildPostings(db: Database, { kinds }: { readonly kinds?: ReadonlySet<RecordKind> } = {}): void {
  for (const link of postingLinks()) if (kinds === undefined || kinds.has(link.owner)) rebuildPostingsOf(db, link);
}

/**
 * Rewrites one link table's lists from its rows (`rebuildPostings`); from its lists by record
 * where it keeps them, `budget` keys at a time (`rebuildFromListsByRecord`).
 */
export function rebuildPostingsOf(
  db: Database,
  link: LinkTableSpec & { readonly postings: PostingListsSpec },
  budget: number = TURNAROUND_KEYS,
): void {
  registerPostingFunctions(db);
  const value = valueColumn(link);
  clearPostingsOf(db, link);
  const listed = heldListsByRecord(db, link);
  if (listed !== undefined && rebuildFromListsByRecord(db, { ...link, listed }, budget)) return;
  db.exec(
    `INSERT INTO ${link.postings.table} (${value}, ${link.postings.column}) ` +
      `SELECT ${value}, ${POSTINGS_OF_AGGREGATE}(${ownerKey(link.owner)}) FROM ${link.table} GROUP BY ${value}`,
  );
}

/** Rewrites one link table's lists with lists turned around before (`listsTurnedAround`). */
export function replacePostingsOf(
  db: Database,
  link: LinkTableSpec & { readonly postings: PostingListsSpec },
  turned: TurnedLists,
): void {
  clearPostingsOf(db, link);
  saveTurnedLists(db, link, turned);
}

function clearPostingsOf(db: Database, link: LinkTableSpec & { readonly postings: PostingListsSpec }): void {
  db.exec(postingsTableSql(link));
  db.exec(`DELETE FROM ${link.postings.table}`);
}

/** What `name` is in the database's schema (`table`, `view`, `index`...), undefined when absent. */
function schemaTypeOf(db: Database, name: string): string | undefined {
  return db.prepare<[string], string>('SELECT type FROM sqlite_schema WHERE name = ?').pluck().get(name);
}

/**
 * A link table's lists by record, when the database keeps the table as them: declared
 * `listed` and made a view by migrations 17 and 18 (migrations before them, such as 16, which
 * first built the posting lists, see the table itself). Undefined otherwise.
 */
export function heldListsByRecord(db: Database, link: LinkTableSpec): PostingListsSpec | undefined {
  return link.listed !== undefined && schemaTypeOf(db, link.table) === 'view' ? link.listed : undefined;
}

/** The posting links whose link table this database keeps as lists by record (`heldListsByRecord`). */
export function postingLinksListedByRecord(
  db: Database,
): (LinkTableSpec & { readonly postings: PostingListsSpec; readonly listed: PostingListsSpec })[] {
  return postingLinks().flatMap((link) => {
    const listed = heldListsByRecord(db, link);
    return listed === undefined ? [] : [{ ...link, listed }];
  });
}

/**
 * Keys placed in memory at once while turning lists by record around (4 bytes each): 32M
 * keys, 128 MiB. At 1M publications the 19.1M references take one pass; at 10M, about six.
 */
const TURNAROUND_KEYS = 32 * 2 ** 20;

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
 * The lists of a link table kept as lists by record, from those lists, written into its empty
 * lists table (`turnListsAround`, then `saveTurnedLists` for each range). False, writing
 * nothing, when an owner key does not fit 32 bits.
 */
export function rebuildFromListsByRecord(
  db: Database,
  link: LinkTableSpec & { readonly postings: PostingListsSpec; readonly listed: PostingListsSpec },
  budget: number = TURNAROUND_KEYS,
): boolean {
  return turnListsAround(db, link, budget, (range) => saveTurnedLists(db, link, range));
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

/** Writes turned lists into the link table's lists table, many lists a statement. */
function saveTurnedLists(
  db: Database,
  link: LinkTableSpec & { readonly postings: PostingListsSpec },
  turned: TurnedLists,
): void {
  const save = batchedInsert(db, link.postings.table, [valueColumn(link), link.postings.column]);
  for (const [value, list] of turnedEntries(turned)) save.add(value, list);
  save.flush();
}

/**
 * A counting sort of a link table's lists by record into lists by value. One pass counts each
 * value's owners; then, for each range of values whose owners fit `budget`, a pass over every
 * record's list (in owner order, so each value's owners arrive ascending) places the owners of
 * the range's values into one array, and `onRange` gets the range's lists in value order
 * (written in that order, the table's pages are full). False when an owner key does not fit 32
 * bits (the arrays'), or, with `oneRange`, when the lists take more than one range.
 */
function turnListsAround(
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

/** Calls `fn` with each key of a stored list, ascending (`decodePostings` without the array). */
export function forEachPosting(list: Uint8Array, fn: (key: number) => void): void {
  let key = 0;
  let gap = 0;
  let scale = 1;
  for (let at = 0; at < list.length; at++) {
    const byte = list[at] as number;
    gap += (byte & 0x7f) * scale;
    if (byte & 0x80) {
      scale *= 0x80;
      continue;
    }
    key += gap;
    fn(key);
    gap = 0;
    scale = 1;
  }
  if (scale !== 1) throw new Error('a posting list ends inside a key');
}

export const markPostingsStale = (db: Database): void => STALE.mark(db);

export const markPostingsFresh = (db: Database): void => STALE.clear(db);

export const postingsStale = (db: Database): boolean => STALE.isSet(db);

/** A link table's value: an integer key (interned values) or a text id. */
type LinkValue = number | string;

/**
 * Keeps one link table's lists up to date as its records are written one by one: `before`
 * a record's link rows are replaced or removed, `after` its new ones are in, and `flush` once
 * per transaction, which rewrites each list the records changed once however many of them
 * changed it (a batch of publications citing the same paper reads and writes its list once).
 */
export class PostingListWriter {
  /** Value → owner key → whether the owner now links to it (true) or no longer does (false). */
  private readonly pending = new Map<LinkValue, Map<number, boolean>>();
  /** The values each record linked to before its rows were replaced, until `after`. */
  private readonly previous = new Map<number, readonly LinkValue[]>();
  private readonly valuesOf: Statement<[number], LinkValue>;
  private readonly read: Statement<[LinkValue], Buffer>;
  private readonly save: Statement<[LinkValue, Buffer]>;
  private readonly drop: Statement<[LinkValue]>;

  constructor(db: Database, link: LinkTableSpec & { readonly postings: PostingListsSpec }) {
    const value = valueColumn(link);
    const { table, column } = link.postings;
    this.valuesOf = db
      .prepare<[number], LinkValue>(`SELECT ${value} FROM ${link.table} WHERE ${ownerKey(link.owner)} = ?`)
      .pluck();
    this.read = db.prepare<[LinkValue], Buffer>(`SELECT ${column} FROM ${table} WHERE ${value} = ?`).pluck();
    this.save = db.prepare<[LinkValue, Buffer]>(
      `INSERT INTO ${table} (${value}, ${column}) VALUES (?, ?) ON CONFLICT (${value}) DO UPDATE SET ${column} = excluded.${column}`,
    );
    this.drop = db.prepare<[LinkValue]>(`DELETE FROM ${table} WHERE ${value} = ?`);
  }

  /** Before the record's link rows are deleted (to be replaced, or with the record). */
  before(owner: number): void {
    this.previous.set(owner, this.valuesOf.all(owner));
  }

  /** After the record's link rows are written (a new record: without `before`). */
  after(owner: number): void {
    const old = new Set(this.previous.get(owner) ?? []);
    this.previous.delete(owner);
    for (const value of this.valuesOf.all(owner)) {
      if (!old.delete(value)) this.note(value, owner, true);
    }
    for (const value of old) this.note(value, owner, false);
  }

  /** After the record and its link rows are deleted (`before` was called). */
  removed(owner: number): void {
    for (const value of this.previous.get(owner) ?? []) this.note(value, owner, false);
    this.previous.delete(owner);
  }

  /** Writes every list the noted changes touch. */
  flush(): void {
    for (const [value, owners] of this.pending) {
      const stored = this.read.get(value);
      const keys = new Set(stored === undefined ? [] : decodePostings(stored));
      for (const [owner, linked] of owners) {
        if (linked) keys.add(owner);
        else keys.delete(owner);
      }
      if (keys.size === 0) this.drop.run(value);
      else this.save.run(value, encodePostings(keys));
    }
    this.reset();
  }

  /** Forgets every noted change (the transaction they belonged to failed). */
  reset(): void {
    this.pending.clear();
    this.previous.clear();
  }

  private note(value: LinkValue, owner: number, linked: boolean): void {
    let owners = this.pending.get(value);
    if (owners === undefined) this.pending.set(value, (owners = new Map<number, boolean>()));
    owners.set(owner, linked);
  }
}
