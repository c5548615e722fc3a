/**
 * A record's rows as the SQLite writer binds them, prepared away from the writer: the
 * importer calls `prepareSqliteRows` in its reading thread (src/data/import/read-worker.ts),
 * so turning records into rows, packing link rows, packing `doc` and abstracts
 * (`packed-rows.ts`, with the shipped dictionaries) and any other per-record work added here
 * runs beside the thread that writes to the database, which only binds and steps statements.
 *
 * @example
 *   const rows = prepareSqliteRows('publications', { id: 'pub.1', title: 'T', year: 2020, research_orgs: ['grid.1'] });
 *   rows.links; // [['publication_research_orgs', '["grid.1"]']]
 */
import type { RecordKind } from '../../model/storage.ts';
import { recordToRows, type SqlValue } from '../rows.ts';
import { packRows, rowPacking, type RowPacking, type StoredValue } from './packed-rows.ts';
import { shippedDictionaries } from './text-dictionaries.ts';

/** Everything the SQLite writer binds for one record. */
export interface SqliteRows {
  readonly id: string;
  /** Values of `SOURCE_TABLES[kind].columns`, in that order (packed text columns as stored). */
  readonly columns: readonly StoredValue[];
  /** The document as stored: packed (a BLOB) when that is smaller. */
  readonly doc: string | Uint8Array;
  /**
   * The record's non-empty link tables, each with its rows packed as one JSON array (a value
   * per row for one-column tables, else an array per row), as the writer's `json_each`
   * statement takes them. Tables left out get no rows (the old ones are deleted all the same).
   */
  readonly links: readonly (readonly [table: string, packed: string])[];
  /** Texts of the kind's FTS columns, in order; absent when the kind has no full-text table. */
  readonly fullText?: readonly string[];
  /** Journals named by a publication: (id, title). */
  readonly journals?: readonly (readonly [string, string | null])[];
  /** Categories named with a name: (id, name, scheme). */
  readonly categories?: readonly (readonly [string, string, string])[];
}

/** One link table's rows as one JSON text: `["a","b"]` for one column, `[["for","3001"],...]` for more. */
export function packLinkRows(rows: readonly (readonly SqlValue[])[]): string {
  const oneColumn = (rows[0] as readonly SqlValue[]).length === 1;
  return JSON.stringify(oneColumn ? rows.map((r) => r[0]) : rows);
}

const packings = new Map<RecordKind, RowPacking>();

function packingOf(kind: RecordKind): RowPacking {
  let packing = packings.get(kind);
  if (packing === undefined) packings.set(kind, (packing = rowPacking(kind, shippedDictionaries())));
  return packing;
}

/** The rows of one record, ready to bind. Throws a plain Error for a record without an id. */
export function prepareSqliteRows(kind: RecordKind, record: object): SqliteRows {
  const rows = packRows(recordToRows(kind, record), packingOf(kind));
  const links: (readonly [string, string])[] = [];
  for (const [table, linkRows] of rows.links) if (linkRows.length > 0) links.push([table, packLinkRows(linkRows)]);
  return {
    id: rows.id,
    columns: rows.columns,
    doc: rows.doc,
    links,
    ...(rows.fullText === undefined ? {} : { fullText: rows.fullText }),
    ...(rows.journals === undefined ? {} : { journals: rows.journals }),
    ...(rows.categories === undefined ? {} : { categories: rows.categories }),
  };
}
