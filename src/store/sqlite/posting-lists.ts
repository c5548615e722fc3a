/**
 * Posting lists: the reverse side of a link table (`LinkTableSpec.postings`) as one row per
 * value holding the keys of the records that link to it, instead of a reverse index with one
 * entry per link. A B-tree entry costs about 12 bytes however small its integers are (cell
 * pointer, header, two varints); a list costs about 2 bytes a key. At 1M publications the
 * reverse index of `publication_references` took 218 MiB and its lists take 48; those of the
 * concept links 78 MiB, and their lists 12.5; those of the researcher links 167 MiB, and
 * their lists (keyed by text ids) 69.5.
 *
 * This module is what the rest of the store uses of them; each part is a module of its own in
 * posting-lists/:
 *
 * - encoding.ts: the stored form of a list (varints of the differences) and reading it back;
 * - sql-functions.ts: `postings_json`, `postings_count` and `postings_of`, registered on a connection;
 * - by-value.ts: the lists tables and the SQL that reads a value's owners from them;
 * - by-record.ts: link tables kept as lists by record (`LinkTableSpec.listed`) and their views;
 * - turnaround.ts: lists by record turned around into lists by value in memory;
 * - rebuild.ts: rebuilding every list after a bulk load, and the note that they are stale;
 * - writer.ts: keeping lists up to date as records are written one by one.
 */
export {
  heldListsByRecord,
  keepListsByRecord,
  listedTableSql,
  listOfIds,
  postingLinksListedByRecord,
  recordRowCountSql,
} from './posting-lists/by-record.ts';
export { ownerCountSql, ownersOf, postingsTableSql } from './posting-lists/by-value.ts';
export {
  decodePostings,
  encodePostings,
  forEachPosting,
  postingsCount,
  postingsJson,
} from './posting-lists/encoding.ts';
export {
  markPostingsFresh,
  markPostingsStale,
  postingsStale,
  rebuildFromListsByRecord,
  rebuildPostings,
  rebuildPostingsOf,
  replacePostingsOf,
} from './posting-lists/rebuild.ts';
export { POSTINGS_JSON_FUNCTION, registerPostingFunctions } from './posting-lists/sql-functions.ts';
export { listsTurnedAround, turnedEntries, type TurnedLists } from './posting-lists/turnaround.ts';
export { PostingListWriter } from './posting-lists/writer.ts';
