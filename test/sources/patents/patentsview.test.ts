// PatentsView bulk tables as patents. No real rows are published in any reachable
// repository, so test/fixtures/data/patents/patentsview/ holds rows written with the
// published column lists (PatentsView-DB's export views; see the README there): two real
// grants of the USPTO sample weeks, their values copied from the XML, and one constructed
// patent that cites both and carries a government-interest statement.
import assert from 'node:assert/strict';
import { copyFileSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { zipSync } from 'fflate';
import { MalformedRecord } from '../../../src/data/import/formats/common.ts';
import type { PatentRecord } from '../../../src/sources/patents/native.ts';
import { patentsViewToPatent } from '../../../src/sources/patents/patentsview-map.ts';
import {
  PatentsViewStaging,
  readPatentsView,
  type PatentsViewItem,
} from '../../../src/sources/patents/patentsview-staging.ts';
import { patentsViewTable } from '../../../src/sources/patents/patentsview-tables.ts';
import { readUsptoXml } from '../../../src/sources/patents/uspto-files.ts';

const DATA = fileURLToPath(new URL('../../fixtures/data/patents/', import.meta.url));
const TABLES = join(DATA, 'patentsview');
const FILES = readdirSync(TABLES)
  .filter((f) => f.endsWith('.tsv'))
  .sort()
  .map((f) => join(TABLES, f));
const work = mkdtempSync(join(tmpdir(), 'quarry-patentsview-test-'));
after(() => rmSync(work, { recursive: true, force: true }));

async function read(paths: readonly string[]): Promise<PatentsViewItem[]> {
  const out: PatentsViewItem[] = [];
  for await (const item of readPatentsView(paths, { stagingParent: work })) out.push(item);
  return out;
}
const recordsOf = (items: readonly PatentsViewItem[]): PatentRecord[] =>
  items.flatMap((i) => ('record' in i ? [i.record] : []));
/** The data rows of a fixture table, cells unquoted. */
const rowsOf = (table: string): string[][] =>
  readFileSync(join(TABLES, `${table}.tsv`), 'utf8')
    .trim()
    .split('\n')
    .slice(1)
    .map((l) => l.split('\t').map((c) => c.replace(/^"|"$/g, '')));

describe('the fixture tables', async () => {
  const items = await read(FILES);
  const patents = recordsOf(items);
  const byId = new Map(patents.map((p) => [p.id, p]));

  test('every g_patent row is a patent, keyed US-<patent_id>-<wipo_kind>, in patent id order', () => {
    assert.deepEqual(
      items.filter((i) => !('record' in i)),
      [],
    );
    const g = rowsOf('g_patent');
    assert.equal(patents.length, g.length);
    assert.deepEqual(
      patents.map((p) => p.id),
      g.map((r) => `US-${r[0]}-${r[5]}`).sort((a, b) => (a.split('-')[1]! < b.split('-')[1]! ? -1 : 1)),
    );
  });

  test('the tables are joined by patent_id, whatever order they are read in', async () => {
    const reversed = recordsOf(await read([...FILES].reverse()));
    assert.deepEqual(reversed, patents);
  });

  test('US-11617522-B2 field by field', () => {
    const r = byId.get('US-11617522-B2')!;
    assert.equal(r.title, 'Sensor inserter with disposal lockout state');
    assert.equal(r.kind, 'B2');
    assert.equal(r.filing_status, 'Grant');
    assert.equal(r.application_number, '16533534', 'written 16/533534');
    assert.deepEqual([r.date, r.year, r.priority_date], ['2019-08-06', 2019, '2019-08-06']);
    assert.deepEqual([r.publication_date, r.granted_date, r.granted_year], ['2023-04-04', '2023-04-04', 2023]);
    assert.equal(r.claims_amount, 20);
    assert.deepEqual(r.cpc, ['A61B5/14532', 'A61B5/14546', 'A61B5/153', 'A61M5/172', 'A61M5/14566']);
    assert.deepEqual(r.ipcr, ['A61B5/145', 'A61M5/145', 'A61M5/172', 'A61B5/153']);
    // Inventor rows are out of sequence order in the file: the record lists them in order.
    assert.deepEqual(r.inventor_names, ['Xin X. Li', 'Zhiyong Liu', 'Matthew William Yavorsky']);
    assert.deepEqual(r.inventors[0], { first_name: 'Xin X.', last_name: 'Li', city: 'Shanghai', country_code: 'CN' });
    assert.deepEqual(r.assignee_names, ['MEDTRONIC MINIMED, INC.']);
    assert.deepEqual(
      [r.assignee_cities, r.assignee_countries, r.assignee_state_codes],
      [['Northridge'], ['US'], ['US-CA']],
    );
    assert.deepEqual(r.reference_ids, ['US-4755173-A', 'US-5391250-A', 'US-5485408-A']);
    assert.equal(r.federal_support, undefined);
    assert.equal(r.unmatched, undefined);
  });

  test('the same grant from PatentsView and from USPTO XML is the same record where both say', async () => {
    let xml: PatentRecord | undefined;
    for await (const item of readUsptoXml(join(DATA, 'ipgb20221025_wk43.zip')))
      if ('record' in item && item.record.id === 'US-11617522-B2') xml = item.record;
    const pv = byId.get('US-11617522-B2')!;
    const { reference_ids: xmlRefs, ...xmlRest } = xml!;
    const { reference_ids: pvRefs, ...pvRest } = pv;
    assert.deepEqual(pvRest, xmlRest);
    // The fixture holds the first three of the grant's 88 citations.
    assert.deepEqual(pvRefs, xmlRefs.slice(0, 3));
    const waffle = byId.get('US-D967598-S1')!;
    assert.equal(waffle.abstract, undefined, 'an empty cell is no value');
    assert.deepEqual(waffle.reference_ids, ['US-D37277-S', 'US-D93917-S']);
  });

  test('the constructed patent: government interest, funders by name, contract numbers, held citations', () => {
    const r = byId.get('US-99000001-B1')!;
    const [[, statement]] = rowsOf('g_gov_interest') as [[string, string]];
    assert.deepEqual(r.federal_support, [statement]);
    assert.deepEqual(r.funder_countries, ['US']);
    assert.deepEqual(r.funders, []);
    assert.deepEqual(r.unmatched, {
      funder_names: ['National Institutes of Health', 'National Science Foundation'],
      contract_numbers: ['R01 CA000001', 'DMR-0000001'],
    });
    // Citations of held patents are their ids: `times_cited` is counted from these in-corpus.
    assert.deepEqual(r.reference_ids, ['US-11617522-B2', 'US-D967598-S1']);
    assert.ok(r.reference_ids.every((id) => byId.has(id)));
    assert.equal(r.priority_date, '2019-05-31', 'the GB priority claim, before the filing date');
    assert.deepEqual(r.assignee_names, ['Example Institute of Technology', 'Ana Example'], 'an individual assignee');
    assert.deepEqual(r.assignee_countries, ['US', 'GB']);
    assert.deepEqual(r.assignee_state_codes, ['US-MA'], 'a place without a state gives none');
  });
});

describe('reading', () => {
  test('tables are named by their file (plain, gzip, zipped as published)', () => {
    assert.equal(patentsViewTable('/x/g_patent.tsv'), 'g_patent');
    assert.equal(patentsViewTable('g_cpc_current.tsv.zip'), 'g_cpc_current');
    assert.equal(patentsViewTable('a.zip!g_us_patent_citation.tsv'), 'g_us_patent_citation');
    assert.equal(patentsViewTable('g_claims_2023.tsv'), undefined);
  });

  test('a zipped table is read; a table read twice adds nothing; a file of no table is refused', async () => {
    const zipped = join(work, 'g_cpc_current.tsv.zip');
    writeFileSync(zipped, zipSync({ 'g_cpc_current.tsv': readFileSync(join(TABLES, 'g_cpc_current.tsv')) }));
    const other = join(work, 'notes.tsv');
    writeFileSync(other, 'a\tb\n1\t2\n');
    const patent = join(TABLES, 'g_patent.tsv');
    const items = await read([patent, zipped, join(TABLES, 'g_cpc_current.tsv'), other]);
    assert.deepEqual(
      items.flatMap((i) => ('refused' in i ? [[i.input, i.refused.code]] : [])),
      [[other, 'DATA_UNKNOWN_FORMAT']],
    );
    assert.deepEqual(recordsOf(items).find((p) => p.id === 'US-D967598-S1')!.cpc, ['A23L35/00']);
  });

  test('a table without a column it needs is refused whole; bad rows are reported at their line', async () => {
    const dir = mkdtempSync(join(work, 'bad-'));
    for (const t of ['g_patent', 'g_application']) copyFileSync(join(TABLES, `${t}.tsv`), join(dir, `${t}.tsv`));
    writeFileSync(join(dir, 'g_cpc_current.tsv'), '"patent_id"\t"cpc_sequence"\n"D967598"\t0\n');
    writeFileSync(
      join(dir, 'g_inventor_disambiguated.tsv'),
      [
        'patent_id\tinventor_sequence\tdisambig_inventor_name_first\tdisambig_inventor_name_last\tlocation_id',
        '\t0\tNo\tPatent\t',
        'D967598\t0\tToo\tFew',
        // A quoted name holding a tab and a doubled quote: one field.
        'D967598\t0\t"Justin\t""J"""\tMark\t',
      ].join('\n'),
    );
    const items = await read(readdirSync(dir).map((f) => join(dir, f)));
    const inventors = join(dir, 'g_inventor_disambiguated.tsv');
    assert.deepEqual(
      items
        .filter((i) => !('record' in i))
        .map((i) => ('refused' in i ? { input: i.input, refused: i.refused.message } : i)),
      [
        {
          input: join(dir, 'g_cpc_current.tsv'),
          refused: `${join(dir, 'g_cpc_current.tsv')}:1: the PatentsView g_cpc_current header has no cpc_group column (found: patent_id, cpc_sequence).`,
        },
        { input: inventors, line: 2, malformed: 'a g_inventor_disambiguated row without patent_id' },
        { input: inventors, line: 3, malformed: 'expected 5 fields, found 4' },
      ],
    );
    assert.deepEqual(recordsOf(items).find((p) => p.id === 'US-D967598-S1')!.inventor_names, ['Justin\t"J" Mark']);
  });

  test('abstracts from g_patent_abstract; a row that cannot make a patent is MalformedRecord', () => {
    const patent = { patent_id: '7654321', patent_date: '2010-02-02', patent_title: 'A title', wipo_kind: 'B2' };
    const r = patentsViewToPatent({ patent, abstract: { patent_abstract: 'The abstract.' } }, () => undefined);
    assert.equal(r.abstract, 'The abstract.');
    assert.equal(r.id, 'US-7654321-B2');
    assert.equal(
      patentsViewToPatent({ patent: { ...patent, withdrawn: '1' } }, () => undefined).legal_status,
      'Withdrawn',
    );
    for (const bad of [{ wipo_kind: '' }, { patent_date: '2010-02' }, { patent_title: 'NULL' }])
      assert.throws(() => patentsViewToPatent({ patent: { ...patent, ...bad } }, () => undefined), MalformedRecord);
  });

  test('the staging database holds a page of patents at a time and leaves nothing behind', () => {
    const staging = PatentsViewStaging.open(work);
    for (let k = 0; k < 1200; k++)
      staging.add('g_patent', {
        patent_id: String(5_000_000 + k),
        patent_date: '2001-01-02',
        patent_title: `P${k}`,
        wipo_kind: 'B1',
      });
    staging.add('g_us_patent_citation', {
      patent_id: '5000999',
      citation_sequence: '0',
      citation_patent_id: '5000001',
      wipo_kind: 'B1',
    });
    const made = [...staging.patents(100)];
    staging.close();
    assert.deepEqual(
      made.map((p) => p.patentId),
      Array.from({ length: 1200 }, (_, k) => String(5_000_000 + k)),
    );
    const citing = made[999]!;
    assert.ok('record' in citing);
    assert.deepEqual(citing.record.reference_ids, ['US-5000001-B1']);
    assert.deepEqual(
      readdirSync(work).filter((f) => f.startsWith('quarry-patentsview-')),
      [],
    );
  });
});
