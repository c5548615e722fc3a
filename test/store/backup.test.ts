// `quarry backup`: an online copy (SQLite's backup API) that equals the database, is
// private (mode 600), never overwrites a file, and can be made while another connection writes.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import Database from 'better-sqlite3';
import { importFiles } from '../../src/data/import/index.ts';
import { backupDatabase } from '../../src/store/sqlite/backup.ts';
import { openRecordStore } from '../../src/store/sqlite/records-store.ts';
import { recordWriterFor } from '../../src/backends.ts';

const BIN = fileURLToPath(new URL('../../bin/quarry.js', import.meta.url));
const SNAPSHOT = fileURLToPath(new URL('../fixtures/data/openalex-snapshot/', import.meta.url));
const work = mkdtempSync(join(tmpdir(), 'quarry-backup-'));
after(() => rmSync(work, { recursive: true, force: true }));

function counts(db: string): Record<string, number> {
  const store = openRecordStore(db);
  try {
    return store.counts();
  } finally {
    store.close();
  }
}

describe('backup', () => {
  test('the copy equals the database, is private, and is made while another connection writes', async () => {
    const db = join(work, 'records.db');
    await importFiles({ paths: [SNAPSHOT], open: recordWriterFor(db) });
    assert.equal(statSync(db).mode & 0o777, 0o600);
    const writer = new Database(db);
    try {
      writer.exec('CREATE TABLE IF NOT EXISTS backup_probe (n INTEGER); INSERT INTO backup_probe VALUES (1)');
      const out = join(work, 'copy.db');
      const report = await backupDatabase(db, out, () => {
        // A write between backup steps: SQLite restarts the copy, which ends at one committed state.
        writer.prepare('INSERT INTO backup_probe VALUES (2)').run();
      });
      assert.ok(report.pages > 0);
      assert.equal(statSync(out).mode & 0o777, 0o600);
      assert.deepEqual(counts(out), counts(db));
      const probe = (path: string): number =>
        new Database(path, { readonly: true }).prepare('SELECT COUNT(*) FROM backup_probe').pluck().get() as number;
      assert.ok(probe(out) >= 1 && probe(out) <= probe(db));
      await assert.rejects(backupDatabase(db, out), { code: 'DATA_BACKUP_EXISTS' });
    } finally {
      writer.close();
    }
  });

  test('quarry backup --db --out copies and says so; a missing database is a coded error', async () => {
    const db = join(work, 'cli.db');
    await importFiles({ paths: [SNAPSHOT], open: recordWriterFor(db) });
    const out = join(work, 'cli-copy.db');
    const ok = spawnSync(process.execPath, [BIN, 'backup', '--db', db, '--out', out], { encoding: 'utf8' });
    assert.equal(ok.status, 0, ok.stderr);
    assert.match(ok.stdout, /^backed up .* pages in/);
    assert.deepEqual(counts(out), counts(db));
    const missing = spawnSync(
      process.execPath,
      [BIN, 'backup', '--db', join(work, 'none.db'), '--out', join(work, 'x.db')],
      { encoding: 'utf8' },
    );
    assert.notEqual(missing.status, 0);
    assert.match(missing.stderr, /ENGINE_DATABASE_UNAVAILABLE/);
  });
});
