// `quarry login`, `quarry query` (remote mode) and `quarry shell` as child processes against
// the REAL service (real-server.ts) with a 2-second token lifetime and 5 query requests per
// second. The exports are compared with a direct read of the database; one export is killed
// (SIGKILL) half-way and finished with --resume.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { checkpointPath } from '../../src/client/export.ts';
import { publicationIdsInDatabase, recordDatabase, startRealServer, type RealServer } from './real-server.ts';

const bin = new URL('../../bin/quarry.js', import.meta.url).pathname;
const ALL = 'search publications return publications[id + title + year]';

interface Run {
  readonly status: number | null;
  readonly signal: NodeJS.Signals | null;
  readonly stdout: string;
  readonly stderr: string;
}

/** Runs `quarry ...` without blocking this process (the service answers from it). */
function quarry(
  args: string[],
  options: { env: Record<string, string>; input?: string; killWhen?: () => boolean },
): Promise<Run> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [bin, ...args], {
      env: { ...process.env, ...options.env },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c: Buffer) => (stdout += c.toString('utf8')));
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString('utf8')));
    child.stdin.end(options.input ?? '');
    let watch: NodeJS.Timeout | undefined;
    if (options.killWhen) {
      watch = setInterval(() => {
        if (options.killWhen?.()) child.kill('SIGKILL');
      }, 20);
    }
    child.on('close', (status, signal) => {
      if (watch) clearInterval(watch);
      resolve({ status, signal, stdout, stderr });
    });
  });
}

/** The ids of a CSV export whose first column is `id` (ids hold no commas or quotes). */
function csvIds(text: string): string[] {
  const [header, ...rows] = text.split('\r\n').filter(Boolean);
  assert.equal(header?.split(',')[0], 'id');
  return rows.map((r) => r.split(',')[0] ?? '');
}

describe('quarry login / query / shell against the real service', { timeout: 90_000 }, () => {
  let server: RealServer;
  let expected: string[];
  let dir: string;
  let env: Record<string, string>;

  before(async () => {
    const db = await recordDatabase(5000);
    expected = publicationIdsInDatabase(db).sort();
    server = await startRealServer(db, { tokenLifetimeSeconds: 2, queriesPerWindow: 5, windowSeconds: 1 });
    dir = mkdtempSync(join(tmpdir(), 'quarry-client-cli-'));
    env = { QUARRY_CONFIG_DIR: join(dir, 'config'), QUARRY_KEY: '', QUARRY_URL: '', QUARRY_PROFILE: '' };
  });
  after(() => server?.close());

  test('login reads the key from stdin, checks it, and stores a profile with mode 600', async () => {
    const bad = await quarry(['login', '--url', server.url, '--profile', 'bad'], { env, input: 'not-a-real-key\n' });
    assert.equal(bad.status, 3, bad.stderr);
    assert.doesNotMatch(bad.stderr, /not-a-real-key/);
    assert.equal(existsSync(join(dir, 'config', 'profiles.json')), false);

    const ok = await quarry(['login', '--url', server.url], { env, input: `${server.key}\n` });
    assert.equal(ok.status, 0, ok.stderr);
    assert.doesNotMatch(ok.stderr + ok.stdout, new RegExp(server.key));
    const file = join(dir, 'config', 'profiles.json');
    assert.equal(statSync(file).mode & 0o777, 0o600);
    const token = await quarry(['login', '--url', server.url, '--family', 'token', '--profile', 'tok'], {
      env,
      input: server.key,
    });
    assert.equal(token.status, 0, token.stderr);
    const stored = JSON.parse(readFileSync(file, 'utf8'));
    assert.equal(stored.default, 'default');
    assert.deepEqual(stored.profiles.default, { url: server.url, family: 'auth', key: server.key });
    assert.equal(stored.profiles.tok.family, 'token');
  });

  // After the login, the rest runs side by side (sharing the service's rate limit, which
  // only makes the exports meet more 429s).
  describe('with the stored profile', { concurrency: true }, () => {
    test('one query as json, jsonl (token-family profile) and a table', async () => {
      const text = 'search publications where year = 2010 return publications[id + year] sort by id asc limit 3';
      const json = await quarry(['query', text], { env });
      assert.equal(json.status, 0, json.stderr);
      const result = JSON.parse(json.stdout);
      assert.equal(result.publications.length, 3);
      assert.ok(result._stats.total_count >= 3);
      const jsonl = await quarry(['query', '--profile', 'tok', '--format', 'jsonl', text], { env });
      assert.deepEqual(
        jsonl.stdout
          .trim()
          .split('\n')
          .map((l) => JSON.parse(l) as unknown),
        result.publications,
      );
      const tableRun = await quarry(['query', '--format', 'table', text], { env });
      assert.match(tableRun.stdout, /^id\s+\| year\n-+-\+-+\n/);
      assert.match(tableRun.stdout, new RegExp(`\\(3 shown, ${result._stats.total_count} matching\\)`));
    });

    test('errors: a query error shows a caret and exits 2; no profile exits 1', async () => {
      const text = 'search publications return publications[id + titel]';
      const run = await quarry(['query', text], { env });
      assert.equal(run.status, 2);
      assert.match(
        run.stderr,
        /\[SCHEMA_UNKNOWN_FIELD\]\n {2}1 \| search publications return publications\[id \+ titel\]\n {4}\| {46}\^{5}/,
      );
      const none = await quarry(['query', '--profile', 'missing', 'describe version'], { env });
      assert.equal(none.status, 1);
      assert.match(none.stderr, /CLIENT_NO_PROFILE/);
    });

    test('a query sent as a JSON body: the caret is drawn in the query the service echoed', async () => {
      const text = 'search publications return publications[id + titel]';
      const run = await quarry(['query', JSON.stringify({ query: text })], { env });
      assert.equal(run.status, 2);
      assert.match(
        run.stderr,
        /\[SCHEMA_UNKNOWN_FIELD\]\n {2}1 \| search publications return publications\[id \+ titel\]\n {4}\| {46}\^{5}/,
      );
      const json = await quarry(['query', '--error-format', 'json', JSON.stringify({ query: text })], { env });
      assert.equal(json.status, 2);
      assert.equal(JSON.parse(json.stderr).errors.query.query, text);
    });

    test('$QUARRY_URL with $QUARRY_KEY, and $QUARRY_PROFILE, choose the service; flags win over them', async () => {
      const text = 'search publications where year = 2010 return publications[id] sort by id asc limit 2';
      const byUrl = await quarry(['query', '--family', 'token', text], {
        env: { ...env, QUARRY_URL: server.url, QUARRY_KEY: server.key, QUARRY_PROFILE: 'missing' },
      });
      assert.equal(byUrl.status, 0, byUrl.stderr);
      assert.equal(JSON.parse(byUrl.stdout).publications.length, 2);
      const noKey = await quarry(['query', text], { env: { ...env, QUARRY_URL: server.url } });
      assert.equal(noKey.status, 1);
      assert.match(noKey.stderr, /CLIENT_KEY_MISSING/);
      assert.match(noKey.stderr, /\$QUARRY_URL/);
      const byProfile = await quarry(['query', text], { env: { ...env, QUARRY_PROFILE: 'missing' } });
      assert.equal(byProfile.status, 1);
      assert.match(byProfile.stderr, /CLIENT_NO_PROFILE/);
      const flagWins = await quarry(['query', '--profile', 'tok', text], {
        env: { ...env, QUARRY_URL: 'http://127.0.0.1:9', QUARRY_PROFILE: 'missing' },
      });
      assert.equal(flagWins.status, 0, flagWins.stderr);
    });

    test('--error-format json: one line in the error body shape, the same exit code', async () => {
      const run = await quarry(['query', '--error-format', 'json', 'search publications return publications[titel]'], {
        env,
      });
      assert.equal(run.status, 2);
      const body = JSON.parse(run.stderr);
      assert.equal(body.errors.query.code, 'SCHEMA_UNKNOWN_FIELD');
      assert.equal(body.errors.query.line, 1);
      assert.equal(body.errors.query.column, 41);
      assert.match(body.errors.query.details[0], /titel/);
      assert.equal(run.stderr.trim().split('\n').length, 1);
    });

    test('--all --out: 5,000 records through expiry and 429s, exactly the database ids', async () => {
      const out = join(dir, 'all.jsonl');
      const run = await quarry(['query', '--all', '--page-size', '250', '--out', out, ALL], { env });
      assert.equal(run.status, 0, run.stderr);
      assert.match(run.stderr, /Wrote 5000 records to .*all\.jsonl \(5000 matching\)/);
      const ids = readFileSync(out, 'utf8')
        .trim()
        .split('\n')
        .map((l) => (JSON.parse(l) as { id: string }).id);
      assert.equal(ids.length, 5000);
      assert.deepEqual(ids.sort(), expected);
      assert.equal(existsSync(checkpointPath(out)), false);
    });

    test('--resume after a killed export completes it exactly', async () => {
      const out = join(dir, 'resumed.csv');
      const args = ['query', '--all', '--format', 'csv', '--page-size', '250', '--out', out, ALL];
      const checkpoint = checkpointPath(out);
      const killed = await quarry(args, {
        env,
        killWhen: () =>
          existsSync(checkpoint) &&
          (JSON.parse(readFileSync(checkpoint, 'utf8')) as { records: number }).records >= 1000,
      });
      assert.equal(killed.signal, 'SIGKILL');
      const state = JSON.parse(readFileSync(checkpoint, 'utf8')) as { records: number; nextSkip: number };
      assert.ok(state.records >= 1000 && state.records < 5000, `killed half-way (${state.records})`);
      assert.ok(csvIds(readFileSync(out, 'utf8')).length >= state.records, 'the interrupted file keeps what it had');

      const resumed = await quarry([...args, '--resume'], { env });
      assert.equal(resumed.status, 0, resumed.stderr);
      const ids = csvIds(readFileSync(out, 'utf8'));
      assert.equal(ids.length, 5000);
      assert.equal(new Set(ids).size, 5000);
      assert.deepEqual(ids.sort(), expected);
      assert.equal(existsSync(checkpoint), false);
    });

    test('login without a key on stdin is a coded error', async () => {
      const run = await quarry(['login', '--url', server.url, '--profile', 'empty'], { env, input: '' });
      assert.equal(run.status, 1);
      assert.ok(run.stderr.includes(`[${'CLIENT_KEY_MISSING'}]`), run.stderr);
    });

    test('shell: multi-line queries, tables, .describe, .help, errors with a caret, .export', async () => {
      const exported = join(dir, 'shell.jsonl');
      const input = [
        'search publications where year = 2010',
        'return publications[id + year] sort by id asc limit 3;',
        '.describe grants',
        '.help',
        'search publications return publications[titel]',
        '',
        'search publications where year = 2011 return publications[id]',
        '',
        `.export ${exported}`,
        'search publications where year = 2011 return publications[id] limit 2;',
        `.export ${exported}.limited.csv`,
        '.exit',
        '',
      ].join('\n');
      const run = await quarry(['shell'], { env, input });
      assert.equal(run.status, 0, run.stderr);
      assert.match(
        run.stdout,
        /^Quarry shell on http:\/\/127\.0\.0\.1:\d+ \((auth|token) family, [^,]+, language version 2\)\.$/m,
      );
      assert.match(run.stdout, /id\s+\| year\n/);
      assert.match(run.stdout, /\(3 shown, \d+ matching\)/);
      assert.match(run.stdout, /funding_usd\s+\| float/);
      assert.match(run.stdout, /\.export FILE/);
      assert.match(
        run.stdout,
        /\[SCHEMA_UNKNOWN_FIELD\]\n {2}1 \| search publications return publications\[titel\]\n {4}\| {41}\^{5}/,
      );
      const wrote = /Wrote (\d+) records/.exec(run.stdout);
      assert.ok(wrote, run.stdout);
      assert.equal(readFileSync(exported, 'utf8').trim().split('\n').length, Number(wrote[1]));
      // A query with its own limit exports that many records.
      assert.match(run.stdout, new RegExp(`Wrote 2 records to ${exported}\\.limited\\.csv`));
      assert.equal(
        readFileSync(`${exported}.limited.csv`, 'utf8').trim().split('\r\n').length,
        3,
        'a header and 2 rows',
      );
    });
  });
});
