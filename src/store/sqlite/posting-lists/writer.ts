/**
 * Posting lists kept up to date as records are written one by one (the writes that are not a
 * bulk load, which leaves them to rebuild.ts).
 */
import type { Database, Statement } from 'better-sqlite3';
import { ownerKey, type LinkTableSpec, type PostingListsSpec } from '../../../model/storage.ts';
import { valueColumn } from './by-value.ts';
import { decodePostings, encodePostings } from './encoding.ts';

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
