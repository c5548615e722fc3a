/**
 * Publications: field, type, journal, authors (identified slots from the Lotka pool),
 * organizations, grants, references and open access, written year by year. The counting
 * pass (`countCitations`) runs first so each record carries its final `times_cited`.
 */
import type {
  Affiliation,
  Author,
  NamedRef,
  OrganizationRecord,
  PublicationRecord,
} from '../../model/native-records.ts';
import { lomax } from './distributions.ts';
import type { Draws } from './prng.ts';
import { affiliation, noteOrganization, type Context } from './context.ts';
import { BIOMEDICAL, PHYSICAL } from './fields.ts';
import { grantNumber, hasOrcid } from './grants.ts';
import {
  grantId,
  journalId,
  publicationDigits,
  publicationDoi,
  publicationId,
  researcherId,
  syntheticOrcid,
} from './ids.ts';
import { identifiedSlots } from './people.ts';
import { PUBLISHERS } from './source-titles.ts';
import { classifyBeyondFor } from './category-schemes.ts';
import { publicationExtras } from './publication-extras.ts';
import { FIRST_YEAR, GRANT_FIRST_YEAR, LAST_YEAR, yearOfIndex } from './plan.ts';

/** Share of papers without a FoR classification. */
export const UNCLASSIFIED_SHARE = 0.12;
/** Share of papers with supporting grants. */
export const FUNDED_SHARE = 0.38;

/** Open-access share by year: about 15% in 1995, 45% in 2015, 58% in 2024. */
export function openAccessShare(year: number): number {
  if (year <= 1995) return 0.15;
  if (year <= 2015) return 0.15 + ((year - 1995) * 0.3) / 20;
  return Math.min(0.6, 0.45 + ((year - 2015) * 0.13) / 9);
}

const TYPES: readonly (readonly [string, number])[] = [
  ['article', 0.8],
  ['chapter', 0.08],
  ['proceeding', 0.07],
  ['preprint', 0.03],
  ['book', 0.01],
  ['monograph', 0.01],
];
const OA_KINDS = ['gold', 'gold', 'green', 'green', 'bronze', 'hybrid'];

function drawType(u: number): string {
  let acc = 0;
  for (const [type, p] of TYPES) {
    acc += p;
    if (u < acc) return type;
  }
  return 'article';
}

/** Is paper i a review (2.5x references; drawn apart so both passes agree). */
function isReview(ctx: Context, i: number): boolean {
  return ctx.random.uniform('publication', i, 'review') < 0.05;
}

/** The counting pass: every paper's references, tallied into `cited` and `recent`. */
export function countCitations(ctx: Context, from: number, to: number, yearOf: (i: number) => number): number {
  let links = 0;
  for (let i = from; i < to; i++) {
    const year = yearOf(i);
    const refs = ctx.citations.references(i, year, isReview(ctx, i));
    links += refs.length;
    const isRecent = year >= LAST_YEAR - 1;
    for (const j of refs) {
      ctx.cited[j] = (ctx.cited[j] as number) + 1;
      if (isRecent) ctx.recent[j] = (ctx.recent[j] as number) + 1;
    }
  }
  return links;
}

/**
 * The identified authors of paper i: the next researchers of the Lotka pool (never twice
 * per paper). The pool and its cursor carry over from paper to paper, so papers take their
 * authors one after the other, in order; everything else about a paper is a function of
 * its index and these authors (`makePublication`). -1 is an unidentified author slot.
 */
export function pickAuthors(ctx: Context, i: number, cursor: { at: number }): number[] {
  const { random, people } = ctx;
  const n = ctx.authors[i] as number;
  const identified = identifiedSlots(random, i, n);
  const who: number[] = [];
  for (let k = 0; k < n; k++) {
    if (!identified[k]) {
      who.push(-1);
      continue;
    }
    let at = cursor.at;
    while (at + 1 < people.pool.length && who.includes(people.pool[at] as number)) at++;
    if (at !== cursor.at) {
      const t = people.pool[cursor.at] as number;
      people.pool[cursor.at] = people.pool[at] as number;
      people.pool[at] = t;
    }
    who.push(people.pool[cursor.at] as number);
    cursor.at++;
  }
  return who;
}

/** The first draws of a paper: its type and date, its organizations and each author's primary one. */
export interface PaperStart {
  /** The paper's draws, where the start stopped: `makePublication` goes on from here, so make a paper from its start once. */
  readonly r: Draws;
  readonly type: string;
  readonly month: number;
  readonly date: string;
  readonly who: readonly number[];
  readonly paperOrgs: readonly number[];
  /** Per author slot, the organization of its first affiliation. */
  readonly primaries: readonly number[];
}

/** Draws the start of paper i of year `year` with identified authors `who` (from `pickAuthors`). */
export function startPaper(ctx: Context, i: number, year: number, who: readonly number[]): PaperStart {
  const { random, people, orgs } = ctx;
  const r = random.draws('publication', i, 'make');
  const type = drawType(r.next());
  const month = r.int(1, 12);
  const date = `${year}-${String(month).padStart(2, '0')}-${String(r.int(1, 28)).padStart(2, '0')}`;
  const n = who.length;
  // Organizations: the authors' home organizations, up to 1-5 (mean about 2.3 once small teams are counted).
  const u = r.next();
  const wantOrgs = u < 0.28 ? 1 : u < 0.58 ? 2 : u < 0.8 ? 3 : u < 0.93 ? 4 : 5;
  const paperOrgs: number[] = [];
  for (const w of who) {
    if (paperOrgs.length >= wantOrgs) break;
    if (w >= 0 && !paperOrgs.includes(people.home[w] as number)) paperOrgs.push(people.home[w] as number);
  }
  // An author may hold two affiliations, so a paper can have one organization more than authors.
  while (paperOrgs.length < Math.min(wantOrgs, n + 1)) {
    const o = orgs.research.sample(r.next());
    if (!paperOrgs.includes(o)) paperOrgs.push(o);
  }
  if (paperOrgs.length === 0) paperOrgs.push(orgs.research.sample(r.next()));
  const primaries = who.map((w, k) =>
    w >= 0 && paperOrgs.includes(people.home[w] as number)
      ? (people.home[w] as number)
      : (paperOrgs[k % paperOrgs.length] as number),
  );
  return { r, type, month, date, who, paperOrgs, primaries };
}

/**
 * Notes a paper's identified authors in the researcher statistics (their publication
 * counts, first and last years, organizations and current one): in paper order, as the
 * current organization is the last one seen.
 */
export function notePaperAuthors(ctx: Context, year: number, start: PaperStart): void {
  const { stats } = ctx;
  start.who.forEach((w, k) => {
    if (w < 0) return;
    const primary = start.primaries[k] as number;
    stats.publications[w] = (stats.publications[w] as number) + 1;
    if ((stats.firstYear[w] as number) === 0 || year < (stats.firstYear[w] as number)) stats.firstYear[w] = year;
    if (year > (stats.lastYear[w] as number)) stats.lastYear[w] = year;
    noteOrganization(stats, w, primary);
    stats.currentOrg[w] = primary;
  });
}

/**
 * Makes paper i of year `year` from its start (`startPaper`): every draw after the start
 * is keyed by the paper, so papers can be made in any order or thread once their authors
 * are picked.
 */
export function makePublication(ctx: Context, i: number, year: number, start: PaperStart): PublicationRecord {
  const { fields, people, orgs } = ctx;
  const { r, type, month, date, who, paperOrgs, primaries } = start;
  const d = ctx.division[i] as number;
  const div = fields.divisions[d];
  if (div === undefined) throw new Error('a paper without a field');
  const n = who.length;
  const org = (k: number): OrganizationRecord => orgs.records[k] as OrganizationRecord;
  const authors: Author[] = [];
  const affLists: Affiliation[][] = [];
  const used = new Set<number>();
  for (let k = 0; k < n; k++) {
    const w = who[k] as number;
    const primary = primaries[k] as number;
    const affs: Affiliation[] = [affiliation(org(primary))];
    used.add(primary);
    if (paperOrgs.length > 1 && r.chance(0.1)) {
      const second = paperOrgs[(paperOrgs.indexOf(primary) + 1) % paperOrgs.length] as number;
      affs.push(affiliation(org(second)));
      used.add(second);
    }
    affLists.push(affs);
    if (w >= 0) {
      authors.push({
        first_name: ctx.names.first[people.first[w] as number] as string,
        last_name: ctx.names.last[people.last[w] as number] as string,
        researcher_id: researcherId(w),
        ...(hasOrcid(ctx, w) ? { orcid: syntheticOrcid(w) } : {}),
        // The first author is the corresponding one; the home organization is the current one.
        ...(k === 0 ? { corresponding: true } : {}),
        current_organization_id: org(people.home[w] as number).id,
        affiliations: affs,
      });
    } else {
      authors.push({
        first_name: ctx.names.first[Math.floor(r.next() * ctx.names.first.length)] as string,
        last_name: ctx.names.last[Math.floor(r.next() * ctx.names.last.length)] as string,
        ...(k === 0 ? { corresponding: true } : {}),
        affiliations: affs,
      });
    }
  }

  // Every organization of the paper is someone's affiliation: unused ones become second affiliations.
  let extra = 0;
  for (const o of paperOrgs) {
    if (used.has(o)) continue;
    affLists[extra % n]?.push(affiliation(org(o)));
    extra++;
  }
  // Each author's affiliation strings as printed, once the affiliations are complete.
  for (let k = 0; k < n; k++) {
    const a = authors[k];
    if (a !== undefined)
      authors[k] = { ...a, raw_affiliation: (affLists[k] ?? []).flatMap((f) => f.raw_affiliation ?? []) };
  }

  // Categories: 1-3 groups, mostly of the paper's own division, with their divisions.
  let categories: NamedRef[] = [];
  if (!r.chance(UNCLASSIFIED_SHARE)) {
    const nGroups = r.chance(0.55) ? 1 : r.chance(0.67) ? 2 : 3;
    const groups: NamedRef[] = [];
    const divisions: NamedRef[] = [div.ref];
    for (let k = 0; k < nGroups; k++) {
      const other = k > 0 && r.chance(0.25) ? fields.divisions[fields.byShare.sample(r.next())] : div;
      if (other === undefined) continue;
      const g = r.pick(other.groups);
      if (groups.some((x) => x.id === g.id)) continue;
      groups.push(g);
      if (!divisions.some((x) => x.id === other.ref.id)) divisions.push(other.ref);
    }
    categories = [...divisions, ...groups];
  }

  // Grants: about 38% of papers, 1-3 grants that started in the six years before.
  const grants: number[] = [];
  if (r.chance(FUNDED_SHARE) && ctx.plan.grants > 0) {
    const want = r.chance(0.6) ? 1 : r.chance(0.75) ? 2 : 3;
    const lo = ctx.grantStarts[Math.max(0, year - 6 - GRANT_FIRST_YEAR)] as number;
    const hi = ctx.grantStarts[Math.min(ctx.grantStarts.length - 1, year - GRANT_FIRST_YEAR + 1)] as number;
    for (let k = 0; k < want && hi > lo; k++) {
      const g = lo + Math.floor(r.next() * (hi - lo));
      if (!grants.includes(g)) grants.push(g);
    }
  }
  const funderIndexes: number[] = [];
  for (const g of grants) {
    const f = ctx.grantFunder[g] as number;
    if (!funderIndexes.includes(f)) funderIndexes.push(f);
  }
  const funders = funderIndexes.map((f) => org(f).id);

  const refs = ctx.citations.references(i, year, isReview(ctx, i));
  const oa = r.chance(openAccessShare(year)) ? ['oa_all', r.pick(OA_KINDS)] : ['closed'];
  const abstractShare =
    type === 'article' ? 0.7 + 0.22 * Math.min(1, (year - FIRST_YEAR) / 15) : type === 'chapter' ? 0.45 : 0.6;
  const hasAbstract = r.chance(abstractShare);
  const topics = ctx.text.topics(div.code, r, r.int(3, 5));
  const title = ctx.text.title(div.code, topics, r);
  const abstract = hasAbstract
    ? ctx.text.abstract(div.code, topics, r, Math.max(40, Math.round(220 * Math.exp(0.35 * r.normal()))))
    : undefined;
  const concepts = ctx.text.concepts(div.code, topics, r, r.int(4, 10));
  const timesCited = ctx.cited[i] as number;
  const mean = ctx.meanCited[(year - FIRST_YEAR) * fields.divisions.length + d] as number;
  const fcr = year <= LAST_YEAR - 2 && mean > 0 ? Math.round((timesCited / mean) * 100) / 100 : undefined;
  const biomedical = BIOMEDICAL.has(div.code) && r.chance(0.85);
  const record: Record<string, unknown> = {
    id: publicationId(i),
    title,
    ...(abstract === undefined ? {} : { abstract }),
    doi: publicationDoi(i),
    type,
    document_type: documentTypeOf(type, isReview(ctx, i)),
    year,
    date,
  };
  if (type === 'article') {
    const list = ctx.journals.byDivision[d];
    const j =
      list !== undefined && list.length > 0
        ? (list[Math.min(list.length - 1, Math.floor(lomax(r.next(), 1.2) * 2))] as number)
        : i % ctx.plan.journals;
    const journal = ctx.journals.records[j];
    if (journal !== undefined) {
      record['journal'] = { id: journalId(j), title: journal.title };
      record['volume'] = String(Math.max(1, year - (ctx.journals.since[j] as number) + 1));
      record['issue'] = String(r.int(1, 12));
      const start = r.int(1, 2400);
      record['pages'] = `${start}-${start + r.int(3, 24)}`;
      if (journal.publisher !== undefined) record['publisher'] = journal.publisher;
    }
  } else if (type === 'chapter' || type === 'book' || type === 'monograph') {
    record['book_title'] = ctx.text.title(div.code, topics.slice(1), r);
    record['publisher'] = PUBLISHERS[Math.floor(r.next() * PUBLISHERS.length)];
    // From streams of their own, so the draws of every other field keep their values.
    record['isbn'] = [syntheticIsbn(i)];
    record['editors'] = editorsOf(ctx, i);
  } else if (type === 'proceeding') {
    record['proceedings_title'] = `Proceedings of the ${year} Conference on ${div.ref.name.replace(/^\d+ /, '')}`;
  } else if (type === 'preprint' && PHYSICAL.has(div.code)) {
    record['arxiv_id'] =
      `${String(year % 100).padStart(2, '0')}${String(month).padStart(2, '0')}.9${String(i % 10000).padStart(4, '0')}`;
  }
  Object.assign(record, {
    authors,
    // The distinct organizations of the affiliations, in byline order.
    research_orgs: [...new Set(authors.flatMap((a) => a.affiliations.map((f) => f.id as string)))],
    funders,
    supporting_grant_ids: grants.map(grantId),
    reference_ids: refs.map(publicationId),
    times_cited: timesCited,
    recent_citations: ctx.recent[i] as number,
    ...(categories.length === 0 ? {} : { category_for: categories }),
    concepts,
    concepts_scores: concepts.map((concept, k) => ({
      concept,
      relevance: Math.round((0.95 - (k * 0.6) / concepts.length) * 1000) / 1000,
    })),
    open_access: oa,
  });
  if (biomedical) record['pmid'] = String(900_000_000 + i);
  if (biomedical && oa[0] === 'oa_all') record['pmcid'] = `PMC9${publicationDigits(i).slice(2)}`;
  if (fcr !== undefined) record['field_citation_ratio'] = fcr;
  if (fcr !== undefined && biomedical)
    record['relative_citation_ratio'] = Math.round(fcr * (0.8 + 0.4 * r.next()) * 100) / 100;
  if (year >= 2011 && r.chance(0.55)) {
    record['altmetric'] = Math.round(lomax(r.next(), 1.5) * 12 * 10) / 10;
    record['altmetric_id'] = 900_000_000 + i;
  }
  if (grants.length > 0 && r.chance(0.7)) {
    const names = funderIndexes.map((f) => org(f).name);
    record['acknowledgements'] =
      `This work was supported by ${names.join(' and ')} (${grants.map((g) => grantNumberOf(ctx, g)).join(', ')}).`;
  }
  // Every supported publication states its funding (no draw: derived from the grants drawn above).
  if (grants.length > 0) {
    const statements = grants.map((g) => {
      const funder = org(ctx.grantFunder[g] as number);
      return `${funder.name} (grant ${grantNumberOf(ctx, g)})`;
    });
    record['funding_section'] = `Funding: this research was funded by ${statements.join('; ')}.`;
  }
  // The other classification schemes, for classified papers, from a stream of their own.
  if (categories.length > 0)
    Object.assign(record, classifyBeyondFor(div.code, ctx.random.draws('publication', i, 'schemes')));
  const journalTitle = (record['journal'] as { title?: string } | undefined)?.title;
  Object.assign(
    record,
    publicationExtras(ctx, {
      index: i,
      type,
      date,
      year,
      fieldName: div.ref.name.replace(/^\d+ /, ''),
      ...(journalTitle === undefined ? {} : { journalTitle }),
      biomedical,
      openAccess: oa[0] === 'oa_all',
    }),
  );
  return record as unknown as PublicationRecord;
}

/**
 * A valid ISBN-13 of the 979-8 range for publication index `i` (unique below 100M
 * publications): `9798`, eight digits of the index, the check digit.
 */
export function syntheticIsbn(i: number): string {
  const body = `9798${String(i % 100_000_000).padStart(8, '0')}`;
  const sum = [...body].reduce((n, digit, k) => n + Number(digit) * (k % 2 === 0 ? 1 : 3), 0);
  return `${body}${(10 - (sum % 10)) % 10}`;
}

/** One to three editors of a book or chapter, `First Last` joined by `; `, from the publication's own stream. */
function editorsOf(ctx: Context, i: number): string {
  const e = ctx.random.draws('publication', i, 'editors');
  const count = e.int(1, 3);
  const names: string[] = [];
  for (let k = 0; k < count; k++) names.push(`${e.pick(ctx.names.first)} ${e.pick(ctx.names.last)}`);
  return names.join('; ');
}

function grantNumberOf(ctx: Context, g: number): string {
  const year = yearOfIndex(ctx.grantStarts, GRANT_FIRST_YEAR, g);
  const d = ctx.fields.byShare.sample(ctx.random.draws('grant', g, 'make').next());
  return grantNumber(ctx, g, year, ctx.fields.divisions[d]?.code ?? '00');
}

/**
 * The current schema's predicted document type, from the publication type and whether the
 * generator made it a review (which also shapes its reference list); no random draw, so
 * the rest of the record keeps its values.
 */
export function documentTypeOf(type: string, review: boolean): string {
  switch (type) {
    case 'article':
      return review ? 'review_article' : 'research_article';
    case 'chapter':
      return 'research_chapter';
    case 'proceeding':
      return 'conference_paper';
    case 'preprint':
      return 'preprint';
    default:
      return type;
  }
}
