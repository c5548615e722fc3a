import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { strFromU8, unzipSync } from 'fflate';
import { IMPORT_FORMATS } from '../../src/data/import/format-names.ts';

const BIN = fileURLToPath(new URL('../../bin/quarry.js', import.meta.url));
const work = mkdtempSync(join(tmpdir(), 'quarry-cli-data-'));
after(() => rmSync(work, { recursive: true, force: true }));

function quarry(...args: string[]): { status: number | null; stdout: string; stderr: string } {
  const r = spawnSync(process.execPath, [BIN, ...args], { encoding: 'utf8' });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

test('quarry generate then quarry import, twice without duplicates', () => {
  const out = join(work, 'gen');
  const db = join(work, 'cli.db');
  const gen = quarry('generate', '--publications', '300', '--out', out, '--seed', '11');
  assert.equal(gen.status, 0, gen.stderr);
  assert.match(gen.stdout, /publications\s+300/);
  assert.match(gen.stdout, /authors_per_paper/);
  const again = quarry('generate', '--publications', '300', '--out', out);
  assert.equal(again.status, 1);
  assert.ok(again.stderr.includes('DATA_OUTPUT_NOT_EMPTY'), again.stderr);
  const first = quarry('import', out, '--db', db);
  assert.equal(first.status, 0, first.stderr);
  assert.match(first.stdout, /publications\s+300/);
  const second = quarry('import', out, '--db', db, '--on-error', 'skip');
  assert.equal(second.status, 0, second.stderr);
  const query = quarry('query', '--db', db, 'search publications return publications[id] limit 1');
  assert.equal(query.status, 0, query.stderr);
  assert.equal((JSON.parse(query.stdout) as { _stats: { total_count: number } })._stats.total_count, 300);
});

test('bad arguments are coded errors with exit code 1', () => {
  const scale = quarry('generate', '--publications', 'lots', '--out', join(work, 'x'));
  assert.equal(scale.status, 1);
  assert.ok(scale.stderr.includes('DATA_BAD_SCALE'), scale.stderr);
  const seed = quarry('generate', '--publications', '10', '--seed', '1.5', '--out', join(work, 'x'));
  assert.ok(seed.stderr.includes('DATA_BAD_SEED'), seed.stderr);
  const onError = quarry('import', work, '--db', join(work, 'y.db'), '--on-error', 'ignore');
  assert.equal(onError.status, 1);
  assert.ok(onError.stderr.includes('DATA_BAD_ON_ERROR_OPTION'), onError.stderr);
  const format = quarry('import', work, '--db', join(work, 'y.db'), '--format', 'xml');
  assert.ok(format.stderr.includes('DATA_BAD_FORMAT_OPTION'), format.stderr);
});

test('quarry import reads a dump of a source folder without --format; --help lists every format', () => {
  const week = fileURLToPath(new URL('../fixtures/data/patents/ipgb20230404_wk14.zip', import.meta.url));
  const xml = Object.entries(unzipSync(readFileSync(week))).filter(([name]) => name.endsWith('.xml'));
  const documents = xml.reduce((n, [, bytes]) => n + strFromU8(bytes).split('<?xml ').length - 1, 0);
  const imported = quarry('import', week, '--db', join(work, 'patents.db'));
  assert.equal(imported.status, 0, imported.stderr);
  assert.match(imported.stdout, new RegExp(`^  patents\\s+${documents}$`, 'm'));
  const help = quarry('import', '--help');
  assert.equal(help.status, 0, help.stderr);
  for (const format of IMPORT_FORMATS) assert.match(help.stdout, new RegExp(`^  ${format} +\\S`, 'm'), format);
  const unknown = quarry('import', week, '--db', join(work, 'patents.db'), '--format', 'xml');
  assert.equal(unknown.status, 1);
  assert.ok(unknown.stderr.includes(`expected auto or one of ${IMPORT_FORMATS.join(', ')}`), unknown.stderr);
});
