// Writes the frozen SQL of SQLite records migrations from their upgrade functions:
//
//   npx tsx scripts/freeze-sqlite-migrations.ts 20 21   # those versions
//   npx tsx scripts/freeze-sqlite-migrations.ts --check  # every version with an upgrade: same statements?
//
// Each migration runs, outside any transaction, on a new in-memory database that the frozen
// files before it built, and every statement it runs is recorded as it ran: better-sqlite3's
// `verbose` option reports each one, and the values a prepared statement was given are
// written into it as SQL literals (a JavaScript number as SQLite received it, a REAL; a
// buffer as a blob). Statements that change nothing are left out: those SQLite calls
// read-only (SELECT, reading PRAGMAs, BEGIN and COMMIT), found by preparing each on a second
// database that replays the others. The result is the migration's file
// (`src/store/sqlite/migrations/records/NNNN-<slug>.sql`, or the same name in a source's
// `migrations/sqlite/`), which the driver runs instead of the function on a database new to
// the set (docs/storage.md, "Migrations are frozen").
//
// Versions 1–19 were frozen this way from the functions as they were when their files were
// made (version 1 from the DDL builder it had; it needs no upgrade). A migration whose
// function changes rows (an `upgrade`) gets its frozen file from here; one that only adds
// tables is written as SQL by hand (or from the declared layout, `declaredRecordSchemaSql`).
import { readFileSync, writeFileSync } from 'node:fs';
import Database from 'better-sqlite3';
import { registerPostingFunctions } from '../src/store/sqlite/posting-lists.ts';
import { RECORD_MIGRATIONS } from '../src/store/sqlite/records-schema.ts';
import { frozenMigrationHeader } from '../src/store/sqlite/frozen-migrations.ts';

/** What one statement of a migration was, as run. */
type Ran = { readonly sql: string } | { readonly source: string; readonly args: readonly unknown[] };

/** An SQL literal of a value bound to a statement, of the type SQLite stored it as. */
function literal(value: unknown): string {
  if (value === null || value === undefined) return 'NULL';
  if (typeof value === 'bigint') return value.toString();
  if (typeof value === 'number') {
    // Bound as a double (better-sqlite3 binds every number so): a REAL literal.
    if (!Number.isFinite(value)) throw new Error(`cannot write ${value} as SQL`);
    const text = String(value);
    return /[.eE]/.test(text) ? text : `${text}.0`;
  }
  if (typeof value === 'string') return `'${value.replace(/'/g, "''")}'`;
  if (Buffer.isBuffer(value) || value instanceof Uint8Array) return `x'${Buffer.from(value).toString('hex')}'`;
  throw new Error(`cannot write a ${typeof value} as SQL`);
}

/** `source` with each positional `?` outside quotes replaced by the literal of its argument. */
function expanded(source: string, args: readonly unknown[]): string {
  let out = '';
  let next = 0;
  let quote: string | undefined;
  for (const ch of source) {
    if (quote !== undefined) {
      if (ch === quote) quote = undefined;
      out += ch;
    } else if (ch === "'" || ch === '"' || ch === '`') {
      quote = ch;
      out += ch;
    } else if (ch === '?') {
      if (next >= args.length) throw new Error(`too few arguments for ${source}`);
      out += literal(args[next++]);
    } else out += ch;
  }
  if (next !== args.length) throw new Error(`${args.length} arguments for ${next} parameters in ${source}`);
  return out;
}

/** A database that records every statement run on it, in order, until `take()` hands them over. */
function recording(): { db: Database.Database; take: () => Ran[] } {
  let ran: Ran[] = [];
  // The statement being run with arguments, if any: `verbose` reports it while it runs.
  let bound: { source: string; args: readonly unknown[] } | undefined;
  const db = new Database(':memory:', {
    verbose: (sql) => {
      if (bound !== undefined) ran.push(bound);
      else ran.push({ sql: String(sql) });
      bound = undefined;
    },
  });
  const statement = Object.getPrototypeOf(db.prepare('SELECT 1')) as Record<string, unknown>;
  for (const method of ['run', 'get', 'all', 'iterate']) {
    const original = statement[method] as (this: Database.Statement, ...args: unknown[]) => unknown;
    statement[method] = function (this: Database.Statement, ...args: unknown[]) {
      if (args.length > 0) {
        if (args.some((a) => typeof a === 'object' && a !== null && !(a instanceof Uint8Array)))
          throw new Error(`named parameters are not recorded: ${this.source}`);
        bound = { source: this.source, args };
      }
      return original.apply(this, args);
    };
  }
  return {
    db,
    take: () => {
      const out = ran;
      ran = [];
      return out;
    },
  };
}

/** The statements of `ran` that change the database, each run on `replay` to keep it in step. */
function writes(replay: Database.Database, ran: readonly Ran[]): string[] {
  const kept: string[] = [];
  for (const r of ran) {
    const sql = ('sql' in r ? r.sql : expanded(r.source, r.args)).trim();
    const statement = replay.prepare(sql);
    if (statement.readonly) continue;
    if (statement.reader) statement.all();
    else statement.run();
    kept.push(sql);
  }
  return kept;
}

const args = process.argv.slice(2);
const check = args.includes('--check');
const wanted = new Set(args.filter((a) => a !== '--check').map(Number));

const { db, take } = recording();
const replay = new Database(':memory:');
for (const d of [db, replay]) registerPostingFunctions(d);
let differ = 0;
for (const m of RECORD_MIGRATIONS) {
  const selected = check ? m.upgrade !== undefined : wanted.has(m.version);
  if (selected && m.upgrade !== undefined) {
    take();
    m.upgrade(db);
    const statements = writes(replay, take());
    const text = frozenMigrationHeader(m, statements.length) + statements.map((s) => `${s};\n`).join('');
    const file = m.path;
    if (!check) {
      writeFileSync(file, text);
      console.log(`wrote ${file.pathname} (${statements.length} statements)`);
    } else if (readFileSync(file, 'utf8') !== text) {
      differ++;
      console.log(`${m.file}: the upgrade function runs other statements on a new database than the file holds`);
    }
  } else {
    if (selected) throw new Error(`records migration ${m.version} has no upgrade function to freeze`);
    // As the driver runs it on a new database.
    for (const d of [db, replay]) d.exec(m.sql());
    take();
  }
}
if (check) console.log(differ === 0 ? 'every frozen file is what its upgrade function runs' : `${differ} differ`);
process.exitCode = differ === 0 ? 0 : 1;
