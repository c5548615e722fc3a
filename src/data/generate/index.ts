/**
 * `generate()`: the deterministic synthetic dataset of spec/generator.md as JSONL shards
 * per entity plus `manifest.json` (seed, scale, generator version, counts, SHA-256 per shard,
 * validation report).
 *
 * @example
 *   const manifest = await generate({ publications: 1000, seed: 20240601, outDir: '/tmp/q1k' });
 *   manifest.counts.publications; // 1000
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { QuarryError } from '../../errors/index.ts';
import { CitationModel } from './citations.ts';
import type { Context } from './context.ts';
import { ORGS_PER_RESEARCHER } from './context.ts';
import { buildFields } from './fields.ts';
import { assignGrantFunders, makeGrant } from './grants.ts';
import { buildJournals } from './journals.ts';
import { buildOrganizations } from './organizations.ts';
import { authorCount, buildPeople, identifiedSlots } from './people.ts';
import { FIRST_YEAR, GRANT_FIRST_YEAR, LAST_YEAR, planFor, yearStarts } from './plan.ts';
import { RandomSource } from './prng.ts';
import { DEFAULT_SEED } from './seed.ts';
import { countCitations, makePublication } from './publications.ts';
import { makeResearcher } from './researchers.ts';
import { ShardWriter, type ShardInfo } from './shard-writer.ts';
import type { RorOrganization } from '../ror-organization.ts';
import { loadReferenceData, VENDOR_DIR } from './reference-data.ts';
import { assertValid, validate, type Tallies, type ValidationReport } from './validation.ts';
import { TextModel } from './text-model.ts';

export const GENERATOR_VERSION = '1.0.0';
export { DEFAULT_SEED };
const PER_SHARD = 100_000;

/** A progress report: the phase and how far it is. */
export interface GenerateProgress {
  readonly phase: string;
  readonly done: number;
  readonly total: number;
}

export interface GenerateOptions {
  readonly publications: number;
  readonly seed?: number;
  readonly outDir: string;
  /** The reference data folder (default: the repository's vendored `src/data/vendor/`). */
  readonly dataDir?: string;
  readonly onProgress?: (progress: GenerateProgress) => void;
  /** Fail the run when the validation report is out of tolerance (default true). */
  readonly enforceValidation?: boolean;
}

/** What `manifest.json` holds. */
export interface Manifest {
  readonly generator: 'quarry';
  readonly generator_version: string;
  readonly seed: number;
  readonly publications: number;
  readonly counts: Readonly<Record<string, number>>;
  readonly shards: readonly ShardInfo[];
  readonly validation: ValidationReport;
}

const tick = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

function shuffledNames(names: readonly string[], random: RandomSource, label: string): string[] {
  const out = [...names];
  const r = random.draws('names', 0, label);
  for (let k = out.length - 1; k > 0; k--) {
    const j = Math.floor(r.next() * (k + 1));
    const t = out[k] as string;
    out[k] = out[j] as string;
    out[j] = t;
  }
  return out;
}

/** Country names of the organizations, the most frequent first: the places text may name. */
function placeNames(orgs: readonly RorOrganization[]): string[] {
  const counts = new Map<string, number>();
  for (const o of orgs)
    if (o.countryName !== undefined) counts.set(o.countryName, (counts.get(o.countryName) ?? 0) + 1);
  return [...counts].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1)).map(([name]) => name);
}

/** Generates the dataset into `outDir` (created if missing) and returns its manifest. */
export async function generate(options: GenerateOptions): Promise<Manifest> {
  const publications = options.publications;
  if (!Number.isInteger(publications) || publications < 1 || publications > 99_999_999) {
    throw QuarryError.of('DATA_BAD_SCALE', { params: { value: String(publications) } });
  }
  const seed = options.seed ?? DEFAULT_SEED;
  if (!Number.isInteger(seed) || seed < 0 || seed > 0xffffffff)
    throw QuarryError.of('DATA_BAD_SEED', { params: { value: String(seed) } });
  const report = options.onProgress ?? ((): void => undefined);
  const dataDir = options.dataDir ?? VENDOR_DIR;
  mkdirSync(options.outDir, { recursive: true });
  const random = new RandomSource(seed);
  const plan = planFor(publications);

  report({ phase: 'reading reference data', done: 0, total: 1 });
  let reference;
  try {
    reference = loadReferenceData(dataDir);
  } catch (cause) {
    throw QuarryError.of(
      'DATA_SHARED_DATA_MISSING',
      { params: { dir: dataDir, reason: cause instanceof Error ? cause.message : String(cause) } },
      { cause },
    );
  }
  const { forCodes, organizations: ror, personNames } = reference;
  const fields = buildFields(forCodes);
  const text = new TextModel(reference.textModel, placeNames(ror));
  const orgs = buildOrganizations(plan, ror, random);
  const journals = buildJournals(plan.journals, fields, random);
  const names = {
    first: shuffledNames(personNames.first, random, 'first'),
    last: shuffledNames(personNames.last, random, 'last'),
  };

  // Pass 0: each paper's field and team size; the identified slots size the Lotka pool.
  const pubStarts = yearStarts(publications, FIRST_YEAR, LAST_YEAR);
  const yearOf = (() => {
    const years = new Int16Array(publications);
    for (let y = 0; y < pubStarts.length - 1; y++) years.fill(FIRST_YEAR + y, pubStarts[y], pubStarts[y + 1]);
    return (i: number): number => years[i] as number;
  })();
  const division = new Uint8Array(publications);
  const authors = new Uint16Array(publications);
  let slots = 0;
  let authorSlots = 0;
  for (let i = 0; i < publications; i++) {
    const d = fields.byShare.sample(random.uniform('publication', i, 'field'));
    division[i] = d;
    const n = authorCount(random, i, fields, d);
    authors[i] = n;
    authorSlots += n;
    for (const identified of identifiedSlots(random, i, n)) if (identified) slots++;
  }
  const people = buildPeople(random, Math.max(1, slots), orgs.research, {
    first: names.first.length,
    last: names.last.length,
  });
  const R = people.researchers;
  const stats = {
    firstYear: new Int16Array(R),
    lastYear: new Int16Array(R),
    publications: new Uint16Array(R),
    grants: new Uint16Array(R),
    firstGrantYear: new Int16Array(R),
    lastGrantYear: new Int16Array(R),
    orgs: new Int32Array(R * ORGS_PER_RESEARCHER).fill(-1),
    currentOrg: new Int32Array(R).fill(-1),
  };
  const grantStarts = yearStarts(plan.grants, GRANT_FIRST_YEAR, LAST_YEAR);
  const ctx: Context = {
    random,
    plan,
    fields,
    text,
    orgs,
    journals,
    people,
    names,
    stats,
    citations: new CitationModel(random, pubStarts),
    pubStarts,
    division,
    authors,
    grantStarts,
    grantFunder: assignGrantFunders({ random, plan, orgs }),
    cited: new Int32Array(publications),
    recent: new Int32Array(publications),
    meanCited: new Float64Array((LAST_YEAR - FIRST_YEAR + 1) * fields.divisions.length),
  };

  // Pass 1: count citations, so every record is written once with its final counts.
  let citationLinks = 0;
  for (let i = 0; i < publications; i += 20_000) {
    citationLinks += countCitations(ctx, i, Math.min(publications, i + 20_000), yearOf);
    report({ phase: 'citations', done: Math.min(publications, i + 20_000), total: publications });
    await tick();
  }
  const groupCount = new Float64Array(ctx.meanCited.length);
  for (let i = 0; i < publications; i++) {
    const k = (yearOf(i) - FIRST_YEAR) * fields.divisions.length + (division[i] as number);
    ctx.meanCited[k] = (ctx.meanCited[k] as number) + (ctx.cited[i] as number);
    groupCount[k] = (groupCount[k] as number) + 1;
  }
  for (let k = 0; k < ctx.meanCited.length; k++)
    if ((groupCount[k] as number) > 0) ctx.meanCited[k] = (ctx.meanCited[k] as number) / (groupCount[k] as number);

  const shards: ShardInfo[] = [];
  const counts: Record<string, number> = {};
  const writeAll = (kind: string, records: readonly object[]): void => {
    const w = new ShardWriter(options.outDir, kind, 250_000);
    for (const r of records) w.write(r);
    shards.push(...w.close());
    counts[kind] = w.total;
  };
  writeAll('categories', fields.categories);
  writeAll('organizations', orgs.records);
  writeAll('journals', journals.records);

  const grantsOut = new ShardWriter(options.outDir, 'grants', PER_SHARD);
  for (let g = 0; g < plan.grants; g++) {
    grantsOut.write(makeGrant(ctx, g));
    if (g % 5000 === 4999) {
      report({ phase: 'grants', done: g + 1, total: plan.grants });
      await tick();
    }
  }
  shards.push(...grantsOut.close());
  counts['grants'] = grantsOut.total;

  const tallies: Tallies = {
    publications,
    authorSlots,
    papersPerResearcher: [],
    oldPapers: 0,
    oldUncited: 0,
    funded: 0,
    citationLinks,
    organizationLinks: 0,
    openAccessByYear: new Map(),
  };
  const pubsOut = new ShardWriter(options.outDir, 'publications', PER_SHARD);
  const cursor = { at: 0 };
  for (let i = 0; i < publications; i++) {
    const year = yearOf(i);
    const rec = makePublication(ctx, i, year, cursor);
    pubsOut.write(rec);
    tallies.organizationLinks += rec.research_orgs.length;
    if (rec.supporting_grant_ids.length > 0) tallies.funded++;
    if (year <= LAST_YEAR - 5) {
      tallies.oldPapers++;
      if (rec.times_cited === 0) tallies.oldUncited++;
    }
    const oa = tallies.openAccessByYear.get(year) ?? [0, 0];
    oa[0]++;
    if (rec.open_access[0] === 'oa_all') oa[1]++;
    tallies.openAccessByYear.set(year, oa);
    if (i % 2000 === 1999) {
      report({ phase: 'publications', done: i + 1, total: publications });
      await tick();
    }
  }
  shards.push(...pubsOut.close());
  counts['publications'] = pubsOut.total;

  const researchersOut = new ShardWriter(options.outDir, 'researchers', 250_000);
  for (let r = 0; r < R; r++) {
    const rec = makeResearcher(ctx, r);
    researchersOut.write(rec);
    tallies.papersPerResearcher[rec.total_publications] =
      (tallies.papersPerResearcher[rec.total_publications] ?? 0) + 1;
    if (r % 20_000 === 19_999) {
      report({ phase: 'researchers', done: r + 1, total: R });
      await tick();
    }
  }
  shards.push(...researchersOut.close());
  counts['researchers'] = researchersOut.total;
  for (let n = 0; n < tallies.papersPerResearcher.length; n++) tallies.papersPerResearcher[n] ??= 0;

  const validation = validate(tallies);
  const manifest: Manifest = {
    generator: 'quarry',
    generator_version: GENERATOR_VERSION,
    seed,
    publications,
    counts,
    shards,
    validation,
  };
  writeFileSync(join(options.outDir, 'manifest.json'), JSON.stringify(manifest, null, 2) + '\n');
  report({ phase: 'done', done: 1, total: 1 });
  if (options.enforceValidation !== false) assertValid(validation);
  return manifest;
}

export { assertValid, validate } from './validation.ts';
export type { ValidationReport } from './validation.ts';
