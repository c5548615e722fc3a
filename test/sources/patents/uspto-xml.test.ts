// USPTO patent XML as patents: the two real weekly grant files (ipgb, DTD v4.7) import every
// grant they hold, and full-text grants and applications of DTD v4.0-v4.5 map; the older
// generations are refused saying so. Expected values are read from the raw files (counts,
// by regular expression over the XML) or were checked against them by eye (literals).
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { unzipSync } from 'fflate';
import { MalformedRecord } from '../../../src/data/import/formats/common.ts';
import { InputRefused, importLimits } from '../../../src/data/import/limits.ts';
import { agenciesNamed } from '../../../src/sources/patents/federal-agencies.ts';
import type { PatentRecord } from '../../../src/sources/patents/native.ts';
import { bareNumber, patentId } from '../../../src/sources/patents/patent-ids.ts';
import { readUsptoXml, type UsptoItem } from '../../../src/sources/patents/uspto-files.ts';
import { mapUsptoDocument, UnsupportedDocument, usptoDate } from '../../../src/sources/patents/uspto-xml.ts';

const DATA = fileURLToPath(new URL('../../fixtures/data/patents/', import.meta.url));
const WEEKS = ['ipgb20221025_wk43.zip', 'ipgb20230404_wk14.zip'].map((f) => join(DATA, f));
const FULLTEXT = join(DATA, 'fulltext');
const work = mkdtempSync(join(tmpdir(), 'quarry-uspto-test-'));
after(() => rmSync(work, { recursive: true, force: true }));

async function items(path: string, limits = importLimits()): Promise<UsptoItem[]> {
  const out: UsptoItem[] = [];
  for await (const item of readUsptoXml(path, limits)) out.push(item);
  return out;
}
const records = (list: readonly UsptoItem[]): PatentRecord[] => list.flatMap((i) => ('record' in i ? [i.record] : []));

/** The XML documents of a weekly zip's `.xml` entry, as raw text. */
function rawDocuments(zip: string): string[] {
  const entries = unzipSync(readFileSync(zip));
  const name = Object.keys(entries).find((n) => n.endsWith('.xml'))!;
  return new TextDecoder()
    .decode(entries[name])
    .split(/(?=<\?xml )/)
    .filter((d) => d.trim() !== '');
}

/** The distinct US patents a raw document cites (`patcit` with country US). */
function rawUsCitations(doc: string): number {
  const cited = new Set<string>();
  for (const m of doc.matchAll(
    /<patcit[^>]*>\s*<document-id>\s*<country>US<\/country>\s*<doc-number>([^<]*)<\/doc-number>\s*<kind>([^<]*)</g,
  ))
    cited.add(`${bareNumber(m[1]!)}-${m[2]}`);
  return cited.size;
}

describe('USPTO weekly grant files (ipgb, v4.7)', async () => {
  const week43 = await items(WEEKS[0]!);
  const week14 = await items(WEEKS[1]!);
  const all = records([...week43, ...week14]);
  const byId = new Map(all.map((r) => [r.id, r]));

  test('every grant of the two weeks imports: 11 + 3 documents, one published twice', () => {
    const raw = WEEKS.map(rawDocuments);
    assert.deepEqual(
      raw.map((docs) => docs.length),
      [11, 3],
    );
    assert.equal(week43.length, raw[0]!.length);
    assert.equal(week14.length, raw[1]!.length);
    assert.equal(all.length, 14);
    assert.ok([...week43, ...week14].every((i) => 'record' in i));
    // USD0967598 is in the week-43 file twice, byte for byte: one id, stored once.
    assert.equal(byId.size, 13);
    assert.deepEqual(
      all.map((r) => r.id).filter((id) => id === 'US-D967598-S1'),
      ['US-D967598-S1', 'US-D967598-S1'],
    );
    // Items say where each document starts: the line of its declaration.
    // Each raw document ends with a line break, so the next starts that many lines further on.
    const starts: number[] = [];
    let line = 1;
    for (const doc of raw[0]!) {
      starts.push(line);
      line += doc.split('\n').length - 1;
    }
    assert.deepEqual(
      week43.map((i) => i.line),
      starts,
    );
  });

  test('each grant is keyed by number and kind, with the raw file’s dates, claims, inventors and cited US patents', () => {
    for (const doc of WEEKS.flatMap(rawDocuments)) {
      const number =
        /<publication-reference>\s*<document-id>\s*<country>US<\/country>\s*<doc-number>([^<]+)<\/doc-number>\s*<kind>([^<]+)<\/kind>\s*<date>(\d{8})</.exec(
          doc,
        )!;
      const rec = byId.get(`US-${bareNumber(number[1]!)}-${number[2]}`)!;
      assert.ok(rec, number[1]);
      assert.equal(rec.publication_date, usptoDate(number[3]));
      assert.equal(rec.granted_date, rec.publication_date);
      assert.equal(rec.filing_status, 'Grant');
      assert.equal(rec.claims_amount, Number(/<number-of-claims>(\d+)</.exec(doc)![1]));
      assert.equal(rec.reference_ids.length, rawUsCitations(doc));
      assert.equal(rec.inventors.length, (doc.match(/<inventor /g) ?? []).length);
    }
  });

  test('US-11617522-B2 field by field', () => {
    const r = byId.get('US-11617522-B2')!;
    assert.equal(r.title, 'Sensor inserter with disposal lockout state');
    assert.equal(r.jurisdiction, 'US');
    assert.equal(r.kind, 'B2');
    assert.equal(r.application_number, '16533534');
    assert.equal(r.date, '2019-08-06');
    assert.equal(r.year, 2019);
    assert.equal(r.priority_date, '2019-08-06');
    assert.equal(r.publication_date, '2023-04-04');
    assert.equal(r.granted_year, 2023);
    assert.deepEqual(r.cpc, ['A61B5/14532', 'A61B5/14546', 'A61B5/153', 'A61M5/172', 'A61M5/14566']);
    assert.deepEqual(r.ipcr, ['A61B5/145', 'A61M5/145', 'A61M5/172', 'A61B5/153']);
    assert.equal(r.claims_amount, 20);
    assert.deepEqual(r.inventor_names, ['Xin X. Li', 'Zhiyong Liu', 'Matthew William Yavorsky']);
    assert.deepEqual(r.inventors[2], {
      first_name: 'Matthew William',
      last_name: 'Yavorsky',
      city: 'Granada Hills',
      state_code: 'US-CA',
      country_code: 'US',
    });
    assert.deepEqual(r.assignee_names, ['MEDTRONIC MINIMED, INC.']);
    assert.deepEqual(r.original_assignee_names, ['MEDTRONIC MINIMED, INC.']);
    assert.deepEqual(
      [r.assignee_cities, r.assignee_countries, r.assignee_state_codes],
      [['Northridge'], ['US'], ['US-CA']],
    );
    // No organization id: USPTO gives names only; the organization matcher fills these later.
    assert.deepEqual([r.assignees, r.original_assignees, r.funders, r.researchers], [[], [], [], []]);
    assert.deepEqual(r.reference_ids.slice(0, 3), ['US-4755173-A', 'US-5391250-A', 'US-5485408-A']);
    assert.ok(r.reference_ids.includes('US-20070123819-A1'), 'a cited application');
    assert.match(r.abstract!, /^A sensor inserter for a physiological characteristic sensor includes a housing/);
    assert.equal(r.times_cited, undefined, 'counted by the store');
    assert.equal(r.federal_support, undefined);
  });

  test('a reissue with foreign priorities, a plant patent, designs', () => {
    const reissue = byId.get('US-RE49258-E1')!;
    assert.equal(reissue.priority_date, '2002-04-18', 'the earlier of two GB priority claims');
    assert.equal(reissue.date, '2018-04-10');
    const plant = byId.get('US-PP34694-P2')!;
    assert.deepEqual(plant.assignee_names, ['Danziger “Dan” Flower Farm'], 'an assignee without an address book');
    assert.equal(plant.assignee_countries, undefined);
    const design = byId.get('US-D982278-S1')!;
    assert.equal(design.abstract, undefined);
    assert.deepEqual(design.cpc, [], 'designs classify by Locarno only');
    assert.equal(design.claims_amount, 1);
    const waffle = byId.get('US-D967598-S1')!;
    assert.ok(waffle.reference_ids.includes('US-D37277-S'));
    assert.ok(waffle.reference_ids.includes('US-20140194229-A1'), 'a cited application, written 2014/0194229');
  });
});

describe('USPTO full-text XML (DTD v4.0-v4.5), grants and applications', async () => {
  const files = ['v4-0-A1', 'v4-0-A2_1', 'v4-4-A1', 'v4-4-A2', 'v4-5-A1', 'v4-5-A2', 'v4-0-B2', 'v4-5-B1', 'test'];
  const mapped = new Map<string, UsptoItem[]>();
  for (const f of files) mapped.set(f, await items(join(FULLTEXT, `${f}.xml`)));
  const one = (f: string): PatentRecord => records(mapped.get(f)!)[0]!;

  test('every v4 document maps, applications as applications', () => {
    assert.deepEqual(
      files.map((f) => mapped.get(f)!.length),
      [1, 1, 1, 1, 1, 1, 1, 1, 2],
    );
    assert.ok([...mapped.values()].flat().every((i) => 'record' in i));
    for (const f of files.filter((f) => f.includes('-A'))) {
      assert.equal(one(f).filing_status, 'Application');
      assert.equal(one(f).granted_date, undefined);
    }
    assert.deepEqual(
      records(mapped.get('test')!).map((r) => r.id),
      ['US-11147202-B2', 'US-11147203-B2'],
    );
  });

  test('a v4.4 application: its provisional application is its priority, its claims are counted', () => {
    const r = one('v4-4-A1');
    assert.equal(r.id, 'US-20210267109-A1');
    assert.equal(r.date, '2021-02-11');
    assert.equal(r.priority_date, '2020-02-27');
    const raw = readFileSync(join(FULLTEXT, 'v4-4-A1.xml'), 'utf8');
    assert.equal(r.claims_amount, (raw.match(/<claim id=/g) ?? []).length);
    assert.match(r.claims_text!, /^1\. /);
    assert.deepEqual(r.inventor_names, ["Daniel O'Keefe"]);
  });

  test('a v4.0 grant: inventors among the applicants, IPC 7, zero-padded number', () => {
    const r = one('v4-0-B2');
    assert.equal(r.id, 'US-6857133-B2');
    assert.deepEqual(r.inventor_names, ['David V. Reynolds']);
    assert.deepEqual(r.inventors[0], {
      first_name: 'David V.',
      last_name: 'Reynolds',
      city: 'Phoenix',
      state_code: 'US-AZ',
      country_code: 'US',
    });
    assert.deepEqual(r.ipcr, ['A41D13/00']);
    assert.equal(r.claims_amount, 6);
    const app = one('v4-0-A2_1');
    assert.equal(app.priority_date, '1998-09-05');
    assert.deepEqual(app.assignee_names, ['Abbott Labortories Vascular Enterprises Limited']);
    assert.equal(one('v4-0-A1').title, 'Novelty jeans', 'a document saved without an XML declaration');
  });

  test('the government-interest statement of a grant becomes federal_support, its agencies funder names', () => {
    const raw = readFileSync(join(FULLTEXT, 'v4-5-B1.xml'), 'utf8');
    const statement =
      'This invention was made with government support under Contract No. DE-AC05-00OR22725 awarded by the ' +
      'U.S. Department of Energy and grant CA123456 from the National Institutes of Health (NIH). The government ' +
      'has certain rights in the invention.';
    // A constructed change of the real document: the statement as USPTO marks it in grant full text.
    const withGi = raw.replace(
      '<description id="description">',
      '<description id="description">\n<?GOVINT description="Government Interest" end="lead"?>\n' +
        '<heading id="h-0001" level="1">STATEMENT OF GOVERNMENT INTEREST</heading>\n' +
        `<p id="p-9000" num="0000">${statement}</p>\n<?GOVINT description="Government Interest" end="tail"?>`,
    );
    assert.notEqual(withGi, raw);
    const r = mapUsptoDocument(withGi);
    assert.deepEqual(r.federal_support, [statement]);
    assert.deepEqual(r.funder_countries, ['US']);
    assert.deepEqual(r.unmatched, { funder_names: ['Department of Energy', 'National Institutes of Health'] });
    assert.deepEqual(r.funders, [], 'resolved by the funder matcher, later');
    // Applications mark it <?federal-research-statement?>.
    const app = readFileSync(join(FULLTEXT, 'v4-5-A1.xml'), 'utf8').replace(
      /<description id="description">/,
      '$&<?federal-research-statement description="Federal Research Statement" end="lead"?>' +
        '<p id="p-9">Made with support from NSF award 1234567.</p>' +
        '<?federal-research-statement description="Federal Research Statement" end="tail"?>',
    );
    assert.deepEqual(mapUsptoDocument(app).unmatched, { funder_names: ['National Science Foundation'] });
    assert.equal(one('v4-5-B1').federal_support, undefined);
  });
});

describe('what is refused', () => {
  test('the 2001-2004 generations (v1.5 applications, v2.5 grants) say they are not read', async () => {
    for (const [file, what] of [
      ['v1-5-A1_1.xml', /an application in USPTO XML v1\.5\/v1\.6 \(2001–2004\) is not read/],
      ['v2-5-S1.xml', /a grant in USPTO XML v2\.4\/v2\.5 \(PATDOC, 2002–2004\) is not read/],
    ] as const) {
      const [item] = await items(join(FULLTEXT, file));
      assert.ok(item && 'malformed' in item);
      assert.match(item.malformed, what);
      assert.throws(() => mapUsptoDocument(readFileSync(join(FULLTEXT, file), 'utf8')), UnsupportedDocument);
    }
  });

  test('malformed documents are MalformedRecord, each reported at its line, the others kept', async () => {
    const good = readFileSync(join(FULLTEXT, 'v4-5-B1.xml'), 'utf8').trimEnd();
    const cases = {
      truncated: good.slice(0, good.length - 30),
      'no publication number': good.replace(/<publication-reference>[\s\S]*?<\/publication-reference>/, ''),
      'no title': good.replace(/<invention-title[^>]*>[\s\S]*?<\/invention-title>/, ''),
      'another root': '<?xml version="1.0"?>\n<not-a-patent/>',
    };
    for (const [why, text] of Object.entries(cases)) assert.throws(() => mapUsptoDocument(text), MalformedRecord, why);
    const file = join(work, 'mixed.xml');
    const docs = [
      good,
      cases.truncated,
      good.replace('<doc-number>09358892</doc-number>', '<doc-number>09358893</doc-number>'),
    ];
    writeFileSync(file, docs.join('\n') + '\n');
    const got = await items(file);
    assert.deepEqual(
      got.map((i) => ('record' in i ? i.record.id : 'malformed')),
      ['US-9358892-B1', 'malformed', 'US-9358893-B1'],
    );
    const lines = (d: string): number => d.split('\n').length;
    assert.deepEqual(
      got.map((i) => i.line),
      [1, 1 + lines(docs[0]!), 1 + lines(docs[0]!) + lines(docs[1]!)],
    );
  });

  test('a document longer than the line limit refuses the file with a code, unread past it', async () => {
    await assert.rejects(
      items(join(FULLTEXT, 'v4-5-B1.xml'), importLimits({ maxLineBytes: 10_000 })),
      (err: unknown) => err instanceof InputRefused && err.code === 'DATA_LINE_TOO_LONG' && err.line === 1,
    );
  });
});

describe('helpers', () => {
  test('patent numbers lose their padding, so every source keys a patent alike', () => {
    assert.equal(patentId('US', '06857133', 'B2'), 'US-6857133-B2');
    assert.equal(patentId('US', 'D0967598', 'S1'), 'US-D967598-S1');
    assert.equal(patentId('US', 'RE049257', 'E1'), 'US-RE49257-E1');
    assert.equal(patentId('US', 'PP034694', 'P2'), 'US-PP34694-P2');
    assert.equal(patentId('US', '2014/0194229', 'A1'), 'US-20140194229-A1');
    assert.equal(patentId('US', '4755173', undefined), undefined);
    assert.equal(usptoDate('19880700'), '1988-07-01');
    assert.equal(usptoDate('2019086'), undefined);
  });

  test('agencies are found by name or acronym, once, in the order named', () => {
    assert.deepEqual(agenciesNamed('support from the NSF and the Department of Defense (DoD) and NSF again'), [
      'National Science Foundation',
      'Department of Defense',
    ]);
    assert.deepEqual(agenciesNamed('John Doe made it'), []);
  });
});
