/**
 * The preset dictionaries of packed text (`packed-text.ts`), kept in the database itself
 * (`text_dictionaries`), so a database always holds what it takes to read its own values,
 * whatever dictionaries later versions of Quarry ship.
 *
 * The first ones are shipped in the repository (`text-dictionaries.v1.json.gz`, built by
 * `scripts/build-text-dictionaries.ts` from generated records) and copied into the table by
 * the migration that introduced packing, rather than trained from the data at the first
 * import: packing then stays a pure function of the record (row preparation can run in any
 * thread without asking the writer for a dictionary first), the same records give the same
 * bytes whatever the import order, and a reader never meets a dictionary younger than its
 * connection. Most of what a dictionary saves is what every document of a kind repeats (the
 * field names, id prefixes, category and concept names), which is the same for any corpus.
 * A dictionary trained from a database's own data can be added later as a new id; values
 * keep naming the dictionary they were packed with.
 */
import { readFileSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import type Database from 'better-sqlite3';
import { packageFile } from '../../package-root.ts';
import { SOURCE_TABLES, type RecordKind } from '../../model/storage.ts';
import { unpackText, type TextDictionary } from './packed-text.ts';

/** The name of the SQL function that turns a stored value into its text. */
export const UNPACK_FUNCTION = 'unpack_text';

/** One shipped dictionary: `name` is `<table>.<column>`, the column it packs. */
export interface ShippedDictionary {
  readonly id: number;
  readonly name: string;
  readonly text: string;
}

/** The file of the dictionaries shipped with packing's first version. */
export const SHIPPED_DICTIONARIES_V1 = packageFile('src/store/sqlite/text-dictionaries.v1.json.gz');

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

/** The shipped dictionaries of a file (default: version 1). */
export function readShippedDictionaries(path: string = SHIPPED_DICTIONARIES_V1): ShippedDictionary[] {
  return JSON.parse(gunzipSync(readFileSync(path)).toString('utf8')) as ShippedDictionary[];
}

/**
 * Adds dictionaries to `text_dictionaries` (run by a migration). An id the table holds
 * already is left as it is: values packed with it must keep reading.
 */
export function storeDictionaries(db: Database.Database, dictionaries: readonly ShippedDictionary[]): void {
  const insert = db.prepare<[number, string, Buffer]>(
    'INSERT OR IGNORE INTO text_dictionaries (id, name, dictionary) VALUES (?, ?, ?)',
  );
  for (const d of dictionaries) insert.run(d.id, d.name, Buffer.from(d.text, 'utf8'));
}

/** Every dictionary of the database, by id, and the newest of each name (what writes use). */
export interface DatabaseDictionaries {
  readonly byId: ReadonlyMap<number, Uint8Array>;
  readonly newest: ReadonlyMap<string, TextDictionary>;
}

/** The dictionaries of a database (none when it predates packing). */
export function readDictionaries(db: Database.Database): DatabaseDictionaries {
  const byId = new Map<number, Uint8Array>();
  const newest = new Map<string, TextDictionary>();
  const table = db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'text_dictionaries'").get();
  if (table === undefined) return { byId, newest };
  const rows = db
    .prepare<[], { id: number; name: string; dictionary: Buffer }>(
      'SELECT id, name, dictionary FROM text_dictionaries ORDER BY id',
    )
    .all();
  for (const { id, name, dictionary } of rows) {
    byId.set(id, dictionary);
    newest.set(name, { id, bytes: dictionary });
  }
  return { byId, newest };
}

/**
 * Registers `unpack_text(value)` on a connection: the text of a stored value, for SQL that
 * reads packed columns (`json_extract(unpack_text(s.doc), '$.funders')`). Every connection
 * that runs compiled statements needs it (the writer, the engine's read-only connections).
 * Deterministic. The last value is remembered: a statement that reads one document several
 * times in a row (`CASE json_type(...) WHEN ... THEN json_extract(...)`) inflates it once.
 */
export function registerUnpackText(db: Database.Database): void {
  const { byId } = readDictionaries(db);
  let lastPacked: Buffer | undefined;
  let lastText: string | null = null;
  db.function(UNPACK_FUNCTION, { deterministic: true }, (value: unknown) => {
    if (!Buffer.isBuffer(value)) return value as string | number | null;
    if (lastPacked !== undefined && lastPacked.equals(value)) return lastText;
    lastText = unpackText(value, byId);
    lastPacked = Buffer.from(value);
    return lastText;
  });
}
