// End to end on PostgreSQL: every step through the real `quarry` command, with `--db` naming
// a database of this test's own (created on the server at QUARRY_TEST_PG, dropped at the end):
// migrate, import a generated dataset, create an account and a key, make a token-signing
// secret, serve, trade the key for a token over HTTP and query; the records that come back
// are the generated ones.
import assert from 'node:assert/strict';
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { createTestPgDatabase, type TestPgDatabase } from '../fixtures/pg-db.ts';

const bin = new URL('../../bin/quarry.js', import.meta.url).pathname;
const QUIET: Record<string, string> = { QUARRY_LOG_LEVEL: 'warn' };

/** Runs `quarry ARGS` to completion; stdout, stderr and status. */
function quarry(args: readonly string[]): { status: number | null; stdout: string; stderr: string } {
  const run = spawnSync(process.execPath, [bin, ...args], {
    encoding: 'utf8',
    env: { ...process.env, ...QUIET },
    timeout: 120_000,
  });
  return { status: run.status, stdout: run.stdout, stderr: run.stderr };
}

/** Starts `quarry serve --port 0` and resolves with its URL once it listens. */
function serve(db: string): Promise<{ url: string; child: ChildProcess }> {
  const child = spawn(process.execPath, [bin, 'serve', '--db', db, '--host', '127.0.0.1', '--port', '0'], {
    env: { ...process.env, ...QUIET },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`serve did not start:\n${out}`)), 60_000);
    // The listening line goes to stdout or stderr (with the start-up banner).
    const read = (chunk: Buffer): void => {
      out += chunk.toString('utf8');
      const match = /Quarry is listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(out);
      if (match) {
        clearTimeout(timer);
        resolve({ url: match[1] as string, child });
      }
    };
    child.stdout.on('data', read);
    child.stderr.on('data', read);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`serve exited with ${code}:\n${out}`));
    });
  });
}

function stop(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    if (child.exitCode !== null) return resolve();
    child.once('exit', () => resolve());
    child.kill('SIGTERM');
  });
}

interface Publication {
  readonly id: string;
  readonly title: string;
  readonly year: number;
}

describe('quarry on PostgreSQL: migrate, import, accounts, serve, query', { timeout: 240_000 }, () => {
  let db: TestPgDatabase;
  let work: string;
  let data: string;
  let publications: Publication[];
  let server: { url: string; child: ChildProcess } | undefined;
  let second: { url: string; child: ChildProcess } | undefined;

  before(async () => {
    db = await createTestPgDatabase('e2e');
    work = mkdtempSync(join(tmpdir(), 'quarry-pg-e2e-'));
    // The signing secret every instance reads, outside the database.
    const secret = quarry(['jwt-secret']);
    assert.equal(secret.status, 0, secret.stderr);
    QUIET['QUARRY_JWT_SECRET_FILE'] = join(work, 'jwt-secret');
    writeFileSync(QUIET['QUARRY_JWT_SECRET_FILE'], secret.stdout, { mode: 0o600 });
    data = join(work, 'data');
    const generated = quarry(['generate', '--publications', '200', '--out', data]);
    assert.equal(generated.status, 0, generated.stderr);
    publications = readFileSync(join(data, 'publications-0000.jsonl'), 'utf8')
      .split('\n')
      .filter((line) => line.trim() !== '')
      .map((line) => JSON.parse(line) as Publication);
  });

  after(async () => {
    if (server) await stop(server.child);
    if (second) await stop(second.child);
    await db.drop();
    rmSync(work, { recursive: true, force: true });
  });

  test('quarry migrate lists, applies, then has nothing left to apply', () => {
    const dry = quarry(['migrate', '--dry-run', '--db', db.url]);
    assert.equal(dry.status, 0, dry.stderr);
    assert.match(dry.stdout, /would apply \d+ migration\(s\)/);
    assert.match(dry.stdout, /records 1: /);
    const applied = quarry(['migrate', '--db', db.url]);
    assert.equal(applied.status, 0, applied.stderr);
    assert.match(applied.stdout, /applied \d+ migration\(s\)/);
    for (const set of ['accounts', 'web', 'imports', 'records'])
      assert.match(applied.stdout, new RegExp(`  ${set} 1: `));
    assert.match(quarry(['migrate', '--db', db.url]).stdout, /is up to date: no migration to apply/);
  });

  test('quarry import loads the generated records', () => {
    const imported = quarry(['import', data, '--db', db.url, '--batch-size', '50']);
    assert.equal(imported.status, 0, imported.stderr);
    assert.match(imported.stdout, /publications\s+200\b/);
    const again = quarry(['import', '--resume', '--db', db.url]);
    assert.notEqual(again.status, 0, 'the import finished: nothing to resume');
    assert.match(again.stderr, /DATA_NOTHING_TO_RESUME/);
  });

  test('a key made with the command line gets a token over HTTP, and queries answer with the records', async () => {
    const account = quarry(['accounts', 'create', '--email', 'ana@example.org', '--activate', '--db', db.url]);
    assert.equal(account.status, 0, account.stderr);
    const created = quarry(['keys', 'create', '--account', 'ana@example.org', '--db', db.url]);
    assert.equal(created.status, 0, created.stderr);
    const key = created.stdout.trim().split('\n').at(-1) as string;

    server = await serve(db.url);
    assert.equal((await fetch(`${server.url}/readyz`)).status, 200);
    const tokenResponse = await fetch(`${server.url}/v3/token?api_key=${encodeURIComponent(key)}`);
    assert.equal(tokenResponse.status, 200);
    const token = (await tokenResponse.text()).trim();

    const year = publications[0]?.year as number;
    const expected = publications.filter((p) => p.year === year);
    const response = await fetch(`${server.url}/v3/api/query`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${token}` },
      body: `search publications where year = ${year} return publications[id + title + year] limit 1000`,
    });
    assert.equal(response.status, 200, await response.clone().text());
    const body = (await response.json()) as { publications: Publication[]; _stats: { total_count: number } };
    assert.equal(body._stats.total_count, expected.length);
    const byId = (a: Publication, b: Publication): number => (a.id < b.id ? -1 : 1);
    assert.deepEqual(
      [...body.publications].sort(byId),
      expected.map((p) => ({ id: p.id, title: p.title, year: p.year })).sort(byId),
    );

    // The same database through `quarry query --db`, in process.
    const local = quarry(['query', '--db', db.url, 'search publications return year limit 1000']);
    assert.equal(local.status, 0, local.stderr);
    const years = (JSON.parse(local.stdout) as { year: { id: number; count: number }[] }).year;
    assert.equal(years.find((y) => y.id === year)?.count, expected.length);
    assert.equal(
      years.reduce((sum, y) => sum + y.count, 0),
      publications.length,
    );

    // A wrong key is refused with the protocol's error, not a server error.
    const refused = await fetch(`${server.url}/v3/token?api_key=qry_not_a_key`);
    assert.equal(refused.status, 401);

    // A second instance on the same database takes the first one's token and JWT: tokens live
    // in the database, and both instances read the same signing secret file.
    second = await serve(db.url);
    const jwtResponse = await fetch(`${server.url}/api/auth`, { method: 'POST', body: JSON.stringify({ key }) });
    assert.equal(jwtResponse.status, 200);
    const jwt = ((await jwtResponse.json()) as { token: string }).token;
    const query = 'search publications return publications[id] limit 1';
    const viaToken = await fetch(`${second.url}/v3/api/query`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${token}` },
      body: query,
    });
    assert.equal(viaToken.status, 200, await viaToken.clone().text());
    const viaJwt = await fetch(`${second.url}/api/dsl/v2`, {
      method: 'POST',
      headers: { Authorization: `JWT ${jwt}` },
      body: query,
    });
    assert.equal(viaJwt.status, 200, await viaJwt.clone().text());
    assert.equal(
      ((await viaJwt.json()) as { _stats: { total_count: number } })._stats.total_count,
      publications.length,
    );

    // Revoked in the database, the key's tokens fail on both instances from the next request.
    const revoked = quarry(['keys', 'revoke', 'key 1', '--account', 'ana@example.org', '--db', db.url]);
    assert.equal(revoked.status, 0, revoked.stderr);
    for (const instance of [server, second]) {
      const after = await fetch(`${instance.url}/v3/api/query`, {
        method: 'POST',
        headers: { Authorization: `Bearer ${token}` },
        body: query,
      });
      assert.equal(after.status, 403, await after.clone().text());
      assert.match(await after.text(), /SERVICE_TOKEN_REVOKED/);
    }
  });
});
