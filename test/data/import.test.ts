import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import Database from 'better-sqlite3';
import { importFiles } from '../../src/data/import/index.ts';
import { detectFormat, expandPaths } from '../../src/data/import/detect.ts';
import { crossrefToPublication } from '../../src/data/import/formats/crossref.ts';
import { nihToGrant } from '../../src/data/import/formats/nih.ts';
import { OpenAlexReader } from '../../src/data/import/formats/openalex.ts';
import { rorToOrganization } from '../../src/data/import/formats/ror.ts';
import { CsvLineReader, parseCsvLine } from '../../src/data/csv.ts';
import { fileURLToPath } from 'node:url';
import { openRecordStore } from '../../src/store/sqlite/records-store.ts';
import type { ReportRecord } from '../../src/sources/reports/native.ts';
import { demoDataDir } from '../fixtures/demo-db.ts';
import { readFileSync } from 'node:fs';
import { recordWriterFor } from '../../src/backends.ts';

// Small real samples of each format, cut from the open data by scripts/vendor-data.ts.
const DATA = fileURLToPath(new URL('../fixtures/data/', import.meta.url));
const work = mkdtempSync(join(tmpdir(), 'quarry-import-test-'));
after(() => rmSync(work, { recursive: true, force: true }));

function rows(db: string, sql: string): Record<string, unknown>[] {
  const conn = new Database(db, { readonly: true });
  try {
    return conn.prepare(sql).all() as Record<string, unknown>[];
  } finally {
    conn.close();
  }
}

function counts(db: string): Record<string, number> {
  const store = openRecordStore(db);
  try {
    return store.counts();
  } finally {
    store.close();
  }
}

describe('readers map the real samples', () => {
  test('an OpenAlex flat work typed report becomes a report with the work’s fields', () => {
    const flat = readFileSync(join(DATA, 'openalex/works_flat.jsonl'), 'utf8').split('\n')[0]!;
    assert.equal((JSON.parse(flat) as { type: string }).type, 'report');
    const [mapped] = new OpenAlexReader().map(flat);
    const pub = (mapped as { record: ReportRecord }).record;
    // Its publisher is unknown (the work names no source): a report, not a policy document.
    assert.equal(mapped!.kind, 'reports');
    assert.equal(pub.id, 'W100927044');
    assert.equal(pub.title, 'Financing Biodiversity Conservation');
    assert.equal(pub.year, 2000);
    assert.equal(pub.doi, '10.18235/0008810');
    assert.equal(pub.authors[0]!.first_name, 'Ricardo');
    assert.equal(pub.authors[0]!.last_name, 'Bayón');
    assert.equal(pub.authors[0]!.researcher_id, 'A5063410350');
    assert.deepEqual(pub.authors[0]!.affiliations[0], {
      id: 'https://ror.org/02gjn4306',
      name: 'Inter-American Development Bank',
      country_code: 'US',
    });
    assert.ok(pub.research_orgs.includes('https://ror.org/02gjn4306'));
    assert.ok((pub.abstract ?? '').startsWith('Financing the conservation'));
  });

  test('a ROR record becomes an organization keyed by its ROR URL', () => {
    const sample = JSON.parse(readFileSync(join(DATA, 'ror/ror_v2_sample.json'), 'utf8')) as Record<string, unknown>[];
    const org = rorToOrganization(sample[0]!);
    assert.match(org.id, /^https:\/\/ror\.org\//);
    assert.deepEqual(org.ror_ids, [org.id]);
    assert.ok(org.name.length > 0);
    assert.ok(org.types.length > 0);
    assert.match(org.country_code ?? '', /^[A-Z]{2}$/);
  });

  test('a Crossref work becomes a publication keyed by its DOI', () => {
    const first = JSON.parse(readFileSync(join(DATA, 'crossref/works.jsonl'), 'utf8').split('\n')[0]!) as Record<
      string,
      unknown
    >;
    const pub = crossrefToPublication(first);
    assert.equal(pub.id, 'doi:10.1001/jama.2025.0548');
    assert.equal(pub.year, 2025);
    assert.equal(pub.date, '2025-02-28');
    assert.equal(pub.type, 'article');
    assert.deepEqual(pub.issn, ['0098-7484']);
    assert.equal(pub.authors[0]!.last_name, 'Anderer');
    assert.equal(pub.journal_title_raw, 'JAMA');
  });

  test('an NIH award row becomes a grant', () => {
    const g = nihToGrant({
      award_date: '2021-11-01',
      project_number: '5R01AI130470-05',
      award_amount: '396250',
      award_type: '5',
    });
    assert.equal(g.id, 'nih.5R01AI130470-05');
    assert.equal(g.funding_usd, 396250);
    assert.equal(g.start_year, 2021);
    assert.equal(g.grant_number, '5R01AI130470-05');
    assert.ok(g.title.includes('R01'));
  });

  test('format detection', async () => {
    assert.equal(await detectFormat(join(DATA, 'openalex/works_flat.jsonl')), 'openalex');
    assert.equal(await detectFormat(join(DATA, 'openalex/works.jsonl.gz')), 'openalex');
    assert.equal(await detectFormat(join(DATA, 'crossref/works.jsonl')), 'crossref');
    assert.equal(await detectFormat(join(DATA, 'ror/ror_v2_sample.json')), 'ror');
    assert.equal(await detectFormat(join(DATA, 'ror/ror_v2_latest.jsonl.gz')), 'ror');
    assert.equal(await detectFormat(join(DATA, 'nih_reporter/nih_awards.csv')), 'nih');
    const odd = join(work, 'odd.jsonl');
    writeFileSync(odd, '{"hello": 1}\n');
    await assert.rejects(detectFormat(odd), (error: Error & { code?: string }) => {
      assert.equal(error.code, 'DATA_UNKNOWN_FORMAT');
      assert.match(error.message, /--format \(one of quarry, openalex, .*crossref-titles/);
      return true;
    });
    assert.throws(() => expandPaths([join(work, 'missing')]), { code: 'DATA_FILE_NOT_FOUND' });
  });

  test('a folder with no file any format reads is an error naming --format, not an empty import', () => {
    const empty = join(work, 'empty-folder');
    mkdirSync(join(empty, 'notes'), { recursive: true });
    writeFileSync(join(empty, 'notes', 'readme.txt'), 'not data\n');
    assert.throws(
      () => expandPaths([empty]),
      (error: Error & { code?: string }) => {
        assert.equal(error.code, 'DATA_FOLDER_EMPTY');
        assert.ok(error.message.includes(empty));
        assert.match(error.message, /--format \(one of quarry, openalex,/);
        return true;
      },
    );
  });

  test('all samples import together and link up', async () => {
    const db = join(work, 'real.db');
    const finishSteps: Array<{ step: string; ms: number }> = [];
    const report = await importFiles({
      paths: [
        join(DATA, 'ror/ror_v2_sample.json'),
        join(DATA, 'openalex/works_flat.jsonl'),
        join(DATA, 'crossref/works.jsonl'),
      ],
      open: recordWriterFor(db),
      onError: 'abort',
      onFinishStep: (step, ms) => finishSteps.push({ step, ms }),
    });
    assert.equal(report.skipped, 0);
    // The finish told each of its steps as it ended, in order, with its time.
    assert.deepEqual(
      finishSteps
        .map((s) => s.step)
        .filter((s) => ['places', 'indexes', 'posting lists', 'full-text merge', 'analyze'].includes(s)),
      ['places', 'posting lists', 'full-text merge', 'indexes', 'analyze'],
    );
    assert.ok(finishSteps.every((s) => Number.isFinite(s.ms) && s.ms >= 0));
    // Expected counts come from the files: array elements, lines, distinct OpenAlex author ids.
    const ror = (JSON.parse(readFileSync(join(DATA, 'ror/ror_v2_sample.json'), 'utf8')) as unknown[]).length;
    const flat = readFileSync(join(DATA, 'openalex/works_flat.jsonl'), 'utf8').trim().split('\n');
    const crossref = readFileSync(join(DATA, 'crossref/works.jsonl'), 'utf8').trim().split('\n').length;
    const authors = new Set(
      flat.flatMap((l) =>
        (JSON.parse(l) as { authors: { openalex_id: string | null }[] }).authors.map((a) => a.openalex_id),
      ),
    );
    authors.delete(null);
    // Works typed report are reports (their publishers unknown: none is a policy document).
    const flatReports = flat.filter((l) => (JSON.parse(l) as { type: string }).type === 'report').length;
    assert.deepEqual([ror, flat.length, crossref, authors.size, flatReports], [32, 40, 40, 69, 1]);
    assert.deepEqual(report.records, {
      organizations: ror,
      publications: flat.length - flatReports + crossref,
      researchers: authors.size,
      reports: flatReports,
    });
    const [pub] = rows(db, "SELECT title, year FROM reports WHERE id = 'W100927044'");
    assert.deepEqual(pub, { title: 'Financing Biodiversity Conservation', year: 2000 });
    // Affiliations keyed by ROR URL join the organizations imported from ROR.
    const [linked] = rows(
      db,
      'SELECT COUNT(*) AS n FROM publication_research_orgs l JOIN organizations o ON o.id = l.org_id',
    );
    const rorIds = new Set(
      (JSON.parse(readFileSync(join(DATA, 'ror/ror_v2_sample.json'), 'utf8')) as { id: string }[]).map((r) => r.id),
    );
    const pairs = new Set(
      flat.flatMap((l) => {
        const w = JSON.parse(l) as {
          openalex_id: string;
          type: string;
          authors: { institutions: { ror: string | null }[] }[];
        };
        if (w.type === 'report') return [];
        return w.authors.flatMap((a) =>
          a.institutions
            .map((i) => `https://ror.org/${i.ror}`)
            .filter((id) => rorIds.has(id))
            .map((id) => `${w.openalex_id} ${id}`),
        );
      }),
    );
    assert.equal(linked!['n'], pairs.size);
  });
});

describe('CSV reader', () => {
  test('quoted fields, doubled quotes and line breaks inside quotes', () => {
    assert.deepEqual(parseCsvLine('a,"b, c","say ""hi""",'), ['a', 'b, c', 'say "hi"', '']);
    const reader = new CsvLineReader();
    assert.equal(reader.push('1,"two'), undefined);
    assert.deepEqual(reader.push('lines",3'), ['1', 'two\nlines', '3']);
  });
});

describe('malformed records', () => {
  const shardDir = join(work, 'bad');
  mkdirSync(shardDir, { recursive: true });
  const shard = join(shardDir, 'organizations-0000.jsonl');
  const lines = Array.from({ length: 12 }, (_, k) =>
    JSON.stringify({
      id: `grid.9000${String(k).padStart(2, '0')}.a`,
      name: `Org ${k}`,
      types: ['education'],
      status: 'active',
    }),
  );
  lines[6] = '{"id": "grid.900006.a", "name": ';
  lines[9] = JSON.stringify({ name: 'no id' });
  writeFileSync(shard, lines.join('\n') + '\n');

  test('--on-error skip imports the rest and reports each bad record as file:line', async () => {
    const db = join(work, 'skip.db');
    const report = await importFiles({ paths: [shard], open: recordWriterFor(db), onError: 'skip', batchSize: 5 });
    assert.equal(report.skipped, 2);
    assert.deepEqual(
      report.problems.map((p) => `${p.file}:${p.line}`),
      [`${shard}:7`, `${shard}:10`],
    );
    assert.match(report.problems[0]!.message, /not valid JSON/);
    assert.match(report.problems[1]!.message, /without an id/);
    assert.equal(rows(db, 'SELECT COUNT(*) AS n FROM organizations')[0]!['n'], 10);
  });

  test('--on-error abort stops at the bad line and keeps every record before it', async () => {
    const db = join(work, 'abort.db');
    await assert.rejects(
      importFiles({ paths: [shard], open: recordWriterFor(db), onError: 'abort', batchSize: 5 }),
      (err: { code?: string; message: string }) => {
        assert.equal(err.code, 'DATA_IMPORT_ABORTED');
        assert.ok(err.message.includes(`${shard}:7`), err.message);
        return true;
      },
    );
    const ids = rows(db, 'SELECT id FROM organizations ORDER BY id').map((r) => r['id']);
    assert.deepEqual(
      ids,
      lines.slice(0, 6).map((l) => (JSON.parse(l) as { id: string }).id),
    );
  });

  test('bad options are coded errors', async () => {
    await assert.rejects(
      importFiles({ paths: [shard], open: recordWriterFor(join(work, 'x.db')), onError: 'ignore' as 'skip' }),
      {
        code: 'DATA_BAD_ON_ERROR_OPTION',
      },
    );
    await assert.rejects(
      importFiles({ paths: [shard], open: recordWriterFor(join(work, 'x.db')), format: 'csv' as 'nih' }),
      {
        code: 'DATA_BAD_FORMAT_OPTION',
      },
    );
  });
});

describe('malformed records in CSV and JSON arrays', () => {
  test('NIH rows: a wrong field count, a bad amount and an unclosed quote are reported by line', async () => {
    const csv = join(work, 'awards.csv');
    writeFileSync(
      csv,
      [
        'award_date,project_number,award_amount,award_type',
        '2021-11-01,5R01AI000001-05,1000,5',
        '2021-11-02,5R01AI000002-05,lots,5',
        '2021-11-03,5R01AI000003-05,3000',
        '2021-11-04,"5R01AI000004-05",4000,1',
        '2021-11-05,"5R01AI000005',
        '',
      ].join('\n'),
    );
    const report = await importFiles({ paths: [csv], open: recordWriterFor(join(work, 'csv.db')), onError: 'skip' });
    assert.equal(report.records.grants, 2);
    assert.deepEqual(
      report.problems.map((p) => p.line),
      [3, 4, 6],
    );
    assert.match(report.problems[0]!.message, /no valid amount/);
    assert.match(report.problems[1]!.message, /expected 4 fields/);
    assert.match(report.problems[2]!.message, /never closed/);
  });

  test('ROR JSON array: a bad element is reported at the line it starts on', async () => {
    const file = join(work, 'orgs.json');
    writeFileSync(
      file,
      '[\n  {"id": "https://ror.org/000000001", "names": [{"value": "One", "types": ["ror_display"]}], "types": ["education"]},\n  {\n    "names": []\n  }\n]\n',
    );
    const report = await importFiles({ paths: [file], open: recordWriterFor(join(work, 'json.db')), onError: 'skip' });
    assert.equal(report.records.organizations, 1);
    assert.deepEqual(
      report.problems.map((p) => `${p.file}:${p.line}`),
      [`${file}:3`],
    );
  });
});

describe('native import', () => {
  test('re-importing the same generated data updates, never duplicates', async () => {
    const dir = await demoDataDir({ publications: 1000 });
    const db = join(work, 'twice.db');
    const first = await importFiles({ paths: [dir], open: recordWriterFor(db), onError: 'abort' });
    assert.equal(first.records.publications, 1000);
    const before = counts(db);
    const second = await importFiles({ paths: [dir], open: recordWriterFor(db), onError: 'abort' });
    assert.deepEqual(second.records, first.records);
    assert.deepEqual(counts(db), before);
    assert.equal(before['publications'], 1000);
  });
});
