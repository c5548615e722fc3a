// The patent dumps through `importFiles`, as published and without --format: the two real
// USPTO weekly grant zips (every grant document they hold, the week's list and report passed
// over), USPTO full-text XML files, and the PatentsView tables (plain, gzip and zipped) read
// together as one input. Expected counts are read from the raw files. A document or row that
// cannot be used is reported at its file and line (or stops the import there), and an import
// killed part-way is completed by --resume to the counts of a clean import, on SQLite; the
// weekly files also go into PostgreSQL.
import assert from 'node:assert/strict';
import { copyFileSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { unzipSync, zipSync } from 'fflate';
import pg from 'pg';
import { recordWriterFor } from '../../../src/backends.ts';
import { detectFormat, expandInputs } from '../../../src/data/import/detect.ts';
import { importFiles, type ImportReport } from '../../../src/data/import/index.ts';
import { unfinishedImports } from '../../../src/store/sqlite/import-journal.ts';
import { openRecordStore } from '../../../src/store/sqlite/records-store.ts';
import { count, query, tempRecordDbs } from '../../data/helpers/record-db.ts';
import { importKilled } from '../../fixtures/import-killed.ts';
import { createTestPgDatabase, type TestPgDatabase } from '../../fixtures/pg-db.ts';

const DATA = fileURLToPath(new URL('../../fixtures/data/patents/', import.meta.url));
const WEEKS = ['ipgb20221025_wk43.zip', 'ipgb20230404_wk14.zip'].map((f) => join(DATA, f));
const FULLTEXT = join(DATA, 'fulltext');
const TABLES = join(DATA, 'patentsview');
const { work, freshDb } = tempRecordDbs('patent-imports');

/** The XML documents of a weekly zip's `.xml` entries, as raw text (read here without the importer). */
function rawDocuments(zip: string): string[] {
  const entries = unzipSync(readFileSync(zip));
  return Object.entries(entries)
    .filter(([name]) => name.endsWith('.xml'))
    .flatMap(([, bytes]) => new TextDecoder().decode(bytes).split(/(?=<\?xml )/))
    .filter((d) => d.trim() !== '');
}

/** A document's publication number and kind, as written. */
const publication = (doc: string): string =>
  /<publication-reference>\s*<document-id>\s*<country>US<\/country>\s*<doc-number>([^<]+)<\/doc-number>\s*<kind>([^<]+)</
    .exec(doc)!
    .slice(1)
    .join('-');

/** The data rows of a PatentsView fixture table. */
const tableRows = (table: string): string[] =>
  readFileSync(join(TABLES, `${table}.tsv`), 'utf8')
    .trim()
    .split('\n')
    .slice(1);

/** Rows of every table of a SQLite record database. */
function tableCounts(db: string): Record<string, number> {
  const store = openRecordStore(db);
  try {
    return store.counts();
  } finally {
    store.close();
  }
}

describe('USPTO weekly grant zips', () => {
  const docs = WEEKS.map(rawDocuments);
  const distinct = new Set(docs.flat().map(publication));

  test('every grant document of the two weeks is written; one published twice is stored once', async () => {
    const db = freshDb();
    const report = await importFiles({ paths: WEEKS, open: recordWriterFor(db) });
    assert.deepEqual(
      docs.map((d) => d.length),
      [11, 3],
    );
    assert.equal(distinct.size, 13);
    assert.deepEqual(report.records, { patents: docs.flat().length });
    assert.deepEqual(report.problems, []);
    // Only the XML entry of each week is read, not its list (lst.txt) nor its report (rpt.html).
    assert.deepEqual(
      report.files.map((f) => [f.path, f.format, f.records]),
      [
        [`${WEEKS[0]}!ipgb20221025.xml`, 'uspto', 11],
        [`${WEEKS[1]}!ipgb20230404.xml`, 'uspto', 3],
      ],
    );
    assert.equal(count(db, 'patents'), distinct.size);
    assert.deepEqual(query(db, "SELECT title FROM patents WHERE id = 'US-11617522-B2'"), [
      { title: 'Sensor inserter with disposal lockout state' },
    ]);
  });

  test('a zip is told by its entries, an .xml file by its first element', async () => {
    const inputs = await expandInputs(WEEKS);
    assert.deepEqual(
      inputs.map((i) => [i.entry, i.format]),
      [
        ['ipgb20221025.xml', 'uspto'],
        ['ipgb20230404.xml', 'uspto'],
      ],
    );
    for (const file of readdirSync(FULLTEXT)) assert.equal(await detectFormat(join(FULLTEXT, file)), 'uspto', file);
    const notPatent = join(work, 'feed.xml');
    writeFileSync(notPatent, '<?xml version="1.0"?>\n<rss version="2.0"><channel/></rss>\n');
    await assert.rejects(detectFormat(notPatent), { code: 'DATA_UNKNOWN_FORMAT' });
  });

  test('full-text files: v4 documents are written, the 2001-2004 generations reported at file:1', async () => {
    const report = await importFiles({ paths: [FULLTEXT], open: recordWriterFor(freshDb()), onError: 'skip' });
    const files = readdirSync(FULLTEXT).sort();
    // Root elements (one file holds a document saved without its declaration).
    const documents = (f: string): number =>
      (readFileSync(join(FULLTEXT, f), 'utf8').match(/<us-patent-(?:grant|application)[\s>]/g) ?? []).length;
    const older = files.filter((f) => /^v[12]-/.test(f));
    assert.equal(older.length, 2);
    assert.deepEqual(report.records, {
      patents: files.filter((f) => !older.includes(f)).reduce((n, f) => n + documents(f), 0),
    });
    assert.deepEqual(
      report.problems.map((p) => [p.file, p.line]),
      older.map((f) => [join(FULLTEXT, f), 1]),
    );
    assert.ok(report.problems.every((p) => / is not read: only the v4 DTDs/.test(p.message)));
  });

  test('a malformed document is reported at the line it starts on, or stops the import there', async () => {
    const [first, second, third] = rawDocuments(WEEKS[1]!) as [string, string, string];
    const broken = second.replace('</us-patent-grant>', '');
    const file = join(work, 'ipg-broken.xml');
    writeFileSync(file, first + broken + third);
    const line = first.split('\n').length;
    const skip = await importFiles({ paths: [file], open: recordWriterFor(freshDb()), onError: 'skip' });
    assert.deepEqual(skip.records, { patents: 2 });
    assert.deepEqual(
      skip.problems.map((p) => [p.file, p.line]),
      [[file, line]],
    );
    assert.match(skip.problems[0]!.message, /not well-formed XML/);
    const db = freshDb();
    await assert.rejects(
      importFiles({ paths: [file], open: recordWriterFor(db) }),
      (err: Error & { code?: string }) => {
        assert.equal(err.code, 'DATA_IMPORT_ABORTED');
        assert.ok(err.message.includes(`${file}:${line} (not well-formed XML`), err.message);
        return true;
      },
    );
    assert.equal(count(db, 'patents'), 1, 'the document before it is committed');
  });

  test(
    'an import killed part-way is completed by --resume to the counts of a clean import',
    { timeout: 120_000 },
    async () => {
      const clean = freshDb();
      await importFiles({ paths: WEEKS, open: recordWriterFor(clean), batchSize: 2 });
      const db = freshDb();
      // Two documents a batch: three batches of the first week are in when it dies.
      await importKilled({ db, paths: WEEKS, commits: 3, batchSize: 2 });
      assert.equal(count(db, 'patents'), new Set(docs[0]!.slice(0, 6).map(publication)).size);
      assert.equal(unfinishedImports(db).length, 1);
      const resumed = await importFiles({ paths: [], open: recordWriterFor(db), resume: true });
      assert.deepEqual(resumed.records, { patents: docs.flat().length - 6 }, 'the documents after the six committed');
      assert.deepEqual(unfinishedImports(db), []);
      assert.deepEqual(tableCounts(db), tableCounts(clean));
    },
  );
});

describe('PatentsView tables', () => {
  const patents = tableRows('g_patent').length;

  test('a folder of tables is one input: every g_patent row is a patent', async () => {
    const db = freshDb();
    const report = await importFiles({ paths: [TABLES], open: recordWriterFor(db) });
    const tables = readdirSync(TABLES).sort();
    assert.equal(tables.length, 12);
    assert.deepEqual(
      report.files.map((f) => [f.path, f.format, f.records]),
      [[`${TABLES}/{${tables.join(',')}}`, 'patentsview', patents]],
    );
    assert.deepEqual(report.records, { patents });
    assert.equal(count(db, 'patents'), patents);
    assert.deepEqual(query(db, "SELECT id FROM patents WHERE id = 'US-99000001-B1'"), [{ id: 'US-99000001-B1' }]);
  });

  test('tables gzipped and zipped as published read as the plain ones, named one by one', async () => {
    const dir = join(work, 'patentsview-packed');
    mkdirSync(dir);
    const table = (name: string): Buffer => readFileSync(join(TABLES, name));
    writeFileSync(join(dir, 'g_patent.tsv.gz'), gzipSync(table('g_patent.tsv')));
    writeFileSync(join(dir, 'g_cpc_current.tsv.zip'), zipSync({ 'g_cpc_current.tsv': table('g_cpc_current.tsv') }));
    for (const f of readdirSync(TABLES).filter((f) => f !== 'g_patent.tsv' && f !== 'g_cpc_current.tsv'))
      copyFileSync(join(TABLES, f), join(dir, f));
    const inputs = await expandInputs([dir]);
    assert.deepEqual(
      inputs.filter((i) => i.entry !== undefined).map((i) => [i.name, i.format]),
      [[`${dir}/g_cpc_current.tsv.zip!g_cpc_current.tsv`, 'patentsview']],
    );
    assert.equal(await detectFormat(join(dir, 'g_patent.tsv.gz')), 'patentsview');
    const packed = freshDb();
    const report = await importFiles({ paths: [dir], open: recordWriterFor(packed) });
    assert.deepEqual(report.records, { patents });
    const plain = freshDb();
    await importFiles({ paths: [TABLES], open: recordWriterFor(plain) });
    const patentsOf = (db: string): unknown => query(db, 'SELECT id, title, date FROM patents ORDER BY id');
    assert.deepEqual(patentsOf(packed), patentsOf(plain));
    assert.deepEqual(tableCounts(packed), tableCounts(plain));
  });

  test('a bad row is reported at its table file and line; a table without a needed column is refused', async () => {
    const dir = join(work, 'patentsview-bad');
    mkdirSync(dir);
    for (const f of readdirSync(TABLES)) copyFileSync(join(TABLES, f), join(dir, f));
    const inventors = join(dir, 'g_inventor_disambiguated.tsv');
    const lines = readFileSync(inventors, 'utf8').trimEnd().split('\n');
    writeFileSync(inventors, [...lines, '""\t"9"\t"x"\t"No"\t"Patent"\t"0"\t""'].join('\n') + '\n');
    const cpc = join(dir, 'g_cpc_current.tsv');
    writeFileSync(cpc, '"patent_id"\t"cpc_sequence"\n"D967598"\t0\n');
    const skip = await importFiles({ paths: [dir], open: recordWriterFor(freshDb()), onError: 'skip' });
    assert.deepEqual(
      skip.problems.map((p) => [p.file, p.line, p.code]),
      [
        [cpc, 1, 'DATA_CSV_MISSING_COLUMN'],
        [inventors, lines.length + 1, undefined],
      ],
    );
    assert.match(skip.problems[1]!.message, /without patent_id/);
    assert.deepEqual(skip.records, { patents });
    const db = freshDb();
    // The staging database goes under TMPDIR, and away when the import stops.
    const staging = join(work, 'staging');
    mkdirSync(staging);
    const tmp = process.env['TMPDIR'];
    process.env['TMPDIR'] = staging;
    try {
      await assert.rejects(importFiles({ paths: [dir], open: recordWriterFor(db) }), {
        code: 'DATA_CSV_MISSING_COLUMN',
        message: new RegExp(`^${cpc}:1: the PatentsView g_cpc_current header has no cpc_group column`),
      });
    } finally {
      if (tmp === undefined) delete process.env['TMPDIR'];
      else process.env['TMPDIR'] = tmp;
    }
    assert.equal(count(db, 'patents'), 0, 'the patents come out after every table is read');
    assert.deepEqual(readdirSync(staging), []);
  });

  test('an import of the tables killed part-way is completed by --resume', { timeout: 120_000 }, async () => {
    const clean = freshDb();
    await importFiles({ paths: [TABLES], open: recordWriterFor(clean) });
    const db = freshDb();
    await importKilled({ db, paths: [TABLES], commits: 1, batchSize: 1 });
    assert.equal(count(db, 'patents'), 1);
    const resumed = await importFiles({ paths: [], open: recordWriterFor(db), resume: true });
    assert.deepEqual(resumed.records, { patents: patents - 1 });
    assert.deepEqual(tableCounts(db), tableCounts(clean));
  });
});

test('read in the reading thread, the weeks and the tables give what they give in this one', async () => {
  for (const paths of [WEEKS, [TABLES]]) {
    const here = freshDb();
    const there = freshDb();
    const a = await importFiles({ paths, open: recordWriterFor(here), readInWorker: false });
    const b = await importFiles({ paths, open: recordWriterFor(there), readInWorker: true });
    assert.deepEqual(b.records, a.records);
    assert.deepEqual(b.files, a.files);
    assert.deepEqual(tableCounts(there), tableCounts(here));
  }
});

describe('USPTO weekly grant zips into PostgreSQL', { timeout: 120_000 }, () => {
  let pgDb: TestPgDatabase;
  before(async () => {
    pgDb = await createTestPgDatabase('uspto_import');
  });
  after(async () => {
    await pgDb?.drop();
  });

  test('every grant document is written, stored once per id, as on SQLite', async () => {
    const report: ImportReport = await importFiles({ paths: WEEKS, open: recordWriterFor(pgDb.url) });
    const docs = WEEKS.map(rawDocuments).flat();
    assert.deepEqual(report.records, { patents: docs.length });
    const client = new pg.Client({ connectionString: pgDb.url });
    await client.connect();
    try {
      const { rows } = await client.query<{ n: string }>('SELECT count(*) AS n FROM patents');
      assert.equal(Number(rows[0]?.n), new Set(docs.map(publication)).size);
      const sqlite = freshDb();
      await importFiles({ paths: WEEKS, open: recordWriterFor(sqlite) });
      const ids = await client.query<{ id: string; title: string }>(
        'SELECT id, title FROM patents ORDER BY id COLLATE "C"',
      );
      assert.deepEqual(ids.rows, query(sqlite, 'SELECT id, title FROM patents ORDER BY id'));
    } finally {
      await client.end();
    }
  });
});
