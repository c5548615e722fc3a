/**
 * Synthetic source titles. The journals (`plan.journals` of them) each belong to one
 * division and a publisher, with titles made from the real FoR group labels ("Journal of
 * Machine learning", "Porto Letters in Ecology"); the articles of their division appear in
 * them. Beside them, a few book series, proceedings and preprint platforms of the same
 * divisions, so each `type` of spec/schema-2026.md §7.10 is held.
 *
 * ISSNs are well formed (their check digit computed) from the block `9NNNNNN`; links are under
 * the reserved `.example` domain. `journal_lists` and the metrics follow what the open lists
 * say of real journals: about a sixth are in DOAJ, most are indexed in Scopus, and only
 * those have `sjr` and `snip` (skewed, as the published values are: most below 1.5).
 */
import type { SourceTitleType } from '../../sources/source_titles/fields.ts';
import type { SourceTitleRecord } from '../../sources/source_titles/native.ts';
import { Weighted, zipfWeights } from './distributions.ts';
import type { Fields } from './fields.ts';
import { journalId } from './ids.ts';
import type { Draws, RandomSource } from './prng.ts';

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

/** Titles of the other types, by type. */
const OTHER_TEMPLATES: Readonly<Record<Exclude<SourceTitleType, 'journal'>, readonly string[]>> = {
  book_series: ['Lecture Notes in {g}', 'Studies in {g}', 'Methods in {g}', 'Topics in {g}'],
  proceeding: ['Proceedings of the International Conference on {g}', '{g} Symposium Proceedings'],
  preprint_platform: ['{g} Preprints', 'Open {g} Archive'],
};
const OTHER_TYPES = ['book_series', 'proceeding', 'preprint_platform'] as const;

/** The synthetic publishers, most output with the first few. */
export const PUBLISHERS = PUBLISHER_FIRST.flatMap((a) => PUBLISHER_SECOND.map((b) => `${a} ${b}`));

export interface SourceTitleSet {
  /** The journals first (index `j` is journal `j`), then the titles of the other types. */
  readonly records: readonly SourceTitleRecord[];
  /** Division index of each journal. */
  readonly division: Int16Array;
  /** Journals of each division (indexes), most popular first. */
  readonly byDivision: readonly (readonly number[])[];
  /** First volume year of each journal. */
  readonly since: Int16Array;
}

/** An ISSN of the synthetic block: `9` and six digits from `n`, then its check character (ISO 3297). */
export function syntheticIssn(n: number): string {
  const digits = `9${String(n % 1_000_000).padStart(6, '0')}`;
  let sum = 0;
  for (let k = 0; k < 7; k++) sum += Number(digits[k]) * (8 - k);
  const check = (11 - (sum % 11)) % 11;
  return `${digits.slice(0, 4)}-${digits.slice(4)}${check === 10 ? 'X' : String(check)}`;
}

const slug = (text: string): string =>
  text
    .toLowerCase()
    .normalize('NFD')
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '');

/** A metric as the lists publish it: three decimals. */
const metric = (value: number): number => Math.round(value * 1000) / 1000;

/** The fields beyond title and publisher, from a stream of their own (the journals' draws keep their values). */
function details(
  r: Draws,
  k: number,
  title: string,
  publisher: string,
  type: SourceTitleType,
  startYear: number,
): Omit<SourceTitleRecord, 'id' | 'title' | 'publisher'> {
  const hasIssn = type === 'journal' || type === 'book_series' || r.chance(0.4);
  const print = hasIssn && (type !== 'preprint_platform' || r.chance(0.5)) ? syntheticIssn(2 * k) : undefined;
  const electronic = hasIssn ? syntheticIssn(2 * k + 1) : undefined;
  const issn = [print, electronic].filter((v): v is string => v !== undefined);
  const lists: string[] = [];
  if (type === 'journal' && r.chance(0.17)) lists.push('DOAJ');
  if (type !== 'preprint_platform' && r.chance(0.55)) lists.push('CWTS core');
  const scopus = type !== 'preprint_platform' && r.chance(0.75);
  if (scopus) lists.push('Scopus');
  // Log-normal, as the published values are: SJR's median near 0.5, SNIP's near 0.9.
  const sjr = scopus ? metric(Math.exp(r.normal() * 0.9 - 0.7)) : undefined;
  const snip = scopus ? metric(Math.exp(r.normal() * 0.5 - 0.1)) : undefined;
  return {
    type,
    ...(issn.length === 0 ? {} : { issn }),
    ...(print === undefined ? {} : { issn_print: print }),
    ...(electronic === undefined ? {} : { issn_electronic: electronic }),
    ...(lists.length === 0 ? {} : { journal_lists: lists }),
    linkout: `https://${slug(publisher)}.example/${slug(title)}`,
    start_year: startYear,
    ...(sjr === undefined || snip === undefined ? {} : { sjr, snip }),
  };
}

/** A division's group label, capitalised ("Machine learning"). */
function groupLabel(r: Draws, fields: Fields, d: number): string | undefined {
  const div = fields.divisions[d];
  if (div === undefined) return undefined;
  const label = r.pick(div.groups).name.replace(/^\d+ /, '');
  return label.charAt(0).toUpperCase() + label.slice(1);
}

/** Builds the source titles of a run: `count` journals, then a twentieth as many titles of the other types (at least three). */
export function buildSourceTitles(count: number, fields: Fields, random: RandomSource): SourceTitleSet {
  const publishers = new Weighted(zipfWeights(PUBLISHERS.length, 1.1));
  const records: SourceTitleRecord[] = [];
  const division = new Int16Array(count);
  const since = new Int16Array(count);
  const byDivision: number[][] = fields.divisions.map(() => []);
  const titles = new Set<string>();
  const unique = (candidate: string): string => {
    let title = candidate;
    for (let n = 2; titles.has(title); n++)
      title = `${title.replace(/ \([A-Z]\)$/, '')} (${String.fromCharCode(63 + n)})`;
    titles.add(title);
    return title;
  };
  for (let j = 0; j < count; j++) {
    const r = random.draws('journal', j, 'make');
    const d = fields.byShare.sample(r.next());
    const g = groupLabel(r, fields, d);
    if (g === undefined) continue;
    const title = unique(r.pick(TEMPLATES).replace('{g}', g));
    division[j] = d;
    since[j] = 1950 + r.int(0, 60);
    byDivision[d]?.push(j);
    const publisher = PUBLISHERS[publishers.sample(r.next())] as string;
    const more = details(random.draws('journal', j, 'details'), j, title, publisher, 'journal', since[j] as number);
    records.push({ id: journalId(j), title, publisher, ...more });
  }
  const others = Math.max(3, Math.round(count / 20));
  for (let k = 0; k < others; k++) {
    const index = count + k;
    const r = random.draws('source_title', k, 'make');
    const type = OTHER_TYPES[k % OTHER_TYPES.length] as (typeof OTHER_TYPES)[number];
    const g = groupLabel(r, fields, fields.byShare.sample(r.next()));
    if (g === undefined) continue;
    const title = unique(r.pick(OTHER_TEMPLATES[type]).replace('{g}', g));
    const publisher = PUBLISHERS[publishers.sample(r.next())] as string;
    const startYear = type === 'preprint_platform' ? 2013 + r.int(0, 10) : 1970 + r.int(0, 50);
    records.push({ id: journalId(index), title, publisher, ...details(r, index, title, publisher, type, startYear) });
  }
  return { records, division, byDivision, since };
}
