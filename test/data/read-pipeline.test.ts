// An import reads, parses and prepares its records in a worker thread beside the writer
// (`readInWorker`, the default for large inputs): it reports bad records as file:line, skips
// or stops on them, writes a record given twice as its last version, reports an input it
// cannot read with a code (the run stays resumable), and never reads more than a few batches
// ahead of the writer.
import assert from 'node:assert/strict';
import { mkdirSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { importFiles, type RecordTarget } from '../../src/data/import/index.ts';
import { fileInput } from '../../src/data/import/inputs.ts';
import { helpersFor, READ_AHEAD_BATCHES, runReading } from '../../src/data/import/read-pipeline.ts';
import { recordWriterFor } from '../../src/backends.ts';
import { unfinishedImports } from '../../src/store/sqlite/import-journal.ts';
import { count, one, query, tempRecordDbs } from './helpers/record-db.ts';

const { work, freshDb } = tempRecordDbs('read-pipeline');
let folders = 0;

/** An organizations shard (quarry format) with these lines, in a folder of its own. */
function orgShard(lines: readonly string[], name = 'organizations-0000.jsonl'): string {
  const dir = join(work, `shards-${++folders}`);
  mkdirSync(dir, { recursive: true });
  const path = join(dir, name);
  writeFileSync(path, lines.join('\n') + '\n');
  return path;
}

const orgId = (k: number): string => `grid.91${String(k).padStart(4, '0')}.b`;
const org = (k: number, name = `Org ${k}`): string =>
  JSON.stringify({ id: orgId(k), name, types: ['education'], status: 'active' });

describe('reading in a worker thread', () => {
  const lines = Array.from({ length: 20 }, (_, k) => org(k));
  lines[6] = '{"id": "grid.910006.b", "name": ';
  lines[11] = JSON.stringify({ name: 'no id' });
  const bad = orgShard(lines);

  test('bad records are reported as file:line and skipped, as the import in one thread reports them', async () => {
    const inWorker = await importFiles({
      paths: [bad],
      open: recordWriterFor(freshDb()),
      onError: 'skip',
      batchSize: 3,
      readInWorker: true,
    });
    const inline = await importFiles({
      paths: [bad],
      open: recordWriterFor(freshDb()),
      onError: 'skip',
      batchSize: 3,
      readInWorker: false,
    });
    assert.deepEqual(
      inWorker.problems.map((p) => `${p.file}:${p.line}`),
      [`${bad}:7`, `${bad}:12`],
    );
    assert.match(inWorker.problems[0]!.message, /not valid JSON/);
    assert.match(inWorker.problems[1]!.message, /without an id/);
    assert.deepEqual(inWorker.records, { organizations: 18 });
    assert.deepEqual({ ...inWorker, ms: 0 }, { ...inline, ms: 0 });
  });

  test('--on-error abort stops at the bad line: every record before it is committed, the run is stopped', async () => {
    const db = freshDb();
    await assert.rejects(
      importFiles({ paths: [bad], open: recordWriterFor(db), onError: 'abort', batchSize: 4, readInWorker: true }),
      (err: { code?: string; message: string }) => {
        assert.equal(err.code, 'DATA_IMPORT_ABORTED');
        assert.ok(err.message.includes(`${bad}:7`), err.message);
        assert.match(err.message, /6 records before it are committed/);
        return true;
      },
    );
    assert.deepEqual(
      query(db, 'SELECT id FROM organizations ORDER BY id').map((r) => r['id']),
      [0, 1, 2, 3, 4, 5].map(orgId),
    );
    assert.equal(one(db, 'SELECT state FROM import_runs ORDER BY id DESC LIMIT 1')!['state'], 'stopped');
  });

  test('a record given twice ends as its last version, across batches and files', async () => {
    const first = orgShard([org(1, 'first'), org(2), org(3), org(4), org(1, 'second'), org(5)]);
    const second = orgShard([org(6), org(1, 'third')], 'organizations-0001.jsonl');
    const db = freshDb();
    await importFiles({ paths: [first, second], open: recordWriterFor(db), batchSize: 2, readInWorker: true });
    assert.deepEqual(query(db, `SELECT name FROM organizations WHERE id = '${orgId(1)}'`), [{ name: 'third' }]);
    assert.equal(count(db, 'organizations'), 6);
    assert.equal(
      one(db, `SELECT count(*) AS n FROM organizations_fts WHERE organizations_fts MATCH 'second OR first'`)!['n'],
      0,
      'the full-text row holds the last version only',
    );
    assert.equal(one(db, `SELECT count(*) AS n FROM organizations_fts WHERE organizations_fts MATCH 'third'`)!['n'], 1);
  });

  test('an input that cannot be read stops the import with a coded error naming it; --resume completes it', async () => {
    const first = orgShard(Array.from({ length: 40 }, (_, k) => org(k)));
    const second = orgShard([org(100), org(101)], 'organizations-0001.jsonl');
    const db = freshDb();
    const real = recordWriterFor(db);
    // The second file goes away while the writer commits its first batch: the reader, a
    // few batches ahead at most, has not opened it yet.
    const vanishing: RecordTarget = {
      ...real,
      open: async (options) => {
        const writer = await real.open(options);
        let commits = 0;
        return {
          ...writer,
          commit: (run, batch, checkpoint) => {
            if (++commits === 1) renameSync(second, `${second}.away`);
            return writer.commit(run, batch, checkpoint);
          },
        };
      },
    };
    await assert.rejects(
      importFiles({ paths: [first, second], open: vanishing, batchSize: 2, readInWorker: true }),
      (err: { code?: string; message: string }) => {
        assert.equal(err.code, 'DATA_IMPORT_READER_FAILED');
        assert.ok(err.message.includes(second), err.message);
        assert.match(err.message, /ENOENT/);
        assert.match(err.message, /40 records before it are committed/);
        return true;
      },
    );
    assert.equal(count(db, 'organizations'), 40);
    assert.equal(unfinishedImports(db).length, 1, 'the run stays unfinished, so it can be resumed');
    renameSync(`${second}.away`, second);
    const resumed = await importFiles({ paths: [], open: recordWriterFor(db), resume: true, readInWorker: true });
    assert.deepEqual(resumed.records, { organizations: 2 });
    assert.equal(count(db, 'organizations'), 42);
    assert.deepEqual(unfinishedImports(db), []);
  });

  test('helper threads map a share of the records: the same batches, records and problems, in file order', async () => {
    const lines = Array.from({ length: 2600 }, (_, k) => org(k));
    for (const bad of [5, 1001, 1502, 2599]) lines[bad] = '{"id": ';
    lines[1700] = JSON.stringify({ name: 'no id' });
    const path = orgShard(lines);
    const read = async (helpers: number, inWorker: boolean): Promise<unknown[]> => {
      const events: unknown[] = [];
      await runReading(
        {
          inputs: [{ input: fileInput(path), format: 'quarry' }],
          onError: 'skip',
          batchSize: 700,
          abstracts: new Map(),
          preparation: 'sqlite',
        },
        (event) => {
          if (event.type === 'batch')
            events.push({ ...event, upserts: [...event.upserts].map(([kind, rows]) => [kind, rows.map((r) => r.id)]) });
          else if (event.type !== 'progress') events.push(event);
          return Promise.resolve();
        },
        { inWorker, helpers },
      );
      return events;
    };
    const alone = await read(0, false);
    assert.equal(alone.filter((e) => (e as { type: string }).type === 'problem').length, 5);
    assert.deepEqual(await read(2, true), alone);
  });

  test('helper threads only on the cores the writer and the reading thread leave, at most 3', () => {
    assert.deepEqual(
      [1, 2, 3, 4, 5, 6, 16].map((cores) => helpersFor(cores)),
      [0, 0, 1, 2, 3, 3, 3],
    );
  });

  test(`the reader runs at most ${READ_AHEAD_BATCHES} batches ahead of the writer`, async () => {
    const path = orgShard(Array.from({ length: 50 }, (_, k) => org(k)));
    let arrived = 0;
    let handled = 0;
    let ahead = 0;
    let arrivedWhileBlocked = 0;
    const ids: string[] = [];
    await runReading(
      {
        inputs: [{ input: fileInput(path), format: 'quarry' }],
        onError: 'abort',
        batchSize: 1,
        abstracts: new Map(),
        preparation: 'native',
      },
      async (event) => {
        if (event.type !== 'batch') return;
        for (const records of event.upserts.values()) ids.push(...records.map((r) => r.id));
        // The first batch takes long to write: the reader must wait for room, not read on.
        if (handled === 0) {
          await new Promise((resolve) => setTimeout(resolve, 300));
          arrivedWhileBlocked = arrived;
        }
        handled++;
      },
      {
        inWorker: true,
        onArrival: (message) => {
          if (message.type !== 'batch') return;
          arrived++;
          ahead = Math.max(ahead, arrived - handled);
        },
      },
    );
    assert.equal(handled, 51, 'a batch per record and the closing one');
    assert.deepEqual(
      ids,
      Array.from({ length: 50 }, (_, k) => orgId(k)),
    );
    assert.ok(arrivedWhileBlocked >= 1, 'the reader did run ahead');
    assert.ok(ahead <= READ_AHEAD_BATCHES, `${ahead} batches waited for the writer`);
  });
});
