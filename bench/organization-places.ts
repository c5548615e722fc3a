/**
 * The query shapes over the places and names of a record's organizations
 * (`research_org_countries`, `research_org_cities`, `research_org_names`, `funder_countries`,
 * ...), which are read through the organization links (docs/storage.md): filters, count()
 * filters, facets (whole corpus and under a filter or full text) and pages that show them.
 * Prints each shape's first run (which reads the in-memory link columns it needs) and its
 * p50 over the next runs, wall and CPU, in process on one connection.
 *
 *   npx tsx bench/organization-places.ts --db <records.db> [--runs 9]
 */
import { openShapeBench, printShapeRuns, type Shape } from './shape-runs.ts';

const { path, runs, db, execute } = openShapeBench();

// Values drawn from the organizations most linked, so every shape has matches.
const top = db
  .prepare(
    `SELECT name, country_code, coalesce(city_id, city_name) AS city FROM organizations
     WHERE country_code IS NOT NULL ORDER BY n_publications DESC LIMIT 3`,
  )
  .all() as { name: string; country_code: string; city: string }[];
if (top.length === 0) throw new Error('the database holds no organizations with a country');
const pick = <T>(values: readonly T[], i: number): T => values[i % values.length] as T;
const quote = (text: string): string => JSON.stringify(text);
const countries = [...new Set(top.map((o) => o.country_code))];

const shapes: Shape[] = [
  [
    'country filter, page of ids',
    (i) =>
      `search publications where research_org_countries = ${quote(pick(countries, i))} return publications[id] limit 100`,
  ],
  [
    'country + year, cities facet',
    (i) =>
      `search publications where research_org_countries = ${quote(pick(countries, i))} and year = ${2018 + (i % 3)} return research_org_cities limit 20`,
  ],
  [
    'org name filter, page with places',
    (i) =>
      `search publications where research_org_names = ${quote(pick(top, i).name)} return publications[id + research_org_names + research_org_countries + research_org_cities] limit 100`,
  ],
  [
    'city filter, count',
    (i) =>
      `search publications where research_org_cities = ${quote(pick(top, i).city)} return publications[id] limit 1`,
  ],
  [
    'text, countries facet',
    (i) =>
      `search publications for ${quote(pick(['cell', 'model', 'water'], i))} return research_org_countries limit 20`,
  ],
  [
    'whole corpus, funder countries',
    () => 'search publications return funder_countries aggregate citations_total limit 20',
  ],
  [
    'count filter, countries facet',
    (i) =>
      `search publications where count(research_org_countries) > ${1 + (i % 2)} return research_org_countries limit 10`,
  ],
  [
    'year page of 1000 with places',
    (i) =>
      `search publications where year = ${2018 + (i % 3)} return publications[id + research_org_countries + research_org_cities + research_org_names + funder_countries] limit 1000`,
  ],
];

printShapeRuns(path, shapes, runs, execute);
db.close();
