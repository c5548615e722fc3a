// The engine behaviour suite: queries with checks computed from the fixture records
// (`fixtures/tiny-db.ts`). Every engine (SQLite now, PostgreSQL later) runs the same table
// through `runBehaviourSuite(name, makeEngine)`.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { withResultCache } from '../../src/engine/result-cache.ts';
import type { QueryEngine, QueryOptions, QueryResult } from '../../src/engine/types.ts';
import { QuarryError } from '../../src/errors/index.ts';
import { GRANTS, ORGS, PUBLICATIONS, RESEARCHERS } from './fixtures/tiny-db.ts';

type Pub = (typeof PUBLICATIONS)[number];
type Rec = Record<string, unknown>;

export interface BehaviourCase {
  readonly query: string;
  readonly check: (result: QueryResult) => void;
  /** Language version (default 2). */
  readonly dslVersion?: 1 | 2;
  /** The sources the caller is subscribed to (default: every source). */
  readonly sources?: readonly string[];
}

export interface ErrorCase {
  readonly query: string;
  readonly category: string;
  /** The first problem's code and where it points, when the case pins them. */
  readonly code?: string;
  readonly position?: { readonly line: number; readonly column: number };
  /** The sources the caller is subscribed to (default: every source). */
  readonly sources?: readonly string[];
}

/** The caller's subscription as the service passes it to the engine. */
function optionsFor(c: { readonly dslVersion?: 1 | 2; readonly sources?: readonly string[] }): QueryOptions {
  return { dslVersion: c.dslVersion ?? 2, ...(c.sources === undefined ? {} : { permissions: { sources: c.sources } }) };
}

/** How a case's name shows a subscription narrower than every source. */
const subscribed = (sources: readonly string[] | undefined): string =>
  sources === undefined ? '' : ` — subscribed to ${sources.join(', ') || 'no source'}`;

const byDateDesc = (a: Pub, b: Pub): number => b.date.localeCompare(a.date);
const ids = (pubs: readonly Pub[]): string[] => pubs.map((p) => p.id);
const tokens = (text: string | undefined): string[] =>
  (text ?? '')
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter(Boolean);
const words = (p: Pub): string[] => [
  ...tokens(p.title),
  ...tokens('abstract' in p ? p.abstract : undefined),
  ...((('authors' in p ? p.authors : undefined) ?? []) as Array<{ first_name: string; last_name: string }>).flatMap(
    (a) => tokens(`${a.first_name} ${a.last_name}`),
  ),
];
const orgsOf = (p: Pub): string[] => [
  ...new Set(
    (('authors' in p ? p.authors : undefined) ?? []).flatMap((a: { affiliations: Array<{ id: string }> }) =>
      a.affiliations.map((x) => x.id),
    ),
  ),
];
const researchersOf = (p: Pub): string[] => [
  ...new Set((('authors' in p ? p.authors : undefined) ?? []).map((a: { researcher_id: string }) => a.researcher_id)),
];
const where = (pred: (p: Pub) => boolean): Pub[] => PUBLICATIONS.filter(pred);

function records(result: QueryResult, key = 'publications'): Rec[] {
  const value = result[key];
  assert.ok(Array.isArray(value), `${key} is an array`);
  return value as Rec[];
}

/** The result holds exactly these publications (any order) and total_count matches. */
function exactly(expected: readonly Pub[]) {
  return (result: QueryResult): void => {
    assert.deepEqual(
      records(result)
        .map((r) => r.id)
        .sort(),
      ids(expected).sort(),
    );
    assert.equal((result._stats as Rec).total_count, expected.length);
  };
}

/** Facet rows as the spec orders them: count descending, then id. */
function countsBy(values: ReadonlyArray<string | number>): Array<{ id: string | number; count: number }> {
  const m = new Map<string | number, number>();
  for (const v of values) m.set(v, (m.get(v) ?? 0) + 1);
  return [...m]
    .map(([id, count]) => ({ id, count }))
    .sort((a, b) => b.count - a.count || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
}

export const BEHAVIOUR_CASES: readonly BehaviourCase[] = [
  {
    query: 'search publications return publications limit 3',
    check: (r) => {
      assert.deepEqual(
        records(r).map((x) => x.id),
        ids([...PUBLICATIONS].sort(byDateDesc).slice(0, 3)),
      );
      assert.deepEqual(r._stats, { total_count: PUBLICATIONS.length, limit: 3, offset: 0 });
    },
  },
  {
    query: 'search publications return publications[id+year] limit 2 skip 2',
    check: (r) => {
      assert.deepEqual(
        records(r),
        [...PUBLICATIONS]
          .sort(byDateDesc)
          .slice(2, 4)
          .map((p) => ({ id: p.id, year: p.year })),
      );
      assert.deepEqual(r._stats, { total_count: PUBLICATIONS.length, limit: 2, offset: 2 });
    },
  },
  {
    query: 'search publications return publications',
    check: (r) => {
      assert.deepEqual(r._stats, { total_count: PUBLICATIONS.length });
      const first = records(r)[0] as Rec;
      for (const k of Object.keys(first))
        assert.ok(
          ['id', 'title', 'doi', 'type', 'year', 'date', 'journal', 'volume', 'issue', 'pages', 'authors'].includes(k),
          `basics holds ${k}`,
        );
    },
  },
  { query: 'search publications where year = 2019 return publications', check: exactly(where((p) => p.year === 2019)) },
  {
    query: 'search publications where year = "2019" return publications',
    check: exactly(where((p) => p.year === 2019)),
  },
  {
    query: 'search publications where year != 2019 return publications',
    check: exactly(where((p) => p.year !== 2019)),
  },
  {
    query: 'search publications where not year = 2019 return publications',
    check: exactly(where((p) => p.year !== 2019)),
  },
  { query: 'search publications where year >= 2020 return publications', check: exactly(where((p) => p.year >= 2020)) },
  { query: 'search publications where year < 2017 return publications', check: exactly(where((p) => p.year < 2017)) },
  {
    query: 'search publications where year in [2018:2020] return publications',
    check: exactly(where((p) => p.year >= 2018 && p.year <= 2020)),
  },
  {
    query: 'search publications where year in [2016, 2021] return publications',
    check: exactly(where((p) => p.year === 2016 || p.year === 2021)),
  },
  {
    query: 'search publications where type = "article" and year > 2017 return publications',
    check: exactly(where((p) => p.type === 'article' && p.year > 2017)),
  },
  {
    query: 'search publications where (year = 2016 or year = 2021) and type = "article" return publications',
    check: exactly(where((p) => (p.year === 2016 || p.year === 2021) && p.type === 'article')),
  },
  {
    query: 'search publications where date > "2020-01-22" return publications',
    check: exactly(where((p) => p.date > '2020-01-22')),
  },
  {
    query: 'search publications where research_orgs = "grid.900001.a" return publications',
    check: exactly(where((p) => orgsOf(p).includes('grid.900001.a'))),
  },
  {
    query: 'search publications where research_orgs.id in ["grid.900001.a", "grid.900009.z"] return publications',
    check: exactly(where((p) => orgsOf(p).includes('grid.900001.a'))),
  },
  {
    query: 'search publications where research_orgs.name ~ "Saarland Uni" return publications',
    check: exactly(where((p) => orgsOf(p).includes('grid.900001.a'))),
  },
  {
    query: 'search publications where research_orgs != "grid.900001.a" return publications',
    check: exactly(where((p) => !orgsOf(p).includes('grid.900001.a'))),
  },
  {
    query: 'search publications where count(researchers) > 1 return publications',
    check: exactly(where((p) => researchersOf(p).length > 1)),
  },
  {
    query: 'search publications where count(researchers) = 0 return publications',
    check: exactly(where((p) => researchersOf(p).length === 0)),
  },
  {
    query: 'search publications where count(researchers) < 2 return publications',
    check: exactly(where((p) => researchersOf(p).length < 2)),
  },
  {
    query: 'search publications where count(researchers) != 1 return publications',
    check: exactly(where((p) => researchersOf(p).length !== 1)),
  },
  {
    query: 'search publications where authors = "doudna" return publications',
    check: exactly(where((p) => researchersOf(p).includes('ur.0900000002.02'))),
  },
  {
    query: 'search publications where researchers is empty return publications',
    check: exactly(where((p) => researchersOf(p).length === 0)),
  },
  {
    query: 'search publications where researchers is not empty return publications',
    check: exactly(where((p) => researchersOf(p).length > 0)),
  },
  {
    query: 'search publications where reference_ids is empty return publications',
    check: exactly(where((p) => !('reference_ids' in p) || p.reference_ids.length === 0)),
  },
  {
    query: 'search publications where reference_ids is not empty return publications',
    check: exactly(where((p) => 'reference_ids' in p && p.reference_ids.length > 0)),
  },
  {
    // Beside another test of the same AND, the stored counts are read record by record.
    query: 'search publications where year >= 2015 and reference_ids is not empty return publications',
    check: exactly(where((p) => p.year >= 2015 && 'reference_ids' in p && p.reference_ids.length > 0)),
  },
  {
    query: 'search publications where year >= 2015 and count(researchers) > 1 return publications',
    check: exactly(where((p) => p.year >= 2015 && researchersOf(p).length > 1)),
  },
  {
    query: 'search publications where category_for.name = "Computing" return publications',
    check: exactly(where((p) => 'category_for' in p && p.category_for.some((c) => c.name === 'Computing'))),
  },
  {
    query: 'search publications where funders = "grid.900003.c" return publications',
    check: exactly(where((p) => 'funders' in p && p.funders.includes('grid.900003.c'))),
  },
  {
    query: 'search publications where open_access = "gold" return publications',
    check: exactly(where((p) => 'open_access' in p && p.open_access.includes('gold'))),
  },
  {
    query: 'search publications where journal.id = "jour.1900001" return publications',
    check: exactly(where((p) => 'journal' in p && p.journal.id === 'jour.1900001')),
  },
  {
    query: 'search publications for "malaria" return publications',
    check: exactly(where((p) => words(p).includes('malaria'))),
  },
  {
    query: 'search publications for "malaria -italy" return publications',
    check: exactly(where((p) => words(p).includes('malaria') && !words(p).includes('italy'))),
  },
  {
    query: 'search publications for "malaria AND NOT italy" return publications',
    check: exactly(where((p) => words(p).includes('malaria') && !words(p).includes('italy'))),
  },
  {
    query: 'search publications for "-malaria" return publications',
    check: exactly(where((p) => !words(p).includes('malaria'))),
  },
  {
    query: 'search publications for "dose OR graphene" return publications',
    check: exactly(where((p) => words(p).includes('dose') || words(p).includes('graphene'))),
  },
  {
    query: 'search publications for "(dose OR concentration) AND (-malaria +africa)" return publications',
    check: exactly(
      where(
        (p) =>
          (words(p).includes('dose') || words(p).includes('concentration')) &&
          !words(p).includes('malaria') &&
          words(p).includes('africa'),
      ),
    ),
  },
  {
    query: 'search publications for "\\"machine learning\\"" return publications',
    check: exactly(where((p) => words(p).join(' ').includes('machine learning'))),
  },
  {
    query: 'search publications for "ital?" return publications',
    check: exactly(where((p) => words(p).some((w) => /^ital.$/.test(w)))),
  },
  {
    query: 'search publications for "mach*" return publications',
    check: exactly(where((p) => words(p).some((w) => w.startsWith('mach')))),
  },
  {
    query: 'search publications for "*ene" return publications',
    check: exactly(where((p) => words(p).some((w) => w.endsWith('ene')))),
  },
  {
    query: 'search publications for "乳がん" return publications',
    check: exactly(where((p) => words(p).includes('乳がん'))),
  },
  {
    query: 'search publications in title_only for "africa" return publications',
    check: exactly(where((p) => tokens(p.title).includes('africa'))),
  },
  {
    query: 'search publications for "\\"formal model\\"~3" return publications',
    check: exactly(where((p) => p.id === 'pub.1900000009')),
  },
  {
    query: 'search publications for "\\"digital humanities\\"~5 +ontology" return publications',
    check: exactly(where((p) => p.id === 'pub.1900000005')),
  },
  {
    query: 'search publications in authors for "\\"Doudna Jennifer\\"" return publications',
    check: exactly(where((p) => researchersOf(p).includes('ur.0900000002.02'))),
  },
  {
    query: 'search publications in authors for "\\"J Doudna\\"" return publications',
    check: exactly(where((p) => researchersOf(p).includes('ur.0900000002.02'))),
  },
  {
    query: 'search publications in title_abstract_only for "vaccine" return publications',
    check: exactly(
      where((p) => [...tokens(p.title), ...tokens('abstract' in p ? p.abstract : undefined)].includes('vaccine')),
    ),
  },
  {
    query: 'search publications in concepts for "networks" return publications',
    check: exactly(where((p) => 'concepts' in p && p.concepts.some((c) => tokens(c).includes('networks')))),
  },
  {
    query: 'search publications in terms for "dosimetry" return publications',
    check: exactly(where((p) => 'concepts' in p && p.concepts.includes('dosimetry'))),
  },
  {
    query: 'search publications in acknowledgements for "wellcome" return publications',
    check: exactly(where((p) => tokens('acknowledgements' in p ? p.acknowledgements : undefined).includes('wellcome'))),
  },
  {
    query: 'search publications in full_data_exact for "graphene" return publications',
    check: exactly(where((p) => words(p).includes('graphene'))),
  },
  {
    query: 'search publications in title_only for "networks" return publications',
    check: exactly(where((p) => tokens(p.title).includes('networks'))),
  },
  {
    query: 'search publications for "malaria" where year = 2019 return publications',
    check: exactly(where((p) => words(p).includes('malaria') && p.year === 2019)),
  },
  {
    query: 'search publications where year = 2019 for "malaria" return publications',
    check: exactly(where((p) => words(p).includes('malaria') && p.year === 2019)),
  },
  {
    query: 'search publications for "malaria" return publications sort by relevance desc',
    check: (r) => assert.equal(records(r).length, where((p) => words(p).includes('malaria')).length),
  },
  {
    query: 'search publications return publications[id+times_cited] sort by times_cited desc limit 3',
    check: (r) =>
      assert.deepEqual(
        records(r).map((x) => x.times_cited),
        [...PUBLICATIONS]
          .map((p) => ('times_cited' in p ? p.times_cited : 0))
          .sort((a, b) => b - a)
          .slice(0, 3),
      ),
  },
  {
    query: 'search publications return publications[id+year] sort by year asc limit 2',
    check: (r) =>
      assert.deepEqual(
        records(r).map((x) => x.year),
        PUBLICATIONS.map((p) => p.year)
          .sort()
          .slice(0, 2),
      ),
  },
  {
    query: 'search publications return year',
    check: (r) => assert.deepEqual(r.year, countsBy(PUBLICATIONS.map((p) => p.year))),
  },
  {
    query: 'search publications return journal',
    check: (r) => assert.deepEqual(r.journal, [{ id: 'jour.1900001', count: 1, title: 'Journal of Tropical Tests' }]),
  },
  {
    query: 'search publications where year = 2018 return journal',
    check: (r) => assert.deepEqual(r.journal, [{ id: 'jour.1900001', count: 1, title: 'Journal of Tropical Tests' }]),
  },
  {
    query: 'search publications return type limit 2',
    check: (r) => assert.deepEqual(r.type, countsBy(PUBLICATIONS.map((p) => p.type)).slice(0, 2)),
  },
  {
    query: 'search publications where year >= 2019 return research_orgs',
    check: (r) => {
      const rows = r.research_orgs as Rec[];
      assert.deepEqual(
        rows.map(({ id, count }) => ({ id, count })),
        countsBy(where((p) => p.year >= 2019).flatMap(orgsOf)),
      );
      assert.equal(rows.find((x) => x.id === 'grid.900001.a')?.name, 'Saarland University');
      assert.equal(rows.find((x) => x.id === 'grid.900001.a')?.country_name, 'Germany');
      assert.deepEqual(rows.find((x) => x.id === 'grid.900001.a')?.types, ['Education']);
    },
  },
  // `score`: the relevance of each record (higher first); `sort by score` is relevance order.
  {
    query: 'search publications for "malaria" return publications[id + score] sort by score',
    check: (r) => {
      const rows = records(r);
      assert.deepEqual(rows.map((x) => x.id).sort(), ids(where((p) => words(p).includes('malaria'))).sort());
      const scores = rows.map((x) => x.score);
      for (const score of scores) assert.ok(typeof score === 'number' && score > 0, `score ${String(score)}`);
      assert.deepEqual(
        scores,
        [...(scores as number[])].sort((a, b) => b - a),
      );
    },
  },
  {
    query: 'search publications for "malaria" return publications[id + score + year] sort by year asc',
    check: (r) => {
      const rows = records(r);
      assert.ok(rows.length > 1);
      for (const row of rows) assert.equal(typeof row.score, 'number');
    },
  },
  {
    query: 'search publications where year = 2018 return publications[id + score]',
    check: (r) => {
      for (const row of records(r)) assert.equal(row.score, undefined, 'no full text, no score');
    },
  },
  // Facets with a field list: those fields of each entity, research_orgs as ids.
  {
    query: 'search publications where year >= 2019 return research_orgs[name] aggregate citations_total',
    check: (r) => {
      const rows = r.research_orgs as Rec[];
      const counts = countsBy(where((p) => p.year >= 2019).flatMap(orgsOf));
      assert.deepEqual(
        rows.map(({ id, count }) => ({ id, count })),
        counts,
      );
      for (const row of rows) {
        assert.deepEqual(Object.keys(row), ['id', 'count', 'name', 'citations_total']);
        assert.equal(row.name, ORGS.find((o) => o.id === row.id)?.name);
      }
    },
  },
  {
    query: 'search publications return researchers[basics + current_research_org] limit 2',
    check: (r) => {
      const rows = r.researchers as Rec[];
      assert.equal(rows.length, 2);
      const ana = rows.find((x) => x.id === 'ur.0900000001.01');
      assert.ok(ana !== undefined);
      assert.deepEqual(ana.research_orgs, ['grid.900001.a', 'grid.900002.b']);
      assert.equal((ana.current_research_org as Rec).name, 'Saarland University');
      assert.equal(ana.first_name, 'Ana');
    },
  },
  {
    query: 'search publications return researchers[id]',
    check: (r) => {
      for (const row of r.researchers as Rec[]) assert.deepEqual(Object.keys(row), ['id', 'count']);
    },
  },
  {
    query:
      'search publications return researchers aggregate citations_total, citations_avg, citations_median, fcr_gavg',
    check: (r) => {
      const rows = r.researchers as Rec[];
      assert.deepEqual(
        rows.map(({ id, count }) => ({ id, count })),
        countsBy(PUBLICATIONS.flatMap(researchersOf)),
      );
      const ana = rows.find((x) => x.id === 'ur.0900000001.01') as Rec;
      const anas = where((p) => researchersOf(p).includes('ur.0900000001.01'));
      const cited = anas.map((p) => ('times_cited' in p ? p.times_cited : 0));
      assert.equal(ana.first_name, 'Ana');
      assert.equal(
        ana.citations_total,
        cited.reduce((a, b) => a + b, 0),
      );
      assert.ok(Math.abs((ana.citations_avg as number) - cited.reduce((a, b) => a + b, 0) / cited.length) < 1e-3);
      const fcr = anas
        .filter((p) => 'field_citation_ratio' in p)
        .map((p) => (p as { field_citation_ratio: number }).field_citation_ratio);
      assert.ok(
        Math.abs((ana.fcr_gavg as number) - (Math.exp(fcr.reduce((a, x) => a + Math.log(x + 1), 0) / fcr.length) - 1)) <
          1e-3,
      );
    },
  },
  {
    query:
      'search publications return year aggregate citations_total, citations_avg, citations_median, recent_citations_total, altmetric_avg, altmetric_median, rcr_avg, fcr_gavg sort by citations_total',
    check: (r) => {
      const num = (p: Pub, k: string): number | undefined =>
        k in p ? ((p as Record<string, unknown>)[k] as number) : undefined;
      const vals = (ps: Pub[], k: string): number[] =>
        ps.map((p) => num(p, k)).filter((v): v is number => v !== undefined);
      const sum = (xs: number[]): number => xs.reduce((a, b) => a + b, 0);
      const avg = (xs: number[]): number | undefined => (xs.length === 0 ? undefined : sum(xs) / xs.length);
      const med = (xs: number[]): number | undefined => {
        if (xs.length === 0) return undefined;
        const s = [...xs].sort((a, b) => a - b);
        const m = s.length >> 1;
        return s.length % 2 ? s[m] : ((s[m - 1] as number) + (s[m] as number)) / 2;
      };
      const close = (a: unknown, b: number | undefined, what: string): void => {
        if (b === undefined) assert.ok(a === null || a === undefined, `${what}: ${String(a)}`);
        else assert.ok(typeof a === 'number' && Math.abs(a - b) < 1e-3, `${what}: ${String(a)} vs ${b}`);
      };
      const rows = r.year as Rec[];
      const years = [...new Set(PUBLICATIONS.map((p) => p.year))];
      assert.equal(rows.length, years.length);
      for (const row of rows) {
        const ps = where((p) => p.year === row.id);
        assert.equal(row.count, ps.length);
        const cited = ps.map((p) => num(p, 'times_cited') ?? 0);
        close(row.citations_total, sum(cited), `${String(row.id)} citations_total`);
        close(row.citations_avg, avg(cited), `${String(row.id)} citations_avg`);
        close(row.citations_median, med(cited), `${String(row.id)} citations_median`);
        close(
          row.recent_citations_total,
          sum(ps.map((p) => num(p, 'recent_citations') ?? 0)),
          `${String(row.id)} recent`,
        );
        close(row.altmetric_avg, avg(vals(ps, 'altmetric')), `${String(row.id)} altmetric_avg`);
        close(row.altmetric_median, med(vals(ps, 'altmetric')), `${String(row.id)} altmetric_median`);
        close(row.rcr_avg, avg(vals(ps, 'relative_citation_ratio')), `${String(row.id)} rcr_avg`);
        const fcr = vals(ps, 'field_citation_ratio');
        close(
          row.fcr_gavg,
          fcr.length === 0 ? undefined : Math.exp(sum(fcr.map((x) => Math.log(x + 1))) / fcr.length) - 1,
          `${String(row.id)} fcr_gavg`,
        );
      }
      const totals = rows.map((x) => x.citations_total as number);
      assert.deepEqual(
        totals,
        [...totals].sort((a, b) => b - a),
        'sorted by citations_total',
      );
    },
  },
  {
    query: 'search publications return funders aggregate citations_total sort by citations_total limit 5',
    check: (r) => {
      const rows = r.funders as Rec[];
      assert.equal(rows.length, 1);
      assert.equal(rows[0]?.count, where((p) => 'funders' in p).length);
      assert.equal(rows[0]?.name, 'Wellcome Fund');
    },
  },
  {
    query:
      'search publications where year = 2019 return publications[id] limit 1 return year as "years" return in "facets" type',
    check: (r) => {
      assert.equal(records(r).length, 1);
      assert.deepEqual(r.years, [{ id: 2019, count: 2 }]);
      assert.deepEqual((r.facets as Rec).type, countsBy(where((p) => p.year === 2019).map((p) => p.type)));
      assert.equal((r._stats as Rec).total_count, 2);
    },
  },
  {
    query: 'search publications where count(researchers) > 1 return publications[id+unnest(researchers)]',
    check: (r) => {
      const rows = records(r);
      const multi = where((p) => researchersOf(p).length > 1);
      assert.equal(
        rows.length,
        multi.reduce((n, p) => n + researchersOf(p).length, 0),
      );
      assert.ok(rows.every((x) => typeof x['researchers.id'] === 'string' && typeof x.id === 'string'));
      assert.equal((r._stats as Rec).total_count, multi.length);
    },
  },
  {
    query:
      'search publications where year = 2018 return publications[basics - authors + times_cited + research_orgs + category_for]',
    check: (r) => {
      const [rec] = records(r);
      assert.ok(rec !== undefined);
      assert.equal(rec.authors, undefined);
      assert.equal(rec.times_cited, 10);
      assert.deepEqual(rec.research_orgs, [
        {
          id: 'grid.900001.a',
          name: 'Saarland University',
          acronym: 'UdS',
          city_name: 'Saarbrücken',
          state_name: 'Saarland',
          country_name: 'Germany',
          latitude: 49.2553,
          longitude: 7.0406,
          linkout: ['https://www.uni-saarland.de'],
          types: ['Education'],
        },
      ]);
      assert.deepEqual(rec.category_for, [{ id: '80003', name: 'Biomedical' }]);
      assert.deepEqual(rec.journal, { id: 'jour.1900001', title: 'Journal of Tropical Tests' });
    },
  },
  {
    query: 'search grants where active_year = 2013 return grants',
    check: (r) =>
      assert.deepEqual(
        records(r, 'grants').map((g) => g.id),
        GRANTS.filter((g) => g.active_year.includes(2013)).map((g) => g.id),
      ),
  },
  {
    query: 'search grants return funders aggregate funding',
    check: (r) =>
      assert.deepEqual(
        (r.funders as Rec[]).map(({ id, count, funding }) => ({ id, count, funding })),
        [{ id: 'grid.900003.c', count: 2, funding: GRANTS.reduce((a, g) => a + g.funding_usd, 0) }],
      ),
  },
  {
    query: 'search grants for "lung cancer" return grants',
    check: (r) =>
      assert.deepEqual(
        records(r, 'grants').map((g) => g.id),
        ['grant.9000002'],
      ),
  },
  {
    query: 'search researchers for "\\"Silva Ana\\"" return researchers',
    check: (r) =>
      assert.deepEqual(
        records(r, 'researchers').map((x) => x.id),
        ['ur.0900000001.01'],
      ),
  },
  {
    query: 'search researchers where last_name = "Shimazaki" return researchers[basics+obsolete]',
    check: (r) =>
      assert.deepEqual(
        records(r, 'researchers').map((x) => [x.id, x.obsolete]),
        [['ur.0900000003.03', 0]],
      ),
  },
  {
    query: 'search organizations where types = "Funder" return organizations',
    check: (r) =>
      assert.deepEqual(
        records(r, 'organizations').map((x) => x.id),
        ['grid.900003.c'],
      ),
  },
  {
    query: 'search publications for "malaria" return citations_per_year(2018, 2021)',
    check: (r) => {
      const cited = new Set(where((p) => words(p).includes('malaria')).map((p) => p.id));
      // The hosted service's shape: an object keyed by year, zeros included.
      const expected = Object.fromEntries(
        [2018, 2019, 2020, 2021].map((year) => [
          String(year),
          PUBLICATIONS.filter((p) => p.year === year).reduce(
            (n, p) => n + ('reference_ids' in p ? p.reference_ids.filter((id) => cited.has(id)).length : 0),
            0,
          ),
        ]),
      );
      assert.ok(Object.values(expected).some((n) => n > 0));
      assert.deepEqual(r.citations_per_year, expected);
    },
  },
  {
    query: 'search grants return funding_per_year(2011, 2015, "USD")',
    check: (r) => {
      // Each grant's funding_usd spread evenly over its active years.
      const expected: Record<string, number> = { '2011': 0, '2012': 0, '2013': 0, '2014': 0, '2015': 0 };
      for (const g of GRANTS) {
        for (const year of g.active_year) {
          const key = String(year);
          if (key in expected) expected[key] = (expected[key] ?? 0) + g.funding_usd / g.active_year.length;
        }
      }
      assert.deepEqual(r.funding_per_year, expected);
    },
  },
  {
    query: 'search organizations for "melbourne" return organizations[id+name]',
    check: (r) =>
      assert.deepEqual(records(r, 'organizations'), [{ id: 'grid.900002.b', name: 'University of Melbourne' }]),
  },
  {
    dslVersion: 1,
    query:
      'search publications where FOR.name = "Biomedical" return publications[id+FOR+author_affiliations] return FOR',
    check: (r) => {
      const expected = where((p) => 'category_for' in p && p.category_for.some((c) => c.name === 'Biomedical'));
      assert.deepEqual(
        records(r)
          .map((x) => x.id)
          .sort(),
        ids(expected).sort(),
      );
      const first = records(r).find((x) => x.id === 'pub.1900000001') as Rec;
      assert.deepEqual(first.FOR, [{ id: '80003', name: 'Biomedical' }]);
      // Version 1's author_affiliations: one list holding the author objects with every v1
      // key of the hosted service ("" for a missing text, null for a missing affiliation value).
      assert.deepEqual(first.author_affiliations, [
        [
          {
            first_name: 'Ana',
            last_name: 'Silva',
            orcid: '',
            current_organization_id: '',
            researcher_id: 'ur.0900000001.01',
            affiliations: [
              {
                id: 'grid.900001.a',
                name: null,
                city: null,
                city_id: null,
                country: null,
                country_code: null,
                state: null,
                state_code: null,
              },
            ],
          },
        ],
      ]);
      assert.deepEqual(r.FOR, [{ id: '80003', count: expected.length, name: 'Biomedical' }]);
      assert.ok(Array.isArray(r._warnings) && r._warnings.some((w: string) => w.includes("'FOR'")));
    },
  },
  {
    query: 'describe version',
    check: (r) => assert.deepEqual(r, { release: '2.14', version: '2.14.0' }),
  },
  {
    query: 'describe source publications',
    check: (r) => assert.ok(JSON.stringify(r).includes('"times_cited"')),
  },
  // Subscriptions (docs/language.md, "Subscriptions"): a linked researcher or organization
  // shows its id and display fields to the searched source's subscribers alone.
  {
    query: 'search publications return researchers',
    sources: ['publications'],
    check: (r) => {
      const rows = r.researchers as Rec[];
      assert.deepEqual(
        rows.map(({ id, count }) => ({ id, count })),
        countsBy(PUBLICATIONS.flatMap(researchersOf)),
      );
      for (const row of rows)
        for (const key of Object.keys(row))
          assert.ok(['id', 'count', 'first_name', 'last_name', 'orcid_id', 'research_orgs'].includes(key), key);
    },
  },
  {
    query: 'search publications return research_orgs[basics] return funders[name]',
    sources: ['publications'],
    check: (r) => {
      assert.deepEqual(
        (r.research_orgs as Rec[]).map(({ id, name }) => ({ id, name })),
        countsBy(PUBLICATIONS.flatMap(orgsOf)).map(({ id }) => ({ id, name: ORGS.find((o) => o.id === id)?.name })),
      );
      assert.ok(Array.isArray(r.funders));
    },
  },
  {
    query:
      'search publications where researchers.last_name = "Doudna" and research_orgs.name ~ "Melbourne" return publications[id + researchers + unnest(research_orgs)]',
    sources: ['publications'],
    check: (r) => {
      const expected = where((p) => researchersOf(p).includes('ur.0900000002.02'));
      assert.ok(records(r).length > 0);
      for (const row of records(r)) assert.ok(ids(expected).includes(row.id as string));
    },
  },
  {
    query: 'search publications return researchers[basics + extras]',
    sources: ['publications', 'researchers'],
    check: (r) => {
      const id = RESEARCHERS[0]?.id ?? '';
      const ana = (r.researchers as Rec[]).find((x) => x.id === id);
      assert.equal(ana?.total_publications, where((p) => researchersOf(p).includes(id)).length);
    },
  },
  {
    query: 'search publications for "malaria" return citations_per_year(2018, 2021)',
    sources: ['publications'],
    check: (r) => assert.equal(typeof r.citations_per_year, 'object'),
  },
  {
    query: 'search grants return funding_per_year(2011, 2015, "USD")',
    sources: ['grants'],
    check: (r) => assert.equal(typeof r.funding_per_year, 'object'),
  },
  {
    query: 'describe schema',
    sources: ['publications'],
    check: (r) => {
      assert.deepEqual(Object.keys(r.sources as Rec), ['publications']);
      assert.deepEqual(Object.keys(r.functions as Rec), ['citations_per_year']);
    },
  },
];

export const ERROR_CASES: readonly ErrorCase[] = [
  { query: 'search publications where year = 2019 retur year', category: 'syntax' },
  { query: 'search publications where spaceships = 1 return publications', category: 'semantic' },
  // A text function of spec/dsl.md §8 (every source there may come to be held).
  { query: 'similar_documents(abstract="University of Oxford")', category: 'unsupported' },
  { query: 'search publications return publications limit 2000', category: 'budget' },
  { query: 'search publications return publications[all] limit 5', category: 'semantic' },
  {
    query: 'search publications return researchers[basics+extras]',
    sources: ['publications'],
    category: 'permission',
    code: 'SCHEMA_LINKED_SOURCE_NOT_SUBSCRIBED',
  },
  {
    query: 'search publications return research_orgs[basics + nuts]',
    sources: ['publications', 'researchers'],
    category: 'permission',
    code: 'SCHEMA_LINKED_SOURCE_NOT_SUBSCRIBED',
  },
  {
    query: 'search grants return researchers[nih_ppid] return funders',
    sources: ['grants'],
    category: 'permission',
    code: 'SCHEMA_LINKED_SOURCE_NOT_SUBSCRIBED',
  },
  {
    query: 'search grants return funders[wikidata_ids]',
    sources: ['grants'],
    category: 'permission',
    code: 'SCHEMA_LINKED_SOURCE_NOT_SUBSCRIBED',
  },
  {
    query: 'search researchers return current_research_org[established]',
    sources: ['researchers'],
    category: 'permission',
    code: 'SCHEMA_LINKED_SOURCE_NOT_SUBSCRIBED',
  },
  {
    query: 'search grants return funding_per_year(2011, 2015, "USD")',
    sources: ['publications'],
    category: 'permission',
    code: 'SCHEMA_SOURCE_NOT_SUBSCRIBED',
  },
  {
    query: 'describe source researchers',
    sources: ['publications'],
    category: 'permission',
    code: 'SCHEMA_SOURCE_NOT_SUBSCRIBED',
  },
  // Past int8, PostgreSQL could not bind the number (a server error where SQLite answered).
  {
    query: 'search publications where count(researchers) = 9223372036854775807 return publications',
    category: 'semantic',
    code: 'SCHEMA_INVALID_VALUE',
    position: { line: 1, column: 48 },
  },
  {
    query: 'search publications where count(researchers) > 9007199254740993 return publications',
    category: 'semantic',
    code: 'SCHEMA_INVALID_VALUE',
    position: { line: 1, column: 48 },
  },
];

/** Runs the whole table against one engine; `makeEngine` gets the fixture database. */
export function runBehaviourSuite(name: string, makeEngine: () => Promise<QueryEngine>): void {
  describe(`behaviour: ${name}`, () => {
    let engine: QueryEngine;
    before(async () => {
      engine = await makeEngine();
    });
    after(() => engine.close());
    for (const c of BEHAVIOUR_CASES) {
      test(`${c.dslVersion === 1 ? '[v1] ' : ''}${c.query}${subscribed(c.sources)}`, async () => {
        const { result } = await engine.run(c.query, optionsFor(c));
        c.check(result);
      });
    }
    for (const c of ERROR_CASES) {
      test(`${c.query}${subscribed(c.sources)} → ${c.code ?? c.category} error`, async () => {
        await assert.rejects(engine.run(c.query, optionsFor(c)), (e: unknown) => {
          assert.ok(e instanceof QuarryError, String(e));
          assert.equal(e.category, c.category);
          if (c.code !== undefined) assert.equal(e.code, c.code);
          if (c.position !== undefined) assert.deepEqual(e.first.position, c.position);
          return true;
        });
      });
    }
    test('the result cache never serves the answer of a subscriber to researchers to a caller without researchers', async () => {
      // Closing the cache would close the suite's engine: it is left open.
      const cached = withResultCache(engine, { maxBytes: 1 << 20, epoch: () => 'e1' });
      const text = 'search publications return researchers[basics + extras]';
      const all = await cached.run(text, { dslVersion: 2 });
      assert.ok((all.result.researchers as Rec[]).some((x) => 'total_publications' in x));
      await assert.rejects(
        cached.run(text, { dslVersion: 2, permissions: { sources: ['publications'] } }),
        (e: unknown) => e instanceof QuarryError && e.code === 'SCHEMA_LINKED_SOURCE_NOT_SUBSCRIBED',
      );
      // The subscriber's answer was kept, and is still served to a subscriber.
      assert.deepEqual((await cached.run(text, { dslVersion: 2 })).result, all.result);
      assert.equal(cached.cacheStats().hits, 1);
    });
  });
}
