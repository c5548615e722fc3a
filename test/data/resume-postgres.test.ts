// On PostgreSQL as on SQLite (resume.test.ts): an import killed with SIGKILL leaves every
// committed batch whole and is recorded as unfinished; the service refuses the database;
// `--resume` completes it to the counts of a clean import. Each test database is created
// on the server at QUARRY_TEST_PG and dropped at the end.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { after, before, describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { randomSecret } from '../../src/auth/secrets.ts';
import { openServiceBackends, recordWriterFor } from '../../src/backends.ts';
import { loadConfig } from '../../src/config.ts';
import { importFiles } from '../../src/data/import/index.ts';
import { LINK_TABLES, RECORD_KINDS, SOURCE_TABLES } from '../../src/model/storage.ts';
import { demoDataDir } from '../fixtures/demo-db.ts';
import { createTestPgDatabase, type TestPgDatabase } from '../fixtures/pg-db.ts';

const BIN = fileURLToPath(new URL('../../bin/quarry.js', import.meta.url));
/** The token-signing secret a PostgreSQL service is given (never kept in the database). */
const SECRET = randomSecret(32);
const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

async function withClient<T>(url: string, fn: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}

/** Rows of every record and link table. */
function counts(url: string): Promise<Record<string, number>> {
  const tables = [...RECORD_KINDS.map((k) => SOURCE_TABLES[k].table), ...LINK_TABLES.map((l) => l.table)];
  return withClient(url, async (client) => {
    const out: Record<string, number> = {};
    for (const table of tables) {
      const { rows } = await client.query<{ n: string }>(`SELECT count(*) AS n FROM ${table}`);
      out[table] = Number(rows[0]?.n);
    }
    return out;
  });
}

/** Lines committed so far by the latest run (0 before its first batch or its tables). */
function committedLines(url: string): Promise<number> {
  return withClient(url, async (client) => {
    const { rows } = await client.query<{ n: string | null }>(
      'SELECT sum(line) + sum(done::int) AS n FROM import_inputs WHERE run_id = (SELECT max(id) FROM import_runs)',
    );
    return Number(rows[0]?.n ?? 0);
  }).catch(() => 0);
}

describe('an import into PostgreSQL killed with SIGKILL', () => {
  let clean: TestPgDatabase;
  let killed: TestPgDatabase;
  before(async () => {
    clean = await createTestPgDatabase('resume_clean');
    killed = await createTestPgDatabase('resume_killed');
  });
  after(async () => {
    await clean.drop();
    await killed.drop();
  });

  test('is refused by the service and completed exactly by --resume', { timeout: 240_000 }, async () => {
    const data = await demoDataDir({ publications: 300 });
    await importFiles({ paths: [data], open: recordWriterFor(clean.url), batchSize: 10 });
    const expected = await counts(clean.url);
    assert.ok((expected['publications'] ?? 0) === 300 && (expected['publication_researchers'] ?? 0) > 0);

    const child = spawn(process.execPath, [BIN, 'import', data, '--db', killed.url, '--batch-size', '10'], {
      stdio: 'ignore',
    });
    const exited = new Promise<NodeJS.Signals | null>((resolve) =>
      child.on('exit', (_code, signal) => resolve(signal)),
    );
    const deadline = Date.now() + 120_000;
    while ((await committedLines(killed.url)) < 100 && Date.now() < deadline) await sleep(20);
    child.kill('SIGKILL');
    assert.equal(await exited, 'SIGKILL');

    const partial = await counts(killed.url);
    assert.notDeepEqual(partial, expected, 'the kill came before the end');
    // Whole batches only: every publication in has all its author links, as in the clean import.
    const links = (url: string) =>
      withClient(url, async (client) => {
        const { rows } = await client.query<{ id: string; n: string }>(
          `SELECT p.id, count(l.publication_pk) AS n FROM publications p
           LEFT JOIN publication_researchers l ON l.publication_pk = p.pk GROUP BY p.id`,
        );
        return new Map(rows.map((r) => [r.id, Number(r.n)]));
      });
    const [partialLinks, cleanLinks] = [await links(killed.url), await links(clean.url)];
    for (const [id, n] of partialLinks) assert.equal(n, cleanLinks.get(id), `${id} has all its links`);

    await assert.rejects(
      openServiceBackends(
        loadConfig({ overrides: { database: killed.url, logLevel: 'error', tokens: { jwtSecret: SECRET } } }),
      ),
      (e: Error & { code?: string }) => {
        assert.equal(e.code, 'DATA_IMPORT_UNFINISHED');
        assert.match(e.message, /did not finish/);
        return true;
      },
    );

    const resumed = await importFiles({ paths: [], open: recordWriterFor(killed.url), resume: true });
    assert.ok(Object.values(resumed.records).reduce((s, n) => s + n, 0) > 0);
    assert.deepEqual(await counts(killed.url), expected);
    await assert.rejects(importFiles({ paths: [], open: recordWriterFor(killed.url), resume: true }), {
      code: 'DATA_NOTHING_TO_RESUME',
    });
    const backends = await openServiceBackends(
      loadConfig({ overrides: { database: killed.url, logLevel: 'error', tokens: { jwtSecret: SECRET } } }),
    );
    try {
      assert.equal(await backends.engine.ready(), true);
      assert.equal(backends.recordsNotReady(), undefined);
    } finally {
      await backends.close();
    }
  });
});
