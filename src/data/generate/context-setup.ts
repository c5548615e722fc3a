/**
 * Builds a generator run's `Context`: the reference data, the organizations, source titles and
 * people drawn from it, and the per-paper arrays of the first two passes (each paper's field
 * and team size; the citation counts). The main thread runs the passes; a publication thread
 * (`publication-worker.ts`) is handed their arrays and builds the same context without them.
 * Every draw is keyed (`prng.ts`), so both build the same values.
 */
import { QuarryError } from '../../errors/index.ts';
import type { RorOrganization } from '../ror-organization.ts';
import { CitationModel } from './citations.ts';
import { ORGS_PER_RESEARCHER, type Context } from './context.ts';
import { buildFields } from './fields.ts';
import { assignGrantFunders } from './grants.ts';
import { buildSourceTitles } from './source-titles.ts';
import { buildOrganizations } from './organizations.ts';
import { authorCount, buildPeople, identifiedSlots } from './people.ts';
import { FIRST_YEAR, GRANT_FIRST_YEAR, LAST_YEAR, planFor, yearStarts } from './plan.ts';
import { RandomSource, shuffledWith } from './prng.ts';
import { countCitations } from './publications.ts';
import { loadReferenceData } from './reference-data.ts';
import { TextModel } from './text-model.ts';

/** What a run is: its scale, seed and reference data. */
export interface RunSettings {
  readonly publications: number;
  readonly seed: number;
  readonly dataDir: string;
}

/** The per-paper arrays of the first two passes, which a publication thread is handed. */
export interface PaperPasses {
  /** Each paper's division (index into the fields' divisions) and author count. */
  readonly division: Uint8Array;
  readonly authors: Uint16Array;
  /** Identified author slots in all: the size of the researchers' pool. */
  readonly slots: number;
  /** Citations each paper receives, from all papers and from the last two years. */
  readonly cited: Int32Array;
  readonly recent: Int32Array;
  /** Mean citations per (year, division), for field citation ratios. */
  readonly meanCited: Float64Array;
}

function shuffledNames(names: readonly string[], random: RandomSource, label: string): string[] {
  return shuffledWith(names, random.draws('names', 0, label));
}

/** Country names of the organizations, the most frequent first: the places text may name. */
function placeNames(orgs: readonly RorOrganization[]): string[] {
  const counts = new Map<string, number>();
  for (const o of orgs)
    if (o.countryName !== undefined) counts.set(o.countryName, (counts.get(o.countryName) ?? 0) + 1);
  return [...counts].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1)).map(([name]) => name);
}

/** The year of paper i, from where each year's papers start (papers are numbered year by year, oldest first). */
function yearsOfPapers(pubStarts: Int32Array, publications: number): (i: number) => number {
  const years = new Int16Array(publications);
  for (let y = 0; y < pubStarts.length - 1; y++) years.fill(FIRST_YEAR + y, pubStarts[y], pubStarts[y + 1]);
  return (i: number): number => years[i] as number;
}

/**
 * The run's context and the year of each paper. Without `passes`, runs the first two passes
 * here (each paper's field and team size, then the citation counts) and tallies their author
 * slots and citation links; with them, takes their arrays as they are (and tallies nothing:
 * both are 0).
 */
export async function setUpContext(
  run: RunSettings,
  passes?: PaperPasses,
  onPass?: (done: number) => Promise<void>,
): Promise<{
  ctx: Context;
  yearOf: (i: number) => number;
  passes: PaperPasses;
  authorSlots: number;
  citationLinks: number;
}> {
  const { publications, seed, dataDir } = run;
  const random = new RandomSource(seed);
  const plan = planFor(publications);
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
  const journals = buildSourceTitles(plan.journals, fields, random);
  const names = {
    first: shuffledNames(personNames.first, random, 'first'),
    last: shuffledNames(personNames.last, random, 'last'),
  };

  // Pass 0: each paper's field and team size; the identified slots size the Lotka pool.
  let division = passes?.division;
  let authors = passes?.authors;
  let slots = passes?.slots ?? 0;
  let authorSlots = 0;
  if (division === undefined || authors === undefined) {
    division = new Uint8Array(publications);
    authors = new Uint16Array(publications);
    for (let i = 0; i < publications; i++) {
      const d = fields.byShare.sample(random.uniform('publication', i, 'field'));
      division[i] = d;
      const n = authorCount(random, i, fields, d);
      authors[i] = n;
      authorSlots += n;
      for (const identified of identifiedSlots(random, i, n)) if (identified) slots++;
    }
  }
  const people = buildPeople(random, Math.max(1, slots), orgs.research, {
    first: names.first.length,
    last: names.last.length,
  });
  const R = people.researchers;
  const pubStarts = yearStarts(publications, FIRST_YEAR, LAST_YEAR);
  const yearOf = yearsOfPapers(pubStarts, publications);
  const ctx: Context = {
    random,
    plan,
    fields,
    text,
    orgs,
    journals,
    people,
    names,
    stats: {
      firstYear: new Int16Array(R),
      lastYear: new Int16Array(R),
      publications: new Uint16Array(R),
      grants: new Uint16Array(R),
      firstGrantYear: new Int16Array(R),
      lastGrantYear: new Int16Array(R),
      orgs: new Int32Array(R * ORGS_PER_RESEARCHER).fill(-1),
      currentOrg: new Int32Array(R).fill(-1),
    },
    citations: new CitationModel(random, pubStarts),
    pubStarts,
    division,
    authors,
    grantStarts: yearStarts(plan.grants, GRANT_FIRST_YEAR, LAST_YEAR),
    grantFunder: assignGrantFunders({ random, plan, orgs }),
    cited: passes?.cited ?? new Int32Array(publications),
    recent: passes?.recent ?? new Int32Array(publications),
    meanCited: passes?.meanCited ?? new Float64Array((LAST_YEAR - FIRST_YEAR + 1) * fields.divisions.length),
  };
  if (passes !== undefined) return { ctx, yearOf, passes, authorSlots, citationLinks: 0 };

  // Pass 1: count citations, so every record is written once with its final counts.
  let citationLinks = 0;
  await onPass?.(0);
  for (let i = 0; i < publications; i += 20_000) {
    citationLinks += countCitations(ctx, i, Math.min(publications, i + 20_000), yearOf);
    await onPass?.(Math.min(publications, i + 20_000));
  }
  const groupCount = new Float64Array(ctx.meanCited.length);
  for (let i = 0; i < publications; i++) {
    const k = (yearOf(i) - FIRST_YEAR) * fields.divisions.length + (division[i] as number);
    ctx.meanCited[k] = (ctx.meanCited[k] as number) + (ctx.cited[i] as number);
    groupCount[k] = (groupCount[k] as number) + 1;
  }
  for (let k = 0; k < ctx.meanCited.length; k++)
    if ((groupCount[k] as number) > 0) ctx.meanCited[k] = (ctx.meanCited[k] as number) / (groupCount[k] as number);
  return {
    ctx,
    yearOf,
    passes: { division, authors, slots, cited: ctx.cited, recent: ctx.recent, meanCited: ctx.meanCited },
    authorSlots,
    citationLinks,
  };
}
