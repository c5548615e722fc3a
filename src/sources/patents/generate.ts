/**
 * Patents for the demo and benchmark data, made after the publications, grants, researchers
 * and organizations of a run (`data/generate/context.ts`) and linked to them: identified
 * researchers among the inventors, organizations of the run as assignees, grants (and their
 * funders) behind a government-interest statement, held publications and earlier patents
 * cited. Every draw is keyed by the patent's index (`prng.ts`), so any patent can be made
 * alone and every run gives the same records.
 *
 * Distributions, and why:
 * - Count: one patent per 20 publications (at least 20, at most 999,999: the number space
 *   below). Dimensions holds about as many patents as publications, but most cite no
 *   research and name no research organization; the demo keeps the research-linked share.
 * - Years: growing 4% a year, 1995-2025, as the publications (`plan.ts`); a grant is filed
 *   1-5 years before it is granted (USPTO pendency, mean about 2.5), an application published
 *   18 months after filing; 35% claim a priority a year before filing.
 * - Offices and kinds: US 45% (grants 55%: B2, B1, S1 designs 7%, E1/P2 1% each, as in the
 *   sample weeks; applications A1), EP, WO and CN 15% each, JP 10%.
 * - Claims: log-normal around 17 (median of the sample grants' counts), 1 for designs/plants.
 * - Inventors: 1 to 8, 28% alone (the sample weeks: 3,1,3,1,8,2,1,3,1,1,3,1,4); 45% of them
 *   identified researchers of the run, drawn from the authorship pool (productive researchers
 *   invent more).
 * - Assignees: the home organization of an identified inventor 45% (universities patent
 *   their researchers' work), a company of the run or a company named after an inventor
 *   (not an organization of the run: most assignees are not) 40%, none 15%.
 * - Fields: a division drawn by patenting shares (engineering, IT, chemistry, biomedicine
 *   first), CPC subclasses typical of it; IPC from the CPC symbols.
 * - Citations: log-normal around 15 patents (the sample weeks' median), 30% of them earlier
 *   patents of the run, the rest US patents outside it; 25% cite 1-6 held publications.
 * - Government interest: US patents only, 30% of those assigned to a research organization
 *   and 3% of the others; the statement names a grant of the run started by the filing year,
 *   its funder becomes the patent's funder.
 * `times_cited` is left to the store, which counts it from the held patents' `reference_ids`
 * as it does for imported patents.
 */
import type { OrganizationRecord } from '../../model/native-records.ts';
import type { Context } from '../../data/generate/context.ts';
import { Weighted } from '../../data/generate/distributions.ts';
import { grantId, publicationDoi, publicationId, researcherId } from '../../data/generate/ids.ts';
import { FIRST_YEAR, GRANT_FIRST_YEAR, LAST_YEAR, yearOfIndex, yearStarts } from '../../data/generate/plan.ts';
import type { Draws } from '../../data/generate/prng.ts';
import { classifyBeyondFor } from '../../data/generate/category-schemes.ts';
import { insertedDate } from '../../data/generate/inserted-date.ts';
import type { PatentInventor, PatentRecord, PublicationLink } from './native.ts';

/** The most patents a run makes: the generated numbers below have six digits for the index. */
export const MAX_PATENTS = 999_999;

/** Patents for a run of `publications` publications. */
export function patentsFor(publications: number): number {
  return Math.min(MAX_PATENTS, Math.max(20, Math.round(publications / 20)));
}

/** What a run's patents share: how many, and where each publication year starts. */
export interface PatentRun {
  readonly patents: number;
  /** Patents are numbered year by year, oldest first: starts[y - FIRST_YEAR] is the first of year y. */
  readonly starts: Int32Array;
  /** Organizations of the run that are companies (indexes), as assignees. */
  readonly companies: readonly number[];
}

export function planPatents(
  ctx: Pick<Context, 'plan' | 'orgs'>,
  patents = patentsFor(ctx.plan.publications),
): PatentRun {
  const count = Math.min(MAX_PATENTS, patents);
  const companies: number[] = [];
  for (let o = 0; o < ctx.plan.organizations; o++)
    if (ctx.orgs.records[o]?.types.some((t) => t.toLowerCase() === 'company') === true) companies.push(o);
  return { patents: count, starts: yearStarts(count, FIRST_YEAR, LAST_YEAR), companies };
}

/** Office, kind code, whether it is a grant, weight. */
const KINDS: readonly (readonly [string, string, boolean, number])[] = [
  ['US', 'B2', true, 0.45 * 0.55 * 0.83],
  ['US', 'B1', true, 0.45 * 0.55 * 0.08],
  ['US', 'S1', true, 0.45 * 0.55 * 0.07],
  ['US', 'E1', true, 0.45 * 0.55 * 0.01],
  ['US', 'P2', true, 0.45 * 0.55 * 0.01],
  ['US', 'A1', false, 0.45 * 0.45],
  ['EP', 'A1', false, 0.15 * 0.6],
  ['EP', 'B1', true, 0.15 * 0.4],
  ['WO', 'A1', false, 0.15],
  ['CN', 'A', false, 0.15 * 0.6],
  ['CN', 'B', true, 0.15 * 0.4],
  ['JP', 'A', false, 0.1 * 0.65],
  ['JP', 'B2', true, 0.1 * 0.35],
];
const KIND_DRAW = new Weighted(KINDS.map((k) => k[3]));

/** Divisions (FoR 2020) by their share of patents, with CPC subclasses typical of each. */
const PATENT_FIELDS: readonly (readonly [string, number, readonly string[]])[] = [
  ['40', 0.25, ['F16H', 'B60W', 'H01M', 'B23K', 'F02D', 'H02J']],
  ['46', 0.2, ['G06F', 'G06N', 'H04L', 'H04W', 'G06T']],
  ['34', 0.12, ['C07D', 'C08L', 'B01J', 'C08G']],
  ['32', 0.12, ['A61K', 'A61B', 'A61P', 'A61M']],
  ['31', 0.1, ['C12N', 'C12Q', 'C07K']],
  ['51', 0.08, ['G01N', 'H01L', 'G02B']],
  ['30', 0.04, ['A01B', 'A01N', 'A23L']],
  ['41', 0.03, ['B01D', 'C02F']],
  ['42', 0.03, ['A61B', 'G16H']],
  ['37', 0.02, ['E21B', 'G01V']],
  ['49', 0.01, ['G06F', 'H04L']],
];
const FIELD_DRAW = new Weighted(PATENT_FIELDS.map((f) => f[1]));
const SUBGROUPS = [
  '00',
  '02',
  '04',
  '06',
  '08',
  '10',
  '12',
  '14',
  '16',
  '20',
  '22',
  '24',
  '26',
  '28',
  '30',
  '145',
  '1455',
  '0002',
];

/** Team sizes 1..8 (weights from the sample weeks and USPTO team-size statistics). */
const INVENTORS = new Weighted([0.28, 0.25, 0.18, 0.11, 0.07, 0.05, 0.03, 0.03]);
/** Patent title patterns around a key topic: devices and methods, or (chemistry, life sciences) compositions. */
const TITLES = [
  (t: string): string => `System and method for ${t}`,
  (t: string): string => `Method for ${t}`,
  (t: string): string => `Apparatus for ${t}`,
];
const COMPOSITION_TITLES = [
  (t: string): string => `Method for ${t}`,
  (t: string): string => `Compositions for ${t} and uses thereof`,
];
const COMPOSITION_FIELDS = new Set(['31', '32', '34']);
const COMPANY_SUFFIX: Readonly<Record<string, readonly string[]>> = {
  US: ['Inc.', 'Corporation', 'LLC'],
  EP: ['GmbH', 'AG', 'S.A.', 'B.V.'],
  WO: ['Ltd.', 'Inc.', 'GmbH'],
  CN: ['Co., Ltd.', 'Technology Co., Ltd.'],
  JP: ['Corporation', 'Co., Ltd.', 'K.K.'],
};
/** Organization types that count as research organizations (government interest, filters). */
const RESEARCH_TYPES = new Set(['education', 'facility', 'government', 'healthcare', 'nonprofit']);

const pad = (n: number, width: number): string => String(n).padStart(width, '0');

/** The office and kind of patent k: a stream of its own, so a citing patent can name it cheaply. */
function kindOf(ctx: Pick<Context, 'random'>, k: number): readonly [string, string, boolean, number] {
  return KINDS[KIND_DRAW.sample(ctx.random.uniform('patent', k, 'kind'))] as (typeof KINDS)[number];
}

/**
 * The id of patent k of a run, in number ranges no real office has used: US grants from
 * 19,000,000, US applications and WO/JP publications `<year>9<index>`, EP from 9,000,000,
 * CN `19<index>`.
 */
export function generatedPatentId(ctx: Pick<Context, 'random'>, run: PatentRun, k: number): string {
  const [office, kind, grant] = kindOf(ctx, k);
  const year = yearOfIndex(run.starts, FIRST_YEAR, k);
  const number =
    office === 'US'
      ? grant
        ? kind === 'S1'
          ? `D${19_000_000 + k}`
          : kind === 'E1'
            ? `RE${19_000_000 + k}`
            : kind === 'P2'
              ? `PP${19_000_000 + k}`
              : String(19_000_000 + k)
        : `${year}9${pad(k, 6)}`
      : office === 'EP'
        ? String(9_000_000 + k)
        : office === 'CN'
          ? `19${pad(k, 7)}`
          : `${year}9${pad(k, 6)}`;
  return `${office}-${number}-${kind}`;
}

/** A date `months` after `date` (negative: before), the day kept within the month. */
function addMonths(date: string, months: number): string {
  const [y, m, d] = date.split('-').map(Number) as [number, number, number];
  const total = y * 12 + (m - 1) + months;
  const year = Math.floor(total / 12);
  const month = (total % 12) + 1;
  return `${pad(year, 4)}-${pad(month, 2)}-${pad(Math.min(d, 28), 2)}`;
}

const yearOf = (date: string): number => Number(date.slice(0, 4));

/** Organizations of the run an assignee can be: the record and the place fields it gives. */
function placeOf(org: OrganizationRecord): { city?: string; country?: string; state?: string } {
  const city = org.city_id ?? org.city_name;
  return {
    ...(city === undefined ? {} : { city }),
    ...(org.country_code === undefined ? {} : { country: org.country_code }),
    ...(org.state_code === undefined ? {} : { state: org.state_code }),
  };
}

function cpcSymbols(r: Draws, subclasses: readonly string[]): string[] {
  const n = r.int(1, 6);
  const out: string[] = [];
  for (let k = 0; k < n; k++) {
    const s = `${r.pick(subclasses)}${r.int(1, 99)}/${r.pick(SUBGROUPS)}`;
    if (!out.includes(s)) out.push(s);
  }
  return out;
}

/** Makes patent k of the run. */
export function makePatent(ctx: Context, run: PatentRun, k: number): PatentRecord {
  const r = ctx.random.draws('patent', k, 'make');
  const [office, kind, grant] = kindOf(ctx, k);
  const id = generatedPatentId(ctx, run, k);
  const year = yearOfIndex(run.starts, FIRST_YEAR, k);
  const published = `${year}-${pad(r.int(1, 12), 2)}-${pad(r.int(1, 28), 2)}`;
  const filed = grant ? addMonths(published, -r.int(12, 60)) : addMonths(published, -18);
  const priority = r.chance(0.35) ? addMonths(filed, -12) : filed;
  const design = kind === 'S1' || kind === 'P2';

  // Field, title, abstract, classification.
  const [code, , subclasses] = PATENT_FIELDS[FIELD_DRAW.sample(r.next())] as (typeof PATENT_FIELDS)[number];
  const division = ctx.fields.divisions.find((d) => d.code === code) ?? ctx.fields.divisions[0];
  if (division === undefined) throw new Error('a run without research fields');
  const topics = ctx.text.topics(division.code, r, 3);
  const patterns = COMPOSITION_FIELDS.has(code) ? COMPOSITION_TITLES : TITLES;
  const title = r.pick(patterns)(topics[0] ?? 'an improved device');
  const cpc = cpcSymbols(r, subclasses);
  const ipcr = [...new Set(cpc.map((s) => s.replace(/\/(\d{2})\d*$/, '/$1')))];

  // Inventors: identified researchers of the run, or names only.
  const team = INVENTORS.sample(r.next()) + 1;
  const inventors: PatentInventor[] = [];
  const researchers: string[] = [];
  let homeOrg: number | undefined;
  for (let n = 0; n < team; n++) {
    if (r.chance(0.45) && ctx.people.pool.length > 0) {
      const who = ctx.people.pool[Math.floor(r.next() * ctx.people.pool.length)] as number;
      const rid = researcherId(who);
      if (researchers.includes(rid)) continue;
      researchers.push(rid);
      const home = ctx.orgs.records[ctx.people.home[who] as number];
      homeOrg ??= ctx.people.home[who];
      inventors.push({
        first_name: ctx.names.first[ctx.people.first[who] as number] as string,
        last_name: ctx.names.last[ctx.people.last[who] as number] as string,
        researcher_id: rid,
        ...(home?.city_name === undefined ? {} : { city: home.city_name }),
        ...(home?.state_code === undefined ? {} : { state_code: home.state_code }),
        ...(home?.country_code === undefined ? {} : { country_code: home.country_code }),
      });
    } else {
      inventors.push({
        first_name: r.pick(ctx.names.first),
        last_name: r.pick(ctx.names.last),
        ...(office === 'US' || office === 'CN' || office === 'JP' ? { country_code: office } : {}),
      });
    }
  }

  // Assignee: an inventor's home organization, a company, or none.
  const a = r.next();
  let assignee: { name: string; org?: OrganizationRecord } | undefined;
  if (a < 0.45 && homeOrg !== undefined) {
    const org = ctx.orgs.records[homeOrg] as OrganizationRecord;
    assignee = { name: org.name, org };
  } else if (a < 0.85) {
    if (run.companies.length > 0 && r.chance(0.5)) {
      const org = ctx.orgs.records[r.pick(run.companies)] as OrganizationRecord;
      assignee = { name: org.name, org };
    } else {
      const suffixes = COMPANY_SUFFIX[office] ?? ['Inc.'];
      assignee = { name: `${inventors[0]?.last_name ?? 'Quarry'} ${r.pick(suffixes)}` };
    }
  }
  const assigneeOrgs = assignee?.org === undefined ? [] : [assignee.org.id];
  const place = assignee?.org === undefined ? {} : placeOf(assignee.org);
  const research = assignee?.org?.types.some((t) => RESEARCH_TYPES.has(t.toLowerCase())) === true;

  // Citations: earlier patents of the run, US patents outside it, held publications.
  const nRefs = Math.min(200, Math.round(Math.exp(Math.log(15) + 0.9 * r.normal())));
  const references: string[] = [];
  const earlier = run.starts[year - FIRST_YEAR] as number;
  for (let n = 0; n < nRefs; n++) {
    const ref =
      earlier > 0 && r.chance(0.3)
        ? generatedPatentId(ctx, run, Math.floor(r.next() * earlier))
        : (() => {
            const number = r.int(3_000_000, 11_999_999);
            return `US-${number}-${number < 6_174_000 ? 'A' : r.chance(0.7) ? 'B2' : 'B1'}`;
          })();
    if (!references.includes(ref)) references.push(ref);
  }
  const publicationIds: string[] = [];
  const links: PublicationLink[] = [];
  const heldBy = ctx.pubStarts[Math.min(LAST_YEAR, yearOf(filed)) - FIRST_YEAR + 1] ?? 0;
  if (heldBy > 0 && yearOf(filed) >= FIRST_YEAR && r.chance(0.25)) {
    const n = r.int(1, 6);
    for (let c = 0; c < n; c++) {
      const i = Math.floor(r.next() * heldBy);
      const pid = publicationId(i);
      if (publicationIds.includes(pid)) continue;
      publicationIds.push(pid);
      links.push({ id: pid, doi: publicationDoi(i) });
    }
  }

  // Government interest: a grant of the run started by the filing year, and its funder.
  let support: { statement: string; funder: OrganizationRecord; grant: string } | undefined;
  const grantsBy = ctx.grantStarts[Math.min(LAST_YEAR, yearOf(filed)) - GRANT_FIRST_YEAR + 1] ?? 0;
  if (office === 'US' && grantsBy > 0 && yearOf(filed) >= GRANT_FIRST_YEAR && r.chance(research ? 0.3 : 0.03)) {
    const g = Math.floor(r.next() * grantsBy);
    const funder = ctx.orgs.records[ctx.grantFunder[g] as number] as OrganizationRecord;
    support = {
      funder,
      grant: grantId(g),
      statement:
        `This invention was made with government support under grant ${grantId(g)} awarded by the ${funder.name}. ` +
        'The government has certain rights in the invention.',
    };
  }

  const expires = grant ? (design ? addMonths(published, 15 * 12) : addMonths(filed, 20 * 12)) : undefined;
  const lastDay = `${LAST_YEAR}-12-31`;
  const legal = grant
    ? expires !== undefined && expires < lastDay
      ? 'Expired'
      : 'Active'
    : year >= LAST_YEAR - 2
      ? 'Pending'
      : r.chance(0.6)
        ? 'Granted'
        : 'Abandoned';
  const filters = [
    ...(research ? ['Research Organisation'] : []),
    ...(code === '32' && grant && r.chance(0.05) ? ['Orange Book'] : []),
  ];
  const claims = design ? 1 : Math.max(1, Math.min(150, Math.round(Math.exp(Math.log(17) + 0.5 * r.normal()))));
  return {
    id,
    title,
    // Design and plant patents have a claim and drawings, no abstract (as in the sample weeks).
    ...(design ? {} : { abstract: ctx.text.abstract(division.code, topics, r, r.int(60, 140)) }),
    jurisdiction: office,
    kind,
    filing_status: grant ? 'Grant' : 'Application',
    application_number: `${office}${yearOf(filed)}9${pad(k, 6)}`,
    date: filed,
    year: yearOf(filed),
    priority_date: priority,
    priority_year: yearOf(priority),
    publication_date: published,
    publication_year: year,
    ...(grant ? { granted_date: published, granted_year: year } : {}),
    ...(expires === undefined ? {} : { expiration_date: expires }),
    legal_status: legal,
    family_id: 90_000_000 + k,
    family_count: 1 + Math.min(12, Math.floor(Math.log(1 - r.next()) / Math.log(0.55))),
    cpc,
    ipcr,
    claims_amount: claims,
    inventor_names: inventors.map((i) => `${i.first_name} ${i.last_name}`),
    inventors,
    researchers,
    assignee_names: assignee === undefined ? [] : [assignee.name],
    original_assignee_names: assignee === undefined ? [] : [assignee.name],
    assignees: assigneeOrgs,
    original_assignees: assigneeOrgs,
    ...(place.city === undefined ? {} : { assignee_cities: [place.city] }),
    ...(place.country === undefined ? {} : { assignee_countries: [place.country] }),
    ...(place.state === undefined ? {} : { assignee_state_codes: [place.state] }),
    reference_ids: references,
    ...(publicationIds.length === 0 ? {} : { publication_ids: publicationIds, publications: links }),
    ...(support === undefined
      ? { funders: [] }
      : {
          federal_support: [support.statement],
          funders: [support.funder.id],
          ...(support.funder.country_code === undefined ? {} : { funder_countries: [support.funder.country_code] }),
          associated_grant_ids: [support.grant],
        }),
    ...(filters.length === 0 ? {} : { additional_filters: filters }),
    ...(filters.includes('Orange Book')
      ? {
          orange_book: [
            {
              Appl_Type: 'N',
              Appl_No: pad(200_000 + (k % 100_000), 6),
              Product_No: '001',
              Patent_No: id.split('-')[1] as string,
              Patent_Expire_Date_Text: expires ?? '',
            },
          ],
        }
      : {}),
    category_for: [division.ref, r.pick(division.groups)],
    // Generated patents keep their first owners: the current assignees are the original ones.
    current_assignee_names: assignee === undefined ? [] : [assignee.name],
    current_assignees: assigneeOrgs,
    date_inserted: insertedDate(ctx.random.draws('patent', k, 'extras'), published, year),
    ...classifyBeyondFor(division.code, ctx.random.draws('patent', k, 'schemes'), { sdg: false, uoa: false }),
  };
}

/** The run's patents in index order (oldest publication year first). */
export function* makePatents(ctx: Context, run: PatentRun = planPatents(ctx)): Generator<PatentRecord> {
  for (let k = 0; k < run.patents; k++) yield makePatent(ctx, run, k);
}
