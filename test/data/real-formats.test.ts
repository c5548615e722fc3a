// Real open-data dumps, laid out as published, import without --format: the OpenAlex
// snapshot (partitions, manifest, merged ids, a newer partition), the ROR data dump zip,
// ANZSRC FoR 2020, NIH RePORTER award actions and ExPORTER projects with abstracts, and
// Crossref works. Expected counts and values are read from the fixture files themselves.
// Bad input (truncated gzip, a CSV without a needed column, an empty file, a zip with
// nothing Quarry reads) is refused with file:line and a code, keeping what was imported.
import assert from 'node:assert/strict';
import { cpSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { gunzipSync, gzipSync } from 'node:zlib';
import { strToU8, zipSync } from 'fflate';
import { detectFormat } from '../../src/data/import/detect.ts';
import { valueFieldCode } from '../../src/model/storage.ts';
import { importFiles } from '../../src/data/import/index.ts';
import { count, query, tempRecordDbs, type Row } from './helpers/record-db.ts';
import { recordWriterFor } from '../../src/backends.ts';

const DATA = fileURLToPath(new URL('../fixtures/data/', import.meta.url));
const SNAPSHOT = join(DATA, 'openalex-snapshot');
const WORKS = join(SNAPSHOT, 'data/works');
const { work, freshDb } = tempRecordDbs('real-formats');

/** The raw works of every snapshot partition, oldest partition first. */
function snapshotWorks(dir = WORKS): Row[] {
  return readdirSync(dir)
    .filter((d) => d.startsWith('updated_date='))
    .sort()
    .flatMap((d) =>
      gunzipSync(readFileSync(join(dir, d, 'part_000.gz')))
        .toString('utf8')
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l) as Row),
    );
}
const shortId = (id: unknown): string => String(id).replace('https://openalex.org/', '');

describe('OpenAlex snapshot', () => {
  const works = snapshotWorks();
  const manifest = JSON.parse(readFileSync(join(WORKS, 'manifest'), 'utf8')) as { meta: { record_count: number } };

  test('a snapshot folder imports every partition; counts match the manifest and the files', async () => {
    const db = freshDb();
    const report = await importFiles({ paths: [SNAPSHOT], open: recordWriterFor(db) });
    assert.equal(works.length, manifest.meta.record_count);
    // A work typed report is a report (the one here names no publisher: not a policy document).
    const reportWorks = works.filter((w) => w['type'] === 'report');
    assert.equal(reportWorks.length, 1);
    const papers = works.filter((w) => w['type'] !== 'report');
    assert.equal(report.records.publications, papers.length);
    assert.equal(report.records['reports'], reportWorks.length);
    assert.deepEqual(report.problems, []);
    assert.ok(report.files.every((f) => f.format === 'openalex' && /updated_date=.*part_000\.gz$/.test(f.path)));
    assert.equal(count(db, 'publications'), new Set(papers.map((w) => shortId(w['id']))).size);
    assert.equal(count(db, 'reports'), reportWorks.length);
    const first = papers[0]!;
    const [row] = query(db, 'SELECT title, year FROM publications WHERE id = ?', shortId(first['id']));
    assert.deepEqual(row, { title: first['title'], year: first['publication_year'] });
    // Every identified author of every work is linked to its publication.
    const authorships = papers.reduce(
      (n, w) => n + new Set((w['authorships'] as Row[]).map((a) => (a['author'] as Row)['id']).filter((id) => id)).size,
      0,
    );
    assert.equal(count(db, 'publication_researchers'), authorships);
    // Authors keep the affiliation strings as printed (raw_affiliation), where the work has them.
    const printed = papers.find((w) =>
      (w['authorships'] as Row[]).some(
        (a) => ((a['raw_affiliation_strings'] as string[] | undefined) ?? []).length > 0,
      ),
    );
    if (printed !== undefined) {
      const [doc] = query(db, 'SELECT unpack_text(doc) AS doc FROM publications WHERE id = ?', shortId(printed['id']));
      const authors = (JSON.parse(String(doc?.['doc'])) as { authors: Array<{ raw_affiliation?: string[] }> }).authors;
      const expected = (printed['authorships'] as Row[]).map((a) =>
        ((a['raw_affiliation_strings'] as string[] | undefined) ?? []).map((x) => x.trim()).filter(Boolean),
      );
      assert.deepEqual(
        authors.map((a) => a.raw_affiliation ?? []),
        expected,
      );
    }
  });

  test('a single partition file is recognised without --format', async () => {
    const part = join(
      WORKS,
      readdirSync(WORKS)
        .filter((d) => d.startsWith('updated_date='))
        .sort()[0]!,
      'part_000.gz',
    );
    assert.equal(await detectFormat(part), 'openalex');
  });

  test('a newer partition updates records in place; merged ids remove the old work and its links', async () => {
    const copy = join(work, 'snapshot-update');
    cpSync(SNAPSHOT, copy, { recursive: true });
    const db = freshDb();
    await importFiles({ paths: [copy], open: recordWriterFor(db) });
    const before = count(db, 'publications');
    const [changed, merged, into] = [works[0]!, works[1]!, works[2]!];
    // A later snapshot: a partition with a newer version of one work, and a merged-ids file.
    const newer = join(copy, 'data/works/updated_date=2099-01-01');
    mkdirSync(newer);
    writeFileSync(
      join(newer, 'part_000.gz'),
      gzipSync(JSON.stringify({ ...changed, title: 'A corrected title', updated_date: '2099-01-01' }) + '\n'),
    );
    const mergedDir = join(copy, 'data/merged_ids/works');
    mkdirSync(mergedDir, { recursive: true });
    writeFileSync(
      join(mergedDir, '2099-01-01.csv.gz'),
      gzipSync(`merge_date,id,merge_into_id\n2099-01-01,${shortId(merged['id'])},${shortId(into['id'])}\n`),
    );
    const report = await importFiles({ paths: [copy], open: recordWriterFor(db) });
    assert.deepEqual(report.removed, { publications: 1 });
    assert.equal(count(db, 'publications'), before - 1);
    assert.deepEqual(query(db, 'SELECT title FROM publications WHERE id = ?', shortId(changed['id'])), [
      { title: 'A corrected title' },
    ]);
    assert.deepEqual(query(db, 'SELECT id FROM publications WHERE id = ?', shortId(merged['id'])), []);
    assert.deepEqual(query(db, 'SELECT id FROM publications WHERE id = ?', shortId(into['id'])), [
      { id: shortId(into['id']) },
    ]);
    // No link row points at a publication that is gone.
    assert.equal(
      query(
        db,
        'SELECT COUNT(*) AS n FROM publication_researchers l LEFT JOIN publications p ON p.pk = l.publication_pk WHERE p.pk IS NULL',
      )[0]!['n'],
      0,
    );
  });

  test('a partition whose record count differs from the manifest is reported', async () => {
    const copy = join(work, 'snapshot-manifest');
    cpSync(SNAPSHOT, copy, { recursive: true });
    const file = join(copy, 'data/works/manifest');
    const m = JSON.parse(readFileSync(file, 'utf8')) as { entries: { meta: { record_count: number } }[] };
    m.entries[0]!.meta.record_count += 5;
    writeFileSync(file, JSON.stringify(m));
    const report = await importFiles({ paths: [copy], open: recordWriterFor(freshDb()) });
    assert.equal(report.problems.length, 1);
    assert.match(report.problems[0]!.message, /manifest lists \d+ records for this partition; \d+ were read/);
  });
});

describe('ROR data dump (zip of JSON, schema 2)', () => {
  const zip = join(DATA, 'ror/v1.55-2024-10-31-ror-data.zip');
  const records = JSON.parse(readFileSync(join(DATA, 'ror/ror_v2_sample.json'), 'utf8')) as Row[];

  test('the zip imports its schema-2 JSON: every record, with names and places', async () => {
    const db = freshDb();
    const report = await importFiles({ paths: [zip], open: recordWriterFor(db) });
    assert.equal(report.records.organizations, records.length);
    assert.equal(report.files[0]!.path, `${zip}!v1.55-2024-10-31-ror-data_schema_v2.json`);
    assert.equal(count(db, 'organizations'), records.length);
    const first = records[0]!;
    const display = (first['names'] as Row[]).find((n) => (n['types'] as string[]).includes('ror_display'))!;
    assert.deepEqual(query(db, 'SELECT name FROM organizations WHERE id = ?', first['id']), [
      { name: display['value'] },
    ]);
    // ROR's lower-case types are stored as the hosted service writes them (`Education`).
    const types = query(
      db,
      `SELECT DISTINCT value FROM organization_values WHERE field = '${valueFieldCode('types')}' ORDER BY 1`,
    );
    assert.ok(types.length > 0);
    const expected = [...new Set(records.flatMap((r) => r['types'] as string[]))]
      .map((t) => t.charAt(0).toUpperCase() + t.slice(1))
      .sort();
    assert.deepEqual(
      types.map((t) => t['value']),
      expected,
    );
  });

  test('a zip with nothing Quarry reads, and a file that is not a zip, are refused with a code', async () => {
    const empty = join(work, 'nothing.zip');
    writeFileSync(empty, zipSync({ 'README.txt': strToU8('no data here') }));
    await assert.rejects(
      importFiles({ paths: [empty], open: recordWriterFor(freshDb()) }),
      (e: Error & { code?: string }) => {
        assert.equal(e.code, 'DATA_ZIP_NOTHING_READABLE');
        assert.match(e.message, /README\.txt/);
        return true;
      },
    );
    const fake = join(work, 'fake.zip');
    writeFileSync(fake, 'not a zip');
    await assert.rejects(importFiles({ paths: [fake], open: recordWriterFor(freshDb()) }), {
      code: 'DATA_ZIP_UNREADABLE',
    });
  });
});

describe('ANZSRC FoR 2020 codes', () => {
  test('every code of the list becomes a category of scheme for', async () => {
    const csv = join(DATA, 'anzsrc_for_2020/for2020_codes.csv');
    const rows = readFileSync(csv, 'utf8').trim().split('\n').length - 1;
    const db = freshDb();
    const report = await importFiles({ paths: [csv], open: recordWriterFor(db) });
    assert.equal(report.files[0]!.format, 'anzsrc');
    assert.equal(report.records.categories, rows);
    assert.equal(count(db, 'categories'), rows);
    assert.deepEqual(query(db, "SELECT name FROM categories WHERE id IN ('46', '4611') ORDER BY id"), [
      { name: '46 Information and Computing Sciences' },
      { name: '4611 Machine learning' },
    ]);
  });
});

describe('NIH RePORTER and ExPORTER', () => {
  test('award actions: one grant per project number, amounts as published', async () => {
    const csv = join(DATA, 'nih_reporter/nih_awards.csv');
    const lines = readFileSync(csv, 'utf8').trim().split('\n').slice(1);
    const projects = new Map(lines.map((l) => [l.split(',')[1]!, l.split(',')[2]!]));
    const db = freshDb();
    const report = await importFiles({ paths: [csv], open: recordWriterFor(db) });
    assert.equal(report.records.grants, lines.length);
    assert.equal(count(db, 'grants'), projects.size);
    const [project, amount] = [...projects][0]!;
    assert.deepEqual(query(db, 'SELECT funding_usd FROM grants WHERE id = ?', `nih.${project}`), [
      { funding_usd: Number(amount) },
    ]);
  });

  // No ExPORTER file is among the real samples: these rows use the published column names
  // with values of the real award actions above.
  const HEADER =
    'APPLICATION_ID,ACTIVITY,ADMINISTERING_IC,APPLICATION_TYPE,ARRA_FUNDED,AWARD_NOTICE_DATE,BUDGET_START,BUDGET_END,CFDA_CODE,CORE_PROJECT_NUM,ED_INST_TYPE,FOA_NUMBER,FULL_PROJECT_NUM,FUNDING_ICs,FUNDING_MECHANISM,FY,IC_NAME,NIH_SPENDING_CATS,ORG_CITY,ORG_COUNTRY,ORG_DEPT,ORG_DISTRICT,ORG_DUNS,ORG_FIPS,ORG_IPF_CODE,ORG_NAME,ORG_STATE,ORG_ZIPCODE,PHR,PI_IDS,PI_NAMEs,PROGRAM_OFFICER_NAME,PROJECT_START,PROJECT_END,PROJECT_TERMS,PROJECT_TITLE,SERIAL_NUMBER,STUDY_SECTION,STUDY_SECTION_NAME,SUBPROJECT_ID,SUFFIX,SUPPORT_YEAR,DIRECT_COST_AMT,INDIRECT_COST_AMT,TOTAL_COST,TOTAL_COST_SUB_PROJECT';
  const ROW = [
    '10300001,R01,AI,5,N,11/1/2021,11/1/2021,10/31/2022,93.855,R01AI130470,SCHOOLS OF MEDICINE,PA-16-160,5R01AI130470-05,NIAID:396250,Non-SBIR/STTR RPGs,2022,NATIONAL INSTITUTE OF ALLERGY AND INFECTIOUS DISEASES,,BOSTON,UNITED STATES,,07,,,,EXAMPLE UNIVERSITY,MA,02115,,1234567 (contact),"DOE, JANE (contact); ROE, RICHARD",,6/1/2017,10/31/2022,Bacterial Infections; Host factors; Bacterial Infections,Host factors in bacterial infection,130470,,,,,5,250000,146250,396250,',
    '10300002,R25,CA,5,N,11/1/2021,12/1/2021,11/30/2022,93.398,R25CA214255,,PAR-16-000,5R25CA214255-05,NCI:117558,Other Research-Related,2022,NATIONAL CANCER INSTITUTE,,DENVER,UNITED STATES,,01,,,,EXAMPLE INSTITUTE,CO,80045,,7654321 (contact),"POE, ANA (contact)",,12/1/2017,11/30/2022,,Cancer research education program,214255,,,,,5,110000,7558,117558,',
  ];

  test('ExPORTER projects with their abstracts file become grants with titles, abstracts and PIs', async () => {
    const dir = join(work, 'exporter');
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, 'RePORTER_PRJ_C_FY2022.csv'), [HEADER, ...ROW].join('\r\n') + '\r\n');
    writeFileSync(
      join(dir, 'RePORTER_PRJABS_C_FY2022.csv'),
      'APPLICATION_ID,ABSTRACT_TEXT\r\n10300001,"Bacteria exploit host factors; this project maps them."\r\n',
    );
    const db = freshDb();
    const report = await importFiles({ paths: [dir], open: recordWriterFor(db) });
    assert.deepEqual(
      report.files.map((f) => f.format),
      ['nih', 'nih'],
    );
    assert.equal(report.records.grants, 2);
    const rows = query(
      db,
      "SELECT g.id, g.title, unpack_text(a.abstract) AS abstract, g.funding_usd, g.start_year FROM grants g LEFT JOIN grant_abstracts a ON a.pk = g.pk WHERE g.id LIKE 'nih.%' ORDER BY g.id",
    );
    assert.deepEqual(rows, [
      {
        id: 'nih.5R01AI130470-05',
        title: 'Host factors in bacterial infection',
        abstract: 'Bacteria exploit host factors; this project maps them.',
        funding_usd: 396250,
        start_year: 2021,
      },
      {
        id: 'nih.5R25CA214255-05',
        title: 'Cancer research education program',
        abstract: null,
        funding_usd: 117558,
        start_year: 2021,
      },
    ]);
    const pis = query(
      db,
      "SELECT unpack_text(doc) ->> '$.investigators' AS pis FROM grants WHERE id = 'nih.5R01AI130470-05'",
    )[0]!;
    assert.deepEqual(
      (JSON.parse(pis['pis'] as string) as { first_name: string; last_name: string; role: string }[]).map(
        (p) => `${p.role} ${p.first_name} ${p.last_name}`,
      ),
      ['PI JANE DOE', 'PI RICHARD ROE'],
    );
    // PROJECT_TERMS are the keywords (once each); ACTIVITY and FUNDING_MECHANISM the funding schemes.
    const doc = JSON.parse(
      String(query(db, "SELECT unpack_text(doc) AS doc FROM grants WHERE id = 'nih.5R01AI130470-05'")[0]!['doc']),
    ) as {
      keywords?: string[];
      funding_schemes?: string[];
    };
    assert.deepEqual(doc.keywords, ['Bacterial Infections', 'Host factors']);
    assert.deepEqual(doc.funding_schemes, ['R01', 'Non-SBIR/STTR RPGs']);
  });

  test('an ExPORTER file without a needed column is refused at file:1 with the column named', async () => {
    const csv = join(work, 'RePORTER_PRJ_C_FY2021.csv');
    writeFileSync(csv, [HEADER.replace('FULL_PROJECT_NUM,', ''), ROW[0]!.replace('5R01AI130470-05,', '')].join('\n'));
    await assert.rejects(
      importFiles({ paths: [csv], open: recordWriterFor(freshDb()) }),
      (e: Error & { code?: string }) => {
        assert.equal(e.code, 'DATA_CSV_MISSING_COLUMN');
        assert.ok(e.message.startsWith(`${csv}:1: the NIH projects header has no FULL_PROJECT_NUM column`), e.message);
        return true;
      },
    );
  });
});

describe('Crossref works', () => {
  test('JSON lines of work messages: one publication per DOI', async () => {
    const file = join(DATA, 'crossref/works.jsonl');
    const lines = readFileSync(file, 'utf8').trim().split('\n');
    const first = JSON.parse(lines[0]!) as { DOI: string; title: string[] };
    const db = freshDb();
    const report = await importFiles({ paths: [file], open: recordWriterFor(db) });
    assert.equal(report.files[0]!.format, 'crossref');
    assert.equal(report.records.publications, lines.length);
    assert.deepEqual(query(db, 'SELECT title FROM publications WHERE id = ?', `doi:${first.DOI.toLowerCase()}`), [
      { title: first.title[0] },
    ]);
    // Deposited affiliation names are the authors' raw affiliations too.
    const withAff = lines
      .map((l) => JSON.parse(l) as { DOI: string; author?: Array<{ affiliation?: Array<{ name?: string }> }> })
      .find((w) => (w.author ?? []).some((a) => (a.affiliation ?? []).length > 0));
    assert.ok(withAff !== undefined);
    const [doc] = query(
      db,
      'SELECT unpack_text(doc) AS doc FROM publications WHERE id = ?',
      `doi:${withAff.DOI.toLowerCase()}`,
    );
    const authors = (
      JSON.parse(String(doc?.['doc'])) as {
        authors: Array<{ raw_affiliation?: string[]; affiliations: Array<{ raw_affiliation?: string }> }>;
      }
    ).authors;
    assert.deepEqual(
      authors.map((a) => a.raw_affiliation ?? []),
      (withAff.author ?? []).map((a) => (a.affiliation ?? []).flatMap((f) => (f.name === undefined ? [] : [f.name]))),
    );
    assert.ok(authors.every((a) => a.affiliations.every((f) => typeof f.raw_affiliation === 'string')));
  });
});

describe('bad input', () => {
  test('a truncated gzip stops at file:line with a code; the records before it stay imported', async () => {
    const all = gzipSync(
      snapshotWorks()
        .map((w) => JSON.stringify(w))
        .join('\n') + '\n',
    );
    const cut = join(work, 'cut', 'part_000.gz');
    mkdirSync(join(work, 'cut'));
    writeFileSync(cut, all.subarray(0, Math.floor(all.length * 0.6)));
    const db = freshDb();
    await assert.rejects(
      importFiles({ paths: [cut], open: recordWriterFor(db), batchSize: 5 }),
      (e: Error & { code?: string }) => {
        assert.equal(e.code, 'DATA_FILE_TRUNCATED');
        assert.match(e.message, new RegExp(`^${cut}:\\d+: the compressed data ends early`));
        return true;
      },
    );
    const kept = count(db, 'publications');
    assert.ok(kept > 0 && kept < snapshotWorks().length, `${kept} records kept`);
  });

  test('an empty file is refused with its code, or noted and skipped with --on-error skip', async () => {
    const empty = join(work, 'empty', 'works.jsonl');
    mkdirSync(join(work, 'empty'));
    writeFileSync(empty, '\n\n');
    await assert.rejects(importFiles({ paths: [empty], open: recordWriterFor(freshDb()) }), {
      code: 'DATA_FILE_EMPTY',
    });
    const report = await importFiles({
      paths: [empty, join(DATA, 'crossref/works.jsonl')],
      open: recordWriterFor(freshDb()),
      onError: 'skip',
    });
    assert.deepEqual(
      report.problems.map((p) => [p.file, p.line, p.code]),
      [[empty, 1, 'DATA_FILE_EMPTY']],
    );
    assert.ok((report.records.publications ?? 0) > 0);
  });

  test('a CSV whose header names no known layout is an unknown format', async () => {
    const csv = join(work, 'other.csv');
    writeFileSync(csv, 'a,b,c\n1,2,3\n');
    await assert.rejects(detectFormat(csv), { code: 'DATA_UNKNOWN_FORMAT' });
  });
});
