/**
 * Where a record database's bytes go: each table with its indexes (each full-text index
 * with its shadow tables, each link table with its posting lists) as one part, largest first, with its share of the file and
 * its bytes per publication. The database-size goal of issue 11 is a layout question; this
 * says which part of the layout it is.
 *
 *   npx tsx bench/db-size.ts --db <records.db> [--top 20]
 *
 * Reads SQLite's `dbstat` table (every page of the file once: ~10 s at 1M publications).
 */
import Database from 'better-sqlite3';
import type { Database as SqliteDatabase } from 'better-sqlite3';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

/** One table with its indexes: pages in use, and the bytes inside them that hold nothing. */
export interface DatabasePart {
  readonly table: string;
  readonly bytes: number;
  readonly unusedBytes: number;
  /** The part's own B-trees: the table, its indexes, shadow tables of a full-text index. */
  readonly trees: readonly { readonly name: string; readonly bytes: number }[];
}

const FTS_SHADOW = /^(.+_fts)_(data|idx|docsize|config|content)$/;
/** A link table's posting lists and lists by record (docs/storage.md, "Posting lists"): part of the link table. */
const POSTINGS = /^(.+)_(postings|lists)$/;

/** Every table of the database as one part (its indexes and shadow tables in it), largest first. */
export function databaseParts(db: SqliteDatabase): DatabasePart[] {
  const owners = new Map(
    (
      db.prepare(`SELECT name, tbl_name AS owner FROM sqlite_schema WHERE type IN ('table', 'index')`).all() as {
        name: string;
        owner: string;
      }[]
    ).map((r) => [r.name, r.owner]),
  );
  const trees = db
    .prepare(`SELECT name, sum(pgsize) AS bytes, sum(unused) AS unused FROM dbstat GROUP BY name`)
    .all() as { name: string; bytes: number; unused: number }[];
  const parts = new Map<string, { bytes: number; unusedBytes: number; trees: { name: string; bytes: number }[] }>();
  for (const tree of trees) {
    const owner = owners.get(tree.name) ?? tree.name;
    const table = FTS_SHADOW.exec(owner)?.[1] ?? POSTINGS.exec(owner)?.[1] ?? owner;
    const part = parts.get(table) ?? { bytes: 0, unusedBytes: 0, trees: [] };
    part.bytes += tree.bytes;
    part.unusedBytes += tree.unused;
    part.trees.push({ name: tree.name, bytes: tree.bytes });
    parts.set(table, part);
  }
  return [...parts]
    .map(([table, part]) => ({ table, ...part, trees: part.trees.sort((a, b) => b.bytes - a.bytes) }))
    .sort((a, b) => b.bytes - a.bytes);
}

/** The parts as lines: MiB, share of the file, bytes per publication, and the trees of each. */
export function formatParts(parts: readonly DatabasePart[], publications: number, top: number): string[] {
  const total = parts.reduce((s, p) => s + p.bytes, 0);
  const unused = parts.reduce((s, p) => s + p.unusedBytes, 0);
  const mib = (bytes: number): string => `${(bytes / 2 ** 20).toFixed(0)} MiB`;
  const lines = parts.slice(0, top).map((p) => {
    const share = `${((100 * p.bytes) / total).toFixed(1)}%`;
    const perPublication = `${Math.round(p.bytes / Math.max(1, publications))} B/publication`;
    const trees = p.trees.length > 1 ? `  (${p.trees.map((t) => `${t.name} ${mib(t.bytes)}`).join(', ')})` : '';
    return `  ${mib(p.bytes).padStart(9)} ${share.padStart(6)} ${perPublication.padStart(18)}  ${p.table}${trees}`;
  });
  const rest = parts.slice(top).reduce((s, p) => s + p.bytes, 0);
  if (rest > 0)
    lines.push(
      `  ${mib(rest).padStart(9)} ${`${((100 * rest) / total).toFixed(1)}%`.padStart(6)}  the other ${parts.length - top} tables`,
    );
  lines.push(
    `  ${mib(total)} in pages, of which ${mib(unused)} (${((100 * unused) / total).toFixed(1)}%) are free space inside pages`,
  );
  return lines;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const { values: args } = parseArgs({
    options: { db: { type: 'string' }, top: { type: 'string', default: '20' } },
  });
  if (args.db === undefined) throw new Error('--db <record database> is required');
  const db = new Database(args.db, { readonly: true });
  try {
    const publications = (db.prepare('SELECT count(*) AS n FROM publications').get() as { n: number }).n;
    console.log(`${args.db}: ${publications.toLocaleString('en')} publications`);
    for (const line of formatParts(databaseParts(db), publications, Number(args.top))) console.log(line);
  } finally {
    db.close();
  }
}
