// Reads from a real streaming replica: the test set-up makes a primary and a replica of it
// on this machine (test/fixtures/pg-replica.ts). Records are written to the primary, the
// engine configured with the replica in `readUrls` answers from the replica (its queries run
// there, none on the primary), a write sent to the replica is refused, and a batch written
// later to the primary is answered once the replica has replayed it.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import pg from 'pg';
import { createPostgresEngine } from '../../src/engine/backends/postgres/engine.ts';
import type { QueryEngine } from '../../src/engine/types.ts';
import { openPgRecordWriter } from '../../src/store/postgres/records-writer.ts';
import { replicaUnavailable, startReplicaPair, type ReplicaPair } from '../fixtures/pg-replica.ts';
import { GRANTS, ORGS, PUBLICATIONS, RESEARCHERS } from './fixtures/tiny-db.ts';

const skip = replicaUnavailable();

async function engineQueries(url: string): Promise<number> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const r = await client.query<{ n: number }>(
      "SELECT count(*)::int AS n FROM pg_stat_activity WHERE application_name = 'quarry query'",
    );
    return r.rows[0]?.n ?? 0;
  } finally {
    await client.end();
  }
}

describe('reads from a streaming replica', { skip: skip ?? false, timeout: 120_000 }, () => {
  let pair: ReplicaPair;
  let engine: QueryEngine;
  before(async () => {
    pair = await startReplicaPair();
    const writer = await openPgRecordWriter(pair.primaryUrl);
    await writer.writeBatch('organizations', ORGS);
    await writer.writeBatch('researchers', RESEARCHERS);
    await writer.writeBatch('publications', PUBLICATIONS);
    await writer.writeBatch('grants', GRANTS);
    await writer.finish();
    await writer.close();
    await pair.caughtUp();
    engine = createPostgresEngine({ url: pair.primaryUrl, readUrls: [pair.replicaUrl] });
  });
  after(async () => {
    await engine?.close();
    await pair?.stop();
  });

  test('the replica is a standby of the primary', async () => {
    const replica = new pg.Client({ connectionString: pair.replicaUrl });
    await replica.connect();
    const r = await replica.query<{ standby: boolean }>('SELECT pg_is_in_recovery() AS standby');
    await replica.end();
    assert.equal(r.rows[0]?.standby, true);
  });

  test('queries are answered from the replica, none run on the primary', async () => {
    const { result } = await engine.run('search publications return year', { dslVersion: 2 });
    assert.equal((result._stats as { total_count: number }).total_count, PUBLICATIONS.length);
    const { result: text } = await engine.run('search publications for "learning" return publications[id]', {
      dslVersion: 2,
    });
    assert.ok((text._stats as { total_count: number }).total_count > 0);
    assert.ok((await engineQueries(pair.replicaUrl)) > 0, "the engine's connections are on the replica");
    assert.equal(await engineQueries(pair.primaryUrl), 0, 'and none on the primary');
  });

  test('writes go to the primary: the replica refuses them', async () => {
    await assert.rejects(
      (async () => {
        const writer = await openPgRecordWriter(pair.replicaUrl);
        await writer.close();
      })(),
      /read-only/,
    );
  });

  test('a batch written to the primary is answered once the replica has replayed it', async () => {
    const writer = await openPgRecordWriter(pair.primaryUrl);
    await writer.writeBatch('publications', [
      { ...PUBLICATIONS[0], id: 'pub.1999999999', title: 'Replicated zebrafish record', year: 2001 },
    ]);
    await writer.close();
    await pair.caughtUp();
    const { result } = await engine.run('search publications for "zebrafish" return publications[id]', {
      dslVersion: 2,
    });
    assert.deepEqual(result.publications, [{ id: 'pub.1999999999' }]);
  });
});
