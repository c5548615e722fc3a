// OpenAlex and Crossref works typed as reports become reports, or policy documents when their
// publisher is a government or intergovernmental body (src/sources/policy_documents/
// publisher-rule.ts). The fixtures (test/fixtures/data/grey_literature/README.md): the 4 real
// OpenAlex reports, 2 edited copies naming a publisher, 3 constructed Crossref reports.
// Expected values are read from the fixture files where they hold them.
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import Database from 'better-sqlite3';
import { recordWriterFor } from '../../../src/backends.ts';
import type { Mapped } from '../../../src/data/import/formats/common.ts';
import { CrossrefReader } from '../../../src/data/import/formats/crossref.ts';
import { OpenAlexReader } from '../../../src/data/import/formats/openalex.ts';
import { importFiles } from '../../../src/data/import/index.ts';
import type { PolicyDocumentRecord } from '../../../src/sources/policy_documents/native.ts';
import type { ReportRecord } from '../../../src/sources/reports/native.ts';

const DATA = fileURLToPath(new URL('../../fixtures/data/', import.meta.url));
const GREY = join(DATA, 'grey_literature');
type Raw = Record<string, unknown>;

const lines = (file: string): string[] => readFileSync(join(GREY, file), 'utf8').trim().split('\n');
const short = (id: unknown): string => String(id).replace('https://openalex.org/', '');

/** Each line mapped by a fresh reader of the format. */
function mapAll(reader: OpenAlexReader | CrossrefReader, file: string): Mapped[] {
  return lines(file).flatMap((line) => reader.map(line));
}
const records = <T>(mapped: readonly Mapped[], kind: string): T[] =>
  mapped.flatMap((m) => (m.kind === kind && 'record' in m ? [m.record as unknown as T] : []));

describe('OpenAlex works typed report', () => {
  const raw = lines('openalex_reports.jsonl').map((l) => JSON.parse(l) as Raw);
  const mapped = mapAll(new OpenAlexReader(), 'openalex_reports.jsonl');
  const reports = records<ReportRecord>(mapped, 'reports');

  test('the 4 real ones are reports: none names a publisher', () => {
    assert.equal(raw.length, 4);
    assert.ok(raw.every((w) => w['type'] === 'report'));
    assert.deepEqual(
      reports.map((r) => r.id),
      raw.map((w) => short(w['id'])),
    );
    assert.equal(records(mapped, 'publications').length, 0);
    assert.equal(records(mapped, 'policy_documents').length, 0);
    for (const r of reports) assert.equal(r.publisher_orgs, undefined, r.id);
  });

  test('a report keeps the work’s fields, keywords, identifiers and link', () => {
    const w = raw.find((x) => short(x['id']) === 'W194118789')!;
    const r = reports.find((x) => x.id === 'W194118789')!;
    assert.equal(r.title, w['title']);
    assert.equal(r.doi, '10.2172/843087');
    assert.equal(r.year, 2005);
    assert.equal(r.date, '2005-07-14');
    assert.equal(r.abstract, w['abstract']);
    assert.deepEqual(
      r.authors.map((a) => a.last_name),
      (w['authorships'] as { author: { display_name: string } }[]).map((a) => a.author.display_name.split(' ').at(-1)),
    );
    assert.equal(r.authors[1]?.orcid, '0000-0003-4998-4584');
    assert.deepEqual(r.keywords, (w['keywords'] as { display_name: string }[]).map((k) => k.display_name).join('; '));
    assert.deepEqual(
      r.concepts,
      (w['concepts'] as { display_name: string }[]).map((c) => c.display_name),
    );
    assert.deepEqual(r.external_ids, { doi: '10.2172/843087', mag: '194118789', openalex: 'W194118789' });
    assert.equal(r.linkout, 'https://doi.org/10.2172/843087');
  });

  test('an author’s institution is a research organization of the report', () => {
    const r = reports.find((x) => x.id === 'W100927044')!;
    assert.deepEqual(r.research_orgs, ['https://ror.org/02gjn4306']);
  });
});

describe('OpenAlex reports naming a publisher (edited copies)', () => {
  const raw = lines('openalex_reports_edited.jsonl').map((l) => JSON.parse(l) as Raw);
  const mapped = mapAll(new OpenAlexReader(), 'openalex_reports_edited.jsonl');

  test('published by an intergovernmental body (the IDB): a policy document citing the works it cites', () => {
    const [policy] = records<PolicyDocumentRecord>(mapped, 'policy_documents');
    const w = raw.find((x) => short(x['id']) === 'W100927044')!;
    const cited = (w['referenced_works'] as string[]).map(short);
    assert.ok(cited.length > 10);
    assert.deepEqual(policy, {
      id: 'W100927044',
      title: 'Financing Biodiversity Conservation',
      year: 2000,
      linkout: 'https://doi.org/10.18235/0008810',
      publisher_org: 'https://ror.org/02gjn4306',
      publisher_org_name: 'Inter-American Development Bank',
      publisher_org_country: 'US',
      publication_ids: cited,
      publications: cited.map((id) => ({ id })),
    });
  });

  test('published by an organization of unknown type (OSTI): a report naming its publisher', () => {
    const [report] = records<ReportRecord>(mapped, 'reports');
    assert.equal(report?.id, 'W194118789');
    assert.deepEqual(report?.publisher_orgs, ['I139351228']);
    assert.deepEqual(report?.publisher_details, [
      { name: 'Office of Scientific and Technical Information', id: 'I139351228' },
    ]);
    assert.equal(records(mapped, 'policy_documents').length, 1);
  });
});

describe('Crossref works typed report, report-component, report-series', () => {
  const mapped = mapAll(new CrossrefReader(), 'crossref_reports_constructed.jsonl');

  test('an institution with an intergovernmental ROR id makes a policy document', () => {
    assert.deepEqual(records<PolicyDocumentRecord>(mapped, 'policy_documents'), [
      {
        id: 'doi:10.18235/0008810',
        title: 'Financing Biodiversity Conservation',
        year: 2000,
        linkout: 'https://publications.iadb.org/en/financing-biodiversity-conservation',
        publisher_org: 'https://ror.org/02gjn4306',
        publisher_org_name: 'Inter-American Development Bank',
        publication_ids: ['doi:10.1001/jama.2025.0548'],
        publications: [{ id: 'doi:10.1001/jama.2025.0548', doi: '10.1001/jama.2025.0548' }],
      },
    ]);
  });

  test('the others are reports: publisher by name, funders with their awards', () => {
    const reports = records<ReportRecord>(mapped, 'reports');
    assert.deepEqual(
      reports.map((r) => r.id),
      ['doi:10.3133/70157208', 'doi:10.2172/843087'],
    );
    const [usgs, osti] = reports;
    assert.equal(usgs?.year, 1997);
    assert.equal(usgs?.date, '1997-01-01');
    assert.deepEqual(usgs?.publisher_details, [{ name: 'US Geological Survey' }]);
    assert.equal(usgs?.publisher_orgs, undefined);
    assert.deepEqual(usgs?.funder_orgs, ['doi:10.13039/100000200']);
    assert.deepEqual(usgs?.funder_details, [
      { name: 'U.S. Agency for International Development', id: 'doi:10.13039/100000200', award: ['LEMS-685'] },
    ]);
    assert.deepEqual(usgs?.external_ids, { doi: '10.3133/70157208' });
    assert.deepEqual(osti?.publisher_details, [{ name: 'Office of Scientific and Technical Information' }]);
    assert.equal(osti?.authors[1]?.orcid, '0000-0003-4998-4584');
  });

  test('the real Crossref works hold no report: all stay publications', () => {
    const reader = new CrossrefReader();
    const real = readFileSync(join(DATA, 'crossref/works.jsonl'), 'utf8').trim().split('\n');
    const kinds = new Set(real.flatMap((l) => reader.map(l)).map((m) => m.kind));
    assert.deepEqual([...kinds], ['publications']);
  });
});

describe('importing them', () => {
  const work = mkdtempSync(join(tmpdir(), 'quarry-grey-import-'));
  after(() => rmSync(work, { recursive: true, force: true }));

  test('each lands in its own table; a policy document links the held publication it cites', async () => {
    const db = join(work, 'grey.db');
    const report = await importFiles({
      paths: [
        join(DATA, 'crossref/works.jsonl'),
        join(GREY, 'crossref_reports_constructed.jsonl'),
        join(GREY, 'openalex_reports.jsonl'),
      ],
      open: recordWriterFor(db),
      format: 'auto',
      onError: 'abort',
    });
    const crossref = readFileSync(join(DATA, 'crossref/works.jsonl'), 'utf8').trim().split('\n').length;
    assert.equal(report.records.publications, crossref);
    assert.equal(report.records['reports'], 4 + 2);
    assert.equal(report.records['policy_documents'], 1);
    const conn = new Database(db, { readonly: true });
    try {
      const linked = conn
        .prepare(
          'SELECT p.id FROM policy_document_publications l JOIN publications p ON p.id = l.publication_id ORDER BY p.id',
        )
        .all();
      assert.deepEqual(linked, [{ id: 'doi:10.1001/jama.2025.0548' }]);
    } finally {
      conn.close();
    }
  });
});
