import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import Database from 'better-sqlite3';
import { buildDemoDatabase, type DemoProgress } from '../../src/data/demo.ts';
import { SOURCE_GENERATORS } from '../../src/data/generate/source-generators.ts';
import { recordWriterFor } from '../../src/backends.ts';

const work = mkdtempSync(join(tmpdir(), 'quarry-demo-test-'));
after(() => rmSync(work, { recursive: true, force: true }));

test('buildDemoDatabase generates, imports and moves the finished database into place', async () => {
  const dbPath = join(work, 'records.db');
  const seen: DemoProgress[] = [];
  const { manifest, report } = await buildDemoDatabase({
    dbPath,
    writerFor: recordWriterFor,
    publications: 4000,
    seed: 5,
    onProgress: (p) => seen.push(p),
  });
  assert.equal(manifest.counts['publications'], 4000);
  assert.equal(report.records.publications, 4000);
  assert.deepEqual(readdirSync(work), ['records.db'], 'no build leftovers beside the database');
  const db = new Database(dbPath, { readonly: true });
  try {
    assert.equal((db.prepare('SELECT COUNT(*) AS n FROM publications').get() as { n: number }).n, 4000);
    // The sources with a generator are in the demo too.
    for (const { kind } of SOURCE_GENERATORS) {
      assert.ok((manifest.counts[kind] ?? 0) > 0, `the demo has ${kind}`);
      assert.equal(db.prepare(`SELECT COUNT(*) FROM ${kind}`).pluck().get(), manifest.counts[kind], kind);
    }
  } finally {
    db.close();
  }
  const done = seen.map((p) => p.done);
  assert.deepEqual(
    done,
    [...done].sort((a, b) => a - b),
    'progress only moves forward',
  );
  assert.deepEqual(seen.at(-1), { phase: 'done', done: 100, total: 100 });
  // Sources made after the run's publications report a phase of their own, within the generation half.
  for (const { kind } of SOURCE_GENERATORS.filter((g) => g.afterwards !== undefined)) {
    const phase = seen.filter((p) => p.phase === `generating ${kind}`);
    assert.ok(phase.length > 0, `${kind} shows as a phase`);
    assert.ok(phase.every((p) => p.done <= 50));
  }
});
