/**
 * The 20 query shapes of the query-mix benchmarks (taken from conformance/queries.txt),
 * with the names and words in each drawn from the database itself so every query has real
 * matches. Shared by bench/query-mix.ts (engine, in process) and bench/http-query-mix.ts.
 */
import type Database from 'better-sqlite3';

const q = (s: string): string => JSON.stringify(s);

interface Pools {
  orgs: string[];
  orgWords: string[];
  words: string[];
  authors: string[];
  categories: string[];
  years: number[];
}

/** Values for the shapes, taken from the data so every query has real matches. */
function pools(db: Database.Database): Pools {
  const col = <T>(sql: string): T[] => db.prepare(sql).pluck().all() as T[];
  const orgs = col<string>(
    'SELECT id FROM organizations WHERE n_publications > 0 ORDER BY n_publications DESC LIMIT 20',
  );
  const orgWords = col<string>(
    'SELECT name FROM organizations WHERE n_publications > 0 ORDER BY n_publications DESC LIMIT 20',
  ).map((n) => n.split(/\s+/).slice(-2).join(' '));
  // Mid-frequency words: common enough to match, rare enough to be realistic searches.
  const frequent = col<string>(
    "SELECT term FROM publications_fts_vocab WHERE length(term) > 4 AND term GLOB '[a-z]*' ORDER BY doc DESC LIMIT 100",
  );
  const words = frequent.length > 80 ? frequent.slice(60) : frequent;
  const authors = (
    db
      .prepare(
        'SELECT first_name, last_name FROM researchers WHERE n_publications > 2 ORDER BY n_publications DESC LIMIT 20',
      )
      .all() as Array<{ first_name: string; last_name: string }>
  ).map((r) => `${r.first_name} ${r.last_name}`);
  const categories = col<string>("SELECT name FROM categories WHERE scheme = 'for' LIMIT 20");
  const years = col<number>(
    'SELECT DISTINCT year FROM publications WHERE year IS NOT NULL ORDER BY year DESC LIMIT 10',
  );
  return { orgs, orgWords, words, authors, categories, years };
}

const pick = <T>(list: readonly T[], i: number): T => {
  if (list.length === 0) throw new Error('the database lacks data for a benchmark shape');
  return list[i % list.length] as T;
};

/** The 20 shapes (and the year facet); `i` varies the values from run to run. */
function shapesFor(p: Pools): QueryShape[] {
  const w = (i: number, k = 0): string => pick(p.words, i * 3 + k);
  // Three years, lower bound first (the years are drawn newest first and wrap around).
  const yearRange = (i: number): string => {
    const a = pick(p.years, i);
    const b = pick(p.years, i + 2);
    return `${Math.min(a, b)}:${Math.max(a, b)}`;
  };
  return [
    [
      'orgs+years ids page 250',
      (i) =>
        `search publications where research_orgs.id in [${q(pick(p.orgs, i))},${q(pick(p.orgs, i + 1))}] and year in [${yearRange(i)}] return publications[id] limit 250`,
    ],
    [
      'org+year grant ids',
      (i) =>
        `search publications where research_orgs.id in [${q(pick(p.orgs, i))}] and year = ${pick(p.years, i + 1)} return publications[id+supporting_grant_ids]`,
    ],
    [
      'text+year page 100',
      (i) =>
        `search publications for ${q(w(i))} where year=${pick(p.years, i + 1)} return publications[id+title+year+concepts_scores] limit 100`,
    ],
    [
      'org+category name',
      (i) =>
        `search publications where research_orgs.id = ${q(pick(p.orgs, i))} and category_for.name= ${q(pick(p.categories, i))} return publications[id+doi+concepts_scores+year]`,
    ],
    [
      'grants text+active_year',
      (i) =>
        `search grants for ${q(`${w(i)} ${w(i, 1)}`)} where active_year=${pick(p.years, i + 3)} return grants limit 5`,
    ],
    [
      'authors phrase',
      (i) => `search publications in authors for ${q(`"${pick(p.authors, i)}"`)} return publications limit 5`,
    ],
    ['phrase', (i) => `search publications for ${q(`"${w(i)} ${w(i, 1)}"`)} return publications limit 5`],
    ['AND', (i) => `search publications for ${q(`(${w(i)} AND ${w(i, 1)})`)} return publications limit 5`],
    [
      'OR/NOT/+',
      (i) =>
        `search publications for ${q(`(${w(i)} OR ${w(i, 1)}) AND (-${w(i, 2)} +${w(i, 3)})`)} return publications limit 5`,
    ],
    [
      'wildcard ?',
      (i) =>
        `search publications in title_only for ${q(`${w(i).slice(0, -1)}? ${w(i, 1)}`)} return publications limit 5`,
    ],
    [
      'text+count facet',
      (i) => `search publications for ${q(w(i))} where count(research_orgs) > 2 return research_orgs limit 5`,
    ],
    ['count filter funders facet', () => 'search publications where count(researchers) > 1 return funders limit 5'],
    ['three facets', () => 'search publications return funders limit 5 return research_orgs limit 5 return year'],
    [
      'sort by times_cited',
      () => 'search publications return publications [doi + times_cited] sort by times_cited limit 5',
    ],
    [
      'text facet median+rcr',
      (i) =>
        `search publications for ${q(w(i))} return research_orgs aggregate altmetric_median, rcr_avg sort by rcr_avg limit 5`,
    ],
    [
      'text funders citations',
      (i) =>
        `search publications for ${q(w(i))} return funders aggregate citations_total sort by citations_total limit 5`,
    ],
    ['date filter', () => 'search publications where date > "2020-01-22" return publications[id+date] limit 5'],
    [
      'org name ~',
      (i) => `search publications where research_orgs.name ~ ${q(pick(p.orgWords, i))} return publications limit 5`,
    ],
    ['researchers facet (corpus)', () => 'search publications return researchers'],
    [
      '1000-record page',
      (i) => `search publications where year = ${pick(p.years, i)} return publications[basics+extras] limit 1000`,
    ],
    ['year facet limit 1000', () => 'search publications return year limit 1000'],
  ];
}

export type QueryShape = [name: string, make: (i: number) => string];

/** The benchmark's shapes with values from `db`; `make(i)` varies the values with `i`. */
export function queryShapes(db: Database.Database): QueryShape[] {
  return shapesFor(pools(db));
}
