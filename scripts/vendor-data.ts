/**
 * Rebuilds the reference data vendored in the repository from the open-data folder it is
 * derived from, named by `--from` (nothing outside the repository is read by default, so a
 * clone on its own never depends on a folder beside it):
 *
 *   src/data/vendor/*.json.gz   what the generator and the demo read (FoR codes, a ROR
 *                               organization sample, person names, the text model)
 *   test/fixtures/data/         small real samples of each import format, for the tests
 *
 * Deterministic: the same source folder gives byte-identical files.
 *
 *   npx tsx scripts/vendor-data.ts --from <open-data folder>   (a checkout of the open datasets)
 */
import { createHash } from 'node:crypto';
import { copyFileSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gunzipSync, gzipSync } from 'node:zlib';
import { zipSync, strToU8 } from 'fflate';
import { parseCsvLine } from '../src/data/csv.ts';
import { VENDOR_DIR, VENDOR_FILES, type ForCode } from '../src/data/generate/reference-data.ts';
import { rorOrganization, type RorOrganization } from '../src/data/ror-organization.ts';
import { buildTextModel } from './vendor-text-model.ts';

type Loose = Record<string, unknown>;

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const fromArg = process.argv.indexOf('--from');
const SOURCE = fromArg > 0 ? (process.argv[fromArg + 1] ?? '') : '';
if (SOURCE === '' || !existsSync(SOURCE)) {
  console.error(
    'usage: npx tsx scripts/vendor-data.ts --from <open-data folder>\n' +
      (SOURCE === '' ? 'The folder the vendored files are derived from is required.' : `No folder at ${SOURCE}.`),
  );
  process.exit(2);
}
const FIXTURES = join(ROOT, 'test', 'fixtures', 'data');

/** Research organizations and funders kept in the sample (enough for 1M publications' funders). */
const RESEARCH_SAMPLE = 10_000;
const FUNDER_SAMPLE = 3_000;

const src = (path: string): string => join(SOURCE, path);
const lines = (text: string): string[] => text.split('\n').filter((l) => l.trim() !== '');

function writeGzipJson(path: string, value: unknown): void {
  mkdirSync(dirname(path), { recursive: true });
  // Level 9 and no file name or time in the header: byte-identical output on every run.
  writeFileSync(path, gzipSync(JSON.stringify(value), { level: 9 }));
  console.log(`${path.slice(ROOT.length)}  ${readFileSync(path).length} bytes`);
}

function writeText(path: string, text: string | Buffer): void {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, text);
  console.log(`${path.slice(ROOT.length)}  ${readFileSync(path).length} bytes`);
}

function forCodes(): ForCode[] {
  const out: ForCode[] = [];
  for (const line of lines(readFileSync(src('anzsrc_for_2020/for2020_codes.csv'), 'utf8')).slice(1)) {
    const [code, level, label, parent] = parseCsvLine(line.replace(/\r$/, ''));
    if (code === undefined || label === undefined || (level !== 'division' && level !== 'group' && level !== 'field'))
      continue;
    out.push({ code, level, label, ...(parent === undefined || parent === '' ? {} : { parent }) });
  }
  return out;
}

/** First and last names of the authors of the open work samples, for synthetic people. */
function personNames(): { first: string[]; last: string[] } {
  const first = new Set<string>();
  const last = new Set<string>();
  const plain = /^[\p{L}][\p{L}'-]{1,20}$/u;
  const add = (given: unknown, family: unknown): void => {
    if (typeof given === 'string') {
      const g = given.split(/\s+/)[0] ?? '';
      if (plain.test(g) && !/^[A-Z]\.?$/.test(g)) first.add(g);
    }
    if (typeof family === 'string' && plain.test(family)) last.add(family);
  };
  for (const line of lines(readFileSync(src('openalex/works_flat.jsonl'), 'utf8'))) {
    for (const a of ((JSON.parse(line) as Loose)['authors'] ?? []) as Loose[]) {
      const parts = (typeof a['name'] === 'string' ? a['name'] : '').split(/\s+/);
      if (parts.length >= 2) add(parts[0], parts[parts.length - 1]);
    }
  }
  for (const line of lines(readFileSync(src('crossref/works.jsonl'), 'utf8'))) {
    for (const a of ((JSON.parse(line) as Loose)['author'] ?? []) as Loose[]) add(a['given'], a['family']);
  }
  const firsts = [...first].filter((n) => n.length > 1 && n === n[0]?.toUpperCase() + n.slice(1)).sort();
  const lasts = [...last].filter((n) => n.length > 1 && n[0] === n[0]?.toUpperCase()).sort();
  return { first: firsts, last: lasts };
}

/**
 * A sample of the active ROR organizations: the research organizations and funders whose
 * id hashes lowest (a stable pseudo-random choice), in file order.
 */
function organizations(): RorOrganization[] {
  const all: RorOrganization[] = [];
  for (const line of lines(gunzipSync(readFileSync(src('ror/ror_v2_latest.jsonl.gz'))).toString('utf8'))) {
    const org = rorOrganization(JSON.parse(line) as Loose);
    if (org !== undefined && org.status === 'active' && org.countryCode !== undefined) all.push(org);
  }
  const rank = (o: RorOrganization): string => createHash('sha256').update(o.rorId).digest('hex');
  const pick = (pool: RorOrganization[], n: number): Set<string> =>
    new Set(
      pool
        .map((o) => [rank(o), o.rorId] as const)
        .sort((a, b) => (a[0] < b[0] ? -1 : 1))
        .slice(0, n)
        .map(([, id]) => id),
    );
  const funders = pick(
    all.filter((o) => o.types.includes('funder')),
    FUNDER_SAMPLE,
  );
  const research = pick(
    all.filter((o) => !o.types.includes('funder')),
    RESEARCH_SAMPLE,
  );
  return all.filter((o) => funders.has(o.rorId) || research.has(o.rorId));
}

/** Writes one entity folder of the OpenAlex snapshot: partitions by `updated_date`, and the manifest. */
function snapshotEntity(entity: string, records: readonly string[], dateOf = new Map<string, string>()): void {
  const dir = join(FIXTURES, 'openalex-snapshot/data', entity);
  const byDate = new Map<string, string[]>();
  for (const line of records) {
    const record = JSON.parse(line) as Loose;
    const date = ((record['updated_date'] as string | undefined) ?? dateOf.get(record['id'] as string) ?? '').slice(
      0,
      10,
    );
    byDate.set(date, [...(byDate.get(date) ?? []), line]);
  }
  const entries: { url: string; meta: { content_length: number; record_count: number } }[] = [];
  for (const date of [...byDate.keys()].sort()) {
    const part = `updated_date=${date}/part_000.gz`;
    const body = gzipSync((byDate.get(date) as string[]).join('\n') + '\n', { level: 9 });
    writeText(join(dir, part), body);
    entries.push({
      url: `s3://openalex/data/${entity}/${part}`,
      meta: { content_length: body.length, record_count: (byDate.get(date) as string[]).length },
    });
  }
  const manifest = {
    entries,
    meta: {
      content_length: entries.reduce((n, e) => n + e.meta.content_length, 0),
      record_count: entries.reduce((n, e) => n + e.meta.record_count, 0),
    },
  };
  writeText(join(dir, 'manifest'), JSON.stringify(manifest, null, 2) + '\n');
}

/**
 * The OpenAlex snapshot layout: the fixture's raw works, and the works of the source file
 * that name one of the real entity samples (an author, the NIH as funder), partitioned by
 * their updated_date; the entity samples (authors, institution, funder, publisher, source,
 * topic) in their folders; and in `sources/` also the source objects embedded in those works
 * (`wave3/source_titles/openalex_sources_dehydrated.jsonl`) that the full sample lacks.
 */
function openAlexSnapshot(raw: readonly string[]): void {
  const entities = JSON.parse(readFileSync(src('openalex/entities_sample.json'), 'utf8')) as Loose[];
  const entityIds = new Set(entities.map((e) => e['id'] as string));
  const all = lines(gunzipSync(readFileSync(src('openalex/works.jsonl.gz'))).toString('utf8'));
  const names = (w: Loose): boolean =>
    ((w['authorships'] ?? []) as Loose[]).some((a) => entityIds.has((a['author'] as Loose)['id'] as string)) ||
    ((w['funders'] ?? []) as Loose[]).some((f) => entityIds.has(f['id'] as string));
  const linked = all.slice(raw.length).filter((l) => names(JSON.parse(l) as Loose));
  const works = [...raw, ...linked];
  snapshotEntity('works', works);
  const folder: Readonly<Record<string, string>> = {
    A: 'authors',
    I: 'institutions',
    F: 'funders',
    P: 'publishers',
    S: 'sources',
    T: 'topics',
  };
  const byFolder = new Map<string, string[]>();
  for (const e of entities) {
    const letter = String(e['id']).replace('https://openalex.org/', '').charAt(0);
    const name = folder[letter];
    if (name !== undefined) byFolder.set(name, [...(byFolder.get(name) ?? []), JSON.stringify(e)]);
  }
  // Embedded source objects carry no updated_date: they are filed under that of the first work naming them.
  const named = new Map<string, string>();
  for (const line of works) {
    const w = JSON.parse(line) as Loose;
    const source = ((w['primary_location'] ?? {}) as Loose)['source'] as Loose | null | undefined;
    const id = source?.['id'];
    if (typeof id === 'string' && !named.has(id)) named.set(id, String(w['updated_date']));
  }
  const embedded = lines(readFileSync(src('wave3/source_titles/openalex_sources_dehydrated.jsonl'), 'utf8'))
    .map((l) => JSON.parse(l) as Loose)
    .filter((s) => named.has(s['id'] as string) && !entityIds.has(s['id'] as string))
    .map((s) => JSON.stringify(s));
  byFolder.set('sources', [...(byFolder.get('sources') ?? []), ...embedded]);
  for (const [name, records] of byFolder) snapshotEntity(name, records, named);
}

/** Small real samples of every import format, cut from the source files without changing a record. */
function fixtures(): void {
  const flat = lines(readFileSync(src('openalex/works_flat.jsonl'), 'utf8')).slice(0, 40);
  writeText(join(FIXTURES, 'openalex/works_flat.jsonl'), flat.join('\n') + '\n');
  const raw = lines(gunzipSync(readFileSync(src('openalex/works.jsonl.gz'))).toString('utf8')).slice(0, 40);
  writeText(join(FIXTURES, 'openalex/works.jsonl.gz'), gzipSync(raw.join('\n') + '\n', { level: 9 }));
  // The ROR records the sampled works' institutions name, then the first others, as a pretty array.
  const named = new Set<string>();
  for (const line of flat) {
    for (const a of ((JSON.parse(line) as Loose)['authors'] ?? []) as Loose[])
      for (const i of (a['institutions'] ?? []) as Loose[])
        if (typeof i['ror'] === 'string') named.add(`https://ror.org/${i['ror']}`);
  }
  const sample = JSON.parse(readFileSync(src('ror/ror_v2_sample.json'), 'utf8')) as Loose[];
  const kept = sample.filter((r, k) => named.has(r['id'] as string) || k < 20);
  writeText(join(FIXTURES, 'ror/ror_v2_sample.json'), JSON.stringify(kept, null, 1) + '\n');
  const latest = lines(gunzipSync(readFileSync(src('ror/ror_v2_latest.jsonl.gz'))).toString('utf8')).slice(0, 20);
  writeText(join(FIXTURES, 'ror/ror_v2_latest.jsonl.gz'), gzipSync(latest.join('\n') + '\n', { level: 9 }));
  writeText(join(FIXTURES, 'ror/ror_v2_hierarchy.jsonl'), rorTrees(src('ror/ror_v2_latest.jsonl.gz')));
  const crossref = lines(readFileSync(src('crossref/works.jsonl'), 'utf8')).slice(0, 40);
  writeText(join(FIXTURES, 'crossref/works.jsonl'), crossref.join('\n') + '\n');
  const awards = lines(readFileSync(src('nih_reporter/nih_awards_2021-11_to_2025-02.csv'), 'utf8')).slice(0, 201);
  writeText(join(FIXTURES, 'nih_reporter/nih_awards.csv'), awards.join('\n') + '\n');
  copyFileSync(src('anzsrc_for_2020/for2020_codes.csv'), join(FIXTURES, 'anzsrc_for_2020/for2020_codes.csv'));

  openAlexSnapshot(raw);

  // The ROR data dump layout: a zip holding the schema-2 JSON array (fixed entry time: byte-identical).
  const dumpJson = JSON.stringify(kept, null, 2) + '\n';
  const zip = zipSync(
    { 'v1.55-2024-10-31-ror-data_schema_v2.json': [strToU8(dumpJson), { mtime: new Date('2024-10-31T00:00:00Z') }] },
    { level: 9 },
  );
  writeText(join(FIXTURES, 'ror/v1.55-2024-10-31-ror-data.zip'), Buffer.from(zip));
}

mkdirSync(join(FIXTURES, 'anzsrc_for_2020'), { recursive: true });
writeGzipJson(join(VENDOR_DIR, VENDOR_FILES.forCodes), forCodes());
writeGzipJson(join(VENDOR_DIR, VENDOR_FILES.personNames), personNames());
writeGzipJson(join(VENDOR_DIR, VENDOR_FILES.organizations), organizations());
writeGzipJson(join(VENDOR_DIR, VENDOR_FILES.textModel), buildTextModel(SOURCE));
fixtures();

/**
 * Whole parent/child trees of ROR records for the organization groups' hierarchy tests: the
 * Department of Space (India) and the Estado-Maior-General das Forças Armadas (Portugal) with
 * every held descendant, then the second parent of the one school that has two (Força Aérea
 * Portuguesa) alone, each record once, unchanged, as JSON Lines.
 */
function rorTrees(dump: string): string {
  const byId = new Map<string, Loose>();
  for (const line of lines(gunzipSync(readFileSync(dump)).toString('utf8'))) {
    const record = JSON.parse(line) as Loose;
    byId.set(record['id'] as string, record);
  }
  const related = (record: Loose, type: string): string[] =>
    ((record['relationships'] ?? []) as Loose[]).filter((r) => r['type'] === type).map((r) => r['id'] as string);
  const out: Loose[] = [];
  const seen = new Set<string>();
  const add = (id: string, withChildren: boolean): void => {
    const record = byId.get(id);
    if (record === undefined || seen.has(id)) return;
    seen.add(id);
    out.push(record);
    if (withChildren) for (const child of related(record, 'child')) add(child, true);
  };
  for (const root of ['https://ror.org/000kjq947', 'https://ror.org/000xab928']) add(root, true);
  // Alone: its other children stay out, so a group made from it names ids that are not held.
  add('https://ror.org/05yksqt98', false);
  return out.map((r) => JSON.stringify(r)).join('\n') + '\n';
}
