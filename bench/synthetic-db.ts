/**
 * A quick synthetic record database for engine benchmarks when the demo generator's output
 * is not at hand: Zipf-distributed words, researchers, organizations and funders, through
 * the store's own writer. Not realistic enough for anything but timing the engine.
 *
 *   npx tsx bench/synthetic-db.ts --publications 1000000 --out /tmp/quarry-synthetic-1m.db
 */
import { existsSync, rmSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { openRecordStore } from '../src/store/sqlite/records-store.ts';
import { seededRandom } from './random.ts';

const { values: args } = parseArgs({
  options: { publications: { type: 'string', default: '100000' }, out: { type: 'string' } },
});
const N = Number(args.publications);
const out = args.out ?? `/tmp/quarry-synthetic-${N}.db`;

const rand = seededRandom(20240601);
/** Zipf-like index in [0, n): small indexes much more likely. */
const zipf = (n: number, s = 1.1): number => Math.min(n - 1, Math.floor(Math.pow(n, Math.pow(rand(), s)) - 1));

const SYLLABLES = [
  'ma',
  'la',
  'ri',
  'to',
  'gen',
  'cell',
  'neu',
  'ro',
  'qua',
  'tum',
  'bio',
  'chem',
  'lo',
  'gy',
  'ter',
  'mo',
  'dy',
  'na',
  'mic',
  'sta',
  'tis',
  'tic',
  'vi',
  'rus',
  'car',
  'bon',
  'pro',
  'te',
  'in',
  'ge',
];
const VOCAB = Array.from({ length: 30_000 }, (_v, i) => {
  let w = '';
  let k = i + 7;
  do {
    w += SYLLABLES[k % SYLLABLES.length];
    k = Math.floor(k / SYLLABLES.length);
  } while (k > 0);
  return w;
});
const words = (n: number): string => Array.from({ length: n }, () => VOCAB[zipf(VOCAB.length)]).join(' ');

const ORGS = Math.max(50, Math.round(N * 0.025));
const FUNDERS = Math.max(10, Math.round(N * 0.003));
const RESEARCHERS = Math.max(100, Math.round(N * 1.9));
const FIRST = [
  'Ana',
  'Jennifer',
  'Satoko',
  'Li',
  'Mohammed',
  'Olga',
  'Pierre',
  'Kwame',
  'Maria',
  'John',
  'Wei',
  'Priya',
];
const LAST = [
  'Silva',
  'Doudna',
  'Shimazaki',
  'Wang',
  'Hassan',
  'Ivanova',
  'Martin',
  'Mensah',
  'Garcia',
  'Smith',
  'Chen',
  'Patel',
];
const orgId = (i: number): string => `grid.${900000 + i}.${(i % 16).toString(16)}`;
const resId = (i: number): string => `ur.0${String(100000000 + i).padStart(9, '0')}.${String(i % 97).padStart(2, '0')}`;
const name = (i: number): [string, string] => [
  `${FIRST[i % FIRST.length]}${Math.floor(i / 144) % 50 === 0 ? '' : String.fromCharCode(97 + (i % 26))}`,
  `${LAST[Math.floor(i / FIRST.length) % LAST.length]}${Math.floor(i / 144)}`,
];

if (existsSync(out)) rmSync(out);
const store = openRecordStore(out, { bulk: true });
const t0 = Date.now();
store.upsert(
  'organizations',
  Array.from({ length: ORGS + FUNDERS }, (_v, i) => ({
    id: orgId(i),
    name: `${i < ORGS ? 'University' : 'Foundation'} of ${VOCAB[i]} ${VOCAB[i + 1]}`,
    country_name: ['Germany', 'Australia', 'Japan', 'Brazil', 'Kenya'][i % 5],
    country_code: ['DE', 'AU', 'JP', 'BR', 'KE'][i % 5],
    city_name: `City ${i % 300}`,
    types: [i < ORGS ? 'Education' : 'Funder'],
  })),
);
for (let start = 0; start < RESEARCHERS; start += 50_000) {
  store.upsert(
    'researchers',
    Array.from({ length: Math.min(50_000, RESEARCHERS - start) }, (_v, k) => {
      const [first_name, last_name] = name(start + k);
      return { id: resId(start + k), first_name, last_name };
    }),
  );
}
const BATCH = 10_000;
for (let start = 0; start < N; start += BATCH) {
  const batch = [];
  for (let k = 0; k < BATCH && start + k < N; k++) {
    const i = start + k;
    const year = 1995 + Math.min(30, Math.floor(Math.sqrt(rand()) * 31));
    const nAuthors = 1 + Math.min(40, Math.floor(-Math.log(1 - rand()) * 3.8));
    const authors = Array.from({ length: nAuthors }, () => {
      const r = zipf(RESEARCHERS, 1.6);
      const [first_name, last_name] = name(r);
      return { first_name, last_name, researcher_id: resId(r), affiliations: [{ id: orgId(zipf(ORGS, 1.3)) }] };
    });
    const funded = rand() < 0.38;
    const cited = Math.floor(-Math.log(1 - rand()) * 8);
    batch.push({
      id: `pub.19${String(i).padStart(8, '0')}`,
      title: words(12),
      abstract: rand() < 0.9 ? words(120) : undefined,
      year,
      date: `${year}-${String(1 + Math.floor(rand() * 12)).padStart(2, '0')}-${String(1 + Math.floor(rand() * 28)).padStart(2, '0')}`,
      type: ['article', 'article', 'article', 'chapter', 'proceeding', 'preprint', 'book'][Math.floor(rand() * 7)],
      doi: `10.99999/syn.${i}`,
      times_cited: cited,
      recent_citations: Math.floor(cited / 3),
      relative_citation_ratio: rand() * 3,
      field_citation_ratio: rand() * 5,
      altmetric: Math.floor(rand() * 50),
      authors,
      funders: funded ? [orgId(ORGS + zipf(FUNDERS))] : [],
      category_for: [{ id: `${3000 + zipf(200)}`, name: `${30 + (i % 20)} ${VOCAB[zipf(200)]} studies` }],
      open_access: [rand() < 0.45 ? 'oa_all' : 'closed'],
      journal: {
        id: `jour.19${String(zipf(Math.max(10, N / 125))).padStart(5, '0')}`,
        title: `Journal of ${VOCAB[zipf(500)]}`,
      },
    });
  }
  store.upsert('publications', batch);
  if (start % 100_000 === 0)
    process.stdout.write(`\r${start + batch.length} publications (${((Date.now() - t0) / 1000).toFixed(0)} s)`);
}
process.stdout.write('\nfinishing (derived data, indexes, FTS merge)...\n');
store.finish();
store.close();
console.log(`${out}: ${N} publications in ${((Date.now() - t0) / 1000).toFixed(0)} s`);
