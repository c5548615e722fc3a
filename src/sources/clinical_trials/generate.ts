/**
 * Synthetic clinical trials for the demo and benchmark data, linked to the run's
 * organizations, researchers, grants and publications (made before them; nothing of theirs
 * changes). Shapes, from the 536 real ClinicalTrials.gov studies sampled
 * (test/fixtures/data/clinical_trials) and, where that sample leans to a few topics, the
 * whole registry (597,913 studies, measured in 2026):
 * - 6,000 trials per 1,000,000 publications (the hosted service holds about 800,000 trials
 *   beside about 140 M publications), started year by year from 1999, growing 4% a year like
 *   the publications, up to a year past the data's last year (trials not yet recruiting);
 * - study type interventional 76%, observational 23%, expanded access 0.2% (registry);
 *   phases of interventional trials as the registry's (not applicable about half);
 * - duration 0-10 years, mostly 1-3 (sample); enrolment log-normal, median 70 (mu 4.34,
 *   sigma 1.40, sample); status from the dates (completed, terminated, withdrawn or unknown
 *   once ended; recruiting, active or by invitation while running);
 * - officials: none for 31%, one for 61%, else two or three (sample), drawn from the
 *   researchers' authorship pool as grant investigators are, each with their home
 *   organization; the lead sponsor is the first official's organization (or a company for
 *   industry trials, 22%); a third have collaborators (sample), here funders, which fund it;
 * - biomedical fields only (Fields of Research divisions 31, 32, 42); 30% name publications
 *   (161 of 536), mostly 1-3, of the same fields, published from 8 years before the start to
 *   3 after; 6% name grants of those fields that started in the five years before.
 */
import { lomax, Weighted } from '../../data/generate/distributions.ts';
import { affiliation, type Context } from '../../data/generate/context.ts';
import { BIOMEDICAL } from '../../data/generate/fields.ts';
import { grantId, publicationDoi, publicationId, researcherId } from '../../data/generate/ids.ts';
import { FIRST_YEAR, GRANT_FIRST_YEAR, LAST_YEAR, yearOfIndex, yearStarts } from '../../data/generate/plan.ts';
import type { Draws } from '../../data/generate/prng.ts';
import { classifyBeyondFor } from '../../data/generate/category-schemes.ts';
import type { NamedRef, OrganizationRecord } from '../../model/native-records.ts';
import { CTGOV_REGISTRY, phaseOf } from './import-ctgov.ts';
import type {
  ClinicalTrialRecord,
  PublicationLink,
  TrialIntervention,
  TrialInvestigator,
  TrialOutcomeMeasure,
  TrialSponsor,
} from './native.ts';

/** The first year trials start in (ClinicalTrials.gov opened in 2000; older trials were registered late). */
export const TRIAL_FIRST_YEAR = 1999;

/** How many trials a run of `publications` publications makes (ids run out past 9,999,999). */
export function clinicalTrialCount(publications: number): number {
  return Math.min(9_999_999, Math.max(10, Math.round((publications * 6_000) / 1_000_000)));
}

/** `NCT9` + 7 digits: the registry's shape, in a range it will not reach for decades (it is at NCT07). */
export function clinicalTrialId(index: number): string {
  return `NCT9${String(index + 1).padStart(7, '0')}`;
}

/** What every trial of a run shares: how many, where each year's trials start, the biomedical fields. */
export interface TrialPlan {
  readonly count: number;
  /** `starts[y - TRIAL_FIRST_YEAR]` is the first trial starting in year y (trials numbered oldest first). */
  readonly starts: Int32Array;
  /** Indexes of the biomedical divisions among the run's fields. */
  readonly divisions: readonly number[];
  /** Indexes of the organizations of company type (industry sponsors). */
  readonly companies: readonly number[];
}

/** The plan of a run's trials, from its context: `trials` of them (default: the run's scale's number). */
export function planClinicalTrials(
  ctx: Pick<Context, 'plan' | 'fields' | 'orgs'>,
  trials = clinicalTrialCount(ctx.plan.publications),
): TrialPlan {
  const count = Math.min(9_999_999, trials);
  const divisions = ctx.fields.divisions.flatMap((d, k) => (BIOMEDICAL.has(d.code) ? [k] : []));
  if (divisions.length === 0) throw new Error('no biomedical field in the run: trials need one');
  // Organization types are capitalised as ROR and the hosted service give them (`Company`).
  const companies: number[] = [];
  for (let k = 0; k < ctx.plan.organizations; k++)
    if (ctx.orgs.records[k]?.types.includes('Company') === true) companies.push(k);
  return { count, starts: yearStarts(count, TRIAL_FIRST_YEAR, LAST_YEAR + 1), divisions, companies };
}

/** A value drawn by weight. */
function weighted<T>(items: readonly (readonly [T, number])[]): { sample(u: number): T } {
  const w = new Weighted(items.map(([, p]) => p));
  return { sample: (u) => (items[w.sample(u)] as readonly [T, number])[0] };
}

const STUDY_TYPE = weighted([
  ['INTERVENTIONAL', 456_305],
  ['OBSERVATIONAL', 139_562],
  ['EXPANDED_ACCESS', 1_062],
] as const);
const PHASES = weighted<readonly string[]>([
  [['NA'], 0.5],
  [['EARLY_PHASE1'], 0.014],
  [['PHASE1'], 0.12],
  [['PHASE1', 'PHASE2'], 0.03],
  [['PHASE2'], 0.16],
  [['PHASE2', 'PHASE3'], 0.015],
  [['PHASE3'], 0.1],
  [['PHASE4'], 0.075],
]);
/** Years from start to completion (sample: 0 for 50, 1 for 132, 2 for 109, 3 for 100 of 536, ...). */
const DURATION = new Weighted([50, 132, 109, 100, 48, 33, 24, 10, 5, 7, 8]);
const ENDED = weighted([
  ['COMPLETED', 0.74],
  ['UNKNOWN', 0.15],
  ['TERMINATED', 0.08],
  ['WITHDRAWN', 0.03],
] as const);
const RUNNING = weighted([
  ['RECRUITING', 0.6],
  ['ACTIVE_NOT_RECRUITING', 0.25],
  ['ENROLLING_BY_INVITATION', 0.05],
  ['UNKNOWN', 0.1],
] as const);
const INTERVENTION = weighted([
  ['DRUG', 263],
  ['DEVICE', 245],
  ['OTHER', 147],
  ['PROCEDURE', 91],
  ['BEHAVIORAL', 57],
  ['BIOLOGICAL', 12],
  ['DIAGNOSTIC_TEST', 11],
  ['RADIATION', 8],
  ['DIETARY_SUPPLEMENT', 4],
] as const);
const PURPOSE = weighted([
  ['Treatment', 339],
  ['Prevention', 17],
  ['Basic Science', 13],
  ['Health Services Research', 12],
  ['Diagnostic', 11],
  ['Supportive Care', 6],
  ['Other', 10],
] as const);
const MASKING = weighted([
  ['None', 233],
  ['Single', 73],
  ['Double', 56],
  ['Triple', 19],
  ['Quadruple', 34],
] as const);
const MINIMUM_AGE = weighted([
  ['18 Years', 386],
  ['20 Years', 22],
  ['22 Years', 22],
  ['21 Years', 19],
  ['19 Years', 19],
  ['30 Years', 9],
  ['13 Years', 6],
  ['6 Months', 5],
] as const);
const MAXIMUM_AGE = weighted([
  ['65 Years', 71],
  ['75 Years', 63],
  ['70 Years', 42],
  ['80 Years', 27],
  ['60 Years', 23],
  ['85 Years', 14],
] as const);
const ROLE = weighted([
  ['PRINCIPAL_INVESTIGATOR', 312],
  ['STUDY_DIRECTOR', 83],
  ['STUDY_CHAIR', 50],
] as const);

/** The data's cut-off: a trial ending after it is running, one starting after it not yet recruiting. */
const CUT_OFF = `${LAST_YEAR}-12-31`;

const pad2 = (n: number): string => String(n).padStart(2, '0');

/** `date` moved back `days` days (UTC). */
function daysBefore(date: string, days: number): string {
  const t = Date.parse(`${date}T00:00:00Z`) - days * 86_400_000;
  return new Date(t).toISOString().slice(0, 10);
}

/** Up to `want` distinct indexes in [lo, hi) whose field is biomedical, or fewer when tries run out. */
function drawBiomedical(
  r: Draws,
  lo: number,
  hi: number,
  want: number,
  isBiomedical: (index: number) => boolean,
): number[] {
  const out: number[] = [];
  for (let tries = 0; out.length < want && hi > lo && tries < want * 12; tries++) {
    const k = lo + Math.floor(r.next() * (hi - lo));
    if (!out.includes(k) && isBiomedical(k)) out.push(k);
  }
  return out;
}

/**
 * The field of grant g, as `makeGrant` (data/generate/grants.ts) draws it: the first draw
 * of its `make` stream. A test checks the two agree.
 */
function grantDivision(ctx: Context, g: number): string | undefined {
  return ctx.fields.divisions[ctx.fields.byShare.sample(ctx.random.draws('grant', g, 'make').next())]?.code;
}

/** Makes trial t of the run (any order, any thread: every draw is keyed by the trial). */
export function makeClinicalTrial(ctx: Context, plan: TrialPlan, t: number): ClinicalTrialRecord {
  const { random, fields, people, orgs } = ctx;
  const r = random.draws('clinical_trial', t, 'make');
  const year = yearOfIndex(plan.starts, TRIAL_FIRST_YEAR, t);
  const div = fields.divisions[plan.divisions[Math.floor(r.next() * plan.divisions.length)] as number];
  if (div === undefined) throw new Error('a trial without a field');

  // Dates and status.
  const startMonth = r.int(1, 12);
  const start = `${year}-${pad2(startMonth)}-${pad2(r.int(1, 28))}`;
  const duration = DURATION.sample(r.next());
  // Ends on the first of a month (as a registry's `YYYY-MM` is read), never before the start.
  const endMonth = duration === 0 ? r.int(startMonth, 12) : r.int(1, 12);
  const end = `${year + duration}-${pad2(endMonth)}-${duration === 0 && endMonth === startMonth ? '28' : '01'}`;
  const studyType = STUDY_TYPE.sample(r.next());
  const status =
    start > CUT_OFF ? 'NOT_YET_RECRUITING' : end <= CUT_OFF ? ENDED.sample(r.next()) : RUNNING.sample(r.next());
  const interventional = studyType === 'INTERVENTIONAL';

  // Text.
  const topics = ctx.text.topics(div.code, r, r.int(2, 4));
  const briefTitle = ctx.text.title(div.code, topics, r);
  const phases = interventional ? PHASES.sample(r.next()) : [];
  const phase = phaseOf(phases);
  const title =
    interventional && phase !== undefined && phase !== 'Not Applicable'
      ? `A ${phase} Study: ${briefTitle}`
      : `${interventional ? 'An Interventional' : 'An Observational'} Study: ${briefTitle}`;
  const conditions = ctx.text.concepts(div.code, topics, r, r.chance(0.65) ? 1 : r.int(2, 4));
  const concepts = ctx.text.concepts(div.code, topics, r, r.int(3, 6));

  // Design, arms and interventions.
  const designs: string[] = [];
  const arms: string[] = [];
  const interventions: TrialIntervention[] = [];
  if (interventional) {
    const randomized = r.chance(0.6);
    const nArms = randomized ? r.int(2, 3) : 1;
    if (randomized) designs.push('Allocation: Randomized', 'Intervention Model: Parallel');
    else designs.push('Intervention Model: Single Group');
    designs.push(`Primary Purpose: ${PURPOSE.sample(r.next())}`, `Masking: ${MASKING.sample(r.next())}`);
    // An experimental arm, then a placebo arm and an active comparator (the placebo is given as the tested product).
    const tested = INTERVENTION.sample(r.next());
    for (let k = 0; k < nArms; k++) {
      const name = k === 1 ? 'Placebo' : (concepts[k === 0 ? 0 : 1] ?? 'standard care');
      const label = [`Experimental: ${name}`, `Placebo Comparator: ${name}`, `Active Comparator: ${name}`][k] as string;
      arms.push(label);
      interventions.push({ type: k === 2 ? INTERVENTION.sample(r.next()) : tested, name, arm_group_labels: [label] });
    }
  } else {
    designs.push(`Observational Model: ${r.chance(0.7) ? 'Cohort' : 'Case Control'}`);
    designs.push(`Time Perspective: ${r.chance(0.8) ? 'Prospective' : 'Retrospective'}`);
    arms.push(`Cohort: ${conditions[0] ?? 'participants'}`);
  }
  const outcomes: TrialOutcomeMeasure[] = [];
  const nPrimary = r.chance(0.65) ? 1 : r.int(2, 4);
  const nSecondary = r.chance(0.2) ? 0 : r.int(1, 6);
  for (let k = 0; k < nPrimary + nSecondary; k++) {
    const concept = concepts[k % concepts.length] ?? 'outcome';
    outcomes.push({
      type: k < nPrimary ? 'primary' : 'secondary',
      measure: `Change in ${concept}`,
      time_frame: `Baseline to week ${4 * r.int(1, 26)}`,
    });
  }

  // Participants.
  const enrolled = status === 'WITHDRAWN' ? 0 : Math.max(1, Math.round(Math.exp(4.34 + 1.4 * r.normal())));
  const genderDraw = r.next();
  const gender = genderDraw < 0.97 ? 'All' : genderDraw < 0.992 ? 'Female' : 'Male';
  const minimumAge = MINIMUM_AGE.sample(r.next());
  const maximumAge = r.chance(0.58) ? MAXIMUM_AGE.sample(r.next()) : undefined;
  const condition = conditions[0] ?? 'the condition';

  // People and organizations.
  const nOfficials = r.chance(0.31) ? 0 : r.chance(0.88) ? 1 : r.int(2, 3);
  const investigators: TrialInvestigator[] = [];
  const orgIds: string[] = [];
  const seen = new Set<number>();
  let firstHome: OrganizationRecord | undefined;
  for (let k = 0; k < nOfficials; k++) {
    const who = people.pool[Math.floor(r.next() * people.pool.length)] as number;
    if (seen.has(who)) continue;
    seen.add(who);
    const home = orgs.records[people.home[who] as number] as OrganizationRecord;
    firstHome ??= home;
    if (!orgIds.includes(home.id)) orgIds.push(home.id);
    investigators.push({
      first_name: ctx.names.first[people.first[who] as number] as string,
      last_name: ctx.names.last[people.last[who] as number] as string,
      researcher_id: researcherId(who),
      role: k === 0 ? ROLE.sample(r.next()) : 'PRINCIPAL_INVESTIGATOR',
      affiliations: [affiliation(home)],
    });
  }
  const industry = plan.companies.length > 0 && r.chance(0.22);
  const lead: OrganizationRecord | undefined = industry
    ? orgs.records[plan.companies[Math.floor(r.next() * plan.companies.length)] as number]
    : (firstHome ?? orgs.records[orgs.research.sample(r.next())]);
  const sponsors: TrialSponsor[] = [];
  if (lead !== undefined) {
    sponsors.push({ name: lead.name, role: 'lead_sponsor', class: industry ? 'INDUSTRY' : 'OTHER', id: lead.id });
    if (!orgIds.includes(lead.id)) orgIds.unshift(lead.id);
  }
  const funders: string[] = [];
  if (r.chance(0.33) && ctx.plan.grants > 0) {
    for (let k = r.chance(0.7) ? 1 : 2; k > 0; k--) {
      const funder = orgs.records[ctx.grantFunder[Math.floor(r.next() * ctx.plan.grants)] as number];
      if (funder === undefined || funders.includes(funder.id)) continue;
      sponsors.push({ name: funder.name, role: 'collaborator', class: 'OTHER_GOV', id: funder.id });
      funders.push(funder.id);
      if (!orgIds.includes(funder.id)) orgIds.push(funder.id);
    }
  }

  // Grants that started in the five years before, and publications from 8 years before to 3 after.
  const grantIds: string[] = [];
  if (r.chance(0.06) && ctx.plan.grants > 0) {
    const at = (y: number): number =>
      ctx.grantStarts[Math.max(0, Math.min(ctx.grantStarts.length - 1, y - GRANT_FIRST_YEAR))] as number;
    const picked = drawBiomedical(r, at(year - 5), at(year + 1), r.chance(0.75) ? 1 : 2, (g) =>
      BIOMEDICAL.has(grantDivision(ctx, g) ?? ''),
    );
    for (const g of picked) {
      grantIds.push(grantId(g));
      const funder = orgs.records[ctx.grantFunder[g] as number];
      if (funder !== undefined && !funders.includes(funder.id)) funders.push(funder.id);
    }
  }
  const publications: PublicationLink[] = [];
  if (r.chance(0.3)) {
    const at = (y: number): number =>
      ctx.pubStarts[Math.max(0, Math.min(ctx.pubStarts.length - 1, y - FIRST_YEAR))] as number;
    const want = r.chance(0.55) ? 1 : r.chance(0.6) ? r.int(2, 3) : r.int(4, 12);
    const picked = drawBiomedical(r, at(year - 8), at(year + 4), want, (i) =>
      BIOMEDICAL.has(fields.divisions[ctx.division[i] as number]?.code ?? ''),
    );
    for (const i of picked) publications.push({ id: publicationId(i), doi: publicationDoi(i) });
  }
  // The field's division and one of its groups, as grants are classified.
  const categories: NamedRef[] = [div.ref, ...(div.groups.length === 0 ? [] : [r.pick(div.groups)])];

  const id = clinicalTrialId(t);
  return {
    id,
    title,
    brief_title: briefTitle,
    ...(r.chance(0.3) ? { acronym: acronymOf(briefTitle) } : {}),
    abstract: ctx.text.abstract(div.code, topics, r, r.int(80, 260)),
    conditions,
    mesh_terms: conditions.map((c) => c.charAt(0).toUpperCase() + c.slice(1)),
    overall_status: status,
    start_date: start,
    end_date: end,
    active_years: Array.from({ length: duration + 1 }, (_, k) => year + k),
    ...(phase === undefined ? {} : { phase }),
    study_type: studyType,
    study_designs: designs,
    study_arms: arms,
    ...(interventions.length === 0 ? {} : { interventions }),
    study_outcome_measures: outcomes,
    study_eligibility_criteria:
      `Inclusion Criteria:\n\n* Age ${minimumAge.toLowerCase()} or older\n* Diagnosis of ${condition}\n\n` +
      `Exclusion Criteria:\n\n* Participation in another interventional study\n* Pregnancy or breastfeeding`,
    gender,
    study_minimum_age: minimumAge,
    ...(maximumAge === undefined ? {} : { study_maximum_age: maximumAge }),
    study_participants: enrolled,
    investigators,
    research_orgs: orgIds,
    funders,
    sponsors,
    ...(grantIds.length === 0 ? {} : { associated_grant_ids: grantIds }),
    ...(publications.length === 0 ? {} : { publication_ids: publications.map((p) => p.id as string), publications }),
    registry: CTGOV_REGISTRY,
    // Registered up to half a year before the start (synthetic ids have no registry page to link to).
    date_inserted: daysBefore(start, r.int(0, 180)),
    category_for: categories,
    ...trialAttention(ctx, t, year),
    ...classifyBeyondFor(div.code, random.draws('clinical_trial', t, 'schemes'), { sdg: false, uoa: false }),
  };
}

/** The Altmetric score of trials mentioned online: about two in five registered since 2011. */
function trialAttention(ctx: Context, t: number, year: number): { altmetric?: number } {
  const a = ctx.random.draws('clinical_trial', t, 'attention');
  if (year < 2011 || !a.chance(0.4)) return {};
  return { altmetric: Math.round(lomax(a.next(), 1.5) * 8 * 10) / 10 };
}

/** An acronym from a title's capitalised words (`Outcomes of Early Surgery` -> `OES`), 2 to 6 letters. */
function acronymOf(title: string): string {
  const letters = title
    .split(/\s+/)
    .filter((w) => /^[A-Za-z]/.test(w) && w.length > 3)
    .map((w) => (w[0] as string).toUpperCase())
    .join('')
    .slice(0, 6);
  return letters.length >= 2 ? letters : 'TRIAL';
}
