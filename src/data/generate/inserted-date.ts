/**
 * The day a generated record entered the index (`date_inserted`): records published before
 * the index was first built entered it then, later ones a few days after they appeared.
 */
import { LAST_YEAR } from './plan.ts';
import type { Draws } from './prng.ts';

/** The last day records of a generated corpus were added (the data's cut-off). */
const CUT_OFF = `${LAST_YEAR}-12-31`;
/** Records published before this year entered the index when it was first built. */
const INDEX_BUILT = 2018;

/** Adds `days` to an ISO date. */
export function plusDays(date: string, days: number): string {
  const t = Date.parse(`${date}T00:00:00Z`) + days * 86_400_000;
  return new Date(t).toISOString().slice(0, 10);
}

/** The day the record entered the index: at the first build for old papers, days after publication since. */
export function insertedDate(r: Draws, date: string, year: number): string {
  const day =
    year < INDEX_BUILT
      ? `${INDEX_BUILT}-${String(r.int(1, 12)).padStart(2, '0')}-${String(r.int(1, 28)).padStart(2, '0')}`
      : plusDays(date, r.int(1, 45));
  return day > CUT_OFF ? CUT_OFF : day;
}
