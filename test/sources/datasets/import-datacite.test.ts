// DataCite records as datasets, from the real samples in test/fixtures/data/datasets: every
// record typed Dataset of each file becomes one dataset and nothing else does (the counts are
// read from the files themselves), values of a few records are checked field by field against
// the raw record, and input that cannot be used is refused (MalformedRecord for a record, a
// coded error or limit for a file).
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { gzipSync } from 'node:zlib';
import tarStream from 'tar-stream';
import { MalformedRecord } from '../../../src/data/import/formats/common.ts';
import { InputRefused } from '../../../src/data/import/limits.ts';
import { QuarryError } from '../../../src/errors/index.ts';
import {
  dataciteApiPage,
  dataciteDate,
  dataciteItem,
  dataciteToDataset,
  isDataset,
  languageCode,
  mapDataciteLine,
} from '../../../src/sources/datasets/import-datacite.ts';
import {
  dataciteDatasets,
  dataciteLayoutOf,
  tarJsonLines,
  type DataciteLayout,
} from '../../../src/sources/datasets/import-datacite-files.ts';
import type { DatasetRecord } from '../../../src/sources/datasets/native.ts';
import { PAGE, PUBLIC_DATA_FILE, publicDataLines, REST, restItems, typed, type Raw } from './raw-samples.ts';

const work = mkdtempSync(join(tmpdir(), 'quarry-datacite-'));
after(() => rmSync(work, { recursive: true, force: true }));

async function datasetsOf(file: string, layout: DataciteLayout): Promise<DatasetRecord[]> {
  const out: DatasetRecord[] = [];
  for await (const r of dataciteDatasets(file, layout)) {
    if ('malformed' in r) assert.fail(`${r.where}:${r.line}: ${r.malformed}`);
    out.push(r.record);
  }
  return out;
}

function restDataset(doi: string): { raw: Raw; record: DatasetRecord } {
  const raw = restItems.find((r) => r['attributes']['doi'] === doi);
  assert.ok(raw, doi);
  return { raw, record: dataciteToDataset(dataciteItem(raw)) };
}

function publicDataDataset(doi: string): { raw: Raw; record: DatasetRecord } {
  const raw = publicDataLines.find((r) => r['doi'] === doi);
  assert.ok(raw, doi);
  return { raw, record: dataciteToDataset(dataciteItem(raw)) };
}

describe('the real samples import exactly their Dataset records', () => {
  test('REST API items (JSON Lines): the 27 of 60 DOIs typed Dataset', async () => {
    const expected = restItems.filter((r) => typed(r['attributes']) === 'Dataset');
    assert.equal(restItems.length, 60);
    assert.equal(expected.length, 27);
    const records = await datasetsOf(REST, 'jsonl');
    assert.deepEqual(
      records.map((r) => r.id),
      expected.map((r) => `doi:${String(r['attributes']['doi']).toLowerCase()}`),
    );
    assert.equal(new Set(records.map((r) => r.id)).size, records.length);
  });

  test('the Public Data File (a tar.gz of <prefix>/part_N.jsonl): its 4 of 10 lines typed Dataset', async () => {
    const expected = publicDataLines.filter((r) => typed(r) === 'Dataset');
    assert.equal(publicDataLines.length, 10);
    assert.equal(expected.length, 4);
    let lines = 0;
    for await (const l of tarJsonLines(PUBLIC_DATA_FILE)) {
      assert.match(l.entry, /^\.\/10\.\d+\/part_\d{5}\.jsonl$/);
      lines++;
    }
    assert.equal(lines, publicDataLines.length);
    const records = await datasetsOf(PUBLIC_DATA_FILE, 'public-data-file');
    assert.deepEqual(records.map((r) => r.id).sort(), expected.map((r) => `doi:${String(r['doi'])}`).sort());
  });

  test('a REST API page: its one Dataset among 5 DOIs, the repository named from `included`', async () => {
    const page = JSON.parse(readFileSync(PAGE, 'utf8')) as Raw;
    const expected = (page['data'] as Raw[]).filter((d) => typed(d['attributes']) === 'Dataset');
    assert.equal(expected.length, 1);
    const records = await datasetsOf(PAGE, 'api-page');
    assert.deepEqual(
      records.map((r) => r.id),
      expected.map((d) => `doi:${String(d['id'])}`),
    );
    const client = expected[0]!['relationships']['client']['data']['id'] as string;
    const name = (page['included'] as Raw[]).find((c) => c['id'] === client)!['attributes']['name'] as string;
    assert.deepEqual(records[0]?.repository, { id: client, name });
    const parsed = dataciteApiPage(readFileSync(PAGE, 'utf8'));
    assert.equal(parsed.items.length, 5);
    assert.equal(parsed.next, page['links']['next']);
  });

  test('a file layout is told by its name', () => {
    assert.equal(dataciteLayoutOf(PUBLIC_DATA_FILE), 'public-data-file');
    assert.equal(dataciteLayoutOf('DataCite_Public_Data_File_2024.tar'), 'public-data-file');
    assert.equal(dataciteLayoutOf(REST), 'jsonl');
    assert.equal(dataciteLayoutOf(PAGE), 'api-page');
    assert.equal(dataciteLayoutOf('notes.txt'), undefined);
  });
});

describe('values of real records, field by field', () => {
  test('Dryad 10.5061/dryad.8515 (REST): authors, keywords, licence, repository, associated publication', () => {
    const { raw, record } = restDataset('10.5061/dryad.8515');
    const a = raw['attributes'];
    assert.equal(record.id, 'doi:10.5061/dryad.8515');
    assert.equal(record.doi, a['doi']);
    assert.equal(record.title, a['titles'][0]['title']);
    assert.equal(
      record.description,
      (a['descriptions'] as Raw[]).find((d) => d['descriptionType'] === 'Abstract')!['description'],
    );
    assert.equal(record.year, a['publicationYear']);
    // Issued 2011-02-01T17:22:41Z.
    assert.equal(record.date, '2011-02-01');
    assert.equal(record.date_modified, String(a['updated']).slice(0, 10));
    assert.equal(record.date_created, String(a['created']).slice(0, 10));
    // Available on the day of issue: no embargo.
    assert.equal(record.date_embargo, undefined);
    assert.equal(record.authors.length, a['creators'].length);
    assert.deepEqual(record.authors[0], {
      name: 'Benjamin Ollomo',
      first_name: 'Benjamin',
      last_name: 'Ollomo',
      affiliations: [{ name: 'Centre International de Recherches Médicales de Franceville' }],
    });
    // Douzery has no affiliation.
    assert.deepEqual(record.authors[3]?.affiliations, []);
    // No ROR ids in the record: organizations stay names for a matcher.
    assert.deepEqual(record.research_orgs, []);
    // Free-text subjects only (the two under the PLOS thesaurus are a classification).
    assert.deepEqual(record.keywords, ['mitochondrial genome', 'Parasites']);
    assert.equal(record.language_title, 'en');
    assert.equal(record.language_desc, 'en');
    assert.equal(record.license_name, 'CC0 1.0');
    assert.equal(record.license_url, a['rightsList'][0]['rightsUri']);
    assert.deepEqual(record.repository, { id: raw['relationships']['client']['data']['id'], name: 'Dryad' });
    assert.deepEqual(record.associated_publication, { doi: '10.1371/journal.ppat.1000446' });
    assert.equal(record.associated_publication_id, undefined);
    assert.deepEqual(record.funders, []);
    assert.equal(record.funder_details, undefined);
    assert.equal(record.figshare_url, undefined);
  });

  test('PANGAEA 10.1594/pangaea.721193 (REST): Crossref funder ids, awards, IsSupplementTo', () => {
    const { raw, record } = restDataset('10.1594/pangaea.721193');
    const refs = raw['attributes']['fundingReferences'] as Raw[];
    assert.deepEqual(record.funders, ['doi:10.13039/100011102', 'doi:10.13039/100011103']);
    assert.deepEqual(
      record.funder_details,
      refs.map((f) => ({
        name: f['funderName'],
        id: `doi:${String(f['funderIdentifier']).replace('https://doi.org/', '')}`,
        award_number: f['awardNumber'],
        award_title: f['awardTitle'],
        award_uri: f['awardUri'],
      })),
    );
    assert.deepEqual(record.associated_publication, { doi: '10.3354/ab00009' });
    assert.equal(record.license_name, 'CC BY 3.0');
    assert.equal(record.year, 2007);
    assert.equal(record.date, '2007-01-01');
    assert.equal(record.keywords?.length, 14);
    assert.deepEqual(record.authors[2], {
      name: 'Atsushi Ishimatsu',
      first_name: 'Atsushi',
      last_name: 'Ishimatsu',
      affiliations: [],
    });
  });

  test('figshare, rights statements and access rights: the licence is the entry that names one', () => {
    const figshare = restDataset('10.6084/m9.figshare.4234751.v1').record;
    assert.equal(figshare.figshare_url, 'https://figshare.com/articles/dataset/RAIN_v1/4234751/1');
    assert.equal(figshare.license_name, 'CC BY 4.0');
    // First entry an access right (info:eu-repo), then CC0.
    assert.equal(restDataset('10.7910/dvn/nj7xso').record.license_name, 'CC0 1.0');
    // Two statements ("Access to data ... is restricted") before the licence.
    const snd = restDataset('10.5878/xyad-9f70').record;
    assert.equal(snd.license_name, 'CC BY 4.0');
    assert.equal(snd.license_url, 'https://creativecommons.org/licenses/by/4.0/legalcode');
    // Only statements: no licence.
    const bath = restDataset('10.15125/bath-00114').record;
    assert.equal(bath.license_name, undefined);
    assert.equal(bath.license_url, undefined);
    // IsReferencedBy with a DOI, beside a URL IsDocumentedBy.
    assert.deepEqual(bath.associated_publication, { doi: '10.1021/acsnano.5b02623' });
  });

  test('dates as real records write them: year-only issue, a later availability in the year, XML spacing', () => {
    // Issued '2017', Available '07.04.2017': the publication day is unknown, so no embargo.
    const siemens = restDataset('10.18169/papdeottx00502').record;
    assert.equal(siemens.date, '2017-01-01');
    assert.equal(siemens.date_embargo, undefined);
    assert.equal(siemens.language_title, 'de');
    // Dates with the XML's line breaks and indentation around them.
    const temis = restDataset('10.21944/temis-ozone-msr2').record;
    assert.equal(temis.year, 2015);
    assert.equal(temis.date, '2015-01-01');
    // A real quirk kept: a Buddhist-era year (2549 = 2006).
    const thai = restDataset('10.14457/kmitl.res.2006.17').record;
    assert.equal(thai.year, 2549);
    assert.equal(thai.date, '2549-01-01');
    assert.equal(dataciteDate('2011-02-01T17:22:41Z'), '2011-02-01');
    assert.equal(dataciteDate('07.04.2017'), '2017-04-07');
    assert.equal(dataciteDate('2020-10-01/2020-11-30'), '2020-10-01');
    assert.equal(dataciteDate('1995-12'), '1995-12-01');
    assert.equal(dataciteDate('(:tba)'), undefined);
    assert.equal(languageCode('eng'), 'en');
    assert.equal(languageCode('en-US'), 'en');
    assert.equal(languageCode('english'), undefined);
  });

  test('Public Data File lines: a lone affiliation object, the repository from the publisher', () => {
    const { raw, record } = publicDataDataset('10.17031/637b5e4a8d3ae');
    assert.deepEqual(record.authors, [
      {
        name: 'Clare Ostle',
        first_name: 'Clare',
        last_name: 'Ostle',
        affiliations: [{ name: 'Marine Biological Association' }],
      },
    ]);
    assert.deepEqual(record.repository, {
      id: 'the-archive-for-marine-species-and-habitats-data-dassh',
      name: raw['publisher'],
    });
    assert.equal(record.license_name, 'CC BY-NC 4.0');
    assert.equal(record.date, '2022-01-01');
    assert.equal(record.date_created, '2022-12-05');
  });

  test('a ROR affiliation becomes a research organization keyed by its ROR URL (Public Data File, a thesis)', () => {
    const { raw, record } = publicDataDataset('10.18130/v3hp4c');
    assert.equal(isDataset(raw), false);
    assert.equal(raw['creators'][0]['affiliation']['affiliationIdentifier'], 'https://ror.org/0153tk833');
    assert.deepEqual(record.research_orgs, ['https://ror.org/0153tk833']);
    assert.deepEqual(record.authors[0], {
      name: 'Kassandra Grimes',
      first_name: 'Kassandra',
      last_name: 'Grimes',
      orcid: '0000-0001-7760-5153',
      affiliations: [{ id: 'https://ror.org/0153tk833', name: 'University of Virginia' }],
    });
    assert.equal(record.date, '2016-07-23');
  });

  test('a ROR funder id gives the ROR URL; another identifier is kept for a matcher', () => {
    const attributes = {
      ...restItems.find((r) => r['attributes']['doi'] === '10.5061/dryad.8515')!['attributes'],
      fundingReferences: [
        { funderName: 'Wellcome Trust', funderIdentifier: 'https://ror.org/029chgv08', funderIdentifierType: 'ROR' },
        { funderName: 'Some Foundation', funderIdentifier: '0000000123456789', funderIdentifierType: 'ISNI' },
        { funderName: 'NSF', funderIdentifier: '100000001', funderIdentifierType: 'Crossref Funder ID' },
      ],
    };
    const record = dataciteToDataset({ attributes });
    assert.deepEqual(record.funders, ['https://ror.org/029chgv08', 'doi:10.13039/100000001']);
    assert.deepEqual(record.funder_details?.[1], {
      name: 'Some Foundation',
      identifier: '0000000123456789',
      identifier_type: 'ISNI',
    });
    // Without a client, the repository is the publisher's.
    assert.deepEqual(record.repository, { id: 'dryad', name: 'Dryad' });
  });
});

describe('input that cannot be used', () => {
  const dryad = restItems.find((r) => r['attributes']['doi'] === '10.5061/dryad.8515')!;
  const withAttributes = (changes: Raw): string =>
    JSON.stringify({ ...dryad, attributes: { ...dryad['attributes'], ...changes } });

  test('a line that is no JSON object, or a Dataset without a DOI or a year, is a MalformedRecord', () => {
    assert.throws(() => mapDataciteLine('{"id": '), MalformedRecord);
    assert.throws(() => mapDataciteLine('[1, 2]'), MalformedRecord);
    assert.throws(() => mapDataciteLine(withAttributes({ doi: null })), /without a DOI/);
    assert.throws(
      () => mapDataciteLine(withAttributes({ publicationYear: null, dates: [], published: null })),
      (err: unknown) =>
        err instanceof MalformedRecord && /10\.5061\/dryad\.8515 has no publication year/.test(err.message),
    );
    // Another resource type is passed over, whatever it lacks.
    assert.equal(mapDataciteLine(withAttributes({ doi: null, types: { resourceTypeGeneral: 'Text' } })), undefined);
    assert.throws(() => dataciteApiPage('{"errors": [{"status": "404"}]}'), MalformedRecord);
  });

  test('a bad line of a JSON Lines file is reported at its line, the others imported', async () => {
    const file = join(work, 'mixed.jsonl');
    writeFileSync(file, [JSON.stringify(dryad), '{"id": ', withAttributes({ doi: '' }), ''].join('\n'));
    const out = [];
    for await (const r of dataciteDatasets(file, 'jsonl')) out.push(r);
    assert.deepEqual(
      out.map((r) => ('malformed' in r ? `${r.line}: ${r.malformed.slice(0, 12)}` : `${r.line}: ${r.record.id}`)),
      ['1: doi:10.5061/dryad.8515', '2: not valid JS', '3: a DataCite r'],
    );
  });

  test('a file that is no tar is DATA_TAR_UNREADABLE; a tar.gz cut short fails as gzip data cut short', async () => {
    const notTar = join(work, 'not.tar');
    writeFileSync(notTar, Buffer.alloc(2048, 0x41));
    await assert.rejects(
      async () => {
        for await (const _ of tarJsonLines(notTar));
      },
      (err: unknown) =>
        err instanceof QuarryError && err.code === 'DATA_TAR_UNREADABLE' && /not\.tar/.test(err.message),
    );
    const bytes = readFileSync(PUBLIC_DATA_FILE);
    const cut = join(work, 'cut.tar.gz');
    writeFileSync(cut, bytes.subarray(0, Math.floor(bytes.length / 2)));
    await assert.rejects(
      async () => {
        for await (const _ of tarJsonLines(cut));
      },
      (err: unknown) => (err as { code?: string }).code === 'Z_BUF_ERROR',
    );
  });
});

/** A tar of the given entries (gzip when asked), written by tar-stream. */
async function writeTar(file: string, entries: readonly [name: string, body: Buffer][], gzip: boolean): Promise<void> {
  const pack = tarStream.pack();
  const chunks: Buffer[] = [];
  pack.on('data', (c: Buffer) => chunks.push(c));
  const done = new Promise((resolve) => pack.on('end', resolve));
  for (const [name, body] of entries) pack.entry({ name, size: body.length }, body);
  pack.finalize();
  await done;
  const tar = Buffer.concat(chunks);
  writeFileSync(file, gzip ? gzipSync(tar) : tar);
}

describe('Public Data File layouts', () => {
  const line = (doi: string): string => JSON.stringify({ ...publicDataLines.find((r) => typed(r) === 'Dataset'), doi });

  test('a plain tar with gzipped parts and other files: the parts are read, the rest passed over', async () => {
    const file = join(work, 'pdf.tar');
    await writeTar(
      file,
      [
        ['dois/updated_2024-01/part_00000.jsonl.gz', gzipSync(`${line('10.1234/a')}\n${line('10.1234/b')}\n`)],
        ['dois/updated_2024-01/manifest.csv', Buffer.from('doi,updated\n10.1234/a,2024\n')],
        ['dois/updated_2024-02/part_00000.jsonl', Buffer.from(`${line('10.1234/c')}\n`)],
      ],
      false,
    );
    const records = await datasetsOf(file, 'public-data-file');
    assert.deepEqual(
      records.map((r) => r.id),
      ['doi:10.1234/a', 'doi:10.1234/b', 'doi:10.1234/c'],
    );
    const where = [];
    for await (const r of dataciteDatasets(file, 'public-data-file')) where.push(`${r.where}:${r.line}`);
    assert.deepEqual(where, [
      `${file}!dois/updated_2024-01/part_00000.jsonl.gz:1`,
      `${file}!dois/updated_2024-01/part_00000.jsonl.gz:2`,
      `${file}!dois/updated_2024-02/part_00000.jsonl:1`,
    ]);
  });

  test('a reader that stops after the first line ends the archive there', async () => {
    const seen = [];
    for await (const l of tarJsonLines(PUBLIC_DATA_FILE)) {
      seen.push(l.entry);
      break;
    }
    assert.equal(seen.length, 1);
  });

  test('a line past the limit is refused at archive!entry:line with its code', async () => {
    const file = join(work, 'long.tar.gz');
    await writeTar(
      file,
      [['10.1234/part_00000.jsonl', Buffer.from(`${line('10.1234/a')}\n${'x'.repeat(5000)}\n`)]],
      true,
    );
    const limits = { maxLineBytes: 4096, maxDecompressedBytes: 2 ** 30, maxCompressionRatio: 100 };
    const seen: string[] = [];
    await assert.rejects(
      async () => {
        for await (const r of tarJsonLines(file, limits)) seen.push(r.entry);
      },
      (err: unknown) =>
        err instanceof InputRefused &&
        err.code === 'DATA_LINE_TOO_LONG' &&
        err.line === 2 &&
        err.message.includes(`${file}!10.1234/part_00000.jsonl`),
    );
    assert.deepEqual(seen, ['10.1234/part_00000.jsonl']);
  });
});
