/**
 * Lists are derived data. A bulk load marks them stale and leaves them to `finish()`, which
 * rebuilds every list from the link table in one grouped pass, or turned around from the lists
 * by record (`rebuildPostings`); other writes keep them up to date record by record
 * (`PostingListWriter`, writer.ts).
 */
import type { Database } from 'better-sqlite3';
import {
  ownerKey,
  postingLinks,
  type LinkTableSpec,
  type PostingListsSpec,
  type RecordKind,
} from '../../../model/storage.ts';
import { batchedInsert } from '../batched-insert.ts';
import { staleNote } from '../stale-note.ts';
import { heldListsByRecord } from './by-record.ts';
import { postingsTableSql, valueColumn } from './by-value.ts';
import { POSTINGS_OF_AGGREGATE, registerPostingFunctions } from './sql-functions.ts';
import { TURNAROUND_KEYS, turnedEntries, turnListsAround, type TurnedLists } from './turnaround.ts';

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
 * The note that the lists do not hold every link row yet (a bulk load is under way): set when
 * the load starts, cleared once they are rebuilt.
 */
const STALE = staleNote('posting_lists_stale');

export const markPostingsStale = (db: Database): void => STALE.mark(db);

export const markPostingsFresh = (db: Database): void => STALE.clear(db);

export const postingsStale = (db: Database): boolean => STALE.isSet(db);
