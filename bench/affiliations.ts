/**
 * The affiliation matcher (extract_affiliations, `quarry match-affiliations`) on labelled
 * real strings: for each labelled set, precision and recall on single-organization strings
 * whose organization is held, set F1 on multi-organization strings, the share of strings
 * naming no held organization that still get a match, and strings per second; and the
 * index's build time and heap. Reads the shared data beside the repository
 * (../shared/data/ror: the ROR dump and ROR's affiliation-matching sets;
 * ../shared/data/wave3/affiliations: publisher-asserted Crossref strings).
 *
 * `--names-only` leaves aliases and other-language labels out, as the deployed function reads
 * the organizations (the protocol has no aliases field).
 *
 * `--errors N` also prints, per set, up to N wrong matches on single-organization strings and
 * N matches on strings naming no held organization, to read the errors by kind.
 *
 *   npx tsx bench/affiliations.ts [--data /work/shared/data] [--limit N] [--names-only] [--errors N]
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { CsvLineReader } from '../src/data/csv.ts';
import { buildAffiliationIndex } from '../src/analytics/affiliations/index.ts';
import { matchAffiliation } from '../src/analytics/affiliations/match.ts';
import type { MatchableOrganization } from '../src/analytics/affiliations/organization.ts';
import { fromRorRecord } from '../src/analytics/affiliations/records.ts';

const arg = (name: string): string | undefined => {
  const at = process.argv.indexOf(`--${name}`);
  return at < 0 ? undefined : process.argv[at + 1];
};
const data = arg('data') ?? new URL('../../../shared/data', import.meta.url).pathname;
const limit = Number(arg('limit') ?? Infinity);
const namesOnly = process.argv.includes('--names-only');
const errorsShown = Number(arg('errors') ?? 0);
const rorDump = join(data, 'ror/ror_v2_latest.jsonl.gz');
if (!existsSync(rorDump)) throw new Error(`no ROR dump at ${rorDump} (give --data)`);

const heapBefore = process.memoryUsage().heapUsed;
const startedLoad = performance.now();
const organizations: MatchableOrganization[] = [];
for (const line of gunzipSync(readFileSync(rorDump)).toString('utf8').split('\n')) {
  if (line.length === 0) continue;
  const org = fromRorRecord(JSON.parse(line) as Record<string, unknown>);
  if (org !== undefined) organizations.push(namesOnly ? { ...org, aliases: [] } : org);
}
const startedBuild = performance.now();
const index = buildAffiliationIndex(organizations);
const built = performance.now();
const heapMb = (process.memoryUsage().heapUsed - heapBefore) / 1e6;
console.log(
  `index: ${index.size} organizations, read ${((startedBuild - startedLoad) / 1000).toFixed(1)} s, built ${((built - startedBuild) / 1000).toFixed(1)} s, heap +${heapMb.toFixed(0)} MB (records and index)`,
);

interface Labelled {
  readonly text: string;
  readonly ids: readonly string[];
}

function parseCsv(text: string): string[][] {
  const reader = new CsvLineReader();
  const rows: string[][] = [];
  for (const line of text.split('\n')) {
    const row = reader.push(line);
    if (row !== undefined) rows.push(row);
  }
  const last = reader.flush();
  if (last !== undefined) rows.push(last);
  return rows;
}

const sets: [string, () => Labelled[]][] = [
  [
    'ror-api crossref 2024',
    () =>
      (
        JSON.parse(
          readFileSync(join(data, 'ror/affiliation_matching/dataset_affiliations_crossref_2024_02_19.json'), 'utf8'),
        ) as { affiliation: string; ror_ids: string[] }[]
      ).map((r) => ({ text: r.affiliation, ids: r.ror_ids })),
  ],
  [
    'ror-api springer 2023',
    () =>
      (
        JSON.parse(
          readFileSync(join(data, 'ror/affiliation_matching/dataset_affiliations_springer_2023_10_31.json'), 'utf8'),
        ) as { affiliation: string; ror_ids: string[] }[]
      ).map((r) => ({ text: r.affiliation, ids: r.ror_ids })),
  ],
  [
    'ror-api names',
    () =>
      (
        JSON.parse(readFileSync(join(data, 'ror/affiliation_matching/dataset_names.json'), 'utf8')) as {
          affiliation: string;
          'ror-id': string;
        }[]
      ).map((r) => ({
        text: r.affiliation,
        ids: r['ror-id'] ? [r['ror-id']] : [],
      })),
  ],
  [
    'crossref publisher-asserted 2023',
    () =>
      parseCsv(
        gunzipSync(
          readFileSync(join(data, 'wave3/affiliations/crossref_publisher_asserted_affiliations_2023-06-28.csv.gz')),
        )
          .toString('utf8')
          .replace(/^\uFEFF/, ''),
      )
        .slice(1)
        .filter((r) => r.length >= 2)
        .map((r) => ({ text: r[0] as string, ids: [r[1] as string] })),
  ],
];

const pct = (n: number, d: number): string => (d === 0 ? '   -  ' : `${((100 * n) / d).toFixed(1).padStart(5)}%`);
for (const [name, load] of sets) {
  const rows = load().slice(0, limit);
  let singleTp = 0,
    singleFp = 0,
    singleN = 0;
  let multiTp = 0,
    multiFp = 0,
    multiFn = 0,
    multiN = 0;
  let noneN = 0,
    noneMatched = 0;
  const errors: string[] = [];
  const nameOf = (id: string): string => `${index.byId.get(id)?.name ?? '?'} (${id.slice(-9)})`;
  const started = performance.now();
  for (const row of rows) {
    const held = row.ids.filter((id) => index.byId.has(id));
    const got = matchAffiliation(index, row.text).map((m) => m.organization.id);
    if (held.length === 0) {
      // Strings naming no held organization (unlabelled, or labelled with records not held).
      noneN += 1;
      if (got.length > 0) noneMatched += 1;
      if (got.length > 0 && errors.length < 2 * errorsShown)
        errors.push(`  none  ${JSON.stringify(row.text)} -> ${got.map(nameOf).join(' | ')}`);
    } else if (row.ids.length === 1) {
      singleN += 1;
      if (got.includes(held[0] as string)) singleTp += 1;
      const wrong = got.filter((id) => id !== held[0]);
      singleFp += wrong.length;
      if (wrong.length > 0 && errors.filter((e) => e.startsWith('  fp')).length < errorsShown)
        errors.push(
          `  fp    ${JSON.stringify(row.text)} -> ${wrong.map(nameOf).join(' | ')}; want ${nameOf(held[0] as string)}`,
        );
    } else {
      multiN += 1;
      multiTp += got.filter((id) => held.includes(id)).length;
      multiFp += got.filter((id) => !held.includes(id)).length;
      multiFn += held.filter((id) => !got.includes(id)).length;
    }
  }
  const seconds = (performance.now() - started) / 1000;
  const p = singleTp + singleFp === 0 ? 0 : singleTp / (singleTp + singleFp);
  const mp = multiTp / Math.max(1, multiTp + multiFp);
  const mr = multiTp / Math.max(1, multiTp + multiFn);
  const f1 = mp + mr === 0 ? 0 : (2 * mp * mr) / (mp + mr);
  console.log(
    `${name.padEnd(34)} strings ${String(rows.length).padStart(6)} | single held ${singleN}: precision ${pct(p * 1000, 1000)} recall ${pct(singleTp, singleN)} | multi ${multiN}: set F1 ${multiN === 0 ? '  -' : (f1 * 100).toFixed(1) + '%'} | no held org ${noneN}: matched ${pct(noneMatched, noneN)} | ${Math.round(rows.length / seconds)} strings/s`,
  );
  for (const line of errors) console.log(line);
}
