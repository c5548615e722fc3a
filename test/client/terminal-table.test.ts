// Tables for a terminal and rows per nested item (`quarry query --format table`, `--rows`,
// the shell): entities shown by name, facet rows led by their id, name, count and the
// indicators in the order asked, narrowed to the terminal's width, and rows per author,
// affiliation, funder and investigator with their record's id.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { formatResult } from '../../src/cli/commands/query-remote.ts';
import { flattenRecord, rowsOf } from '../../src/client/flatten.ts';
import { QuarryClientError } from '../../src/client/errors.ts';
import { resultShape, withRows } from '../../src/client/result-view.ts';
import { displayText, table } from '../../src/client/terminal-table.ts';

const AFFILIATION = { id: 'grid.1', name: 'Jade University', city: 'Wilhelmshaven', country_code: 'DE' };
const publications = [
  {
    id: 'pub.1',
    title: 'Graphene batteries',
    journal: { id: 'jour.1', title: 'Energy Letters' },
    authors: [
      { first_name: 'Diane', last_name: 'Nelson', researcher_id: 'ur.1', affiliations: [AFFILIATION] },
      { first_name: 'Miguel', last_name: 'Ruiz', researcher_id: null, affiliations: [] },
    ],
    funders: [{ id: 'grid.9', name: 'NSF', country_name: 'United States' }],
  },
  { id: 'pub.2', title: 'No authors', authors: [], funders: [] },
];

test('a cell shows an entity by its name and a list joined; flattening makes dotted columns', () => {
  assert.equal(displayText({ id: 'jour.1', title: 'Energy Letters' }), 'Energy Letters');
  assert.equal(displayText(publications[0]?.authors), 'Diane Nelson; Miguel Ruiz');
  assert.equal(displayText(['Education', 'Funder']), 'Education; Funder');
  assert.equal(displayText({ id: 'grid.1' }), 'grid.1');
  assert.deepEqual(flattenRecord({ id: 'pub.1', journal: { id: 'jour.1', title: 'E' }, year: 2020 }), {
    id: 'pub.1',
    'journal.id': 'jour.1',
    'journal.title': 'E',
    year: 2020,
  });
});

test('rows per author, author affiliation, funder and investigator carry their record id', () => {
  assert.deepEqual(
    rowsOf('authors', 'publications', publications).map((r) => [r['pub_id'], r['last_name']]),
    [
      ['pub.1', 'Nelson'],
      ['pub.1', 'Ruiz'],
    ],
  );
  assert.deepEqual(rowsOf('affiliations', 'publications', publications), [
    {
      pub_id: 'pub.1',
      first_name: 'Diane',
      last_name: 'Nelson',
      researcher_id: 'ur.1',
      aff_id: 'grid.1',
      aff_name: 'Jade University',
      aff_city: 'Wilhelmshaven',
      aff_country_code: 'DE',
    },
  ]);
  assert.deepEqual(rowsOf('funders', 'publications', publications), [
    { pub_id: 'pub.1', id: 'grid.9', name: 'NSF', country_name: 'United States' },
  ]);
  const grants = [{ id: 'grant.1', investigators: [{ first_name: 'Kanta', last_name: 'Deeks', role: 'PI' }] }];
  assert.deepEqual(rowsOf('investigators', 'grants', grants), [
    { grant_id: 'grant.1', first_name: 'Kanta', last_name: 'Deeks', role: 'PI' },
  ]);
});

test('--rows replaces the searched records, and says which field to return when it is missing', () => {
  const text = 'search publications return publications[id + authors] limit 2';
  const shaped = withRows({ publications, _stats: { total_count: 2 } }, 'authors', resultShape(text));
  assert.equal((shaped['publications'] as unknown[]).length, 2);
  assert.deepEqual(shaped._stats, { total_count: 2 });
  assert.throws(
    () => withRows({ publications: [{ id: 'pub.1', title: 'x' }] }, 'funders', resultShape(text)),
    (error: unknown) =>
      error instanceof QuarryClientError && /without funders: add it to the fields/.test(error.message),
  );
  assert.throws(
    () => withRows({ release: '2.0' }, 'authors', resultShape('describe version')),
    (error: unknown) => error instanceof QuarryClientError && /--rows authors/.test(error.message),
  );
});

test('facet rows lead with id, name, count and the indicators in the order the query named them', () => {
  const text = 'search publications return funders aggregate rcr_avg, citations_total limit 5';
  const shape = resultShape(text);
  const funders = [
    {
      id: 'grid.9',
      count: 12,
      acronym: 'NSF',
      country_name: 'United States',
      citations_total: 40,
      name: 'NSF',
      rcr_avg: 1.5,
    },
  ];
  const header = formatResult({ funders }, 'table', { shape }).split('\n')[0] ?? '';
  assert.deepEqual(
    header.split('|').map((h) => h.trim()),
    ['id', 'name', 'count', 'rcr_avg', 'citations_total', 'acronym', 'country_name'],
  );
  // The searched source's own records keep the order their field list asked for.
  const records = [{ year: 2020, id: 'pub.1' }];
  const own = formatResult({ publications: records }, 'table', {
    shape: resultShape('search publications return publications[year + id]'),
  });
  assert.match(own, /^year \| id/);
});

test('a table narrows to the terminal: widest columns first, then the last columns left out and named', () => {
  const rows = [{ id: 'pub.1', title: 'A very long title about graphene batteries and their many uses', year: 2020 }];
  const wide = table(rows, { maxWidth: 80 });
  assert.ok(wide.split('\n')[2]?.includes('their many uses'));
  const narrow = table(rows, { maxWidth: 80, width: 40 });
  for (const line of narrow.trimEnd().split('\n')) assert.ok([...line].length <= 40, `${line} fits 40`);
  assert.match(narrow, /A very long title.*…/);
  assert.match(narrow, /2020/);
  const tiny = table(rows, { width: 20 });
  for (const line of tiny.trimEnd().split('\n').slice(0, 3)) assert.ok([...line].length <= 20, line);
  assert.match(tiny, /^pub.1 \| A very …$/m);
  assert.match(tiny, /\(1 more column: year; --format csv or json shows all\)\n$/);
});
