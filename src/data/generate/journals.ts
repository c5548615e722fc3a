/**
 * Synthetic journals: each belongs to one division and a publisher; titles are made from
 * the real FoR group labels ("Journal of Machine learning", "Porto Letters in Ecology").
 */
import type { JournalRecord } from '../../model/native-records.ts';
import { Weighted, zipfWeights } from './distributions.ts';
import type { Fields } from './fields.ts';
import { journalId } from './ids.ts';
import type { RandomSource } from './prng.ts';

const PUBLISHER_FIRST = [
  'Meridian',
  'Northgate',
  'Harbourline',
  'Albion Vale',
  'Kestrel',
  'Lumen',
  'Orchard Hill',
  'Summitfield',
  'Riverbend',
  'Beaconsfield',
  'Cobalt Bay',
  'Juniper',
];
const PUBLISHER_SECOND = [
  'Academic Press',
  'Scientific Publishing',
  'University Press',
  'Science Group',
  'Research Media',
];
const TEMPLATES = [
  'Journal of {g}',
  '{g} Letters',
  'International Journal of {g}',
  'Annals of {g}',
  '{g} Research',
  'Advances in {g}',
  '{g} Reviews',
  'Frontiers of {g}',
  'Transactions on {g}',
  'Quarterly of {g}',
];

/** The synthetic publishers, most output with the first few. */
export const PUBLISHERS = PUBLISHER_FIRST.flatMap((a) => PUBLISHER_SECOND.map((b) => `${a} ${b}`));

export interface JournalSet {
  readonly records: readonly JournalRecord[];
  /** Division index of each journal. */
  readonly division: Int16Array;
  /** Journals of each division (indexes), most popular first. */
  readonly byDivision: readonly (readonly number[])[];
  /** First volume year of each journal. */
  readonly since: Int16Array;
}

/** Builds the journals of a run. */
export function buildJournals(count: number, fields: Fields, random: RandomSource): JournalSet {
  const publishers = new Weighted(zipfWeights(PUBLISHERS.length, 1.1));
  const records: JournalRecord[] = [];
  const division = new Int16Array(count);
  const since = new Int16Array(count);
  const byDivision: number[][] = fields.divisions.map(() => []);
  const titles = new Set<string>();
  for (let j = 0; j < count; j++) {
    const r = random.draws('journal', j, 'make');
    const d = fields.byShare.sample(r.next());
    const div = fields.divisions[d];
    if (div === undefined) continue;
    const group = r.pick(div.groups);
    const label = group.name.replace(/^\d+ /, '');
    const g = label.charAt(0).toUpperCase() + label.slice(1);
    let title = r.pick(TEMPLATES).replace('{g}', g);
    for (let n = 2; titles.has(title); n++)
      title = `${title.replace(/ \([A-Z]\)$/, '')} (${String.fromCharCode(63 + n)})`;
    titles.add(title);
    division[j] = d;
    since[j] = 1950 + r.int(0, 60);
    byDivision[d]?.push(j);
    records.push({ id: journalId(j), title, publisher: PUBLISHERS[publishers.sample(r.next())] as string });
  }
  return { records, division, byDivision, since };
}
