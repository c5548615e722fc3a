// The client library's exportAll against a listening service: submit, follow, download
// (unpacked, or kept gzipped for a .gz name); both families; a local channel refuses.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { readFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { after, before, describe, test } from 'node:test';
import { gunzipSync } from 'node:zlib';
import { connect, QuarryClient } from '../../src/client/client.ts';
import type { QueryEngine } from '../../src/engine/types.ts';
import { exportApp, sqliteEngine, syntheticDatabase, tempDir, type ExportApp } from './harness.ts';

const ROWS = 3_000;
const QUERY = 'search publications where year >= 2000 return publications[id + year]';

describe('client.exportAll', () => {
  const dir = tempDir('quarry-export-client-');
  let engine: QueryEngine;
  /** While true, every read of the data's epoch sees a new one (an import finishing). */
  let importing = false;
  let epoch = 0;
  let t: ExportApp;
  let url: string;
  let key: string;

  before(async () => {
    const dbPath = syntheticDatabase(dir.path, ROWS);
    engine = sqliteEngine(dbPath);
    const real = engine;
    const watched: QueryEngine = {
      ...real,
      run: (text, options) => real.run(text, options),
      dataEpoch: () => String(importing ? ++epoch : epoch),
    };
    t = await exportApp({ dbPath, exportDir: `${dir.path}/exports`, engine: watched });
    await t.accounts.createAccount({ email: 'cli@example.org', activate: true });
    key = (await t.accounts.createKey('cli@example.org', 'cli')).key;
    await t.app.listen({ host: '127.0.0.1', port: 0 });
    url = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
  });
  after(async () => {
    await t.close();
    await engine.close();
    dir.remove();
  });

  const expected = (): string[] => {
    const ids: string[] = [];
    for (let i = 1; i <= ROWS; i++) if (1995 + (i % 30) >= 2000) ids.push(`pub.19${String(i).padStart(8, '0')}`);
    return ids.sort();
  };

  for (const family of ['auth', 'token'] as const) {
    test(`${family} family: every matching record, unpacked into a .jsonl file, with progress`, async () => {
      const client = connect({ url, key }, { family });
      const seen: string[] = [];
      const file = `${dir.path}/out-${family}.jsonl`;
      const report = await client.exportAll(QUERY, { file, pollMs: 20, onProgress: (job) => seen.push(job.state) });
      assert.equal(report.records, expected().length);
      assert.equal(seen.at(-1), 'done');
      const ids = readFileSync(file, 'utf8')
        .split('\n')
        .filter(Boolean)
        .map((line) => (JSON.parse(line) as { id: string }).id);
      assert.deepEqual(ids, expected());
    });
  }

  test('a .gz name keeps the gzip the service wrote; CSV on request', async () => {
    const client = connect({ url, key });
    const file = `${dir.path}/out.csv.gz`;
    await client.exportAll(QUERY, { file, format: 'csv', pollMs: 20 });
    const lines = gunzipSync(readFileSync(file)).toString('utf8').split('\r\n').filter(Boolean);
    assert.equal(lines[0], 'id,year');
    assert.equal(lines.length - 1, expected().length);
  });

  test('a failed submission reports the service error', async () => {
    const client = connect({ url, key });
    await assert.rejects(
      client.exportAll(`${QUERY} limit 5`, { file: `${dir.path}/x.jsonl`, pollMs: 20 }),
      /limit or skip/,
    );
  });

  test('an export the service could not finish fails with CLIENT_EXPORT_FAILED and its reason', async () => {
    const client = connect({ url, key });
    importing = true;
    try {
      await assert.rejects(
        client.exportAll(QUERY, { file: `${dir.path}/z.jsonl`, pollMs: 20 }),
        (e: Error & { code?: string }) => e.code === 'CLIENT_EXPORT_FAILED' && /records changed/.test(e.message),
      );
    } finally {
      importing = false;
    }
  });

  test('`quarry export --all` writes the file and says how many records', async () => {
    const bin = new URL('../../bin/quarry.js', import.meta.url).pathname;
    const file = `${dir.path}/cli.jsonl`;
    const { stderr } = await promisify(execFile)(
      process.execPath,
      [bin, 'export', '--all', QUERY, '--out', file, '--url', url, '--no-progress'],
      { env: { ...process.env, QUARRY_KEY: key }, timeout: 60_000 },
    );
    assert.match(stderr, new RegExp(`Wrote ${expected().length} records to ${file}`));
    assert.equal(readFileSync(file, 'utf8').split('\n').filter(Boolean).length, expected().length);
  });

  test('a client over a local channel refuses: bulk exports need a service', async () => {
    const local = new QuarryClient(
      { login: () => Promise.resolve(), post: () => Promise.resolve({}) },
      { emit: () => undefined },
    );
    await assert.rejects(
      local.exportAll(QUERY, { file: `${dir.path}/y.jsonl` }),
      (e: Error & { code?: string }) => e.code === 'CLIENT_EXPORT_NEEDS_SERVICE',
    );
  });
});
