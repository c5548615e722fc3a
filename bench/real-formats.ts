/**
 * Import speed of each real format, in records per second (wall and CPU): the real samples of
 * `test/fixtures/data/` repeated (with distinct ids) to a few thousand records each, laid out
 * as published (an OpenAlex snapshot folder's works and its entity folders, the ROR dump zip,
 * Crossref JSON lines, NIH award actions CSV, ExPORTER's zipped projects and abstracts, the
 * ANZSRC code list), each imported into a fresh database without --format.
 *
 *   npx tsx bench/real-formats.ts [copies=100]
 *
 * Goal (performance issue): 20,000 records/s or more while loading.
 */
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gunzipSync, gzipSync } from 'node:zlib';
import { strToU8, zipSync } from 'fflate';
import { recordWriterFor } from '../src/backends.ts';
import { importFiles } from '../src/data/import/index.ts';

const copies = Number(process.argv[2] ?? 100);
const DATA = fileURLToPath(new URL('../test/fixtures/data/', import.meta.url));
const dir = mkdtempSync(join(tmpdir(), 'quarry-bench-real-'));
const lines = (text: string): string[] => text.split('\n').filter((l) => l.trim() !== '');

type Row = Record<string, unknown>;

function openalexSnapshot(): string {
  const works = lines(gunzipSync(readFileSync(join(DATA, 'openalex/works.jsonl.gz'))).toString('utf8'));
  const root = join(dir, 'openalex-snapshot');
  const entries: unknown[] = [];
  for (let k = 0; k < copies; k++) {
    const part = `updated_date=2024-01-${String((k % 28) + 1).padStart(2, '0')}/part_${String(k).padStart(3, '0')}.gz`;
    const body = works.map((l) => {
      const w = JSON.parse(l) as Row;
      return JSON.stringify({ ...w, id: `${String(w['id'])}${k}` });
    });
    mkdirSync(join(root, 'data/works', part, '..'), { recursive: true });
    writeFileSync(join(root, 'data/works', part), gzipSync(body.join('\n') + '\n'));
    entries.push({ url: `s3://openalex/data/works/${part}`, meta: { record_count: body.length } });
  }
  writeFileSync(join(root, 'data/works/manifest'), JSON.stringify({ entries }));
  return root;
}

/** The snapshot's entity folders (authors, institutions, funders, sources), each sample repeated with distinct ids. */
function openalexEntities(): string {
  const root = join(dir, 'openalex-entities');
  const snapshot = join(DATA, 'openalex-snapshot/data');
  for (const entity of ['authors', 'institutions', 'funders', 'sources']) {
    const records = readdirSync(join(snapshot, entity))
      .filter((d) => d.startsWith('updated_date='))
      .flatMap((d) => lines(gunzipSync(readFileSync(join(snapshot, entity, d, 'part_000.gz'))).toString('utf8')));
    const entries: unknown[] = [];
    for (let k = 0; k < copies; k++) {
      const part = `updated_date=2024-01-${String((k % 28) + 1).padStart(2, '0')}/part_${String(k).padStart(3, '0')}.gz`;
      const body = records.map((l) => {
        const r = JSON.parse(l) as Row;
        const ids = (r['ids'] ?? {}) as Row;
        // Institutions and funders are keyed by their ROR id: that is made distinct too.
        const ror = typeof r['ror'] === 'string' ? { ror: `${r['ror']}${k}` } : {};
        const idsRor = typeof ids['ror'] === 'string' ? { ids: { ...ids, ror: `${String(ids['ror'])}${k}` } } : {};
        return JSON.stringify({ ...r, id: `${String(r['id'])}${k}`, ...ror, ...idsRor });
      });
      mkdirSync(join(root, 'data', entity, part, '..'), { recursive: true });
      writeFileSync(join(root, 'data', entity, part), gzipSync(body.join('\n') + '\n'));
      entries.push({ url: `s3://openalex/data/${entity}/${part}`, meta: { record_count: body.length } });
    }
    writeFileSync(join(root, 'data', entity, 'manifest'), JSON.stringify({ entries }));
  }
  return root;
}

function rorZip(): string {
  const records = JSON.parse(readFileSync(join(DATA, 'ror/ror_v2_sample.json'), 'utf8')) as Row[];
  const all = Array.from({ length: copies }, (_, k) =>
    records.map((r) => ({ ...r, id: `${String(r['id'])}${k}` })),
  ).flat();
  const file = join(dir, 'v1.55-2024-10-31-ror-data.zip');
  writeFileSync(file, zipSync({ 'v1.55-2024-10-31-ror-data_schema_v2.json': strToU8(JSON.stringify(all, null, 2)) }));
  return file;
}

function crossref(): string {
  const works = lines(readFileSync(join(DATA, 'crossref/works.jsonl'), 'utf8'));
  const file = join(dir, 'crossref-works.jsonl');
  const out: string[] = [];
  for (let k = 0; k < copies; k++)
    for (const l of works) {
      const w = JSON.parse(l) as Row;
      out.push(JSON.stringify({ ...w, DOI: `${String(w['DOI'])}.${k}` }));
    }
  writeFileSync(file, out.join('\n') + '\n');
  return file;
}

function nihAwards(): string {
  const [header, ...rows] = lines(readFileSync(join(DATA, 'nih_reporter/nih_awards.csv'), 'utf8'));
  const file = join(dir, 'nih_awards.csv');
  const out = [header as string];
  for (let k = 0; k < copies; k++) for (const r of rows) out.push(r.replace(/^([^,]*),([^,]*)/, `$1,$2-${k}`));
  writeFileSync(file, out.join('\n') + '\n');
  return file;
}

/**
 * ExPORTER's layout (a zip of one projects CSV, and the abstracts zip) filled from the real
 * award actions: no real ExPORTER file is among the samples.
 */
function nihExporter(): string {
  const [, ...rows] = lines(readFileSync(join(DATA, 'nih_reporter/nih_awards.csv'), 'utf8'));
  const root = join(dir, 'nih-exporter');
  mkdirSync(root);
  const header =
    'APPLICATION_ID,ACTIVITY,FULL_PROJECT_NUM,FY,BUDGET_START,PI_NAMEs,ORG_NAME,PROJECT_TITLE,TOTAL_COST,OPPORTUNITY NUMBER';
  const projects = [header];
  const abstracts = ['APPLICATION_ID,ABSTRACT_TEXT'];
  let application = 10_000_000;
  for (let k = 0; k < copies; k++)
    for (const r of rows) {
      const [date = '', project = '', amount = ''] = r.split(',');
      application++;
      projects.push(
        `${application},R01,${project}-${k},${date.slice(0, 4)},${date},"DOE, JANE (contact)",EXAMPLE UNIVERSITY,"Award ${project}",${amount},PA-24-100`,
      );
      abstracts.push(`${application},"Abstract of ${project}, copy ${k}."`);
    }
  writeFileSync(
    join(root, 'RePORTER_PRJ_C_FY2024.zip'),
    zipSync({ 'RePORTER_PRJ_C_FY2024.csv': strToU8(projects.join('\r\n') + '\r\n') }),
  );
  writeFileSync(
    join(root, 'RePORTER_PRJABS_C_FY2024.zip'),
    zipSync({ 'RePORTER_PRJABS_C_FY2024.csv': strToU8(abstracts.join('\r\n') + '\r\n') }),
  );
  return root;
}

const formats: [string, () => string][] = [
  ['OpenAlex snapshot (works partitions)', openalexSnapshot],
  ['OpenAlex snapshot (entity partitions)', openalexEntities],
  ['ROR data dump (zip, schema 2)', rorZip],
  ['Crossref works (JSON lines)', crossref],
  ['NIH RePORTER award actions (CSV)', nihAwards],
  ['NIH ExPORTER projects + abstracts (zip)', nihExporter],
  ['ANZSRC FoR 2020 codes (CSV)', () => join(DATA, 'anzsrc_for_2020/for2020_codes.csv')],
];

console.log(`real formats, ${copies} copies of each sample; load average ${loadavg()[0]?.toFixed(1)}`);
try {
  for (const [k, [name, make]] of formats.entries()) {
    const path = make();
    const started = performance.now();
    const cpu = process.cpuUsage();
    // A fresh database per format (one import in bulk mode, as a first load is).
    const report = await importFiles({ paths: [path], open: recordWriterFor(join(dir, `format-${k}.db`)) });
    const seconds = (performance.now() - started) / 1000;
    const used = process.cpuUsage(cpu);
    const cpuSeconds = (used.user + used.system) / 1e6;
    const records = Object.values(report.records).reduce((s, n) => s + n, 0);
    const rate = (s: number): string => Math.round(records / s).toLocaleString('en');
    // On a shared machine wall time mostly measures the others' load: records per CPU second too.
    console.log(
      `${name.padEnd(42)} ${String(records).padStart(7)} records  ${seconds.toFixed(2).padStart(6)} s  ${rate(
        seconds,
      ).padStart(8)} records/s  (CPU ${cpuSeconds.toFixed(2)} s: ${rate(cpuSeconds)} records per CPU second)`,
    );
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}
