// DataCite files through `importFiles`, as published and without --format: the REST API
// items (JSON Lines, gzip), a REST API page and the Public Data File (a tar.gz of JSON Lines
// parts) each write exactly their records typed Dataset (counted here from the raw files).
// Each layout is recognised by its name and first lines (a page pretty-printed too); a record
// that cannot be used is reported at its file (or archive entry) and line; an import killed
// part-way is completed by --resume.
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { gzipSync } from 'node:zlib';
import tarStream from 'tar-stream';
import { recordWriterFor } from '../../../src/backends.ts';
import { detectFormat, expandPaths } from '../../../src/data/import/detect.ts';
import { importFiles } from '../../../src/data/import/index.ts';
import { openRecordStore } from '../../../src/store/sqlite/records-store.ts';
import { count, query, tempRecordDbs } from '../../data/helpers/record-db.ts';
import { importKilled } from '../../fixtures/import-killed.ts';
import {
  DATA,
  page,
  PAGE,
  PUBLIC_DATA_FILE,
  publicDataLines,
  REST,
  restItems,
  typed,
  type Raw,
} from './raw-samples.ts';

const { work, freshDb } = tempRecordDbs('datacite-imports');

const restDatasets = restItems.filter((r) => typed(r['attributes']) === 'Dataset');
const publicDatasets = publicDataLines.filter((r) => typed(r) === 'Dataset');
const pageDatasets = (page['data'] as Raw[]).filter((d) => typed(d['attributes']) === 'Dataset');
const doiOf = (doi: unknown): string => `doi:${String(doi).toLowerCase()}`;

function tableCounts(db: string): Record<string, number> {
  const store = openRecordStore(db);
  try {
    return store.counts();
  } finally {
    store.close();
  }
}

describe('each layout writes exactly its records typed Dataset', () => {
  for (const [file, expected] of [
    [REST, restDatasets.map((r) => doiOf(r['attributes']['doi']))],
    [PUBLIC_DATA_FILE, publicDatasets.map((r) => doiOf(r['doi']))],
    [PAGE, pageDatasets.map((d) => doiOf(d['id']))],
  ] as const)
    test(file.slice(DATA.length), async () => {
      assert.equal(await detectFormat(file), 'datacite');
      const db = freshDb();
      const report = await importFiles({ paths: [file], open: recordWriterFor(db) });
      assert.deepEqual(report.records, { datasets: expected.length });
      assert.deepEqual(report.problems, []);
      assert.deepEqual(
        report.files.map((f) => [f.path, f.format]),
        [[file, 'datacite']],
      );
      assert.deepEqual(
        query(db, 'SELECT id FROM datasets ORDER BY id').map((r) => r['id']),
        [...new Set(expected)].sort(),
      );
    });

  test('the counts are those of the samples: 27 of 60, 4 of 10, 1 of 5', () => {
    assert.deepEqual(
      [restDatasets.length, restItems.length, publicDatasets.length, publicDataLines.length, pageDatasets.length],
      [27, 60, 4, 10, 1],
    );
  });

  test('the folder: every file found, the tar.gz among them', async () => {
    assert.deepEqual(expandPaths([DATA]).sort(), [PAGE, PUBLIC_DATA_FILE, REST].sort());
    const db = freshDb();
    const report = await importFiles({ paths: [DATA], open: recordWriterFor(db) });
    assert.deepEqual(report.records, { datasets: restDatasets.length + publicDatasets.length + pageDatasets.length });
    assert.ok(report.files.every((f) => f.format === 'datacite'));
  });
});

describe('recognised by name and first lines', () => {
  test('a pretty-printed page, a page of one DOI, Public Data File lines unpacked, an empty page', async () => {
    const cases: [string, string][] = [
      ['pretty.json', JSON.stringify(page, null, 2)],
      ['one.json', JSON.stringify({ data: (page['data'] as Raw[])[0] })],
      ['lines.jsonl.gz', gzipSync(publicDataLines.map((l) => JSON.stringify(l)).join('\n')).toString('latin1')],
      ['empty-page.json', JSON.stringify({ data: [], meta: { total: 0 }, links: {} })],
    ];
    for (const [name, text] of cases) {
      const file = join(work, name);
      writeFileSync(file, name.endsWith('.gz') ? Buffer.from(text, 'latin1') : text);
      assert.equal(await detectFormat(file), 'datacite', name);
    }
    const pretty = await importFiles({ paths: [join(work, 'pretty.json')], open: recordWriterFor(freshDb()) });
    assert.deepEqual(pretty.records, { datasets: pageDatasets.length });
  });

  test('JSON of another kind is not DataCite', async () => {
    const file = join(work, 'other.json');
    writeFileSync(file, JSON.stringify({ data: [{ id: 'x', type: 'works' }] }));
    await assert.rejects(detectFormat(file), { code: 'DATA_UNKNOWN_FORMAT' });
  });
});

describe('what cannot be used', () => {
  test('a bad line of JSON Lines, a bad item of a page, a bad line in a tar entry: each at its place', async () => {
    const dataset = restDatasets[0]!;
    const lines = join(work, 'mixed.jsonl');
    writeFileSync(lines, [JSON.stringify(dataset), '{"id": ', JSON.stringify(restDatasets[1])].join('\n'));
    const pageFile = join(work, 'bad-page.json');
    const noDoi = { ...pageDatasets[0], id: 'none', attributes: { ...pageDatasets[0]!['attributes'], doi: null } };
    writeFileSync(pageFile, JSON.stringify({ ...page, data: [(page['data'] as Raw[])[0], noDoi] }));
    const tar = join(work, 'bad.tar.gz');
    const pack = tarStream.pack();
    const chunks: Buffer[] = [];
    pack.on('data', (c: Buffer) => chunks.push(c));
    const done = new Promise((resolve) => pack.on('end', resolve));
    const body = Buffer.from(`${JSON.stringify(publicDatasets[0])}\n[1]\n`);
    pack.entry({ name: '10.1234/part_00000.jsonl', size: body.length }, body);
    pack.finalize();
    await done;
    writeFileSync(tar, gzipSync(Buffer.concat(chunks)));
    const report = await importFiles({
      paths: [lines, pageFile, tar],
      open: recordWriterFor(freshDb()),
      onError: 'skip',
    });
    assert.deepEqual(
      report.problems.map((p) => [p.file, p.line]),
      [
        [lines, 2],
        [pageFile, 1],
        [`${tar}!10.1234/part_00000.jsonl`, 2],
      ],
    );
    assert.match(report.problems[0]!.message, /not valid JSON/);
    assert.match(report.problems[1]!.message, /^item 2 of the page: a DataCite record without a DOI/);
    assert.match(report.problems[2]!.message, /not a JSON object/);
    // The lines' two datasets, the page's first item if it is one (it is not), the tar's first line.
    const firstOfPage = typed((page['data'] as Raw[])[0]!['attributes']) === 'Dataset' ? 1 : 0;
    assert.deepEqual(report.records, { datasets: 2 + firstOfPage + 1 });
    await assert.rejects(importFiles({ paths: [lines], open: recordWriterFor(freshDb()) }), {
      code: 'DATA_IMPORT_ABORTED',
      message: new RegExp(`${lines}:2 \\(not valid JSON`),
    });
  });

  test('a tar.gz cut short is refused at its entry, what came before kept', async () => {
    const bytes = gzipSync(
      Buffer.concat(
        await (async () => {
          const pack = tarStream.pack();
          const chunks: Buffer[] = [];
          pack.on('data', (c: Buffer) => chunks.push(c));
          const done = new Promise((resolve) => pack.on('end', resolve));
          const body = Buffer.from(publicDatasets.map((d) => JSON.stringify(d)).join('\n') + '\n'.repeat(40_000));
          pack.entry({ name: '10.1234/part_00000.jsonl', size: body.length }, body);
          pack.finalize();
          await done;
          return chunks;
        })(),
      ),
    );
    const cut = join(work, 'cut.tar.gz');
    writeFileSync(cut, bytes.subarray(0, bytes.length - 20));
    const db = freshDb();
    await assert.rejects(importFiles({ paths: [cut], open: recordWriterFor(db) }), { code: 'DATA_FILE_TRUNCATED' });
    assert.equal(count(db, 'datasets'), publicDatasets.length);
  });
});

test(
  'an import killed part-way is completed by --resume to the counts of a clean import',
  { timeout: 120_000 },
  async () => {
    const clean = freshDb();
    await importFiles({ paths: [DATA], open: recordWriterFor(clean) });
    const db = freshDb();
    // Files in name order, each ending its own batch: the page's one dataset, the tar's four,
    // then two batches of five of the JSON Lines file are in when it dies.
    await importKilled({ db, paths: [DATA], commits: 4, batchSize: 5 });
    const committed = [
      ...pageDatasets.map((d) => doiOf(d['id'])),
      ...publicDatasets.map((r) => doiOf(r['doi'])),
      ...restDatasets.slice(0, 10).map((r) => doiOf(r['attributes']['doi'])),
    ];
    assert.equal(count(db, 'datasets'), new Set(committed).size);
    const resumed = await importFiles({ paths: [], open: recordWriterFor(db), resume: true });
    assert.deepEqual(resumed.records, { datasets: restDatasets.length - 10 });
    assert.deepEqual(tableCounts(db), tableCounts(clean));
  },
);
