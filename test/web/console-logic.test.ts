// The console's browser-side logic that does not need a browser: CSV, reading results,
// error positions, and completion from `describe schema`.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { parse } from '../../src/dsl/parse.ts';
import { describeQuery } from '../../src/schema/describe.ts';
import { SOURCE_NAMES } from '../../src/model/sources.ts';
import type { DescribeQuery } from '../../src/dsl/ast.ts';
import { parseCsv, toCsv } from '../../src/web/console/csv.ts';
import { offsetOf, resultLists } from '../../src/web/console/result-shape.ts';
import { entityLabel, flattenRecord } from '../../src/client/flatten.ts';
import { exportAll } from '../../src/web/console/export-all.ts';
import {
  chartRows,
  defaultIndicator,
  facetColumns,
  facetIndicators,
  formatNumber,
  isYearFacet,
} from '../../src/web/console/facets.ts';
import {
  clearHistory,
  HISTORY_KEY,
  HISTORY_LIMIT,
  permalink,
  readHistory,
  remember,
} from '../../src/web/console/history.ts';
import { broader, nextPage, withFilter, withoutPaging } from '../../src/web/console/query-edit.ts';
import { snippet } from '../../src/web/console/snippets.ts';
import {
  searchedSource,
  suggestionsAt,
  valueContext,
  valueField,
  type SchemaDoc,
} from '../../src/web/console/schema-completion.ts';

const schema = describeQuery(parse('describe schema') as DescribeQuery, { dslVersion: 2 }) as unknown as SchemaDoc;
const labels = (before: string) => suggestionsAt(schema, before).map((s) => s.label);

describe('CSV', () => {
  test('quotes what needs quoting and round-trips', () => {
    const rows = [
      { id: 'pub.1', title: 'A "quoted", title\nwith a line break', year: 2020 },
      { id: 'pub.2', year: null, journal: { id: 'j1', title: 'J' }, extra: true },
    ];
    const csv = toCsv(rows);
    assert.ok(csv.startsWith('id,title,year,journal.id,journal.title,extra\r\n'));
    assert.deepEqual(parseCsv(csv), [
      ['id', 'title', 'year', 'journal.id', 'journal.title', 'extra'],
      ['pub.1', 'A "quoted", title\nwith a line break', '2020', '', '', ''],
      ['pub.2', '', '', 'j1', 'J', 'true'],
    ]);
    assert.equal(toCsv([]), '\r\n');
  });

  test('text a spreadsheet would run as a formula gets a leading quote; numbers stay numbers', () => {
    const csv = toCsv([{ id: 'pub.1', title: '=cmd|" /C calc"!A0', year: -3, journal: { title: '+1' } }]);
    assert.deepEqual(parseCsv(csv), [
      ['id', 'title', 'year', 'journal.title'],
      ['pub.1', `'=cmd|" /C calc"!A0`, '-3', "'+1"],
    ]);
  });
});

describe('result lists', () => {
  test('separate records from facets, skip metadata, open groups', () => {
    const lists = resultLists({
      publications: [{ id: 'pub.1', title: 'x' }],
      year: [{ id: 2020, count: 3 }],
      g: { funders: [{ id: 'grid.1', count: 2, name: 'Fund' }] },
      _stats: { total_count: 1 },
      _warnings: ['w'],
    });
    assert.deepEqual(
      lists.map((l) => [l.name, l.isFacet]),
      [
        ['publications', false],
        ['year', true],
        ['g.funders', true],
      ],
    );
    assert.equal(entityLabel({ id: 'ur.1', count: 1, first_name: 'Ana', last_name: 'Silva' }), 'Ana Silva');
    assert.equal(entityLabel({ id: 2020, count: 1 }), '2020');
    assert.equal(entityLabel({ id: 'grid.1', count: 1, name: 'Fund' }), 'Fund');
  });

  test('line and column become the editor offset', () => {
    const text = 'search publications\nwhere year > "x"\nreturn publications';
    assert.equal(offsetOf(text, 1, 1), 0);
    assert.equal(offsetOf(text, 2, 7), text.indexOf('year'));
    assert.equal(offsetOf(text, 9, 1), text.length);
    assert.equal(offsetOf(text, 1, 999), text.indexOf('\n'));
  });
});

describe('completion from describe schema', () => {
  test('offers sources after search', () => {
    assert.deepEqual(labels('search ').sort(), [...SOURCE_NAMES].sort());
    assert.equal(searchedSource('SEARCH Grants where'), 'grants');
  });

  test('offers facets and the source after return, indicators after aggregate', () => {
    const afterReturn = labels('search publications return ');
    assert.ok(afterReturn.includes('publications'));
    assert.ok(afterReturn.includes('year'));
    assert.ok(afterReturn.includes('funders'));
    assert.ok(afterReturn.includes('citations_per_year'));
    assert.ok(!afterReturn.includes('title'), 'title is no facet');
    const grantIndicators = labels('search grants return funders aggregate ');
    assert.ok(grantIndicators.includes('funding'));
    assert.ok(labels('search publications return funders aggregate ').includes('citations_total'));
    assert.ok(
      labels('search publications return funders aggregate citations_total sort by ').includes('citations_total'),
    );
  });

  test('offers fields and fieldsets inside a field list, entity fields after a dot', () => {
    const inList = labels('search publications return publications[id + ');
    assert.ok(inList.includes('title'));
    assert.ok(inList.includes('basics'));
    assert.ok(labels('search publications where journal.').includes('title'));
    assert.ok(labels('search publications where ').includes('year'));
    assert.ok(labels('search publications in ').includes('title_abstract_only'));
  });
});

describe('entities flattened as dimcli dataframes show them', () => {
  const record = {
    id: 'pub.1',
    journal: { id: 'j1', title: 'J' },
    authors: [
      { first_name: 'Ana', last_name: 'Silva', affiliations: [{ id: 'grid.1' }] },
      { first_name: 'Bo', last_name: 'Li' },
    ],
    concepts: ['a', 'b'],
    research_orgs: [{ id: 'grid.1', name: 'Org' }],
    year: 2020,
    none: null,
  };
  test('objects become dotted columns, lists readable names', () => {
    assert.deepEqual(flattenRecord(record), {
      id: 'pub.1',
      'journal.id': 'j1',
      'journal.title': 'J',
      authors: 'Ana Silva; Bo Li',
      concepts: 'a; b',
      research_orgs: 'Org',
      year: 2020,
      none: null,
    });
  });
  test('CSV keeps lists as JSON so nothing is lost', () => {
    const [header, row] = parseCsv(toCsv([record]));
    assert.deepEqual(header, [
      'id',
      'journal.id',
      'journal.title',
      'authors',
      'concepts',
      'research_orgs',
      'year',
      'none',
    ]);
    assert.deepEqual(JSON.parse(row![3]!), record.authors);
  });
});

describe('facet charts', () => {
  const funders = [
    { id: 'g1', count: 53, name: 'A', acronym: 'X', latitude: 1.5, funding: 58341169 },
    { id: 'g2', count: 29, name: 'B', funding: 27717034.25 },
  ];
  test('indicators: count first, then what was aggregated; the chart shows the aggregated one', () => {
    assert.deepEqual(facetIndicators(funders), ['count', 'latitude', 'funding']);
    const known = new Set(['count', 'funding']);
    assert.deepEqual(facetIndicators(funders, known), ['count', 'funding']);
    assert.equal(defaultIndicator(['count', 'funding']), 'funding');
    assert.equal(defaultIndicator(['count']), 'count');
  });
  test('label and indicators lead the columns', () => {
    assert.deepEqual(facetColumns(['id', 'count', 'name', 'acronym', 'funding'], ['count', 'funding']), [
      'id',
      'name',
      'count',
      'funding',
      'acronym',
    ]);
  });
  test('year facets are in year order; others keep the server order', () => {
    const years = [
      { id: 2021, count: 9 },
      { id: 2019, count: 5 },
      { id: 2020, count: 1 },
    ];
    assert.ok(isYearFacet('year', years) && isYearFacet('g.start_year', years));
    assert.ok(!isYearFacet('funders', funders) && !isYearFacet('authors_count', years));
    assert.deepEqual(
      chartRows('year', years).map((r) => r.id),
      [2019, 2020, 2021],
    );
    assert.deepEqual(
      chartRows('type', years).map((r) => r.id),
      [2021, 2019, 2020],
    );
  });
  test('numbers are grouped, ids and years are not', () => {
    assert.equal(formatNumber('funding', 58341169), '58,341,169');
    assert.equal(formatNumber('citations_avg', 3.14159), '3.14');
    assert.equal(formatNumber('year', 2021), '2021');
    assert.equal(formatNumber('journal.id', 12345), '12345');
  });
});

describe('query edits', () => {
  test('a clicked value joins the filter', () => {
    assert.equal(
      withFilter('search publications return year', 'year', 2020, false),
      'search publications where year = 2020\nreturn year',
    );
    assert.equal(
      withFilter('search publications where year > 2010 or type = "book" return year', 'type', 'a"b', false),
      'search publications where (year > 2010 or type = "book") and type = "a\\"b" return year',
    );
    assert.equal(
      withFilter('search grants for "x" where start_year = 2020 return funders', 'funders', 'grid.1', true),
      'search grants for "x" where start_year = 2020 and funders.id = "grid.1" return funders',
    );
    assert.equal(withFilter('describe schema', 'year', 2020, false), undefined);
  });
  test('paging drops and moves limit and skip', () => {
    assert.equal(withoutPaging('search grants return grants[id] limit 10 skip 20;'), 'search grants return grants[id]');
    assert.equal(nextPage('search grants return grants limit 10', 1), 'search grants return grants limit 10 skip 10');
    assert.equal(
      nextPage('search grants return grants limit 10 skip 20', -1),
      'search grants return grants limit 10 skip 10',
    );
    assert.equal(nextPage('search grants return grants limit 10', -1), undefined);
    assert.equal(nextPage('search grants return grants', 1), 'search grants return grants limit 20 skip 20');
    assert.equal(nextPage('search grants return funders limit 10', 1), undefined, 'facets have no pages');
  });
  test('a broader query drops the filter, else the full-text clause', () => {
    assert.equal(broader('search grants where (start_year = 1800) return grants'), 'search grants\nreturn grants');
    assert.equal(
      broader('search publications in title_only for "zzz" return publications'),
      'search publications\nreturn publications',
    );
    assert.equal(broader('search publications return publications'), undefined);
  });
});

describe('export all', () => {
  test('pages through every record with the client paging and writes JSON lines or CSV', async () => {
    const all = Array.from({ length: 7 }, (_, i) => ({ id: `g${i}`, funders: [{ id: 'f', name: 'F' }] }));
    const asked: string[] = [];
    const run = (text: string) => {
      asked.push(text);
      const [, limit, skip] = / limit (\d+) skip (\d+)$/.exec(text) ?? [];
      return Promise.resolve({
        grants: all.slice(Number(skip), Number(skip) + Number(limit)),
        _stats: { total_count: all.length },
      });
    };
    const jsonl = await exportAll('search grants return grants[id + funders] limit 2', {
      format: 'jsonl',
      run,
      pageSize: 3,
    });
    assert.deepEqual(asked, [
      'search grants return grants[id + funders] limit 3 skip 0',
      'search grants return grants[id + funders] limit 3 skip 3',
      'search grants return grants[id + funders] limit 3 skip 6',
    ]);
    assert.deepEqual(
      jsonl.text
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l) as unknown),
      all,
    );
    const csv = await exportAll('search grants return grants[id + funders]', { format: 'csv', run, pageSize: 5 });
    assert.equal(csv.records, 7);
    assert.deepEqual(parseCsv(csv.text)[1], ['g0', '[{"id":"f","name":"F"}]']);
  });

  test('CSV: text a spreadsheet would run as a formula gets a leading quote; numbers stay numbers', async () => {
    const run = () =>
      Promise.resolve({
        grants: [{ id: 'g0', title: '-2+3+cmd', funding_usd: -5, funder: { name: '@x' } }],
        _stats: { total_count: 1 },
      });
    const csv = await exportAll('search grants return grants[id + title]', { format: 'csv', run });
    assert.deepEqual(parseCsv(csv.text), [
      ['id', 'title', 'funding_usd', 'funder.name'],
      ['g0', "'-2+3+cmd", '-5', "'@x"],
    ]);
  });
});

describe('history and permalinks', () => {
  const memory = () => {
    const map = new Map<string, string>();
    return { getItem: (k: string) => map.get(k) ?? null, setItem: (k: string, v: string) => void map.set(k, v) };
  };
  test('most recent first, no repeats, bounded, and bad storage is ignored', () => {
    const storage = memory();
    remember(storage, { query: 'a', version: 2, at: 1 });
    remember(storage, { query: 'b', version: 2, at: 2 });
    assert.deepEqual(
      remember(storage, { query: 'a ', version: 2, at: 3 }).map((e) => e.query),
      ['a', 'b'],
    );
    for (let i = 0; i < HISTORY_LIMIT + 5; i++) remember(storage, { query: `q${i}`, version: 2, at: i });
    assert.equal(readHistory(storage).length, HISTORY_LIMIT);
    storage.setItem(HISTORY_KEY, '{not json');
    assert.deepEqual(readHistory(storage), []);
    const full = {
      getItem: () => null,
      setItem: () => {
        throw new Error('QuotaExceededError');
      },
    };
    assert.deepEqual(
      remember(full, { query: 'x', version: 2, at: 1 }).map((e) => e.query),
      ['x'],
    );
    clearHistory(storage);
    assert.deepEqual(readHistory(storage), []);
  });
  test('a permalink carries the query and a non-default version', () => {
    assert.equal(
      permalink('http://h', 'search grants\nreturn grants', 2),
      'http://h/console?q=search+grants%0Areturn+grants',
    );
    assert.equal(permalink('http://h', 'describe schema', 1), 'http://h/console?q=describe+schema&v=1');
  });
});

describe('code snippets', () => {
  const query = `search publications for "it's \\"x\\"" return publications`;
  test('curl quotes the query for the shell, Python and R for their strings', () => {
    assert.ok(
      snippet('curl', 'http://h', query, 2).includes(
        `--data-binary 'search publications for "it'\\''s \\"x\\"" return publications'`,
      ),
    );
    assert.ok(
      snippet('python', 'http://h', query, 2).includes(
        `dsl.query("""search publications for "it's \\\\"x\\\\"" return publications""")`,
      ),
    );
    assert.ok(
      snippet('r', 'http://h', query, 2).includes(
        `query <- "search publications for \\"it's \\\\\\"x\\\\\\"\\" return publications"`,
      ),
    );
    assert.ok(snippet('curl', 'http://h', 'describe schema', 1).includes("'http://h/api/dsl/v1'"));
  });
});

describe('value completion', () => {
  test('knows when a value is being typed, and which fields have few values', () => {
    assert.deepEqual(valueContext('search publications where type = '), { field: 'type', quoted: false });
    assert.deepEqual(valueContext('search publications where type = "ar'), { field: 'type', quoted: true });
    assert.deepEqual(valueContext('search publications where year in [2019, '), { field: 'year', quoted: false });
    assert.equal(valueContext('search publications where type = "article" and '), undefined);
    assert.equal(valueContext('search publications return year'), undefined);
    assert.deepEqual(labels('search publications where type = '), [], 'no fields or keywords after type =');
    assert.equal(valueField(schema, 'publications', 'type')?.type, 'string');
    assert.equal(valueField(schema, 'publications', 'year')?.type, 'integer');
    assert.equal(valueField(schema, 'publications', 'category_for.name')?.type, 'categories');
    assert.equal(valueField(schema, 'publications', 'title'), undefined);
    assert.equal(valueField(schema, 'publications', 'research_orgs'), undefined);
  });
});
