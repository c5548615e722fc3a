// ClinicalTrials.gov studies through `importFiles`, without --format: the real sample (JSON
// Lines of 536 API v2 studies) writes one trial per study, and the other published shapes
// built from the same studies (the bulk ctg-studies.json.zip, read whole; API pages; the
// website's JSON array) are recognised and write the same trials. A study that cannot be
// used is reported where it is; an import killed part-way is completed by --resume.
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { gunzipSync } from 'node:zlib';
import { strToU8, zipSync } from 'fflate';
import { recordWriterFor } from '../../../src/backends.ts';
import { detectFormat, expandInputs } from '../../../src/data/import/detect.ts';
import { importFiles } from '../../../src/data/import/index.ts';
import { openRecordStore } from '../../../src/store/sqlite/records-store.ts';
import { count, query, tempRecordDbs } from '../../data/helpers/record-db.ts';
import { importKilled } from '../../fixtures/import-killed.ts';

/** A raw study, read loosely as JSON. */
type Study = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

const SAMPLE = fileURLToPath(new URL('../../fixtures/data/clinical_trials/ctgov_v2_studies.jsonl.gz', import.meta.url));
const STUDIES: Study[] = gunzipSync(readFileSync(SAMPLE))
  .toString('utf8')
  .trim()
  .split('\n')
  .map((l) => JSON.parse(l) as Study);
const nctOf = (s: Study): string => s['protocolSection']['identificationModule']['nctId'] as string;
const NCT_IDS = [...new Set(STUDIES.map(nctOf))].sort();
const { work, freshDb } = tempRecordDbs('ctgov-imports');

function tableCounts(db: string): Record<string, number> {
  const store = openRecordStore(db);
  try {
    return store.counts();
  } finally {
    store.close();
  }
}

function write(name: string, data: string | Uint8Array): string {
  const path = join(work, name);
  writeFileSync(path, data);
  return path;
}

/** The studies in pages of `size`, as the API answers them. */
const pages = (studies: readonly Study[], size: number): object[] =>
  Array.from({ length: Math.ceil(studies.length / size) }, (_, k) => ({
    studies: studies.slice(k * size, (k + 1) * size),
    ...((k + 1) * size < studies.length ? { nextPageToken: `token${k + 1}` } : {}),
  }));

describe('the real sample and the shapes built from it', () => {
  test('JSON Lines of studies: one trial per study', async () => {
    assert.equal(STUDIES.length, 536);
    assert.equal(await detectFormat(SAMPLE), 'ctgov');
    const db = freshDb();
    const report = await importFiles({ paths: [SAMPLE], open: recordWriterFor(db) });
    assert.deepEqual(report.records, { clinical_trials: STUDIES.length });
    assert.deepEqual(report.problems, []);
    assert.deepEqual(
      query(db, 'SELECT id FROM clinical_trials ORDER BY id').map((r) => r['id']),
      NCT_IDS,
    );
  });

  test('the bulk zip is one input, read whole; its trials are the same', async () => {
    const entries: Record<string, Uint8Array> = { 'README.txt': strToU8('not a study') };
    for (const s of STUDIES) entries[`${nctOf(s).slice(-2)}/${nctOf(s)}.json`] = strToU8(JSON.stringify(s, null, 2));
    const zip = write('ctg-studies.json.zip', zipSync(entries));
    assert.deepEqual(await expandInputs([zip]), [
      { name: zip, file: zip, size: readFileSync(zip).length, format: 'ctgov' },
    ]);
    const fromZip = freshDb();
    const report = await importFiles({ paths: [zip], open: recordWriterFor(fromZip) });
    assert.deepEqual(report.records, { clinical_trials: STUDIES.length });
    assert.deepEqual(
      report.files.map((f) => [f.path, f.format]),
      [[zip, 'ctgov']],
    );
    const fromLines = freshDb();
    await importFiles({ paths: [SAMPLE], open: recordWriterFor(fromLines) });
    const trials = (db: string): unknown => query(db, 'SELECT id, title, phase FROM clinical_trials ORDER BY id');
    assert.deepEqual(trials(fromZip), trials(fromLines));
    assert.deepEqual(tableCounts(fromZip), tableCounts(fromLines));
  });

  test('API pages (one a line, or pretty-printed), the JSON download, a study alone: recognised and read', async () => {
    const files = [
      write(
        'pages.json',
        pages(STUDIES, 100)
          .map((p) => JSON.stringify(p))
          .join('\n') + '\n',
      ),
      write('page.json', JSON.stringify(pages(STUDIES.slice(0, 7), 7)[0], null, 2)),
      write('ctg-studies.json', JSON.stringify(STUDIES.slice(0, 12), null, 2)),
      write('ctg-studies-compact.json', JSON.stringify(STUDIES.slice(0, 12))),
      write('NCT-alone.json', JSON.stringify(STUDIES[0], null, 2)),
    ];
    for (const file of files) assert.equal(await detectFormat(file), 'ctgov', file);
    const report = await importFiles({ paths: files, open: recordWriterFor(freshDb()) });
    assert.deepEqual(
      report.files.map((f) => f.records),
      [STUDIES.length, 7, 12, 12, 1],
    );
  });
});

describe('what cannot be used', () => {
  test('a bad line, and a bad study of a page, each reported where it is', async () => {
    const lines = write(
      'mixed.jsonl',
      [JSON.stringify(STUDIES[0]), '{"protocolSection": ', JSON.stringify(STUDIES[1])].join('\n'),
    );
    const noId = { ...STUDIES[3], protocolSection: { ...STUDIES[3]!['protocolSection'], identificationModule: {} } };
    const page = write('bad-page.json', JSON.stringify({ studies: [STUDIES[2], noId] }));
    const report = await importFiles({ paths: [lines, page], open: recordWriterFor(freshDb()), onError: 'skip' });
    assert.deepEqual(
      report.problems.map((p) => [p.file, p.line]),
      [
        [lines, 2],
        [page, 1],
      ],
    );
    assert.match(report.problems[0]!.message, /not valid JSON/);
    assert.match(report.problems[1]!.message, /^study 2 of the page: /);
    assert.deepEqual(report.records, { clinical_trials: 3 });
  });
});

test(
  'an import killed part-way is completed by --resume to the counts of a clean import',
  { timeout: 120_000 },
  async () => {
    const clean = freshDb();
    await importFiles({ paths: [SAMPLE], open: recordWriterFor(clean) });
    const db = freshDb();
    await importKilled({ db, paths: [SAMPLE], commits: 2, batchSize: 100 });
    assert.equal(count(db, 'clinical_trials'), new Set(STUDIES.slice(0, 200).map(nctOf)).size);
    const resumed = await importFiles({ paths: [], open: recordWriterFor(db), resume: true });
    assert.deepEqual(resumed.records, { clinical_trials: STUDIES.length - 200 });
    assert.deepEqual(tableCounts(db), tableCounts(clean));
  },
);
