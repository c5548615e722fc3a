/**
 * The preset dictionaries of packed text (`packed-text.ts`), kept in the database itself
 * (`text_dictionaries`), so a database always holds what it takes to read its own values,
 * whatever dictionaries later versions of Quarry ship.
 *
 * They are shipped in the repository (`text-dictionaries.v1.json.gz`, built by
 * `scripts/build-text-dictionaries.ts` from generated records) and copied into the table by
 * the migration that introduced packing, rather than trained from the data at the first
 * import: packing then stays a pure function of the record with a constant (row preparation
 * runs in the importer's reading thread, which never asks the writer for a dictionary),
 * the same records give the same bytes whatever the import order, and a reader never meets
 * a dictionary younger than its connection. Most of what a dictionary saves is what every
 * document of a kind repeats (field names, id prefixes, category and concept names), which
 * is the same for any corpus. A shipped dictionary never changes once released (its id is
 * in every value packed with it): better ones come as a new file with new ids and a
 * migration that stores them; values keep naming the dictionary they were packed with.
 */
import { readFileSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import type Database from 'better-sqlite3';
import { packageFile } from '../../package-root.ts';
import { SOURCE_TABLES, type RecordKind } from '../../model/storage.ts';
import { unpackText, unpackUtf8, type TextDictionary } from './packed-text.ts';

/** The name of the SQL function that turns a stored value into its text. */
export const UNPACK_FUNCTION = 'unpack_text';

/**
 * The name of the SQL function that turns a packed value into the UTF-8 bytes of its text (a
 * BLOB; other values as they are), which compiled statements read as text with
 * `CAST(unpack_utf8(s.doc) AS TEXT)`: the bytes go into SQLite as they come out of the
 * inflater, where `unpack_text` decodes them into a JavaScript string that SQLite encodes
 * again (a filter over 3,841 packed documents: ~60 instead of ~80 ms).
 */
export const UNPACK_UTF8_FUNCTION = 'unpack_utf8';

/** One shipped dictionary: `name` is `<table>.<column>`, the column it packs. */
export interface ShippedDictionary {
  readonly id: number;
  readonly name: string;
  readonly bytes: Buffer;
}

/**
 * A dictionary as a release file holds it: the first two releases' (deflate) dictionaries are
 * text, zstd's are binary and come in base64.
 */
export type ReleasedDictionary = { readonly id: number; readonly name: string } & (
  { readonly text: string } | { readonly base64: string }
);

/** The file of the dictionaries shipped with packing's first version (ids 1–4), stored by records migration 5. */
export const SHIPPED_DICTIONARIES_V1 = packageFile('src/store/sqlite/text-dictionaries.v1.json.gz');

/**
 * The second release (ids 5–8), stored by records migration 14: built from documents without
 * their link-held fields, of pieces that recur across values rather than whole values
 * (scripts/build-text-dictionaries.ts). With level 6, a publication's document of the 1M
 * benchmark database packs in 431 bytes instead of 527, an abstract in 487 instead of 578.
 */
export const SHIPPED_DICTIONARIES_V2 = packageFile('src/store/sqlite/text-dictionaries.v2.json.gz');

/**
 * The third release (ids 9–12), stored by records migration 19: zstd dictionaries of 110 KiB
 * trained by zstd itself (scripts/build-text-dictionaries.ts). A thread digests each once, so
 * their length costs nothing per value, where zlib hashed a deflate dictionary again for every
 * value: packing a document of the 1M benchmark takes 12.8 instead of 101.6 µs, in 403 bytes
 * instead of 432 (text-codecs.ts).
 */
export const SHIPPED_DICTIONARIES_V3 = packageFile('src/store/sqlite/text-dictionaries.v3.json.gz');

/** Every release, oldest first: a database holds them all, and packing uses the newest of each name. */
const RELEASES = [SHIPPED_DICTIONARIES_V1, SHIPPED_DICTIONARIES_V2, SHIPPED_DICTIONARIES_V3] as const;

export const TEXT_DICTIONARIES_SQL = `CREATE TABLE IF NOT EXISTS text_dictionaries (
  id INTEGER PRIMARY KEY CHECK (id BETWEEN 1 AND 255),
  name TEXT NOT NULL,
  dictionary BLOB NOT NULL
)`;

/** The dictionary's name for a column: `publications.doc`. */
export function dictionaryName(table: string, column: string): string {
  return `${table}.${column}`;
}

/** The columns of a source that may hold packed values: `doc` and its long text columns. */
export function packableColumns(kind: RecordKind): readonly string[] {
  return ['doc', ...(SOURCE_TABLES[kind].packedText ?? [])];
}

/** The shipped dictionaries of one release file. */
export function readShippedDictionaries(path: string): ShippedDictionary[] {
  const released = JSON.parse(gunzipSync(readFileSync(path)).toString('utf8')) as ReleasedDictionary[];
  return released.map((d) => ({
    id: d.id,
    name: d.name,
    bytes: 'text' in d ? Buffer.from(d.text, 'utf8') : Buffer.from(d.base64, 'base64'),
  }));
}

let releases: readonly ShippedDictionary[] | undefined;

/** The dictionaries of every release, oldest first (the files read once per thread). */
export function allShippedDictionaries(): readonly ShippedDictionary[] {
  releases ??= RELEASES.flatMap((path) => readShippedDictionaries(path));
  return releases;
}

/**
 * Adds dictionaries to `text_dictionaries` (run by a migration). An id the table holds
 * already is left as it is: values packed with it must keep reading.
 */
export function storeDictionaries(db: Database.Database, dictionaries: readonly ShippedDictionary[]): void {
  const insert = db.prepare<[number, string, Buffer]>(
    'INSERT OR IGNORE INTO text_dictionaries (id, name, dictionary) VALUES (?, ?, ?)',
  );
  for (const d of dictionaries) insert.run(d.id, d.name, d.bytes);
}

let shipped: ReadonlyMap<string, TextDictionary> | undefined;

/**
 * The dictionaries row preparation packs with, by name: the newest release's (read once per
 * thread). Values packed with an older one keep reading through its id.
 */
export function shippedDictionaries(): ReadonlyMap<string, TextDictionary> {
  // Later releases come later in the list, so each name ends on its newest dictionary.
  shipped ??= new Map(allShippedDictionaries().map((d) => [d.name, d]));
  return shipped;
}

/** Every dictionary of a database, by id (none when it predates packing). */
export function readDictionaries(db: Database.Database): Map<number, Uint8Array> {
  const byId = new Map<number, Uint8Array>();
  const table = db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'text_dictionaries'").get();
  if (table === undefined) return byId;
  const rows = db.prepare<[], { id: number; dictionary: Buffer }>('SELECT id, dictionary FROM text_dictionaries').all();
  for (const { id, dictionary } of rows) byId.set(id, dictionary);
  return byId;
}

/**
 * Throws unless the database holds every shipped dictionary byte for byte: rows are packed
 * with them before the writer sees them, and a value must never name a dictionary its
 * database reads differently.
 */
export function checkShippedDictionaries(db: Database.Database): void {
  const held = readDictionaries(db);
  for (const { id, name, bytes } of allShippedDictionaries()) {
    const found = held.get(id);
    if (found === undefined || !Buffer.from(found).equals(bytes))
      throw new Error(`the database's text dictionary ${id} (${name}) is not the one this Quarry ships`);
  }
}

/**
 * Registers `unpack_text(value)` on a connection: the text of a stored value, for SQL that
 * reads packed columns (`json_extract(unpack_text(s.doc), '$.funders')`); and
 * `unpack_utf8(value)`, which compiled statements read the same text through
 * (`CAST(unpack_utf8(s.doc) AS TEXT)`, cheaper). Every connection that runs compiled
 * statements needs them (the writer, the engine's read-only connections). Deterministic.
 * The last value is remembered: a statement that reads one document several times in a row
 * (`CASE json_type(...) WHEN ... THEN json_extract(...)`) inflates it once.
 */
export function registerUnpackText(db: Database.Database): void {
  const byId = readDictionaries(db);
  db.function(
    UNPACK_FUNCTION,
    { deterministic: true },
    rememberingLast((packed) => unpackText(packed, byId)),
  );
  db.function(
    UNPACK_UTF8_FUNCTION,
    { deterministic: true },
    rememberingLast((packed) => unpackUtf8(packed, byId)),
  );
}

/** An unpacking SQL function that passes non-BLOB values through and remembers its last result. */
function rememberingLast<T>(unpack: (packed: Buffer) => T): (value: unknown) => T | string | number | null {
  let lastPacked: Buffer | undefined;
  let last: T | undefined;
  return (value) => {
    if (!Buffer.isBuffer(value)) return value as string | number | null;
    if (lastPacked !== undefined && lastPacked.equals(value)) return last as T;
    last = unpack(value);
    lastPacked = Buffer.from(value);
    return last;
  };
}
