// The console's browser-side logic that does not need a browser: CSV, reading results,
// error positions, and completion from `describe schema`.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { parse } from '../../src/dsl/parse.ts';
import { describeQuery } from '../../src/schema/describe.ts';
import type { DescribeQuery } from '../../src/dsl/ast.ts';
import { parseCsv, toCsv } from '../../src/web/console/csv.ts';
import { facetLabel, offsetOf, resultLists } from '../../src/web/console/result-shape.ts';
import { searchedSource, suggestionsAt, type SchemaDoc } from '../../src/web/console/schema-completion.ts';

const schema = describeQuery(parse('describe schema') as DescribeQuery, { dslVersion: 2 }) as unknown as SchemaDoc;
const labels = (before: string) => suggestionsAt(schema, before).map((s) => s.label);

describe('CSV', () => {
  test('quotes what needs quoting and round-trips', () => {
    const rows = [
      { id: 'pub.1', title: 'A "quoted", title\nwith a line break', year: 2020 },
      { id: 'pub.2', year: null, journal: { id: 'j1', title: 'J' }, extra: true },
    ];
    const csv = toCsv(rows);
    assert.ok(csv.startsWith('id,title,year,journal,extra\r\n'));
    assert.deepEqual(parseCsv(csv), [
      ['id', 'title', 'year', 'journal', 'extra'],
      ['pub.1', 'A "quoted", title\nwith a line break', '2020', '', ''],
      ['pub.2', '', '', '{"id":"j1","title":"J"}', 'true'],
    ]);
    assert.equal(toCsv([]), '\r\n');
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
    assert.equal(facetLabel({ id: 'ur.1', count: 1, first_name: 'Ana', last_name: 'Silva' }), 'Ana Silva');
    assert.equal(facetLabel({ id: 2020, count: 1 }), '2020');
    assert.equal(facetLabel({ id: 'grid.1', count: 1, name: 'Fund' }), 'Fund');
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
    assert.deepEqual(labels('search ').sort(), ['grants', 'organizations', 'publications', 'researchers']);
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
