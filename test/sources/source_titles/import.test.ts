// The three open title lists import as source titles, each recognised without --format:
// OpenAlex sources (the real 254 embedded source objects), DOAJ's journal CSV (9 real rows)
// and Crossref's title list (20 real rows). Counts and values are checked against the
// samples of test/fixtures/data/source_titles/ (their README says where they come from).
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { recordWriterFor } from '../../../src/backends.ts';
import { detectFormat } from '../../../src/data/import/detect.ts';
import { importFiles } from '../../../src/data/import/index.ts';
import { count, one, query, tempRecordDbs, type Row } from '../../data/helpers/record-db.ts';

const DATA = fileURLToPath(new URL('../../fixtures/data/source_titles/', import.meta.url));
const OPENALEX = join(DATA, 'openalex_sources_dehydrated.jsonl');
const DOAJ = join(DATA, 'doaj_journalcsv_sample.csv');
const CROSSREF = join(DATA, 'crossref_titleFile_sample.csv');
const { work, freshDb } = tempRecordDbs('source-titles-import');

const OPENALEX_SOURCES = readFileSync(OPENALEX, 'utf8')
  .trim()
  .split('\n')
  .map((line) => JSON.parse(line) as Row);

/** The values of one field of a title's `source_title_values` (issn is code 1, journal_lists 5), sorted. */
const values = (db: string, id: string, code: string): unknown[] =>
  query(
    db,
    'SELECT v.value FROM source_title_values v JOIN source_titles s ON s.pk = v.source_title_pk WHERE s.id = ? AND v.field = ? ORDER BY v.value',
    id,
    code,
  ).map((r) => r['value']);

async function imported(path: string): Promise<{ db: string; records: number | undefined }> {
  const db = freshDb();
  const report = await importFiles({ paths: [path], open: recordWriterFor(db) });
  assert.deepEqual(report.problems ?? [], []);
  return { db, records: report.records.source_titles };
}

describe('formats are recognised by their content', () => {
  test('OpenAlex sources, DOAJ CSV, Crossref title list', async () => {
    assert.equal(await detectFormat(OPENALEX), 'openalex');
    assert.equal(await detectFormat(DOAJ), 'doaj');
    assert.equal(await detectFormat(CROSSREF), 'crossref-titles');
  });
});

describe('OpenAlex sources', () => {
  test('254 sources, each with its type mapped, ISSNs, lists and publisher', async () => {
    const { db, records } = await imported(OPENALEX);
    assert.equal(records, 254);
    assert.equal(count(db, 'source_titles'), 254);
    // Types: journal 143, conference 7, book series 6, repository 80 as preprint platforms;
    // the 18 ebook platforms have no type of the schema.
    const types = Object.fromEntries(
      query(db, "SELECT coalesce(type, 'none') AS t, COUNT(*) AS n FROM source_titles GROUP BY 1").map((r) => [
        r['t'],
        r['n'],
      ]),
    );
    const expected = (type: string): number => OPENALEX_SOURCES.filter((s) => s['type'] === type).length;
    assert.deepEqual(types, {
      journal: expected('journal'),
      proceeding: expected('conference'),
      book_series: expected('book series'),
      preprint_platform: expected('repository'),
      none: expected('ebook platform'),
    });
    assert.deepEqual([expected('journal'), expected('repository')], [143, 80]);
    const lingua = OPENALEX_SOURCES.find((s) => s['display_name'] === 'Lingua')!;
    assert.deepEqual(one(db, 'SELECT id, title, type, publisher FROM source_titles WHERE id = ?', 'S105737376'), {
      id: 'S105737376',
      title: 'Lingua',
      type: 'journal',
      publisher: lingua['host_organization_name'],
    });
    assert.deepEqual(values(db, 'S105737376', '1'), ['0024-3841', '1872-6135']);
    assert.deepEqual(values(db, 'S105737376', '5'), ['CWTS core']);
    const inDoaj = OPENALEX_SOURCES.filter((s) => s['is_in_doaj'] === true).length;
    assert.ok(inDoaj > 0);
    assert.equal(
      one(db, "SELECT COUNT(*) AS n FROM source_title_values WHERE field = '5' AND value = 'DOAJ'")!['n'],
      inDoaj,
    );
  });
});

describe('DOAJ journal CSV', () => {
  test('9 journals in the DOAJ list, with ISSNs, link, publisher and open-licence start year', async () => {
    const { db, records } = await imported(DOAJ);
    assert.equal(records, 9);
    assert.equal(count(db, 'source_titles'), 9);
    assert.equal(
      one(
        db,
        "SELECT COUNT(DISTINCT source_title_pk) AS n FROM source_title_values WHERE field = '5' AND value = 'DOAJ'",
      )!['n'],
      9,
    );
    const id = 'doaj:0e8e2531ae3f455ebb49acb08191cf78';
    assert.deepEqual(
      one(
        db,
        'SELECT title, type, issn_print, issn_electronic, linkout, start_year, publisher, sjr, snip FROM source_titles WHERE id = ?',
        id,
      ),
      {
        title: 'Acta Mycologica',
        type: 'journal',
        issn_print: '0001-625X',
        issn_electronic: '2353-074X',
        linkout: 'https://pbsociety.org.pl/journals/index.php/am/index',
        start_year: 1965,
        publisher: 'Polish Botanical Society',
        sjr: null,
        snip: null,
      },
    );
    // Awarded the DOAJ Seal: both lists.
    assert.deepEqual(values(db, id, '5'), ['DOAJ', 'DOAJ Seal']);
    assert.deepEqual(values(db, id, '1'), ['0001-625X', '2353-074X']);
  });
});

describe('Crossref title list', () => {
  test('20 titles, ISSNs written alike, the title DOI as link, the earliest coverage year', async () => {
    const { db, records } = await imported(CROSSREF);
    assert.equal(records, 20);
    assert.equal(count(db, 'source_titles'), 20);
    assert.deepEqual(
      one(
        db,
        'SELECT title, issn_print, issn_electronic, linkout, start_year FROM source_titles WHERE id = ?',
        'crossref:296095',
      ),
      {
        title: 'Arterial’naya Gipertenziya (Arterial Hypertension)',
        issn_print: '1607-419X',
        issn_electronic: '2411-8524',
        linkout: null,
        start_year: 2003,
      },
    );
    // Additional ISSNs join the list; a title without any has none.
    assert.deepEqual(values(db, 'crossref:50200', '1'), ['0044-3379', '0301-0988', '0303-8408', '1420-911X']);
    assert.equal(one(db, 'SELECT start_year FROM source_titles WHERE id = ?', 'crossref:50200')!['start_year'], 1956);
    assert.deepEqual(values(db, 'crossref:461630', '1'), []);
    assert.equal(
      one(db, 'SELECT linkout FROM source_titles WHERE id = ?', 'crossref:378722')!['linkout'],
      'https://doi.org/10.36801/apme',
    );
  });

  test('a title list without its JournalID column is refused whole, with a coded error', async () => {
    const bad = join(work, 'titleFile.csv');
    writeFileSync(bad, '"JournalTitle","Publisher","pissn","eissn"\n"A","B","12345679",""\n');
    await assert.rejects(
      importFiles({ paths: [bad], open: recordWriterFor(freshDb()), format: 'crossref-titles' }),
      (err: unknown) => (err as { code?: string }).code === 'DATA_CSV_MISSING_COLUMN',
    );
  });
});

describe('title metrics a user supplies', () => {
  const METRICS = [
    'issn,year,sjr,snip,source',
    // Acta Mycologica by its print ISSN, then a later year by its electronic one (that wins).
    '0001-625X,2021,0.301,0.552,licensed export',
    '2353074x,2022,0.334,0.61,licensed export',
    // ACME: a year without SNIP.
    '0001-494X,2023,0.112,,licensed export',
    // No journal of the list has this ISSN.
    '1234-5679,2023,5.5,2.1,licensed export',
    'not-an-issn,2023,1,1,licensed export',
    '0001-3765,2023,"0,5",1,licensed export',
  ].join('\n');

  test('are recognised, kept by ISSN and year, and give each title the latest values of its ISSNs', async () => {
    const metrics = join(work, 'metrics.csv');
    writeFileSync(metrics, `${METRICS}\n`);
    assert.equal(await detectFormat(metrics), 'title-metrics');
    const db = freshDb();
    await importFiles({ paths: [DOAJ], open: recordWriterFor(db) });
    const report = await importFiles({ paths: [metrics], open: recordWriterFor(db), onError: 'skip' });
    assert.equal(report.records.title_metrics, 4);
    // The two rows that cannot be used, at their lines, with why.
    assert.deepEqual(
      report.problems.map((p) => [p.line, /not an ISSN|decimal point/.test(p.message)]),
      [
        [6, true],
        [7, true],
      ],
    );
    const metricsOf = (id: string): Row | undefined => one(db, 'SELECT sjr, snip FROM source_titles WHERE id = ?', id);
    assert.deepEqual(metricsOf('doaj:0e8e2531ae3f455ebb49acb08191cf78'), { sjr: 0.334, snip: 0.61 });
    assert.deepEqual(metricsOf('doaj:b1ca04ba56194f29a362b3eeff428f91'), { sjr: 0.112, snip: null });
    // A journal no row names keeps none.
    assert.deepEqual(metricsOf('doaj:ed09859a464f4461b1af34279d17f7a8'), { sjr: null, snip: null });
    // Imported again, the journals get their metrics back when the import finishes.
    await importFiles({ paths: [DOAJ], open: recordWriterFor(db) });
    assert.deepEqual(metricsOf('doaj:0e8e2531ae3f455ebb49acb08191cf78'), { sjr: 0.334, snip: 0.61 });
  });
});
