/**
 * Prints, for each real sample in `test/fixtures/data/`, the records the file holds (counted
 * here, apart from the importer: lines, JSON array elements, CSV rows, a snapshot folder's
 * manifest, XML documents, DataCite records typed Dataset) against what an import of it
 * read, wrote per kind and left in the database.
 *
 *   npx tsx scripts/fixture-counts.ts
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gunzipSync } from 'node:zlib';
import Database from 'better-sqlite3';
import { strFromU8, unzipSync } from 'fflate';
import { recordWriterFor } from '../src/backends.ts';
import { importFiles } from '../src/data/import/index.ts';

const DATA = fileURLToPath(new URL('../test/fixtures/data/', import.meta.url));
const work = mkdtempSync(join(tmpdir(), 'quarry-fixture-counts-'));
const lines = (text: string): string[] => text.split('\n').filter((l) => l.trim() !== '');
const nonBlank = (text: string): number => lines(text).length;
/** A file's text, gunzipped when it is gzip. */
const readText = (path: string): string =>
  (path.endsWith('.gz') ? gunzipSync(readFileSync(path)) : readFileSync(path)).toString('utf8');
type Row = Record<string, unknown>;
/** A JSON object (parsed from text when given text), or an empty one. */
const obj = (v: unknown): Row => {
  const value: unknown = typeof v === 'string' ? JSON.parse(v) : v;
  return value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Row) : {};
};
/** A DataCite record's attributes say Dataset. */
const isDataset = (attributes: Row): boolean => obj(attributes['types'])['resourceTypeGeneral'] === 'Dataset';

/** Records of a snapshot entity folder: the manifest's total, checked against the partitions' lines. */
function snapshotFolder(entity: string): number {
  const dir = join(DATA, 'openalex-snapshot/data', entity);
  const manifest = JSON.parse(readFileSync(join(dir, 'manifest'), 'utf8')) as { meta: { record_count: number } };
  const lines = readdirSync(dir)
    .filter((d) => d.startsWith('updated_date='))
    .reduce((n, d) => n + nonBlank(gunzipSync(readFileSync(join(dir, d, 'part_000.gz'))).toString('utf8')), 0);
  if (lines !== manifest.meta.record_count)
    throw new Error(`${entity}: manifest ${manifest.meta.record_count}, lines ${lines}`);
  return lines;
}

interface Sample {
  readonly name: string;
  readonly path: string;
  /** Records in the file, counted without the importer. */
  readonly inFile: () => number;
  /** The tables the records land in. */
  readonly tables: readonly string[];
  /** Parts counted on rows of their own: label, records in the part's files, a path fragment of its inputs. */
  readonly parts?: readonly (readonly [string, () => number, string])[];
}

const SNAPSHOT_ENTITIES = ['works', 'authors', 'institutions', 'funders', 'sources', 'publishers', 'topics'];

const samples: Sample[] = [
  {
    name: 'openalex/works.jsonl.gz',
    path: join(DATA, 'openalex/works.jsonl.gz'),
    inFile: () => nonBlank(gunzipSync(readFileSync(join(DATA, 'openalex/works.jsonl.gz'))).toString('utf8')),
    tables: ['publications', 'researchers'],
  },
  {
    name: 'openalex/works_flat.jsonl',
    path: join(DATA, 'openalex/works_flat.jsonl'),
    inFile: () => nonBlank(readFileSync(join(DATA, 'openalex/works_flat.jsonl'), 'utf8')),
    tables: ['publications', 'researchers'],
  },
  {
    name: `openalex-snapshot/ (${SNAPSHOT_ENTITIES.join(', ')})`,
    path: join(DATA, 'openalex-snapshot'),
    inFile: () => SNAPSHOT_ENTITIES.reduce((n, e) => n + snapshotFolder(e), 0),
    tables: ['publications', 'researchers', 'organizations', 'source_titles'],
    parts: SNAPSHOT_ENTITIES.map((e) => [`  data/${e}/`, () => snapshotFolder(e), `/data/${e}/`] as const),
  },
  {
    name: 'ror/ror_v2_sample.json',
    path: join(DATA, 'ror/ror_v2_sample.json'),
    inFile: () => (JSON.parse(readFileSync(join(DATA, 'ror/ror_v2_sample.json'), 'utf8')) as unknown[]).length,
    tables: ['organizations'],
  },
  {
    name: 'ror/ror_v2_latest.jsonl.gz',
    path: join(DATA, 'ror/ror_v2_latest.jsonl.gz'),
    inFile: () => nonBlank(gunzipSync(readFileSync(join(DATA, 'ror/ror_v2_latest.jsonl.gz'))).toString('utf8')),
    tables: ['organizations'],
  },
  {
    name: 'ror/v1.55-2024-10-31-ror-data.zip',
    path: join(DATA, 'ror/v1.55-2024-10-31-ror-data.zip'),
    inFile: () => {
      const entries = unzipSync(readFileSync(join(DATA, 'ror/v1.55-2024-10-31-ror-data.zip')));
      const v2 = Object.keys(entries).find((e) => e.endsWith('_schema_v2.json'));
      return (JSON.parse(strFromU8(entries[v2 ?? ''] ?? new Uint8Array())) as unknown[]).length;
    },
    tables: ['organizations'],
  },
  {
    name: 'crossref/works.jsonl',
    path: join(DATA, 'crossref/works.jsonl'),
    inFile: () => nonBlank(readFileSync(join(DATA, 'crossref/works.jsonl'), 'utf8')),
    tables: ['publications'],
  },
  {
    name: 'nih_reporter/nih_awards.csv',
    path: join(DATA, 'nih_reporter/nih_awards.csv'),
    // No field of this file holds a line break: one row a line, after the header.
    inFile: () => nonBlank(readFileSync(join(DATA, 'nih_reporter/nih_awards.csv'), 'utf8')) - 1,
    tables: ['grants'],
  },
  {
    name: 'anzsrc_for_2020/for2020_codes.csv',
    path: join(DATA, 'anzsrc_for_2020/for2020_codes.csv'),
    inFile: () => nonBlank(readFileSync(join(DATA, 'anzsrc_for_2020/for2020_codes.csv'), 'utf8')) - 1,
    tables: ['categories'],
  },
  ...['ipgb20221025_wk43.zip', 'ipgb20230404_wk14.zip'].map((week) => ({
    name: `patents/${week}`,
    path: join(DATA, 'patents', week),
    // The XML documents of its .xml entries, each opening with its declaration.
    inFile: () =>
      Object.entries(unzipSync(readFileSync(join(DATA, 'patents', week))))
        .filter(([name]) => name.endsWith('.xml'))
        .reduce((n, [, bytes]) => n + strFromU8(bytes).split('<?xml ').length - 1, 0),
    tables: ['patents'],
  })),
  {
    name: 'patents/patentsview/ (12 tables)',
    path: join(DATA, 'patents/patentsview'),
    inFile: () => nonBlank(readFileSync(join(DATA, 'patents/patentsview/g_patent.tsv'), 'utf8')) - 1,
    tables: ['patents'],
  },
  ...(
    [
      ['datacite_rest_api_dois.jsonl.gz', (text: string) => lines(text).map((l) => obj(obj(l)['attributes']))],
      ['datacite_api_page.json', (text: string) => (obj(text)['data'] as Row[]).map((d) => obj(d['attributes']))],
    ] as const
  ).map(([file, attributes]) => ({
    name: `datasets/${file} (typed Dataset)`,
    path: join(DATA, 'datasets', file),
    inFile: () => attributes(readText(join(DATA, 'datasets', file))).filter(isDataset).length,
    tables: ['datasets'],
  })),
  {
    name: 'datasets/datacite_public_data_file_sample.tar.gz (typed Dataset)',
    path: join(DATA, 'datasets/datacite_public_data_file_sample.tar.gz'),
    // The JSON lines of the tar's entries, found by their opening brace (the tar's headers hold none).
    inFile: () =>
      lines(readText(join(DATA, 'datasets/datacite_public_data_file_sample.tar.gz')))
        .map((l) => l.slice(l.indexOf('{"')))
        .filter((l) => l.startsWith('{"'))
        .map((l) => obj(l))
        .filter(isDataset).length,
    tables: ['datasets'],
  },
  {
    name: 'clinical_trials/ctgov_v2_studies.jsonl.gz',
    path: join(DATA, 'clinical_trials/ctgov_v2_studies.jsonl.gz'),
    inFile: () => nonBlank(readText(join(DATA, 'clinical_trials/ctgov_v2_studies.jsonl.gz'))),
    tables: ['clinical_trials'],
  },
];

const rows: string[][] = [];
try {
  for (const [k, sample] of samples.entries()) {
    const db = join(work, `${k}.db`);
    const report = await importFiles({ paths: [sample.path], open: recordWriterFor(db) });
    const read = report.files.reduce((n, f) => n + f.records, 0);
    const written = Object.entries(report.records)
      .map(([kind, n]) => `${kind} ${n}`)
      .join(', ');
    const conn = new Database(db, { readonly: true });
    const held = sample.tables
      .map((t) => `${t} ${(conn.prepare(`SELECT COUNT(*) AS n FROM ${t}`).get() as { n: number }).n}`)
      .join(', ');
    conn.close();
    const problems = report.problems.length === 0 ? '' : ` (${report.problems.length} problems)`;
    rows.push([sample.name, String(sample.inFile()), `${read}${problems}`, written, held]);
    for (const [label, inFile, fragment] of sample.parts ?? []) {
      const partRead = report.files.filter((f) => f.path.includes(fragment)).reduce((n, f) => n + f.records, 0);
      rows.push([label, String(inFile()), String(partRead), '', '']);
    }
  }
} finally {
  rmSync(work, { recursive: true, force: true });
}

const header = ['fixture', 'records in file', 'records read', 'records written', 'rows in database'];
console.log(`| ${header.join(' | ')} |`);
console.log(`| ${header.map(() => '---').join(' | ')} |`);
for (const row of rows) console.log(`| ${row.join(' | ')} |`);
