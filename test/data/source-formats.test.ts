// The source folders' import formats as the importer sees them: each declared once, with a
// reader and a summary, beside the built-in formats without taking their files; detection of
// every real sample of test/fixtures/data tells each its own format; inputs of a format read
// together are merged into one, in place, and named by their parts.
import assert from 'node:assert/strict';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { detectFormat, expandInputs } from '../../src/data/import/detect.ts';
import { FORMAT_SUMMARIES, IMPORT_FORMATS, LINE_FORMATS } from '../../src/data/import/format-names.ts';
import type { ImportInput } from '../../src/data/import/inputs.ts';
import { readTogether, togetherName } from '../../src/data/import/read-together.ts';
import { SOURCE_IMPORT_FORMATS, SOURCE_READERS } from '../../src/data/import/source-formats.ts';

const DATA = fileURLToPath(new URL('../fixtures/data/', import.meta.url));

describe('the registry', () => {
  test('every source format is named once, apart from the line formats, with a summary and a reader', () => {
    const names = SOURCE_IMPORT_FORMATS.map((f) => f.name);
    assert.equal(new Set(names).size, names.length);
    assert.deepEqual(
      names.filter((n) => (LINE_FORMATS as readonly string[]).includes(n)),
      [],
    );
    assert.deepEqual(IMPORT_FORMATS, [...LINE_FORMATS, ...names]);
    assert.deepEqual(Object.keys(SOURCE_READERS).sort(), [...names].sort());
    for (const format of IMPORT_FORMATS) assert.ok((FORMAT_SUMMARIES[format] ?? '').length > 20, format);
  });
});

describe('detection of every real sample', () => {
  const cases: [path: string, format: string][] = [
    ['openalex/works.jsonl.gz', 'openalex'],
    ['openalex/works_flat.jsonl', 'openalex'],
    ['crossref/works.jsonl', 'crossref'],
    ['ror/ror_v2_sample.json', 'ror'],
    ['ror/ror_v2_latest.jsonl.gz', 'ror'],
    ['nih_reporter/nih_awards.csv', 'nih'],
    ['anzsrc_for_2020/for2020_codes.csv', 'anzsrc'],
    ['datasets/datacite_rest_api_dois.jsonl.gz', 'datacite'],
    ['datasets/datacite_api_page.json', 'datacite'],
    ['datasets/datacite_public_data_file_sample.tar.gz', 'datacite'],
    ['clinical_trials/ctgov_v2_studies.jsonl.gz', 'ctgov'],
    ['source_titles/openalex_sources_dehydrated.jsonl', 'openalex'],
    ['source_titles/doaj_journalcsv_sample.csv', 'doaj'],
    ['source_titles/crossref_titleFile_sample.csv', 'crossref-titles'],
    ...readdirSync(join(DATA, 'patents/fulltext')).map((f): [string, string] => [`patents/fulltext/${f}`, 'uspto']),
    ...readdirSync(join(DATA, 'patents/patentsview')).map((f): [string, string] => [
      `patents/patentsview/${f}`,
      'patentsview',
    ]),
  ];
  for (const [path, format] of cases)
    test(`${path}: ${format}`, async () => assert.equal(await detectFormat(join(DATA, path)), format));

  test('zips: the weeks are claimed by their XML, the ROR dump keeps its schema-2 JSON', async () => {
    const weeks = readdirSync(join(DATA, 'patents')).filter((f) => f.endsWith('.zip'));
    const inputs = await expandInputs([...weeks.map((f) => join(DATA, 'patents', f)), join(DATA, 'ror')]);
    assert.deepEqual(
      inputs.filter((i) => i.entry !== undefined).map((i) => [i.entry, i.format]),
      [
        ['ipgb20221025.xml', 'uspto'],
        ['ipgb20230404.xml', 'uspto'],
        ['v1.55-2024-10-31-ror-data_schema_v2.json', undefined],
      ],
    );
  });
});

describe('inputs read together', () => {
  const input = (name: string, size = 1): ImportInput => ({ name, file: name, size });

  test('the inputs of a format read together become one, where the first was; the others stay', () => {
    const [a, p1, b, p2, refused] = [
      input('/d/works.jsonl'),
      input('/d/pv/g_patent.tsv', 10),
      input('/d/ror.json'),
      input('/d/pv/g_cpc_current.tsv.zip!g_cpc_current.tsv', 5),
      input('/d/empty.jsonl'),
    ] as const;
    const formats = new Map([
      [a, 'openalex'],
      [p1, 'patentsview'],
      [b, 'ror'],
      [p2, 'patentsview'],
    ] as const);
    const together = readTogether([a, p1, b, p2, refused], formats);
    assert.deepEqual(
      together.inputs.map((i) => [i.name, i.size, together.formats.get(i)]),
      [
        ['/d/works.jsonl', 1, 'openalex'],
        ['/d/pv/{g_patent.tsv,g_cpc_current.tsv.zip!g_cpc_current.tsv}', 15, 'patentsview'],
        ['/d/ror.json', 1, 'ror'],
        ['/d/empty.jsonl', 1, undefined],
      ],
    );
    assert.deepEqual(together.inputs[1]!.parts, [p1, p2]);
  });

  test('a name for parts in one folder, in several, or in none', () => {
    assert.equal(togetherName([input('/a/b/x.tsv')]), '/a/b/x.tsv');
    assert.equal(togetherName([input('/a/b/x.tsv'), input('/a/c/y.tsv')]), '/a/{b/x.tsv,c/y.tsv}');
    assert.equal(togetherName([input('/a/bb/x.tsv'), input('/a/b/y.tsv')]), '/a/{bb/x.tsv,b/y.tsv}');
    assert.equal(togetherName([input('x.tsv'), input('y.tsv')]), 'x.tsv + y.tsv');
    assert.equal(togetherName([input('/a/x.tsv'), input('b/y.tsv')]), '/a/x.tsv + b/y.tsv');
  });
});
