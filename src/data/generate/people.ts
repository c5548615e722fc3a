/**
 * Who writes what. Every paper's author count is drawn first; the identified slots are then
 * filled from a shuffled pool in which researcher r appears exactly k_r times, with k_r drawn
 * from Lotka's law, so papers per researcher follow the law by construction and every total
 * is a count of real authorships.
 */
import { lomax, lotka, Weighted, zipfWeights } from './distributions.ts';
import type { Fields } from './fields.ts';
import { PHYSICAL } from './fields.ts';
import type { RandomSource } from './prng.ts';

export const LOTKA_EXPONENT = 2.2;
/** The most papers one researcher has (truncation keeps ~1.9 researchers per paper). */
export const LOTKA_MAX = 60;
/** Share of author slots that name an identified researcher. */
export const IDENTIFIED_SHARE = 0.9;
export const MAX_AUTHORS = 1500;

/** Number of authors of paper i in division d (log-normal around the field mean, rare large teams). */
export function authorCount(random: RandomSource, i: number, fields: Fields, d: number): number {
  const r = random.draws('publication', i, 'team');
  const div = fields.divisions[d];
  const mean = div?.meanAuthors ?? 4;
  if (div !== undefined && PHYSICAL.has(div.code) && r.chance(0.002))
    return Math.min(MAX_AUTHORS, 30 + Math.floor(lomax(r.next(), 1.2) * 60));
  const sigma = 0.6;
  const n = Math.round(Math.exp(Math.log(mean) - (sigma * sigma) / 2 + sigma * r.normal()));
  return Math.max(1, Math.min(MAX_AUTHORS, n));
}

/** Which of paper i's n author slots name an identified researcher (the same on every pass). */
export function identifiedSlots(random: RandomSource, i: number, n: number): boolean[] {
  const r = random.draws('publication', i, 'identified');
  const out: boolean[] = new Array<boolean>(n);
  for (let k = 0; k < n; k++) out[k] = r.next() < IDENTIFIED_SHARE;
  return out;
}

/** The researcher side of a run. */
export interface People {
  readonly researchers: number;
  /** Papers of each researcher (Lotka). */
  readonly papers: Uint16Array;
  /** Identified author slots in paper order: researcher indexes (shuffled). */
  readonly pool: Int32Array;
  /** Home organization of each researcher. */
  readonly home: Int32Array;
  /** First and last names (indexes into the name lists). */
  readonly first: Int32Array;
  readonly last: Int32Array;
}

/** Draws k_r per researcher until the pool has `slots` entries, then shuffles it. */
export function buildPeople(
  random: RandomSource,
  slots: number,
  orgs: Weighted,
  names: { first: number; last: number },
): People {
  const law = lotka(LOTKA_EXPONENT, LOTKA_MAX);
  const counts: number[] = [];
  let sum = 0;
  while (sum < slots) {
    const k = Math.min(slots - sum, law.sample(random.uniform('researcher', counts.length, 'papers')) + 1);
    counts.push(k);
    sum += k;
  }
  const researchers = counts.length;
  const papers = Uint16Array.from(counts);
  const pool = new Int32Array(slots);
  let at = 0;
  for (let r = 0; r < researchers; r++) for (let k = 0; k < (papers[r] as number); k++) pool[at++] = r;
  const shuffle = random.draws('pool', 0, 'shuffle');
  for (let k = slots - 1; k > 0; k--) {
    const j = Math.floor(shuffle.next() * (k + 1));
    const t = pool[k] as number;
    pool[k] = pool[j] as number;
    pool[j] = t;
  }
  const home = new Int32Array(researchers);
  const first = new Int32Array(researchers);
  const last = new Int32Array(researchers);
  const firstNames = new Weighted(zipfWeights(names.first, 0.7));
  const lastNames = new Weighted(zipfWeights(names.last, 0.5));
  for (let r = 0; r < researchers; r++) {
    const d = random.draws('researcher', r, 'person');
    home[r] = orgs.sample(d.next());
    first[r] = firstNames.sample(d.next());
    last[r] = lastNames.sample(d.next());
  }
  return { researchers, papers, pool, home, first, last };
}
