// `quarry query --db FILE` (local mode): the JSON on stdout, coded errors with a caret and
// exit codes. The remote mode (no --db) is the client's and tested with it.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import Database from 'better-sqlite3';
import { tinyDatabase } from './fixtures/tiny-db.ts';

const bin = new URL('../../bin/quarry.js', import.meta.url).pathname;
const run = (...args: string[]) => spawnSync(process.execPath, [bin, 'query', ...args], { encoding: 'utf8' });

describe('quarry query', () => {
  const db = tinyDatabase();

  test('a database from an older Quarry is upgraded, then answers', () => {
    const old = join(mkdtempSync(join(tmpdir(), 'quarry-query-old-')), 'old.db');
    copyFileSync(db, old);
    // What version 1 left: no version-2 indexes, no record of migration 2.
    const raw = new Database(old);
    raw.exec(
      "DROP INDEX publications_year_date_desc_id; DROP INDEX grants_start_year_start_date_desc_id; DELETE FROM schema_migrations WHERE migration_set = 'records' AND version > 1",
    );
    raw.close();
    const out = run('--db', old, 'search publications where year = 2019 return year');
    assert.equal(out.status, 0, out.stderr);
    assert.deepEqual(JSON.parse(out.stdout), { year: [{ id: 2019, count: 2 }], _stats: { total_count: 2 } });
    const upgraded = new Database(old, { readonly: true });
    assert.equal(
      upgraded
        .prepare("SELECT count(*) FROM sqlite_master WHERE name = 'publications_year_date_desc_id'")
        .pluck()
        .get(),
      1,
    );
    upgraded.close();
  });

  test('prints the result as JSON', () => {
    const out = run('--db', db, 'search publications where year = 2019 return year');
    assert.equal(out.status, 0, out.stderr);
    assert.deepEqual(JSON.parse(out.stdout), { year: [{ id: 2019, count: 2 }], _stats: { total_count: 2 } });
  });

  test('version 1 on request', () => {
    const out = run(
      '--db',
      db,
      '--dsl-version',
      '1',
      'search publications where year = 2018 return publications[id+FOR]',
    );
    assert.equal(out.status, 0, out.stderr);
    const result = JSON.parse(out.stdout);
    assert.equal(result.publications[0].FOR[0].name, 'Biomedical');
    assert.ok(result._warnings.length > 0);
  });

  test('a query mistake shows the line with a caret and exits 2', () => {
    const out = run('--db', db, 'search publications where year = 2019 retur year');
    assert.equal(out.status, 2);
    assert.match(out.stderr, /retur year\n\s+\|\s+\^+/);
  });

  test('a missing database exits 5 with a coded message', () => {
    const out = run('--db', '/nonexistent/quarry.db', 'search publications return year');
    assert.equal(out.status, 5);
    assert.match(out.stderr, /cannot be opened/);
  });

  test('--format and --out apply to the local result too', () => {
    const csv = run('--db', db, '--format', 'csv', 'search publications where year = 2019 return year');
    assert.equal(csv.status, 0, csv.stderr);
    assert.equal(csv.stdout, 'id,count\r\n2019,2\r\n', 'CSV lines end in CRLF (RFC 4180)');
    const file = join(mkdtempSync(join(tmpdir(), 'quarry-query-')), 'year.jsonl');
    const out = run(
      '--db',
      db,
      '--format',
      'jsonl',
      '--out',
      file,
      'search publications where year = 2019 return year',
    );
    assert.equal(out.status, 0, out.stderr);
    assert.equal(out.stdout, '');
    assert.deepEqual(JSON.parse(readFileSync(file, 'utf8')), { id: 2019, count: 2 });
  });

  test('--rows affiliations: one CSV row per author affiliation with the publication id', () => {
    const out = run(
      '--db',
      db,
      '--rows',
      'affiliations',
      '--format',
      'csv',
      'search publications where year = 2019 return publications[id + authors] sort by id',
    );
    assert.equal(out.status, 0, out.stderr);
    const [header, ...lines] = out.stdout.trimEnd().split('\r\n');
    const columns = header?.split(',') ?? [];
    assert.equal(columns[0], 'pub_id');
    assert.ok(columns.includes('aff_id') && columns.includes('last_name'), header);
    const affIds = lines.map((line) => line.split(',')[columns.indexOf('aff_id')]);
    assert.ok(affIds.length >= 2 && affIds.every((id) => /^grid\./.test(id ?? '')), out.stdout);
    const refused = run('--db', db, '--rows', 'funders', 'search publications return publications[id + title]');
    assert.equal(refused.status, 1, refused.stderr);
    assert.match(refused.stderr, /--rows funders.*without funders/s);
  });

  test('--all pages through every record of a local database', () => {
    const all = run(
      '--db',
      db,
      '--all',
      '--page-size',
      '2',
      '--format',
      'jsonl',
      'search publications return publications[id]',
    );
    assert.equal(all.status, 0, all.stderr);
    const ids = all.stdout
      .trim()
      .split('\n')
      .map((line) => (JSON.parse(line) as { id: string }).id);
    const direct = JSON.parse(run('--db', db, 'search publications return publications[id] limit 1000').stdout) as {
      publications: Array<{ id: string }>;
      _stats: { total_count: number };
    };
    assert.ok(direct._stats.total_count > 2, 'more records than one page');
    assert.deepEqual(ids.sort(), direct.publications.map((p) => p.id).sort());
    const file = join(mkdtempSync(join(tmpdir(), 'quarry-query-')), 'all.csv');
    const csv = run(
      '--db',
      db,
      '--all',
      '--page-size',
      '3',
      '--out',
      file,
      '--format',
      'csv',
      'search publications return publications[id + year]',
    );
    assert.equal(csv.status, 0, csv.stderr);
    assert.equal(readFileSync(file, 'utf8').split('\r\n').filter(Boolean).length, direct._stats.total_count + 1);
  });

  test('CSV of several results: one file per result with --out, refused on standard output', () => {
    const text = 'search publications return year return type';
    const refused = run('--db', db, '--format', 'csv', text);
    assert.equal(refused.status, 1);
    assert.equal(refused.stdout, '');
    assert.match(refused.stderr, /returns 2 results \(year, type\)/);
    const dir = mkdtempSync(join(tmpdir(), 'quarry-query-'));
    const written = run('--db', db, '--format', 'csv', '--out', join(dir, 'facets.csv'), text);
    assert.equal(written.status, 0, written.stderr);
    assert.match(readFileSync(join(dir, 'facets.year.csv'), 'utf8'), /^id,count\r\n2019,2\r\n/m);
    assert.match(readFileSync(join(dir, 'facets.type.csv'), 'utf8'), /^id,count\r\n/);
    assert.match(written.stderr, /facets\.year\.csv/);
  });

  test('--error-format json: usage mistakes and query errors as one line of the error body', () => {
    const usage = run('--error-format', 'json', '--db', db, '--no-such-flag', 'describe version');
    assert.notEqual(usage.status, 0);
    assert.equal(JSON.parse(usage.stderr).errors.query.code, 'CLI_USAGE');
    const query = run('--db', db, '--error-format=json', 'search publications where year = 2019 retur year');
    assert.equal(query.status, 2);
    const body = JSON.parse(query.stderr);
    assert.equal(body.errors.query.code, 'DSL_UNEXPECTED_TOKEN');
    assert.equal(body.errors.query.column, 39);
    const unwritable = run(
      '--db',
      db,
      '--error-format',
      'json',
      '--out',
      '/nonexistent/dir/x.json',
      'describe version',
    );
    assert.equal(unwritable.status, 1);
    const failed = JSON.parse(unwritable.stderr);
    assert.equal(failed.errors.query.code, 'CLI_FAILED');
    assert.match(failed.errors.query.details[0], /ENOENT.*\/nonexistent\/dir\/x\.json/);
  });

  test('options for a service are refused with --db, not silently ignored', () => {
    for (const flags of [
      ['--url', 'http://127.0.0.1:9'],
      ['--profile', 'default'],
      ['--key', 'k'],
    ]) {
      const out = run('--db', db, ...flags, 'search publications return year');
      assert.notEqual(out.status, 0, flags.join(' '));
      assert.match(out.stderr, new RegExp(`CLIENT_OPTION_INVALID|${flags[0]}`));
      assert.match(out.stderr, new RegExp(flags[0] as string));
      assert.equal(out.stdout, '');
    }
  });
});
