/**
 * A step of the SQLite store's row preparation (`prepare-rows.ts`): a record's `doc` and
 * long text columns in their stored form (`packed-text.ts`). Pure and per record, like
 * `recordToRows`; `RowPacking` is plain data.
 *
 * @example
 *   const packing = rowPacking('publications', shippedDictionaries());
 *   const stored = packRows(recordToRows('publications', record), packing);
 */
import { SOURCE_TABLES, type RecordKind } from '../../model/storage.ts';
import type { RecordRows, SqlValue } from '../rows.ts';
import { packText, type TextDictionary } from './packed-text.ts';
import { dictionaryName, packableColumns } from './text-dictionaries.ts';

/** A value the SQLite writer binds: packed text is a BLOB. */
export type StoredValue = SqlValue | Uint8Array;

/** A record's rows as the SQLite writer stores them. */
export interface StoredRows extends Omit<RecordRows, 'columns' | 'doc'> {
  readonly columns: readonly StoredValue[];
  readonly doc: string | Uint8Array;
}

/** How one kind's rows are packed: the dictionary of `doc`, and of each packed column by position. */
export interface RowPacking {
  readonly doc?: TextDictionary;
  readonly columns: readonly (readonly [index: number, dictionary: TextDictionary])[];
}

/** The packing of a kind with dictionaries by name (a column without one stays text). */
export function rowPacking(kind: RecordKind, dictionaries: ReadonlyMap<string, TextDictionary>): RowPacking {
  const spec = SOURCE_TABLES[kind];
  const doc = dictionaries.get(dictionaryName(spec.table, 'doc'));
  const columns: [number, TextDictionary][] = [];
  for (const column of packableColumns(kind)) {
    const index = spec.columns.findIndex((c) => c.name === column);
    const dictionary = dictionaries.get(dictionaryName(spec.table, column));
    if (index >= 0 && dictionary !== undefined) columns.push([index, dictionary]);
  }
  return { ...(doc === undefined ? {} : { doc }), columns };
}

/** The rows with `doc` and the packed columns in their stored form. */
export function packRows(rows: RecordRows, packing: RowPacking): StoredRows {
  if (packing.doc === undefined && packing.columns.length === 0) return rows;
  let columns: StoredValue[] | undefined;
  for (const [index, dictionary] of packing.columns) {
    const value = rows.columns[index];
    if (typeof value !== 'string') continue;
    columns ??= [...rows.columns];
    columns[index] = packText(value, dictionary);
  }
  return {
    ...rows,
    columns: columns ?? rows.columns,
    doc: packing.doc === undefined ? rows.doc : packText(rows.doc, packing.doc),
  };
}
