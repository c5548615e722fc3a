// A bulk export interrupted by the death of its process resumes at the next start from the
// last chunk its row records (a half-written chunk is cut off), or fails with the reason when
// its partial file is gone; an import during an export fails it rather than mixing two
// versions of the data. A partial file is never served as complete.
import assert from 'node:assert/strict';
import { appendFileSync, existsSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { after, before, describe, test } from 'node:test';
import type { QueryEngine, QueryOptions } from '../../src/engine/types.ts';
import { ExportService } from '../../src/exports/export-service.ts';
import { manualClock } from '../../src/identity/clock.ts';
import type { ExportJob, ExportJobStore } from '../../src/store/exports.ts';
import { openSqliteExportStore } from '../../src/store/sqlite/export-store.ts';
import { jsonLinesOf, sqliteEngine, syntheticDatabase, tempDir } from './harness.ts';

const ROWS = 12_000;
const QUERY = 'search publications where year >= 1990 return publications[id + year + doi]';

/**
 * The engine as a process that dies after `chunks` chunks: later ones never answer (their
 * caller waits forever, as a killed process would never go on), unless aborted.
 */
function dyingAfter(engine: QueryEngine, chunks: number): QueryEngine {
  let ran = 0;
  return {
    ...engine,
    dataEpoch: () => engine.dataEpoch!(),
    run(text: string, options: QueryOptions) {
      if (options.background && ++ran > chunks)
        return new Promise((_resolve, reject) =>
          options.signal?.addEventListener('abort', () => reject(new Error('aborted'))),
        );
      return engine.run(text, options);
    },
  };
}

/** The engine with an import finishing after `reads` epoch reads. */
function importingAfter(engine: QueryEngine, reads: number): QueryEngine {
  let read = 0;
  return {
    ...engine,
    run: (text, options) => engine.run(text, options),
    dataEpoch: () => (++read > reads ? 'after' : 'before'),
  };
}

describe('bulk exports across a restart (SQLite)', () => {
  const dir = tempDir('quarry-export-resume-');
  const exportDir = `${dir.path}/exports`;
  let dbPath: string;
  let engine: QueryEngine;
  const opened: Array<{ service: ExportService; store: ExportJobStore }> = [];

  before(() => {
    dbPath = syntheticDatabase(dir.path, ROWS);
    engine = sqliteEngine(dbPath);
  });
  after(async () => {
    for (const { service, store } of opened.reverse()) {
      await service.close();
      await store.close();
    }
    await engine.close();
    dir.remove();
  });

  /** A service as one process runs it, on its own connection to the database. */
  async function startService(on: QueryEngine): Promise<{ service: ExportService; store: ExportJobStore }> {
    const store = openSqliteExportStore(dbPath);
    const service = new ExportService({
      store,
      engine: on,
      dir: exportDir,
      clock: manualClock(Date.now()),
      chunkRecords: 1000,
      maxRunning: 1,
      maxPerAccount: 5,
      retentionMs: 3600_000,
      timeoutMs: 30_000,
    });
    await service.start();
    opened.push({ service, store });
    return { service, store };
  }

  async function until(store: ExportJobStore, id: string, ok: (job: ExportJob) => boolean): Promise<ExportJob> {
    const deadline = Date.now() + 60_000;
    for (;;) {
      const job = await store.get(id);
      if (job !== undefined && ok(job)) return job;
      if (Date.now() > deadline) throw new Error(`export ${id}: ${JSON.stringify(job)}`);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  }

  const submit = (service: ExportService) =>
    service.submit({ accountId: 1, text: QUERY, format: 'jsonl', sources: null });

  let complete: Array<Record<string, unknown>>;

  test('an export that nothing interrupts, to compare with', async () => {
    const { service, store } = await startService(engine);
    const job = await submit(service);
    const done = await until(store, job.id, (j) => j.state === 'done');
    complete = jsonLinesOf(readFileSync(service.fileOf(done)!));
    assert.equal(complete.length, ROWS);
  });

  test('killed mid-export, it resumes at the next start from the last recorded chunk', async () => {
    const first = await startService(dyingAfter(engine, 5));
    const job = await submit(first.service);
    const stuck = await until(first.store, job.id, (j) => j.records === 5000);
    assert.equal(stuck.state, 'running');
    // Nothing complete-looking is there, only the part file; and the download is refused.
    assert.deepEqual(
      readdirSync(exportDir).filter((f) => f.startsWith(job.id)),
      [`${job.id}.part`],
    );
    assert.equal(first.service.fileOf(stuck), undefined);
    // The process died while writing its sixth chunk: half a gzip member after the last recorded one.
    appendFileSync(`${exportDir}/${job.id}.part`, Buffer.from([0x1f, 0x8b, 0x08, 0, 1, 2, 3]));

    const second = await startService(engine);
    const done = await until(second.store, job.id, (j) => j.state === 'done');
    assert.equal(done.records, ROWS);
    assert.equal(existsSync(`${exportDir}/${job.id}.part`), false);
    assert.deepEqual(jsonLinesOf(readFileSync(second.service.fileOf(done)!)), complete);
  });

  test('killed mid-export with its partial file lost, it fails at the next start, saying why', async () => {
    const first = await startService(dyingAfter(engine, 2));
    const job = await submit(first.service);
    await until(first.store, job.id, (j) => j.records === 2000);
    rmSync(`${exportDir}/${job.id}.part`);

    const second = await startService(engine);
    const failed = await until(second.store, job.id, (j) => j.state === 'failed');
    assert.match(failed.error ?? '', /partial file is gone.*submit it again/);
    assert.equal(second.service.fileOf(failed), undefined);
    assert.deepEqual(
      readdirSync(exportDir).filter((f) => f.startsWith(job.id)),
      [],
    );
  });

  test('an import finishing during an export fails it, and leaves no file', async () => {
    const { service, store } = await startService(importingAfter(engine, 3));
    const job = await submit(service);
    const failed = await until(store, job.id, (j) => j.state === 'failed');
    assert.match(failed.error ?? '', /records changed .* during the export/);
    assert.ok(failed.records > 0 && failed.records < ROWS, 'it stopped part way');
    assert.equal(service.fileOf(failed), undefined);
    assert.deepEqual(
      readdirSync(exportDir).filter((f) => f.startsWith(job.id)),
      [],
    );
  });

  test('closing the service hands a running export to the next start', async () => {
    const first = await startService(engine);
    const job = await submit(first.service);
    await until(first.store, job.id, (j) => j.records >= 1000);
    await first.service.close();
    const paused = await first.store.get(job.id);
    assert.ok(paused?.state === 'queued' || paused?.state === 'done', paused?.state);
    const second = await startService(engine);
    const done = await until(second.store, job.id, (j) => j.state === 'done');
    assert.deepEqual(jsonLinesOf(readFileSync(second.service.fileOf(done)!)), complete);
  });
});
