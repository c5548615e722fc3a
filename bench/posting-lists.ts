/**
 * The query shapes that read link rows by value, which the SQLite store keeps as posting
 * lists (docs/storage.md, "Posting lists"): a researcher's publications and grants, the
 * researchers of an organization, the publications citing one, beside a year or full text.
 * Prints each shape's first run and its p50 over the next runs, wall and CPU, in process on
 * one connection. The values are picked through the query language, so the same run works
 * on a database written with reverse indexes instead (to compare the two layouts).
 *
 *   npx tsx bench/posting-lists.ts --db <records.db> [--runs 9]
 */
import { openShapeBench, printShapeRuns, type Shape } from './shape-runs.ts';

const { path, runs, db, execute } = openShapeBench();
const ids = (query: string, key: string): string[] =>
  ((execute(query)[key] as { id: string }[] | undefined) ?? []).map((r) => r.id);

// The most prolific researchers and the organizations with the most researchers, so every
// shape has matches; the most cited publications of one year for the citing side.
const researchers = ids('search publications where year = 2018 return researchers limit 5', 'researchers');
const organizations = ids('search researchers return research_orgs limit 5', 'research_orgs');
const cited = ids(
  'search publications where year = 2015 return publications[id] sort by times_cited desc limit 5',
  'publications',
);
if (researchers.length === 0 || organizations.length === 0 || cited.length === 0)
  throw new Error('the database holds no researchers, organizations or cited publications to pick');
const pick = (values: readonly string[], i: number): string => JSON.stringify(values[i % values.length]);

const shapes: Shape[] = [
  [
    "a researcher's publications, page of ids",
    (i) => `search publications where researchers = ${pick(researchers, i)} return publications[id] limit 100`,
  ],
  [
    "a researcher's publications in a year range",
    (i) =>
      `search publications where researchers = ${pick(researchers, i)} and year in [2015:2020] return publications[id] limit 100`,
  ],
  [
    'two researchers, year facet',
    (i) =>
      `search publications where researchers in [${pick(researchers, i)}, ${pick(researchers, i + 1)}] return year`,
  ],
  [
    "a researcher's grants",
    (i) => `search grants where researchers = ${pick(researchers, i)} return grants[id] limit 100`,
  ],
  [
    'researchers of an organization, page of ids',
    (i) => `search researchers where research_orgs = ${pick(organizations, i)} return researchers[id] limit 100`,
  ],
  [
    'researchers of an organization, count',
    (i) => `search researchers where research_orgs = ${pick(organizations, i)} return researchers[id] limit 1`,
  ],
  [
    'cited by, page of ids',
    (i) => `search publications where reference_ids = ${pick(cited, i)} return publications[id] limit 100`,
  ],
  [
    'text + cited by',
    (i) =>
      `search publications for ${JSON.stringify(['cell', 'model', 'water'][i % 3])} where reference_ids = ${pick(cited, i)} return publications[id] limit 100`,
  ],
];

printShapeRuns(path, shapes, runs, execute);
db.close();
