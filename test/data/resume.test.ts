// An import killed with SIGKILL leaves a database the service refuses (start-up error,
// /readyz 503 with the reason), and `quarry import --resume` completes it exactly: every
// table (records, link tables, full-text rows) has the counts of a clean import.
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { gunzipSync, gzipSync } from 'node:zlib';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import Database from 'better-sqlite3';
import { importFiles } from '../../src/data/import/index.ts';
import { loadConfig } from '../../src/config.ts';
import { startService } from '../../src/main.ts';
import { unfinishedImports } from '../../src/store/sqlite/import-journal.ts';
import { openRecordStore } from '../../src/store/sqlite/records-store.ts';
import { recordWriterFor } from '../../src/backends.ts';
import { demoDataDir } from '../fixtures/demo-db.ts';

const BIN = fileURLToPath(new URL('../../bin/quarry.js', import.meta.url));
const SNAPSHOT = fileURLToPath(new URL('../fixtures/data/openalex-snapshot/', import.meta.url));
const QUIET = { port: 0, host: '127.0.0.1', logLevel: 'error' } as const;
const work = mkdtempSync(join(tmpdir(), 'quarry-resume-'));
after(() => rmSync(work, { recursive: true, force: true }));

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

function counts(db: string): Record<string, number> {
  const store = openRecordStore(db);
  try {
    return store.counts();
  } finally {
    store.close();
  }
}

/** Lines committed so far by the running import (0 before its first batch). */
function committedLines(db: string): number {
  try {
    const conn = new Database(db, { readonly: true, fileMustExist: true });
    try {
      return (
        (conn
          .prepare('SELECT SUM(line) + SUM(done) FROM import_inputs WHERE run_id = (SELECT MAX(id) FROM import_runs)')
          .pluck()
          .get() as number | null) ?? 0
      );
    } finally {
      conn.close();
    }
  } catch {
    return 0; // not created yet, or its tables not yet
  }
}

describe('an import killed with SIGKILL', () => {
  test('is refused by the service and completed exactly by --resume', { timeout: 180_000 }, async () => {
    // One OpenAlex file of 2,000 works (the real sample's 40, under new ids): its authors become
    // researchers only at the end of the file, which the kill comes well before.
    const works = gunzipSync(readFileSync(join(SNAPSHOT, '../openalex/works.jsonl.gz')))
      .toString('utf8')
      .trim()
      .split('\n');
    const big = join(work, 'works-2000.jsonl.gz');
    writeFileSync(
      big,
      gzipSync(
        Array.from({ length: 50 }, (_, k) =>
          works.map((l) => {
            const w = JSON.parse(l) as { id: string };
            return JSON.stringify({ ...w, id: `${w.id}${k}` });
          }),
        )
          .flat()
          .join('\n') + '\n',
      ),
    );
    const generated = await demoDataDir({ publications: 1000 });
    const paths = [big, generated];
    const clean = join(work, 'clean.db');
    await importFiles({ paths, open: recordWriterFor(clean), batchSize: 10 });
    const expected = counts(clean);
    assert.ok((expected['publication_researchers'] ?? 0) > 0 && (expected['researchers'] ?? 0) > 0);

    const db = join(work, 'killed.db');
    const child = spawn(process.execPath, [BIN, 'import', ...paths, '--db', db, '--batch-size', '10'], {
      stdio: 'ignore',
    });
    const exited = new Promise<NodeJS.Signals | null>((resolve) =>
      child.on('exit', (_code, signal) => resolve(signal)),
    );
    // Kill it once it has committed some batches of the OpenAlex file (well before its end).
    const deadline = Date.now() + 120_000;
    while (committedLines(db) < 300 && Date.now() < deadline) await sleep(10);
    child.kill('SIGKILL');
    assert.equal(await exited, 'SIGKILL');

    const [run, ...others] = unfinishedImports(db);
    assert.ok(run !== undefined && others.length === 0, 'the killed import is recorded as unfinished');
    assert.ok(
      run.inputs.every((i) => !i.done),
      'killed inside the first file',
    );
    assert.equal(counts(db)['researchers'], 0, 'the OpenAlex authors were not written yet');
    assert.notDeepEqual(counts(db), expected, 'the kill came before the end');
    assert.equal(statSync(db).mode & 0o777, 0o600, 'the database file is private');

    // The service refuses to start on it, saying how to complete it.
    await assert.rejects(
      startService(loadConfig({ overrides: { db, ...QUIET } }), {}),
      (e: Error & { code?: string }) => {
        assert.equal(e.code, 'DATA_IMPORT_UNFINISHED');
        assert.match(e.message, /did not finish/);
        return true;
      },
    );

    const resumed = await importFiles({ paths: [], open: recordWriterFor(db), resume: true });
    assert.ok(Object.values(resumed.records).reduce((s, n) => s + n, 0) > 0);
    assert.deepEqual(unfinishedImports(db), []);
    assert.deepEqual(counts(db), expected);
    await assert.rejects(importFiles({ paths: [], open: recordWriterFor(db), resume: true }), {
      code: 'DATA_NOTHING_TO_RESUME',
    });
  });

  test('a running service answers /readyz 503 while an import into its database is unfinished', async () => {
    const db = join(work, 'served.db');
    await importFiles({ paths: [SNAPSHOT], open: recordWriterFor(db) });
    const service = await startService(loadConfig({ overrides: { db, ...QUIET } }), {});
    try {
      assert.equal((await fetch(`${service.url}/readyz`)).status, 200);
      // What a crashed import leaves: a run that never ended.
      const conn = new Database(db);
      conn.prepare("UPDATE import_runs SET state = 'running', finished_at = NULL").run();
      conn.close();
      const res = await fetch(`${service.url}/readyz`);
      assert.equal(res.status, 503);
      assert.match(await res.text(), /did not finish/);
      // The signing secret is beside the database, not in it.
      const secretFile = statSync(`${db}.jwt-secret`);
      assert.equal(secretFile.mode & 0o777, 0o600);
      const settings = new Database(db, { readonly: true })
        .prepare("SELECT COUNT(*) FROM service_settings WHERE name = 'jwt_secret'")
        .pluck()
        .get();
      assert.equal(settings, 0);
    } finally {
      await service.close();
    }
  });

  test('--resume needs an unfinished run over the same files; no files and no --resume is a coded error', async () => {
    const copy = join(work, 'snapshot-changed');
    cpSync(SNAPSHOT, copy, { recursive: true });
    const db = join(work, 'changed.db');
    await importFiles({ paths: [copy], open: recordWriterFor(db) });
    const conn = new Database(db);
    conn.prepare("UPDATE import_runs SET state = 'running', finished_at = NULL").run();
    conn.close();
    const partitions = join(copy, 'data/works');
    const first = readdirSync(partitions)
      .filter((d) => d.startsWith('updated_date='))
      .sort()[0]!;
    rmSync(join(partitions, first), { recursive: true });
    await assert.rejects(importFiles({ paths: [], open: recordWriterFor(db), resume: true }), {
      code: 'DATA_RESUME_INPUTS_CHANGED',
    });
    const none = spawnSync(process.execPath, [BIN, 'import', '--db', join(work, 'none.db')], { encoding: 'utf8' });
    assert.notEqual(none.status, 0);
    assert.ok(none.stderr.includes('DATA_NO_INPUT'), none.stderr);
  });
});
