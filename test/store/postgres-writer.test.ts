// The PostgreSQL record writer: idempotent upserts by id (a record written again keeps its
// pk, its links are replaced), and an import killed with SIGKILL leaves only whole batches
// (every record present has all its link rows) and is completed by running it again.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { after, before, describe, test } from 'node:test';
import pg from 'pg';
import { openPgRecordWriter } from '../../src/store/postgres/records-writer.ts';
import { demoDataset } from '../fixtures/demo-db.ts';
import { createTestPgDatabase, loadNativeShards, type TestPgDatabase } from '../fixtures/pg-db.ts';
import { ORGS, PUBLICATIONS } from '../engine/fixtures/tiny-db.ts';

async function scalar(url: string, sql: string): Promise<number> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return Number(Object.values((await client.query(sql)).rows[0] as object)[0]);
  } finally {
    await client.end();
  }
}

describe('PostgreSQL record writer', { timeout: 300_000 }, () => {
  const dbs: TestPgDatabase[] = [];
  const database = async (label: string): Promise<TestPgDatabase> => {
    const db = await createTestPgDatabase(label);
    dbs.push(db);
    return db;
  };
  after(async () => {
    for (const db of dbs) await db.drop();
  });

  test('writing a record again updates it in place and replaces its links', async () => {
    const db = await database('upsert');
    const writer = await openPgRecordWriter(db.url);
    try {
      await writer.writeBatch('organizations', ORGS);
      await writer.writeBatch('publications', PUBLICATIONS);
      const first = PUBLICATIONS[0] as (typeof PUBLICATIONS)[number];
      const pk = await scalar(db.url, `SELECT pk FROM publications WHERE id = '${first.id}'`);
      const links = await scalar(db.url, 'SELECT count(*) FROM publication_research_orgs');
      await writer.writeBatch('publications', PUBLICATIONS);
      assert.equal(await scalar(db.url, 'SELECT count(*) FROM publications'), PUBLICATIONS.length);
      assert.equal(await scalar(db.url, 'SELECT count(*) FROM publication_research_orgs'), links);
      // the same id twice in one batch: the last version wins
      await writer.writeBatch('publications', [
        { ...first, title: 'first version' },
        { ...first, title: 'second version', authors: [] },
      ]);
      assert.equal(await scalar(db.url, `SELECT pk FROM publications WHERE id = '${first.id}'`), pk);
      assert.equal(
        await scalar(db.url, `SELECT count(*) FROM publications WHERE id = '${first.id}' AND title = 'second version'`),
        1,
      );
      assert.equal(
        await scalar(db.url, `SELECT count(*) FROM publication_researchers WHERE publication_pk = ${pk}`),
        0,
      );
    } finally {
      await writer.close();
    }
  });

  describe('an import killed with SIGKILL', () => {
    let dataDir: string;
    let complete: TestPgDatabase;
    before(async () => {
      dataDir = (await demoDataset({ publications: 1_000 })).dataDir;
      complete = await database('complete');
      await loadNativeShards(dataDir, complete.url);
    });

    test('leaves whole batches only, and running it again completes it', async () => {
      const db = await database('killed');
      const child = spawn(
        process.execPath,
        ['--import', 'tsx', new URL('./fixtures/pg-load.ts', import.meta.url).pathname, dataDir, db.url, '50'],
        { stdio: 'ignore' },
      );
      // Kill it once some publications are in (the last kind written), mid-way through them.
      const exited = new Promise<void>((resolve) => child.on('exit', () => resolve()));
      for (;;) {
        const n = await scalar(
          db.url,
          "SELECT CASE WHEN to_regclass('publications') IS NULL THEN 0 ELSE (SELECT count(*) FROM publications) END",
        ).catch(() => 0);
        if (n >= 100) break;
        await new Promise((r) => setTimeout(r, 20));
      }
      child.kill('SIGKILL');
      await exited;
      const present = await scalar(db.url, 'SELECT count(*) FROM publications');
      const expected = await scalar(complete.url, 'SELECT count(*) FROM publications');
      assert.ok(present < expected, `killed before the end (${present} of ${expected})`);
      assert.equal(present % 50, 0, 'only whole batches of 50 are visible');
      // every publication present has exactly the link rows the complete import gives it
      // (the derived `*_values` rows come from finish(), which the killed import never reached)
      const ids = await (async () => {
        const client = new pg.Client({ connectionString: db.url });
        await client.connect();
        const r = await client.query<{ id: string }>('SELECT id FROM publications');
        await client.end();
        return r.rows.map((x) => x.id);
      })();
      for (const table of ['publication_researchers', 'publication_research_orgs', 'publication_references']) {
        const client = new pg.Client({ connectionString: complete.url });
        await client.connect();
        const r = await client.query<{ n: string }>(
          `SELECT count(*) AS n FROM ${table} l JOIN publications p ON p.pk = l.publication_pk WHERE p.id = ANY($1::text[])`,
          [ids],
        );
        await client.end();
        assert.equal(await scalar(db.url, `SELECT count(*) FROM ${table}`), Number(r.rows[0]?.n), table);
      }
      // running the import again completes it: the same records and links as one whole import
      await loadNativeShards(dataDir, db.url, 50);
      for (const table of [
        'publications',
        'grants',
        'publication_researchers',
        'publication_references',
        'publication_values',
        'grant_funders',
      ]) {
        assert.equal(
          await scalar(db.url, `SELECT count(*) FROM ${table}`),
          await scalar(complete.url, `SELECT count(*) FROM ${table}`),
          table,
        );
      }
    });
  });
});
