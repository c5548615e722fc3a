/**
 * Import throughput of the record store: upserts N synthetic publications (plus their
 * organizations and researchers) and prints records/s for the load and for finish().
 *
 *   npx tsx bench/import.ts [publications=100000] [--bulk] [--db path] [--keep]
 *   npx tsx bench/import.ts 100000 --bulk --generate     (the data area's generator)
 *   npx tsx bench/import.ts --bulk --from <dir of generated .jsonl shards>
 *
 * The records imitate spec/generator.md's shapes (about 4.8 authors, 2.3 organizations,
 * 30 references, 220-word abstracts, 1-3 categories, 8 concepts per paper) from a seeded
 * generator, so runs are comparable. Only the time spent inside the store is counted.
 */
import { createReadStream, mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { createInterface } from 'node:readline';
import { createGunzip } from 'node:zlib';
import { RECORD_KINDS, type RecordKind } from '../src/model/storage.ts';
import { openRecordStore } from '../src/store/sqlite/records-store.ts';
import { seededRandom } from './random.ts';

const args = process.argv.slice(2);
const count = Number(args.find((a) => /^\d+$/.test(a)) ?? 100_000);
const bulk = args.includes('--bulk');
const keep = args.includes('--keep');
const dbArg = args.indexOf('--db');
const fromArg = args.indexOf('--from');
let generatedDir = fromArg >= 0 ? args[fromArg + 1] : undefined;
const dir = mkdtempSync(join(tmpdir(), 'quarry-bench-import-'));
const dbPath = dbArg >= 0 ? (args[dbArg + 1] as string) : join(dir, 'bench.db');

const rand = seededRandom(20240601);
const int = (lo: number, hi: number): number => lo + Math.floor(rand() * (hi - lo + 1));
/** Zipf-ish index in [0, n): small indexes are much more frequent. */
const zipf = (n: number): number => Math.min(n - 1, Math.floor(Math.exp(rand() * Math.log(n + 1)) - 1));

const syllables = [
  'ka',
  'lo',
  'mi',
  'ter',
  'an',
  'so',
  'ri',
  'ven',
  'dal',
  'por',
  'ex',
  'in',
  'ul',
  'tra',
  'gen',
  'bio',
  'neo',
  'sta',
  'mor',
  'phi',
];
const vocabulary = Array.from({ length: 30_000 }, (_, i) => {
  let w = '';
  let x = i + 1;
  do {
    w += syllables[x % syllables.length];
    x = Math.floor(x / syllables.length);
  } while (x > 0);
  return w;
});
const words = (n: number): string => Array.from({ length: n }, () => vocabulary[zipf(vocabulary.length)]).join(' ');
const firstNames = Array.from({ length: 2000 }, (_, i) => `First${vocabulary[i]}`);
const lastNames = Array.from({ length: 20_000 }, (_, i) => `Last${vocabulary[i]}`);

const nOrgs = Math.max(100, Math.round(count * 0.025));
const nResearchers = Math.max(100, Math.round(count * 1.9));
const orgId = (i: number): string => `grid.${900000 + i}.${(i % 16).toString(16)}`;
const researcherId = (i: number): string => `ur.0${String(i).padStart(9, '0')}.${String(i % 97).padStart(2, '0')}`;
const pubId = (i: number): string => `pub.19${String(i).padStart(8, '0')}`;

function organization(i: number): object {
  return {
    id: orgId(i),
    name: `University of ${words(2)}`,
    acronym: `U${i}`,
    city_name: `City ${i % 500}`,
    city_id: String(2_000_000 + (i % 500)),
    country_code: ['AU', 'US', 'GB', 'DE', 'JP', 'BR'][i % 6],
    country_name: ['Australia', 'United States', 'United Kingdom', 'Germany', 'Japan', 'Brazil'][i % 6],
    types: ['education'],
    established: 1800 + (i % 200),
  };
}

function researcher(i: number): object {
  return {
    id: researcherId(i),
    first_name: firstNames[i % firstNames.length],
    last_name: lastNames[(i * 7) % lastNames.length],
    obsolete: 0,
  };
}

function publication(i: number): object {
  const year = 1995 + Math.min(30, Math.floor((i / count) * 31));
  const nAuthors = Math.max(1, Math.round(-Math.log(1 - rand()) * 4.8));
  const orgs = Array.from({ length: int(1, 4) }, () => zipf(nOrgs));
  const authors = Array.from({ length: nAuthors }, (_, k) => {
    const named = rand() < 0.9;
    const r = zipf(nResearchers);
    const o = orgs[k % orgs.length] as number;
    return {
      first_name: firstNames[r % firstNames.length],
      last_name: lastNames[(r * 7) % lastNames.length],
      researcher_id: named ? researcherId(r) : null,
      affiliations: [{ id: orgId(o), name: `Org ${o}` }],
    };
  });
  const refs = i === 0 ? [] : Array.from({ length: int(10, 50) }, () => pubId(Math.floor(rand() * i)));
  return {
    id: pubId(i),
    doi: `10.99999/syn.${String(i).padStart(8, '0')}`,
    title: words(int(8, 15)),
    abstract: rand() < 0.9 ? words(int(120, 320)) : undefined,
    type: rand() < 0.85 ? 'article' : 'chapter',
    year,
    date: `${year}-${String(int(1, 12)).padStart(2, '0')}-01`,
    journal: { id: `jour.19${String(zipf(8000)).padStart(5, '0')}`, title: `Journal ${words(2)}` },
    volume: String(int(1, 80)),
    issue: String(int(1, 12)),
    pages: `${int(1, 900)}-${int(901, 999)}`,
    authors,
    research_orgs: [...new Set(orgs.map(orgId))],
    funders: rand() < 0.38 ? [{ id: orgId(zipf(nOrgs)), name: 'Funder' }] : [],
    supporting_grant_ids: rand() < 0.38 ? [`grant.9${String(int(0, 99999)).padStart(6, '0')}`] : [],
    category_for: Array.from({ length: int(0, 3) }, () => ({ id: String(3000 + zipf(200)), name: `FoR ${words(2)}` })),
    concepts: Array.from({ length: int(4, 12) }, () => words(int(1, 2))),
    open_access: rand() < 0.45 ? ['oa_all', 'gold'] : ['closed'],
    reference_ids: refs,
    altmetric: rand() < 0.5 ? Math.round(rand() * 1000) / 10 : undefined,
  };
}

/** Every `.jsonl` / `.jsonl.gz` file under `dir`. */
function jsonlFiles(dir: string): string[] {
  return readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .filter((f) => /\.jsonl(\.gz)?$/.test(f))
    .sort()
    .map((f) => join(dir, f));
}

/** The record kind a shard holds, from its name (`publications-0001.jsonl`, `grants.jsonl.gz`, ...). */
function kindOfFile(file: string): RecordKind | undefined {
  const name = basename(file).toLowerCase();
  return (
    RECORD_KINDS.find((k) => name.startsWith(k) || name.includes(`/${k}`)) ??
    RECORD_KINDS.find((k) => file.toLowerCase().includes(k))
  );
}

function openJsonl(file: string): NodeJS.ReadableStream {
  const stream = createReadStream(file);
  return file.endsWith('.gz') ? stream.pipe(createGunzip()) : stream;
}

if (generatedDir === undefined && args.includes('--generate')) {
  // The data area's generator, when present: generate, then import its output.
  const generatorPath = '../src/data/generate/index.ts';
  const generator = (await import(generatorPath)) as {
    generate: (o: { publications: number; seed: number; outDir: string }) => Promise<unknown>;
  };
  generatedDir = join(dir, 'generated');
  const started = performance.now();
  await generator.generate({ publications: count, seed: 20240601, outDir: generatedDir });
  console.log(`  generated ${count} publications in ${((performance.now() - started) / 1000).toFixed(1)} s`);
}
console.log(`mode: ${bulk ? 'bulk' : 'plain'}`);
const store = openRecordStore(dbPath, { bulk });
// Wall time and CPU time inside the store: the machine is shared, so CPU time is the
// steadier figure (what the import would take with a core to itself).
let storeMs = 0;
let storeCpuMs = 0;
const timed = (fn: () => void): void => {
  const t = performance.now();
  const c = process.cpuUsage();
  fn();
  const used = process.cpuUsage(c);
  storeCpuMs += (used.user + used.system) / 1000;
  storeMs += performance.now() - t;
};

const batch = 5000;
let lastReport = performance.now();
const progress = (done: number): void => {
  if (performance.now() - lastReport > 10_000) {
    lastReport = performance.now();
    console.log(`  ${done} publications, ${Math.round(done / (storeMs / 1000))} records/s so far`);
  }
};
let entityMs = 0;
let entityCount = 0;
let pubCount = 0;

if (generatedDir !== undefined) {
  // Generated data: the data area's generator writes JSONL shards per entity; entities
  // first so the publications' links resolve, publications timed on their own.
  const files = jsonlFiles(generatedDir);
  const order: RecordKind[] = ['organizations', 'categories', 'source_titles', 'researchers', 'grants', 'publications'];
  for (const kind of order) {
    for (const file of files.filter((f) => kindOfFile(f) === kind)) {
      let recs: object[] = [];
      const flush = (): void => {
        if (kind === 'publications') {
          timed(() => store.upsert(kind, recs));
          pubCount += recs.length;
          progress(pubCount);
        } else {
          const before = storeMs;
          timed(() => store.upsert(kind, recs));
          entityMs += storeMs - before;
          entityCount += recs.length;
        }
        recs = [];
      };
      if (kind === 'publications' && pubCount === 0) {
        storeMs = 0;
        storeCpuMs = 0;
      }
      for await (const line of createInterface({ input: openJsonl(file), crlfDelay: Infinity })) {
        if (line.trim().length === 0) continue;
        recs.push(JSON.parse(line) as object);
        if (recs.length === batch) flush();
      }
      if (recs.length > 0) flush();
    }
  }
} else {
  timed(() =>
    store.upsert(
      'organizations',
      Array.from({ length: nOrgs }, (_, i) => organization(i)),
    ),
  );
  for (let start = 0; start < nResearchers; start += 50_000) {
    const recs = Array.from({ length: Math.min(50_000, nResearchers - start) }, (_, k) => researcher(start + k));
    timed(() => store.upsert('researchers', recs));
  }
  entityMs = storeMs;
  entityCount = nOrgs + nResearchers;
  storeMs = 0;
  storeCpuMs = 0;
  for (let start = 0; start < count; start += batch) {
    const recs = Array.from({ length: Math.min(batch, count - start) }, (_, k) => publication(start + k));
    timed(() => store.upsert('publications', recs));
    pubCount += recs.length;
    progress(pubCount);
  }
}
const pubMs = storeMs;
const pubCpuMs = storeCpuMs;
const finishStarted = performance.now();
const finishCpu = process.cpuUsage();
const report = store.finish({ onStep: (step, ms) => console.log(`  finish: ${step} ${ms} ms`) });
const finishMs = performance.now() - finishStarted;
const finishCpuUsed = process.cpuUsage(finishCpu);
const finishCpuMs = (finishCpuUsed.user + finishCpuUsed.system) / 1000;
const counts = store.counts();
store.close();

const size = statSync(dbPath).size;
console.log(
  `store import bench (${generatedDir === undefined ? 'synthetic records' : `generated data in ${generatedDir}`}), load average ${loadavg()
    .map((l) => l.toFixed(1))
    .join(' ')}`,
);
console.log(
  `  other records ${entityCount}: ${(entityMs / 1000).toFixed(1)} s (${Math.round(entityCount / (entityMs / 1000))} records/s)`,
);
console.log(
  `  publications ${pubCount}: ${(pubMs / 1000).toFixed(1)} s wall -> ${Math.round(pubCount / (pubMs / 1000))} publications/s; ${(pubCpuMs / 1000).toFixed(1)} s CPU -> ${Math.round(pubCount / (pubCpuMs / 1000))} publications/s`,
);
console.log(
  `  finish(): ${(finishMs / 1000).toFixed(1)} s wall, ${(finishCpuMs / 1000).toFixed(1)} s CPU (${report.steps.length} steps)`,
);
console.log(
  `  load + finish: ${Math.round(pubCount / ((pubMs + finishMs) / 1000))} publications/s wall, ${Math.round(pubCount / ((pubCpuMs + finishCpuMs) / 1000))} publications/s CPU`,
);
console.log(`  rows: ${JSON.stringify(counts)}`);
console.log(`  database: ${(size / 1024 / 1024).toFixed(0)} MiB at ${dbPath}`);
// The scratch folder holds the database (unless --db) and any generated shards.
if (!keep) {
  if (dbArg >= 0) rmSync(join(dir, 'generated'), { recursive: true, force: true });
  else rmSync(dir, { recursive: true, force: true });
}
if (dbArg >= 0 && readdirSync(dir).length === 0) rmSync(dir, { recursive: true, force: true });
