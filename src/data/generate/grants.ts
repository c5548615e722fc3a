/**
 * Grants: funders drawn with Zipf frequencies (exponent 1.1) among the funders that have
 * grants; amounts log-normal per funder (sigma 1); investigators drawn from the authorship
 * pool (so productive researchers hold more grants); organizations from the investigators.
 */
import type { GrantRecord, Investigator, OrganizationRecord } from '../../model/native-records.ts';
import { Weighted, zipfWeights } from './distributions.ts';
import { affiliation, noteOrganization, type Context } from './context.ts';
import { grantId, researcherId, syntheticOrcid } from './ids.ts';
import { GRANT_FIRST_YEAR, LAST_YEAR, yearOfIndex } from './plan.ts';
import type { Draws } from './prng.ts';
import { classifyBeyondFor } from './category-schemes.ts';
import { insertedDate } from './inserted-date.ts';

const EURO = new Set([
  'AT',
  'BE',
  'CY',
  'DE',
  'EE',
  'ES',
  'FI',
  'FR',
  'GR',
  'HR',
  'IE',
  'IT',
  'LT',
  'LU',
  'LV',
  'MT',
  'NL',
  'PT',
  'SI',
  'SK',
]);
const CURRENCY: Readonly<Record<string, string>> = {
  GB: 'GBP',
  JP: 'JPY',
  AU: 'AUD',
  CA: 'CAD',
  CH: 'CHF',
  NZ: 'NZD',
  CN: 'CNY',
};
/** Units of each currency per US dollar (fixed, for synthetic amounts). */
const PER_USD: Readonly<Record<string, number>> = {
  EUR: 0.92,
  GBP: 0.79,
  JPY: 150,
  AUD: 1.52,
  CAD: 1.36,
  CHF: 0.88,
  NZD: 1.65,
  CNY: 7.1,
};

/** Grants ending after this day are running (`active_status` Active) at the data's cut-off. */
const ACTIVE_AFTER = `${LAST_YEAR}-12-31`;

/** The currency a funder in `country` pays in. */
export function currencyOf(country: string | undefined): string {
  if (country === undefined) return 'USD';
  return EURO.has(country) ? 'EUR' : (CURRENCY[country] ?? 'USD');
}

/** Funder (organization index) of each grant. */
export function assignGrantFunders(ctx: Pick<Context, 'random' | 'plan' | 'orgs'>): Int32Array {
  const zipf = new Weighted(zipfWeights(ctx.plan.grantFunders, 1.1));
  const out = new Int32Array(ctx.plan.grants);
  for (let g = 0; g < out.length; g++)
    out[g] = ctx.orgs.firstFunder + zipf.sample(ctx.random.uniform('grant', g, 'funder'));
  return out;
}

function acronymOf(org: OrganizationRecord): string {
  return (
    org.acronym ??
    org.name
      .split(/\s+/)
      .filter((w) => /^[A-Z]/.test(w))
      .map((w) => w[0])
      .join('')
      .slice(0, 6) ??
    'Q'
  );
}

/** The grant number a funder gives grant g. */
export function grantNumber(ctx: Context, g: number, year: number, division: string): string {
  const funder = ctx.orgs.records[ctx.grantFunder[g] as number] as OrganizationRecord;
  return `${acronymOf(funder) || 'Q'}-${division}-${year}-${String(g % 100000).padStart(5, '0')}`;
}

/** Makes grant g and notes its investigators in the researcher statistics. */
export function makeGrant(ctx: Context, g: number): GrantRecord {
  const { random, fields, people, stats } = ctx;
  const r = random.draws('grant', g, 'make');
  const year = yearOfIndex(ctx.grantStarts, GRANT_FIRST_YEAR, g);
  const d = fields.byShare.sample(r.next());
  const div = fields.divisions[d];
  if (div === undefined) throw new Error('a grant without a field');
  const funderIndex = ctx.grantFunder[g] as number;
  const funder = ctx.orgs.records[funderIndex] as OrganizationRecord;
  const mu = 12.6 + 0.6 * random.draws('funder', funderIndex, 'scale').normal();
  const usd = Math.round(Math.exp(mu + 1.0 * r.normal()));
  const currency = currencyOf(funder.country_code);
  const duration = r.int(1, 5);
  const month = r.int(1, 12);
  const startDate = `${year}-${String(month).padStart(2, '0')}-01`;
  const endYear = year + duration;
  const endDate = `${endYear}-${String(month).padStart(2, '0')}-01`;
  const nInv = r.chance(0.55) ? 1 : r.int(2, 4);
  const investigators: Investigator[] = [];
  const orgIds: string[] = [];
  const seen = new Set<number>();
  for (let k = 0; k < nInv; k++) {
    const who = people.pool[Math.floor(r.next() * people.pool.length)] as number;
    if (seen.has(who)) continue;
    seen.add(who);
    const org = ctx.orgs.records[people.home[who] as number] as OrganizationRecord;
    if (!orgIds.includes(org.id)) orgIds.push(org.id);
    investigators.push({
      first_name: ctx.names.first[people.first[who] as number] as string,
      last_name: ctx.names.last[people.last[who] as number] as string,
      researcher_id: researcherIdOf(who),
      ...(hasOrcid(ctx, who) ? { orcid: syntheticOrcid(who) } : {}),
      role: k === 0 ? 'PI' : 'Co-PI',
      affiliations: [affiliation(org)],
    });
    stats.grants[who] = (stats.grants[who] as number) + 1;
    if ((stats.firstGrantYear[who] as number) === 0 || year < (stats.firstGrantYear[who] as number))
      stats.firstGrantYear[who] = year;
    if (year > (stats.lastGrantYear[who] as number)) stats.lastGrantYear[who] = year;
    noteOrganization(stats, who, people.home[who] as number);
  }
  const groups = [r.pick(div.groups)];
  if (r.chance(0.3)) {
    const other = r.pick(div.groups);
    if (other.id !== groups[0]?.id) groups.push(other);
  }
  const topics = ctx.text.topics(div.code, r, r.int(3, 5));
  const record = {
    id: grantId(g),
    title: ctx.text.title(div.code, topics, r),
    abstract: ctx.text.abstract(div.code, topics, r, r.int(120, 320)),
    funders: [funder.id],
    funding_usd: usd,
    funding_currency: currency,
    start_date: startDate,
    end_date: endDate,
    start_year: year,
    active_year: Array.from({ length: duration + 1 }, (_, k) => year + k),
    investigators,
    research_orgs: orgIds,
    grant_number: grantNumber(ctx, g, year, div.code),
    language: 'en',
    category_for: [div.ref, ...groups],
    concepts: ctx.text.concepts(div.code, topics, r, r.int(3, 8)),
  };
  // Current-schema fields, derived from what was drawn above so earlier output keeps its
  // values; the few that draw use streams of their own (`extras`, `schemes`).
  const extras = random.draws('grant', g, 'extras');
  const site = funder.linkout?.find((url) => !url.includes('wikipedia.org'));
  const foa = foaNumber(funder, year, extras);
  return {
    ...record,
    // Every grant's amount in each currency the schema lists, at fixed synthetic rates.
    ...Object.fromEntries(
      Object.entries(PER_USD).map(([code, perUsd]) => [`funding_${code.toLowerCase()}`, Math.round(usd * perUsd)]),
    ),
    active_status: endDate > ACTIVE_AFTER ? 'Active' : 'Closed',
    keywords: record.concepts.slice(0, 3),
    funding_schemes: [`${div.ref.name.replace(/^\d+ /, '')} research grants`],
    project_numbers: [{ label: 'grant_number', value: record.grant_number }],
    concepts_scores: record.concepts.map((concept, k) => ({
      concept,
      relevance: Math.round((0.95 - (k * 0.6) / record.concepts.length) * 1000) / 1000,
    })),
    // Titles are written in English: the original title is the title.
    original_title: record.title,
    language_title: 'en',
    date_inserted: insertedDate(extras, startDate, year),
    ...(site === undefined
      ? {}
      : { linkout: `${site.replace(/\/$/, '')}/funded/${encodeURIComponent(record.grant_number)}` }),
    ...(foa === undefined ? {} : { foa_number: foa }),
    ...classifyBeyondFor(div.code, random.draws('grant', g, 'schemes')),
  };
}

const NIH_INSTITUTES = ['CA', 'AI', 'HL', 'GM', 'MH', 'NS', 'DK', 'AG', 'DA', 'ES'];

/**
 * The funding opportunity announcement of a US federal grant, in the forms the funders
 * publish: an NSF solicitation (`NSF 21-583`) or, for health funders, an NIH-style
 * announcement (`PA-20-185`, `RFA-CA-21-004`). Other funders have none.
 */
export function foaNumber(funder: OrganizationRecord, year: number, r: Draws): string | undefined {
  if (funder.country_code !== 'US' || !funder.types.some((t) => /government/i.test(t))) return undefined;
  const yy = String((year - 1) % 100).padStart(2, '0');
  if (/science foundation|^division of|^directorate for/i.test(funder.name)) return `NSF ${yy}-${r.int(500, 620)}`;
  if (!/health|national institute|cancer|medic|disease|drug|nursing|mental/i.test(funder.name)) return undefined;
  if (r.chance(0.6)) return `PA-${yy}-${String(r.int(1, 320)).padStart(3, '0')}`;
  return `RFA-${r.pick(NIH_INSTITUTES)}-${yy}-${String(r.int(1, 30)).padStart(3, '0')}`;
}

/** The id of researcher index r. */
export function researcherIdOf(r: number): string {
  return researcherId(r);
}

/** Does researcher r have an ORCID iD (about 45%). */
export function hasOrcid(ctx: Pick<Context, 'random'>, r: number): boolean {
  return ctx.random.uniform('researcher', r, 'orcid') < 0.45;
}
