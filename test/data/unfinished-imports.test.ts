// A second import must not hide one that did not finish, on either engine: after a kill -9
// half-way, another import into the database is refused unless asked for (and then the
// killed one stays unfinished); the service is not ready and does not start while it lasts;
// `--resume` finds it (and asks which when there are several); `--discard-unfinished` gives
// it up, after which the database is served again.
import assert from 'node:assert/strict';
import { spawnSync, type SpawnSyncReturns } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import Database from 'better-sqlite3';
import pg from 'pg';
import { recordWriterFor } from '../../src/backends.ts';
import { loadConfig } from '../../src/config.ts';
import { discardUnfinished, importFiles } from '../../src/data/import/index.ts';
import { startService } from '../../src/main.ts';
import { demoDataDir } from '../fixtures/demo-db.ts';
import { importKilled } from '../fixtures/import-killed.ts';
import { createTestPgDatabase } from '../fixtures/pg-db.ts';
import { TEST_JWT_SECRET } from '../http/helpers/app.ts';

const BIN = fileURLToPath(new URL('../../bin/quarry.js', import.meta.url));
// PostgreSQL keeps the token-signing secret outside the database: the service is given one.
const QUIET = { port: 0, host: '127.0.0.1', logLevel: 'error', tokens: { jwtSecret: TEST_JWT_SECRET } } as const;
const work = mkdtempSync(join(tmpdir(), 'quarry-unfinished-'));
const cleanups: Array<() => Promise<void>> = [];
after(async () => {
  for (const cleanup of cleanups) await cleanup();
  rmSync(work, { recursive: true, force: true });
});

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

function quarry(args: readonly string[]): SpawnSyncReturns<string> {
  return spawnSync(process.execPath, [BIN, ...args], { encoding: 'utf8', timeout: 60_000 });
}

/** A folder holding one shard of organizations `from` to `to` (exclusive). */
function orgShard(label: string, from: number, to: number): string {
  const dir = join(work, label);
  mkdirSync(dir, { recursive: true });
  const lines = [];
  for (let k = from; k < to; k++)
    lines.push(JSON.stringify({ id: `grid.92${String(k).padStart(4, '0')}.c`, name: `Org ${k}`, status: 'active' }));
  writeFileSync(join(dir, 'organizations-0000.jsonl'), lines.join('\n') + '\n');
  return dir;
}

/** /readyz's answer once its status is `status` (a PostgreSQL service looks every few seconds). */
async function readyz(url: string, status: number): Promise<string> {
  const deadline = Date.now() + 20_000;
  for (;;) {
    const res = await fetch(`${url}/readyz`);
    const body = await res.text();
    if (res.status === status || Date.now() > deadline) {
      assert.equal(res.status, status, body);
      return body;
    }
    await sleep(250);
  }
}

interface Engine {
  readonly name: string;
  /** A new database (a SQLite path not yet created, or an empty PostgreSQL database). */
  create(label: string): Promise<string>;
  /** Every import run as [id, state], in order. */
  runs(db: string): Promise<Array<[number, string]>>;
  publications(db: string): Promise<number>;
}

const sqlite: Engine = {
  name: 'SQLite',
  create: (label) => Promise.resolve(join(work, `${label}.db`)),
  runs: (db) => {
    const conn = new Database(db, { readonly: true });
    try {
      const rows = conn
        .prepare<[], { id: number; state: string }>('SELECT id, state FROM import_runs ORDER BY id')
        .all();
      return Promise.resolve(rows.map((r): [number, string] => [r.id, r.state]));
    } finally {
      conn.close();
    }
  },
  publications: (db) => {
    const conn = new Database(db, { readonly: true });
    try {
      return Promise.resolve(conn.prepare<[], number>('SELECT COUNT(*) FROM publications').pluck().get() ?? 0);
    } finally {
      conn.close();
    }
  },
};

async function withClient<T>(url: string, fn: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}

const postgres: Engine = {
  name: 'PostgreSQL',
  create: async (label) => {
    const db = await createTestPgDatabase(label);
    cleanups.push(() => db.drop());
    return db.url;
  },
  runs: (url) =>
    withClient(url, async (client) => {
      const { rows } = await client.query<{ id: string; state: string }>(
        'SELECT id, state FROM import_runs ORDER BY id',
      );
      return rows.map((r): [number, string] => [Number(r.id), r.state]);
    }),
  publications: (url) =>
    withClient(url, async (client) => {
      const { rows } = await client.query<{ n: string }>('SELECT count(*) AS n FROM publications');
      return Number(rows[0]?.n);
    }),
};

for (const engine of [sqlite, postgres]) {
  describe(`${engine.name}: an import killed half-way, then another import into the database`, () => {
    test('stays unfinished and visible until it is resumed or discarded', { timeout: 240_000 }, async () => {
      const data = await demoDataDir({ publications: 100 });
      const db = await engine.create(`unfinished_${engine.name.toLowerCase()}`);
      await importFiles({ paths: [orgShard(`first-${engine.name}`, 0, 3)], open: recordWriterFor(db) });
      const later = orgShard(`later-${engine.name}`, 3, 5);

      const service = await startService(loadConfig({ overrides: { database: db, ...QUIET } }), {});
      try {
        await readyz(service.url, 200);
        // Import 2 is killed with SIGKILL after 30 batches of 10 records.
        await importKilled({ db, paths: [data], commits: 30 });

        // Another import is refused, saying which import did not finish and what to do ...
        const refused = quarry(['import', later, '--db', db]);
        assert.equal(refused.status, 1, refused.stderr);
        assert.match(refused.stderr, /DATA_UNFINISHED_IMPORT_PENDING/);
        assert.match(refused.stderr, /import 2 started \S+ did not finish/);
        assert.match(refused.stderr, /--resume/);
        assert.match(refused.stderr, /--discard-unfinished/);
        await assert.rejects(importFiles({ paths: [later], open: recordWriterFor(db) }), {
          code: 'DATA_UNFINISHED_IMPORT_PENDING',
        });
        // ... unless asked for; either way import 2 stays unfinished.
        await importFiles({ paths: [later], open: recordWriterFor(db), keepUnfinished: true });
        assert.deepEqual(await engine.runs(db), [
          [1, 'done'],
          [2, 'running'],
          [3, 'done'],
        ]);

        // The service is not ready, although the latest import finished.
        assert.match(await readyz(service.url, 503), /import 2 started \S+ did not finish/);
      } finally {
        await service.close();
      }
      // Nor does a service start on the database.
      await assert.rejects(startService(loadConfig({ overrides: { database: db, ...QUIET } }), {}), (e: Error) => {
        assert.equal((e as { code?: string }).code, 'DATA_IMPORT_UNFINISHED');
        assert.match(e.message, /import 2 started \S+ did not finish/);
        return true;
      });

      // A second killed import: --resume asks which of the two.
      await importKilled({ db, paths: [data], commits: 5, keepUnfinished: true });
      await assert.rejects(importFiles({ paths: [], open: recordWriterFor(db), resume: true }), (e: Error) => {
        assert.equal((e as { code?: string }).code, 'DATA_UNFINISHED_IMPORT_AMBIGUOUS');
        assert.match(e.message, /import 2 started/);
        assert.match(e.message, /import 4 started/);
        return true;
      });
      await assert.rejects(importFiles({ paths: [], open: recordWriterFor(db), resume: 3 }), {
        code: 'DATA_UNFINISHED_IMPORT_UNKNOWN',
      });
      await assert.rejects(discardUnfinished({ open: recordWriterFor(db) }), {
        code: 'DATA_UNFINISHED_IMPORT_AMBIGUOUS',
      });

      // Resuming import 2 completes it.
      await importFiles({ paths: [], open: recordWriterFor(db), resume: 2 });
      assert.equal(await engine.publications(db), 100);
      // --discard-unfinished gives up the only one left, import 4.
      const discarded = quarry(['import', '--discard-unfinished', '--db', db]);
      assert.equal(discarded.status, 0, discarded.stderr);
      assert.match(discarded.stdout, /discarded import 4/);
      assert.deepEqual(await engine.runs(db), [
        [1, 'done'],
        [2, 'done'],
        [3, 'done'],
        [4, 'discarded'],
      ]);
      await assert.rejects(importFiles({ paths: [], open: recordWriterFor(db), resume: true }), {
        code: 'DATA_NOTHING_TO_RESUME',
      });
      await assert.rejects(discardUnfinished({ open: recordWriterFor(db) }), { code: 'DATA_NOTHING_TO_DISCARD' });

      // Nothing is unfinished: the service starts and is ready, and imports are accepted again.
      const again = await startService(loadConfig({ overrides: { database: db, ...QUIET } }), {});
      try {
        await readyz(again.url, 200);
      } finally {
        await again.close();
      }
      await importFiles({ paths: [later], open: recordWriterFor(db) });
    });
  });
}

describe('the command line names an unfinished import by its number', () => {
  test('--resume and --discard-unfinished ask which of several; a number picks one', { timeout: 120_000 }, async () => {
    const db = join(work, 'numbered.db');
    const shards = [orgShard('numbered-a', 10, 12), orgShard('numbered-b', 12, 14)];
    for (const shard of shards) await importFiles({ paths: [shard], open: recordWriterFor(db) });
    // What two crashed imports leave: runs that never ended.
    const conn = new Database(db);
    conn.prepare("UPDATE import_runs SET state = 'running', finished_at = NULL").run();
    conn.close();

    const ambiguous = quarry(['import', '--resume', '--db', db]);
    assert.equal(ambiguous.status, 1);
    assert.match(ambiguous.stderr, /DATA_UNFINISHED_IMPORT_AMBIGUOUS/);
    assert.match(ambiguous.stderr, /import 1 started \S+ did not finish.*; and import 2 started \S+ did not finish/);
    const badNumber = quarry(['import', '--resume', 'two', '--db', db]);
    assert.ok(badNumber.stderr.includes('DATA_BAD_IMPORT_NUMBER'), badNumber.stderr);
    assert.match(
      quarry(['import', '--discard-unfinished', '2', shards[0]!, '--db', db]).stderr,
      /takes no files.*\[CLI_USAGE\]/,
    );
    const discarded = quarry(['import', '--discard-unfinished', '2', '--db', db]);
    assert.equal(discarded.status, 0, discarded.stderr);
    assert.match(discarded.stdout, /discarded import 2 into \S+ \(started \S+, 1 of 1 inputs complete\)/);
    // One is left, so --resume needs no number.
    const resumed = quarry(['import', '--resume', '--db', db]);
    assert.equal(resumed.status, 0, resumed.stderr);
    assert.deepEqual(await sqlite.runs(db), [
      [1, 'done'],
      [2, 'discarded'],
    ]);
  });
});

describe('discarding a killed first import (a bulk load, its indexes dropped)', () => {
  test('brings back every index, and the service takes the database', { timeout: 120_000 }, async () => {
    const data = await demoDataDir({ publications: 100 });
    const indexes = (db: string): string[] => {
      const conn = new Database(db, { readonly: true });
      try {
        return conn
          .prepare<[], string>("SELECT name FROM sqlite_master WHERE type = 'index' AND sql IS NOT NULL ORDER BY name")
          .pluck()
          .all();
      } finally {
        conn.close();
      }
    };
    const clean = join(work, 'bulk-clean.db');
    await importFiles({ paths: [data], open: recordWriterFor(clean) });
    const db = join(work, 'bulk-killed.db');
    await importKilled({ db, paths: [data], commits: 30 });
    assert.ok(indexes(db).length < indexes(clean).length, 'the bulk load dropped indexes');

    const run = await discardUnfinished({ open: recordWriterFor(db) });
    assert.equal(run.id, 1);
    assert.deepEqual(indexes(db), indexes(clean));
    assert.deepEqual(await sqlite.runs(db), [[1, 'discarded']]);
    const service = await startService(loadConfig({ overrides: { database: db, ...QUIET } }), {});
    try {
      await readyz(service.url, 200);
    } finally {
      await service.close();
    }
  });
});
