/**
 * Synthetic reports for the demo and benchmark data, linked to the run's organizations and
 * researchers (made before them; nothing of theirs changes). Shapes:
 * - 6,000 reports per 1,000,000 publications (the hosted service holds about 800,000 reports
 *   beside about 140 M publications), year by year from the first publication year, growing
 *   like the publications;
 * - one to four authors (a third a single author), drawn from the researchers' authorship
 *   pool as trial officials are, each with their home organization;
 * - the responsible organization is the first author's home (or a research organization of
 *   the run for a report without identified authors); it publishes the report 60% of the
 *   time, a government organization of the run the rest (a report series of an agency);
 * - 30% name a funder of the run's grants;
 * - one field of research (a division and one of its groups), 3-6 concepts with falling
 *   relevance, keywords from them, a DOI under the test prefix 10.99999.
 */
import { affiliation, type Context } from '../../data/generate/context.ts';
import { researcherId } from '../../data/generate/ids.ts';
import { classifyBeyondFor } from '../../data/generate/category-schemes.ts';
import { FIRST_YEAR, LAST_YEAR, yearOfIndex, yearStarts } from '../../data/generate/plan.ts';
import type { Author, NamedRef, OrganizationRecord } from '../../model/native-records.ts';
import type { NamedOrganization, ReportRecord } from './native.ts';

/** How many reports a run of `publications` publications makes. */
export function reportCount(publications: number): number {
  return Math.min(9_999_999, Math.max(10, Math.round((publications * 6_000) / 1_000_000)));
}

/** `report.9` + 7 digits. */
export function reportId(index: number): string {
  return `report.9${String(index + 1).padStart(7, '0')}`;
}

/** What every report of a run shares: how many, where each year's reports start, the governments. */
export interface ReportPlan {
  readonly count: number;
  readonly starts: Int32Array;
  /** Indexes of the organizations typed government (publishers of agency report series). */
  readonly governments: readonly number[];
}

/** The plan of a run's reports: `reports` of them (default: the run's scale's number). */
export function planReports(
  ctx: Pick<Context, 'plan' | 'orgs'>,
  reports = reportCount(ctx.plan.publications),
): ReportPlan {
  const count = Math.min(9_999_999, reports);
  return { count, starts: yearStarts(count, FIRST_YEAR, LAST_YEAR), governments: governmentsOf(ctx) };
}

/** The indexes of the run's organizations typed government (research organizations and funders; types as ROR or the hosted service write them, any case). */
export function governmentsOf(ctx: Pick<Context, 'orgs'>): number[] {
  const out: number[] = [];
  ctx.orgs.records.forEach((org, k) => {
    if (org.types.some((type) => type.toLowerCase() === 'government')) out.push(k);
  });
  return out;
}

const named = (org: OrganizationRecord): NamedOrganization => ({ name: org.name, id: org.id });
const pad2 = (n: number): string => String(n).padStart(2, '0');

/** Makes report k of the run (any order: every draw is keyed by the report). */
export function makeReport(ctx: Context, plan: ReportPlan, k: number): ReportRecord {
  const { random, fields, people, orgs } = ctx;
  const r = random.draws('report', k, 'make');
  const year = yearOfIndex(plan.starts, FIRST_YEAR, k);
  const div = fields.divisions[fields.byShare.sample(r.next())];
  if (div === undefined) throw new Error('a report without a field');
  const date = `${year}-${pad2(r.int(1, 12))}-${pad2(r.int(1, 28))}`;

  const topics = ctx.text.topics(div.code, r, r.int(2, 4));
  const title = ctx.text.title(div.code, topics, r);
  const concepts = ctx.text.concepts(div.code, topics, r, r.int(3, 6));

  // Authors, their homes, and the responsible organization.
  const nAuthors = r.chance(0.33) ? 1 : r.int(2, 4);
  const authors: Author[] = [];
  const homes: OrganizationRecord[] = [];
  const seen = new Set<number>();
  for (let a = 0; a < nAuthors && people.pool.length > 0; a++) {
    const who = people.pool[Math.floor(r.next() * people.pool.length)] as number;
    if (seen.has(who)) continue;
    seen.add(who);
    const home = orgs.records[people.home[who] as number] as OrganizationRecord;
    if (!homes.includes(home)) homes.push(home);
    authors.push({
      first_name: ctx.names.first[people.first[who] as number] as string,
      last_name: ctx.names.last[people.last[who] as number] as string,
      researcher_id: researcherId(who),
      affiliations: [affiliation(home)],
    });
  }
  const responsible = homes[0] ?? orgs.records[orgs.research.sample(r.next())];
  if (responsible === undefined) throw new Error('a run without organizations');
  const government =
    plan.governments.length === 0 || r.chance(0.6)
      ? undefined
      : orgs.records[plan.governments[Math.floor(r.next() * plan.governments.length)] as number];
  const publisher = government ?? responsible;
  const funder =
    ctx.plan.grants > 0 && r.chance(0.3)
      ? orgs.records[ctx.grantFunder[Math.floor(r.next() * ctx.plan.grants)] as number]
      : undefined;

  const categories: NamedRef[] = [div.ref, ...(div.groups.length === 0 ? [] : [r.pick(div.groups)])];
  const id = reportId(k);
  const doi = `10.99999/${id}`;
  return {
    id,
    title,
    abstract: ctx.text.abstract(div.code, topics, r, r.int(80, 220)),
    doi,
    year,
    date,
    authors,
    research_orgs: [...new Set([responsible.id, ...homes.map((h) => h.id)])],
    responsible_orgs: [responsible.id],
    responsible_orgs_details: [named(responsible)],
    publisher_orgs: [publisher.id],
    publisher_details: [named(publisher)],
    ...(funder === undefined ? {} : { funder_orgs: [funder.id], funder_details: [named(funder)] }),
    concepts,
    concepts_scores: concepts.map((concept, c) => ({ concept, relevance: Math.round((0.9 - c * 0.12) * 1000) / 1000 })),
    keywords: concepts.slice(0, 3).join('; '),
    external_ids: { doi },
    linkout: `https://doi.org/${doi}`,
    date_inserted: date,
    category_for: categories,
    ...classifyBeyondFor(div.code, ctx.random.draws('report', k, 'schemes')),
  };
}
