/**
 * The query shapes over the link fields held as vocabulary ids (`concepts` through
 * `concept_names`, `reference_ids` through `cited_ids`: docs/storage.md, "Interned values"):
 * filters, a filter beside full text and a year, and a page that shows both lists. Prints each
 * shape's first run and its p50 over the next runs, wall and CPU, in process on one
 * connection. The values are picked through the query language, so the same run works on a
 * database written before the interning (to compare the two layouts).
 *
 *   npx tsx bench/interned-links.ts --db <records.db> [--runs 9]
 */
import { openShapeBench, printShapeRuns, type Shape } from './shape-runs.ts';

const { path, runs, db, execute } = openShapeBench();

// Values from the most cited publications of one year: their concepts and their ids (cited
// by many), so every shape has matches.
const sample = (
  execute('search publications where year = 2015 return publications[id + concepts] sort by times_cited desc limit 5')[
    'publications'
  ] as { id: string; concepts?: string[] }[]
).filter((p) => (p.concepts?.length ?? 0) > 0);
if (sample.length === 0) throw new Error('the database holds no cited publications of 2015 with concepts');
const pick = <T>(values: readonly T[], i: number): T => values[i % values.length] as T;
const quote = (text: string): string => JSON.stringify(text);
const concepts = [...new Set(sample.flatMap((p) => p.concepts ?? []))];
const cited = sample.map((p) => p.id);

const shapes: Shape[] = [
  [
    'concept filter, page of ids',
    (i) => `search publications where concepts = ${quote(pick(concepts, i))} return publications[id] limit 100`,
  ],
  [
    'two concepts + year, page of ids',
    (i) =>
      `search publications where concepts in [${quote(pick(concepts, i))}, ${quote(pick(concepts, i + 1))}] and year = ${2016 + (i % 3)} return publications[id] limit 100`,
  ],
  [
    'text + concept, year facet',
    (i) =>
      `search publications for ${quote(pick(['cell', 'model', 'water'], i))} where concepts = ${quote(pick(concepts, i))} return year limit 20`,
  ],
  [
    'cited by, page of ids',
    (i) => `search publications where reference_ids = ${quote(pick(cited, i))} return publications[id] limit 100`,
  ],
  [
    'cited by, count',
    () => `search publications where reference_ids in [${cited.map(quote).join(', ')}] return publications[id] limit 1`,
  ],
  [
    'year page of 1000 with concepts and references',
    (i) =>
      `search publications where year = ${2018 + (i % 3)} return publications[id + concepts + reference_ids] limit 1000`,
  ],
];

printShapeRuns(path, shapes, runs, execute);
db.close();
