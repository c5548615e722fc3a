/**
 * Synthetic datasets for the demo and benchmark data, made after the publications, grants,
 * researchers and organizations of a run and linked to them. Two kinds:
 *
 * - datasets of a publication (`datasetsOfPublication`): about 1.5% of papers in most fields
 *   and 5% in the data-heavy ones (life, earth, environmental, physical and chemical sciences,
 *   where PANGAEA, Dryad and GenBank-style deposits are common), a quarter of that before
 *   2000, have 1 (75%), 2 (18%) or 3 datasets. They carry what the hosted service derives from
 *   the associated publication: its authors (all of them, or the first few), organizations,
 *   identified researchers, journal, grants and categories, with a title such as
 *   "Data from: <the paper's title>";
 * - datasets on their own (`makeStandaloneDataset`, `standaloneDatasetCount`): 10 per 100
 *   publications, so that about 3 datasets in 10 name a publication (8 of 31 in the real
 *   DataCite sample, test/fixtures/data/datasets), growing 12% a year from 2000 (datasets
 *   grew much faster than papers), by 1 author (55%, as 17 of 31 in the sample), 2-4 (25%) or
 *   5-11 (20%) drawn from the authorship pool (so productive researchers deposit more),
 *   affiliated with their home organizations.
 *
 * Repositories, licences and the rest follow the real sample where it is large enough to say
 * anything (licences: CC BY 4.0, CC0 and none dominate; 15% of records name funders) and the
 * DataCite client list otherwise (Zenodo and figshare first). Every draw is keyed by the
 * publication or standalone index (`prng.ts`), and nothing of the context is changed, so a
 * dataset does not depend on the order datasets are made in. The ids are `doi:` and a DOI
 * under the unused prefix 10.99999, as the importer keys real ones.
 */
import { affiliation, type Context } from '../../data/generate/context.ts';
import { Weighted } from '../../data/generate/distributions.ts';
import { hasOrcid } from '../../data/generate/grants.ts';
import { publicationDigits, researcherId, syntheticOrcid } from '../../data/generate/ids.ts';
import { LAST_YEAR } from '../../data/generate/plan.ts';
import type { Draws } from '../../data/generate/prng.ts';
import { classifyBeyondFor } from '../../data/generate/category-schemes.ts';
import { insertedDate } from '../../data/generate/inserted-date.ts';
import type { Affiliation, OrganizationRecord, PublicationRecord } from '../../model/native-records.ts';
import type { DatasetAuthor, DatasetCategoryFields, DatasetRecord, DatasetRepository } from './native.ts';

/** Divisions whose papers deposit data most: 31 biology, 32 biomedicine, 34 chemistry, 37 earth, 41 environment, 42 health, 51 physics. */
const DATA_HEAVY = new Set(['31', '32', '34', '37', '41', '42', '51']);
const LINKED_SHARE_HEAVY = 0.05;
const LINKED_SHARE_OTHER = 0.015;
/** Papers before this year deposit data at a quarter of the rate (data DOIs are mostly later). */
const EARLY_YEAR = 2000;
/** Standalone datasets per publication of the run: about 3 datasets in 10 then name a publication. */
const STANDALONE_PER_PUBLICATION = 0.1;
const STANDALONE_FIRST_YEAR = 2000;
const STANDALONE_GROWTH = 1.12;

/** Repositories (DataCite client ids as in the real records) and their shares. */
const REPOSITORIES: readonly (readonly [DatasetRepository, number])[] = [
  [{ id: 'cern.zenodo', name: 'Zenodo' }, 0.3],
  [{ id: 'figshare.ars', name: 'figshare' }, 0.24],
  [{ id: 'dryad.dryad', name: 'Dryad' }, 0.12],
  [{ id: 'gdcc.harvard-dv', name: 'Harvard Dataverse' }, 0.12],
  [{ id: 'pangaea.repository', name: 'PANGAEA' }, 0.08],
  [{ id: 'gbif.gbif', name: 'The Global Biodiversity Information Facility' }, 0.04],
  [{ id: 'ccdc.csd', name: 'Cambridge Crystallographic Data Centre' }, 0.04],
];
/** The rest: the first author's institution's own repository. */
const INSTITUTIONAL_SHARE = 0.06;
const REPOSITORY_DRAW = new Weighted([...REPOSITORIES.map(([, w]) => w), INSTITUTIONAL_SHARE]);

/** Licences (name, URL) and their shares; the last, no licence at all. */
const LICENSES: readonly (readonly [name: string, url: string, share: number])[] = [
  ['CC BY 4.0', 'https://creativecommons.org/licenses/by/4.0/legalcode', 0.36],
  ['CC0 1.0', 'https://creativecommons.org/publicdomain/zero/1.0/legalcode', 0.2],
  ['CC BY 3.0', 'https://creativecommons.org/licenses/by/3.0/legalcode', 0.05],
  ['CC BY-NC 4.0', 'https://creativecommons.org/licenses/by-nc/4.0/legalcode', 0.04],
  ['CC BY-SA 4.0', 'https://creativecommons.org/licenses/by-sa/4.0/legalcode', 0.02],
];
const LICENSE_DRAW = new Weighted([...LICENSES.map(([, , w]) => w), 0.33]);

const TITLE_PREFIXES = ['Data from: ', 'Replication data for: ', 'Supplementary data for: ', 'Dataset for: '];
/** Share of standalone datasets that name funders (9 of 60 real records do). */
const FUNDED_SHARE = 0.15;

const pad = (n: number, width: number): string => String(n).padStart(width, '0');

/** The DOI of dataset `j` of publication `i`. */
export function publicationDatasetDoi(i: number, j: number): string {
  return `10.99999/data.${publicationDigits(i)}.${j + 1}`;
}

/** The DOI of standalone dataset `k`. */
export function standaloneDatasetDoi(k: number): string {
  return `10.99999/data.s${pad(k + 1, 8)}`;
}

/** A date `days` after `date` (negative: before), as `YYYY-MM-DD`. */
function shifted(date: string, days: number): string {
  const t = Date.parse(`${date}T00:00:00Z`) + days * 86_400_000;
  return new Date(t).toISOString().slice(0, 10);
}

const LAST_DAY = `${LAST_YEAR}-12-31`;
const atMost = (date: string): string => (date > LAST_DAY ? LAST_DAY : date);

/** A day of `year`. */
function dayOf(year: number, r: Draws): string {
  return `${year}-${pad(r.int(1, 12), 2)}-${pad(r.int(1, 28), 2)}`;
}

/** The dates around a dataset's publication date: created before it, modified after, an embargo now and then. */
function datesAround(date: string, r: Draws): Pick<DatasetRecord, 'date_created' | 'date_modified' | 'date_embargo'> {
  const embargo = r.chance(0.04) ? atMost(shifted(date, r.int(180, 720))) : undefined;
  return {
    date_created: shifted(date, -r.int(0, 90)),
    date_modified: atMost(shifted(date, r.int(0, 700))),
    ...(embargo === undefined || embargo <= date ? {} : { date_embargo: embargo }),
  };
}

/** Repository, licence and figshare link of a dataset. */
function deposit(
  r: Draws,
  doi: string,
  title: string,
  home: Affiliation | undefined,
): Pick<DatasetRecord, 'repository' | 'license_name' | 'license_url' | 'figshare_url'> {
  const k = REPOSITORY_DRAW.sample(r.next());
  const known = REPOSITORIES[k]?.[0];
  const repository: DatasetRepository | undefined =
    known ?? (home?.id === undefined ? undefined : { id: `quarry.${home.id}`, name: `${home.name} Research Data` });
  const l = LICENSES[LICENSE_DRAW.sample(r.next())];
  const slug = title
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '_')
    .replace(/^_|_$/g, '')
    .slice(0, 60);
  return {
    ...(repository === undefined ? {} : { repository }),
    ...(l === undefined ? {} : { license_name: l[0], license_url: l[1] }),
    ...(repository?.id === 'figshare.ars'
      ? { figshare_url: `https://figshare.com/articles/dataset/${slug}/${doi.replace(/\D/g, '').slice(-8)}` }
      : {}),
  };
}

/** How many datasets publication `i` (of division `division`, published in `year`) has: 0 for most. */
export function datasetCountOf(ctx: Context, i: number, division: string, year: number): number {
  const r = ctx.random.draws('publication', i, 'datasets');
  const share = (DATA_HEAVY.has(division) ? LINKED_SHARE_HEAVY : LINKED_SHARE_OTHER) * (year < EARLY_YEAR ? 0.25 : 1);
  if (!r.chance(share)) return 0;
  const u = r.next();
  return u < 0.75 ? 1 : u < 0.93 ? 2 : 3;
}

/** An author of a publication as a dataset author. */
function fromPublicationAuthor(a: PublicationRecord['authors'][number]): DatasetAuthor {
  return {
    name: `${a.first_name} ${a.last_name}`.trim(),
    first_name: a.first_name,
    last_name: a.last_name,
    ...(a.orcid === undefined ? {} : { orcid: a.orcid }),
    ...(a.researcher_id === undefined ? {} : { researcher_id: a.researcher_id }),
    affiliations: a.affiliations.map((f): Affiliation => ({
      ...(f.id === undefined ? {} : { id: f.id }),
      name: f.name,
      ...(f.country_code === undefined ? {} : { country_code: f.country_code }),
    })),
  };
}

/**
 * The datasets of publication `pub` (index `i` of the run; `datasetCountOf` of them), linked
 * to it and to what it links: its researchers, organizations, journal and grants.
 *
 * @example datasetsOfPublication(ctx, 41, pub)[0]?.associated_publication_id // pub.id
 */
export function datasetsOfPublication(ctx: Context, i: number, pub: PublicationRecord): DatasetRecord[] {
  const d = ctx.division[i] as number;
  const div = ctx.fields.divisions[d];
  if (div === undefined) throw new Error('a paper without a field');
  const count = datasetCountOf(ctx, i, div.code, pub.year);
  const out: DatasetRecord[] = [];
  for (let j = 0; j < count; j++) {
    const r = ctx.random.draws('publication', i, `dataset${j}`);
    const doi = publicationDatasetDoi(i, j);
    // Data are deposited around the paper: mostly the same year, sometimes the year before or after.
    const u = r.next();
    const year = Math.min(LAST_YEAR, u < 0.8 ? pub.year : u < 0.9 ? pub.year - 1 : pub.year + 1);
    const date = year === pub.year ? pub.date : dayOf(year, r);
    const title = `${r.pick(TITLE_PREFIXES)}${pub.title}${count > 1 ? ` (part ${j + 1})` : ''}`;
    // All the paper's authors (capped at 10), or the first one to three.
    const all = r.chance(0.6);
    const authors = pub.authors.slice(0, all ? 10 : r.int(1, 3)).map(fromPublicationAuthor);
    const researchers = [
      ...new Set(pub.authors.flatMap((a) => (a.researcher_id === undefined ? [] : [a.researcher_id]))),
    ];
    const keywords = pub.concepts.slice(0, r.int(0, 5));
    const home = authors[0]?.affiliations[0];
    const funded = pub.funders.length > 0 && r.chance(0.5);
    const description =
      r.chance(0.8) && pub.concepts.length > 0
        ? ctx.text.abstract(div.code, pub.concepts.slice(0, 3), r, r.int(40, 160))
        : undefined;
    out.push({
      id: `doi:${doi}`,
      doi,
      title,
      ...(description === undefined ? {} : { description }),
      year,
      date,
      ...datesAround(date, r),
      authors,
      research_orgs: pub.research_orgs,
      funders: funded ? pub.funders : [],
      ...(researchers.length === 0 ? {} : { researchers }),
      ...(keywords.length === 0 ? {} : { keywords }),
      language_title: 'en',
      ...deposit(r, doi, title, home),
      associated_publication: {
        id: pub.id,
        ...(pub.doi === undefined ? {} : { doi: pub.doi }),
        ...(pub.pmid === undefined ? {} : { pmid: pub.pmid }),
        ...(pub.pmcid === undefined ? {} : { pmcid: pub.pmcid }),
      },
      associated_publication_id: pub.id,
      ...(pub.supporting_grant_ids.length === 0 ? {} : { associated_grant_ids: pub.supporting_grant_ids }),
      ...(pub.journal === undefined ? {} : { journal: pub.journal }),
      ...(pub.category_for === undefined ? {} : { category_for: pub.category_for }),
      // The paper's other classifications (datasets carry no units of assessment).
      ...categoriesOfPaper(pub),
      ...(description === undefined ? {} : { language_desc: 'en' }),
      date_inserted: insertedDate(ctx.random.draws('publication', i, `dataset${j}-extras`), date, year),
    });
  }
  return out;
}

/** How many standalone datasets a run of `publications` publications has. */
export function standaloneDatasetCount(publications: number): number {
  return Math.max(5, Math.round(publications * STANDALONE_PER_PUBLICATION));
}

const STANDALONE_YEARS = new Weighted(
  Array.from({ length: LAST_YEAR - STANDALONE_FIRST_YEAR + 1 }, (_, k) => Math.pow(STANDALONE_GROWTH, k)),
);

/** Standalone dataset `k`: authors from the authorship pool, no associated publication. */
export function makeStandaloneDataset(ctx: Context, k: number): DatasetRecord {
  const { people, names, fields, orgs } = ctx;
  const r = ctx.random.draws('dataset', k, 'make');
  const doi = standaloneDatasetDoi(k);
  const year = STANDALONE_FIRST_YEAR + STANDALONE_YEARS.sample(r.next());
  const date = dayOf(year, r);
  const div = fields.divisions[fields.byShare.sample(r.next())];
  if (div === undefined) throw new Error('a dataset without a field');
  const u = r.next();
  const want = u < 0.55 ? 1 : u < 0.8 ? r.int(2, 4) : r.int(5, 11);
  const authors: DatasetAuthor[] = [];
  const researchers: string[] = [];
  const research: string[] = [];
  let home: Affiliation | undefined;
  for (let a = 0; a < want && people.pool.length > 0; a++) {
    const who = people.pool[Math.floor(r.next() * people.pool.length)] as number;
    const id = researcherId(who);
    if (researchers.includes(id)) continue;
    const org = orgs.records[people.home[who] as number] as OrganizationRecord;
    const { id: orgId, name, country_code } = affiliation(org);
    const aff: Affiliation = {
      ...(orgId === undefined ? {} : { id: orgId }),
      name,
      ...(country_code === undefined ? {} : { country_code }),
    };
    home ??= aff;
    const first = names.first[people.first[who] as number] as string;
    const last = names.last[people.last[who] as number] as string;
    authors.push({
      name: `${first} ${last}`,
      first_name: first,
      last_name: last,
      ...(hasOrcid(ctx, who) ? { orcid: syntheticOrcid(who) } : {}),
      researcher_id: id,
      affiliations: [aff],
    });
    researchers.push(id);
    if (!research.includes(org.id)) research.push(org.id);
  }
  const topics = ctx.text.topics(div.code, r, r.int(2, 4));
  const title = ctx.text.title(div.code, topics, r);
  const description = r.chance(0.85) ? ctx.text.abstract(div.code, topics, r, r.int(30, 140)) : undefined;
  const keywords = ctx.text.concepts(div.code, topics, r, r.int(0, 6));
  const groups = r.chance(0.7) ? [div.ref, r.pick(div.groups)] : [];
  const funder =
    r.chance(FUNDED_SHARE) && ctx.plan.funders > 0
      ? orgs.records[orgs.firstFunder + Math.floor(r.next() * ctx.plan.funders)]
      : undefined;
  return {
    id: `doi:${doi}`,
    doi,
    title,
    ...(description === undefined ? {} : { description }),
    year,
    date,
    ...datesAround(date, r),
    authors,
    research_orgs: research,
    funders: funder === undefined ? [] : [funder.id],
    ...(funder === undefined ? {} : { funder_details: [{ name: funder.name, id: funder.id }] }),
    ...(researchers.length === 0 ? {} : { researchers }),
    ...(keywords.length === 0 ? {} : { keywords }),
    ...(r.chance(0.7) ? { language_title: 'en' } : {}),
    ...deposit(r, doi, title, home),
    ...(groups.length === 0 ? {} : { category_for: groups }),
    ...(groups.length === 0
      ? {}
      : classifyBeyondFor(div.code, ctx.random.draws('dataset', k, 'schemes'), { sdg: true, uoa: false })),
    ...(description === undefined ? {} : { language_desc: 'en' }),
    date_inserted: insertedDate(ctx.random.draws('dataset', k, 'extras'), date, year),
  };
}

/** The classifications beside FoR a dataset takes from its paper: all but `category_uoa`. */
function categoriesOfPaper(pub: PublicationRecord): DatasetCategoryFields {
  return Object.fromEntries(
    Object.entries(pub).filter(
      ([key]) => key.startsWith('category_') && key !== 'category_for' && key !== 'category_uoa',
    ),
  );
}
