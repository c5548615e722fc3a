import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import Database from 'better-sqlite3';
import { migrate } from '../../src/store/sqlite/migrate.ts';

test('applies each set once, in order, and keeps sets apart', () => {
  const db = new Database(':memory:');
  const records = [
    { version: 1, name: 'create a', up: 'CREATE TABLE a (x INTEGER)' },
    { version: 2, name: 'add y', up: 'ALTER TABLE a ADD COLUMN y TEXT' },
  ];
  assert.deepEqual(migrate(db, 'records', records), [1, 2]);
  assert.deepEqual(migrate(db, 'records', records), []);
  assert.deepEqual(migrate(db, 'accounts', [{ version: 1, name: 'create b', up: 'CREATE TABLE b (x INTEGER)' }]), [1]);
  db.prepare('INSERT INTO a (x, y) VALUES (1, ?)').run('ok');
  const { n } = db.prepare('SELECT COUNT(*) AS n FROM schema_migrations').get() as { n: number };
  assert.equal(n, 3);
});

test('a failing migration leaves nothing half-applied', () => {
  const db = new Database(':memory:');
  const broken = [{ version: 1, name: 'broken', up: 'CREATE TABLE c (x INTEGER); CREATE TABLE c (x INTEGER);' }];
  assert.throws(() => migrate(db, 'records', broken), /already exists/);
  const tables = db.prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name = 'c'").all();
  assert.deepEqual(tables, []);
});

test('versions must be 1, 2, 3 without gaps', () => {
  const db = new Database(':memory:');
  assert.throws(() => migrate(db, 'records', [{ version: 2, name: 'gap', up: 'SELECT 1' }]), /1, 2, 3/);
});

test('a frozen migration runs its SQL on a database new to the set, its upgrade on one that held the set before', () => {
  const ran: string[] = [];
  const frozen = (version: number) => ({
    version,
    name: `step ${version}`,
    sql: () => `CREATE TABLE IF NOT EXISTS t${version} (x INTEGER)`,
    upgrade: (d: Database.Database) => {
      ran.push(`upgrade ${version}`);
      d.exec(`CREATE TABLE t${version} (x INTEGER, upgraded INTEGER)`);
    },
    functions: () => ran.push(`functions ${version}`),
  });
  const fresh = new Database(':memory:');
  assert.deepEqual(migrate(fresh, 'records', [frozen(1), frozen(2), frozen(3)]), [1, 2, 3]);
  assert.deepEqual(ran, ['functions 1', 'functions 2', 'functions 3'], 'the frozen SQL, after its functions');

  ran.length = 0;
  const older = new Database(':memory:');
  migrate(older, 'records', [frozen(1)]);
  ran.length = 0;
  // Held at version 1 when this call began: every later version upgrades, not only the first.
  assert.deepEqual(migrate(older, 'records', [frozen(1), frozen(2), frozen(3)]), [2, 3]);
  assert.deepEqual(ran, ['upgrade 2', 'upgrade 3']);
  const columns = older.prepare("SELECT name FROM pragma_table_info('t3')").pluck().all();
  assert.deepEqual(columns, ['x', 'upgraded']);
  // Names are recorded as given, whichever path ran.
  assert.deepEqual(older.prepare('SELECT name FROM schema_migrations ORDER BY version').pluck().all(), [
    'step 1',
    'step 2',
    'step 3',
  ]);
});

test('processes opening one new file at once apply each migration once, the others find it applied', async () => {
  const file = join(mkdtempSync(join(tmpdir(), 'quarry-migrate-race-')), 'race.db');
  const script = new URL('./fixtures/migrate-once.ts', import.meta.url).pathname;
  const run = (): Promise<{ code: number | null; out: string; err: string }> =>
    new Promise((resolve) => {
      const child = spawn(process.execPath, ['--import', 'tsx', script, file], { stdio: ['ignore', 'pipe', 'pipe'] });
      let out = '';
      let err = '';
      child.stdout.on('data', (b: Buffer) => (out += b.toString()));
      child.stderr.on('data', (b: Buffer) => (err += b.toString()));
      child.on('exit', (code) => resolve({ code, out, err }));
    });
  const results = await Promise.all([run(), run(), run(), run()]);
  for (const r of results) assert.equal(r.code, 0, r.err);
  const applied = results.flatMap((r) => JSON.parse(r.out.trim()) as number[]).sort();
  assert.deepEqual(applied, [1, 2], 'each version applied by exactly one process');
  const db = new Database(file, { readonly: true });
  assert.equal(db.prepare('SELECT count(*) FROM raced').pluck().get(), 20_000);
  db.close();
});
