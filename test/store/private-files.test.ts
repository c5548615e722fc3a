// Database files and the signing secret hold account data, key hashes and the key to every
// token: they are mode 600. A file an older version left readable by others (644), with the
// -wal and -shm files beside it, is restricted to its owner when it is next opened.
import assert from 'node:assert/strict';
import { chmodSync, existsSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import Database from 'better-sqlite3';
import { readOrCreateSecretFile, secretFileFor } from '../../src/auth/secret-file.ts';
import { loadConfig } from '../../src/config.ts';
import { prepareDemo } from '../../src/main.ts';
import { openSqliteAccountStore } from '../../src/store/sqlite/account-store.ts';
import { openReadOnly } from '../../src/store/sqlite/open.ts';
import { openRecordStore } from '../../src/store/sqlite/records-store.ts';
import { openSqliteWebStore } from '../../src/store/sqlite/web-store.ts';

const work = mkdtempSync(join(tmpdir(), 'quarry-private-'));
after(() => rmSync(work, { recursive: true, force: true }));

const modeOf = (path: string): number => statSync(path).mode & 0o777;
const files = (db: string): string[] => [db, `${db}-wal`, `${db}-shm`];

/**
 * A record database as an older version left it: mode 644, and (through a connection held
 * open in WAL mode, as a running import holds one) its -wal and -shm files 644 too.
 */
function worldReadableDatabase(name: string): { path: string; holder: Database.Database } {
  const path = join(work, name);
  openRecordStore(path).close();
  const holder = new Database(path);
  holder.pragma('journal_mode = WAL');
  holder.exec('CREATE TABLE IF NOT EXISTS probe (n INTEGER); INSERT INTO probe VALUES (1)');
  for (const file of files(path)) {
    assert.ok(existsSync(file), `${file} exists`);
    chmodSync(file, 0o644);
  }
  return { path, holder };
}

describe('private database files', () => {
  test('a new database is created 600', () => {
    const path = join(work, 'new.db');
    openRecordStore(path).close();
    assert.equal(modeOf(path), 0o600);
  });

  const opens: Array<[string, (path: string) => { close(): unknown }]> = [
    ['openRecordStore', (path) => openRecordStore(path)],
    ['openReadOnly', (path) => openReadOnly(path)],
    ['openSqliteAccountStore', (path) => openSqliteAccountStore(path)],
    ['openSqliteWebStore', (path) => openSqliteWebStore(path)],
  ];
  for (const [name, open] of opens) {
    test(`${name} restricts a 644 database and its -wal and -shm files to 600`, async () => {
      const { path, holder } = worldReadableDatabase(`${name}.db`);
      try {
        await open(path).close();
        for (const file of files(path)) assert.equal(modeOf(file).toString(8), '600', file);
      } finally {
        holder.close();
      }
    });
  }

  test('the signing secret beside the database: a 644 file is restricted to 600 and read as it is', () => {
    const path = secretFileFor(join(work, 'secret.db'));
    writeFileSync(path, 'an-older-secret\n');
    chmodSync(path, 0o644);
    assert.equal(readOrCreateSecretFile(path), 'an-older-secret');
    assert.equal(modeOf(path).toString(8), '600');
    const fresh = secretFileFor(join(work, 'fresh.db'));
    assert.ok(readOrCreateSecretFile(fresh).length > 0);
    assert.equal(modeOf(fresh).toString(8), '600');
  });

  test('the demo key beside the database: a 644 file is restricted to 600 on the next start', async () => {
    const db = join(work, 'demo.db');
    openRecordStore(db).close();
    const config = loadConfig({ overrides: { database: db } });
    const first = await prepareDemo(config, () => undefined);
    const keyFile = `${db}.demo-key`;
    assert.equal(modeOf(keyFile).toString(8), '600');
    chmodSync(keyFile, 0o644);
    const again = await prepareDemo(config, () => undefined);
    assert.equal(again.key, first.key, 'the key in the file is kept');
    assert.equal(modeOf(keyFile).toString(8), '600');
  });
});
