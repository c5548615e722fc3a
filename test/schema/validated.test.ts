import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { FacetReturn, RecordsReturn, ValidatedFilter, ValidatedSearch } from '../../src/schema/index.ts';
import { search } from './helpers.ts';

// The validated query the compiler consumes: resolved descriptors, normalised values,
// filled defaults. Each test is named by its query.

function records(q: ValidatedSearch, i = 0): RecordsReturn {
  const r = q.returns[i];
  assert.equal(r?.kind, 'records');
  return r;
}

function facet(q: ValidatedSearch, i = 0): FacetReturn {
  const r = q.returns[i];
  assert.equal(r?.kind, 'facet');
  return r;
}

/** A compact rendering of a filter tree: `and(year=2020, research_orgs.id=grid.1)`. */
function shape(f: ValidatedFilter): string {
  switch (f.kind) {
    case 'and':
    case 'or':
      return `${f.kind}(${f.operands.map(shape).join(', ')})`;
    case 'not':
      return `not(${shape(f.operand)})`;
    case 'compare':
      return `${f.target.field.name}${f.target.subfield ? `.${f.target.subfield.name}` : ''}${f.op}${JSON.stringify(f.value)}`;
    case 'words':
      return `${f.target.path}~${JSON.stringify(f.words)}`;
    case 'in':
      return `${f.target.path} in ${JSON.stringify(f.values)}`;
    case 'range':
      return `${f.target.path} in [${JSON.stringify(f.low)}:${JSON.stringify(f.high)}]`;
    case 'empty':
      return `${f.target.path} ${f.empty ? 'empty' : 'not empty'}`;
    case 'count':
      return `count(${f.field.name})${f.op}${f.value}`;
  }
}

describe('filters: resolved fields and normalised values', () => {
  const cases: ReadonlyArray<readonly [string, string]> = [
    ['search publications where year = "2019" return publications', 'year=2019'],
    ['search publications where research_orgs = "grid.1008.9" return publications', 'research_orgs.id="grid.1008.9"'],
    [
      'search publications where research_orgs.id = "grid.1008.9" return publications',
      'research_orgs.id="grid.1008.9"',
    ],
    [
      'search publications where date > "2020" and date <= "2020-06" return publications',
      'and(date>"2020-01-01", date<="2020-06-01")',
    ],
    [
      'search publications where year in [2013:"2018"] or year in [2020, "2021"] return publications',
      'or(year in [2013:2018], year in [2020,2021])',
    ],
    [
      'search publications where research_orgs.name ~ "Saarland  Uni" return publications',
      'research_orgs.name~["Saarland","Uni"]',
    ],
    ['search publications where not altmetric is empty return publications', 'not(altmetric empty)'],
    ['search publications where funders is not empty return publications', 'funders not empty'],
    ['search publications where count(researchers) > 50 return publications', 'count(researchers)>50'],
    ['search publications where issue = 3 return publications', 'issue="3"'],
    ['search publications where altmetric >= "2.5" return publications', 'altmetric>=2.5'],
  ];
  for (const [text, expected] of cases) {
    test(text, () => {
      const q = search(text);
      assert.ok(q.filter);
      assert.equal(shape(q.filter), expected);
    });
  }

  test('search publications where research_orgs = "grid.1" return publications: a multi-value entity target', () => {
    const f = search('search publications where research_orgs = "grid.1" return publications').filter;
    assert.ok(f?.kind === 'compare');
    assert.equal(f.target.field.entity, 'organizations');
    assert.equal(f.target.valueType, 'string');
    assert.equal(f.target.multi, true);
  });
});

describe('full text', () => {
  test('search publications for "graphene" return publications', () => {
    const q = search('search publications for "graphene" return publications');
    assert.equal(q.fullText?.index.name, 'full_data');
    assert.equal(q.fullText?.isPersonNameIndex, false);
    assert.equal(q.fullText?.ast.kind, 'TextTerm');
    assert.equal(q.fullText?.text, 'graphene');
  });
  test('search publications in authors for "\\"Jennifer A Doudna\\"" return publications', () => {
    const q = search('search publications in authors for "\\"Jennifer A Doudna\\"" return publications');
    assert.equal(q.fullText?.index.name, 'authors');
    assert.equal(q.fullText?.isPersonNameIndex, true);
    assert.equal(q.fullText?.ast.kind, 'TextPhrase');
  });
});

describe('records returns', () => {
  test('search publications return publications', () => {
    const q = search('search publications return publications');
    const r = records(q);
    assert.equal(q.source.name, 'publications');
    assert.equal(r.key, 'publications');
    assert.deepEqual(
      r.fields.map((f) => f.field.name),
      ['id', 'title', 'doi', 'type', 'year', 'date', 'journal', 'volume', 'issue', 'pages', 'authors'],
    );
    assert.equal(r.limit, 20);
    assert.equal(r.skip, 0);
    assert.equal(r.limitGiven, false);
    assert.equal(r.skipGiven, false);
    assert.equal(r.sort.by, 'field');
    assert.ok(r.sort.by === 'field' && r.sort.field.name === 'date' && r.sort.direction === 'desc' && !r.sort.explicit);
  });
  test('search grants return grants', () => {
    const r = records(search('search grants return grants'));
    assert.ok(r.sort.by === 'field' && r.sort.field.name === 'start_date' && r.sort.direction === 'desc');
  });
  test('search researchers return researchers', () => {
    const r = records(search('search researchers return researchers'));
    assert.ok(r.sort.by === 'field' && r.sort.field.name === 'last_name' && r.sort.direction === 'asc');
  });
  test('search grants for "malaria" return grants limit 5 skip 10', () => {
    const r = records(search('search grants for "malaria" return grants limit 5 skip 10'));
    assert.deepEqual(r.sort, { by: 'relevance', direction: 'desc', explicit: false });
    assert.equal(r.limit, 5);
    assert.equal(r.skip, 10);
    assert.equal(r.limitGiven, true);
    assert.equal(r.skipGiven, true);
  });
  test('search publications for "x" return publications sort by times_cited', () => {
    const r = records(search('search publications for "x" return publications sort by times_cited'));
    assert.ok(
      r.sort.by === 'field' && r.sort.field.name === 'times_cited' && r.sort.direction === 'desc' && r.sort.explicit,
    );
  });
  test('search publications for "x" return publications sort by relevance asc', () => {
    assert.deepEqual(records(search('search publications for "x" return publications sort by relevance asc')).sort, {
      by: 'relevance',
      direction: 'asc',
      explicit: true,
    });
  });
  test('search publications return publications[basics - doi - pages + times_cited + id]', () => {
    const r = records(search('search publications return publications[basics - doi - pages + times_cited + id]'));
    assert.deepEqual(
      r.fields.map((f) => f.field.name),
      ['id', 'title', 'type', 'year', 'date', 'journal', 'volume', 'issue', 'authors', 'times_cited'],
    );
  });
  test('search publications return publications[-doi]', () => {
    const r = records(search('search publications return publications[-doi]'));
    assert.equal(r.fields.length, 10);
    assert.ok(!r.fields.some((f) => f.field.name === 'doi'));
  });
  test('search publications return publications[id+year+title+unnest(category_for)]', () => {
    const r = records(search('search publications return publications[id+year+title+unnest(category_for)]'));
    assert.deepEqual(
      r.fields.map((f) => [f.field.name, f.unnest]),
      [
        ['id', false],
        ['year', false],
        ['title', false],
        ['category_for', true],
      ],
    );
  });
  test('search publications return publications[researchers + unnest(researchers)]', () => {
    const r = records(search('search publications return publications[researchers + unnest(researchers)]'));
    assert.deepEqual(
      r.fields.map((f) => [f.field.name, f.unnest]),
      [['researchers', true]],
    );
  });
  test('search publications return publications[categories]', () => {
    const r = records(search('search publications return publications[categories]'));
    assert.equal(r.fields.length, 11); // the ten schemes and category_for_2020
    assert.ok(r.fields.every((f) => f.field.name.startsWith('category_') && f.field.entity === 'categories'));
  });
  test('search publications return in "g" publications as "pubs"', () => {
    const r = records(search('search publications return in "g" publications as "pubs"'));
    assert.equal(r.key, 'pubs');
    assert.equal(r.group, 'g');
  });
});

describe('facet returns', () => {
  test('search publications return funders aggregate citations_total, count, altmetric_median sort by citations_total limit 5', () => {
    const f = facet(
      search(
        'search publications return funders aggregate citations_total, count, altmetric_median sort by citations_total limit 5',
      ),
    );
    assert.equal(f.key, 'funders');
    assert.equal(f.facetKind, 'entity');
    assert.equal(f.entity?.name, 'organizations');
    assert.deepEqual(f.entity?.displayFields, [
      'name',
      'acronym',
      'city_name',
      'state_name',
      'country_name',
      'latitude',
      'longitude',
      'linkout',
      'types',
    ]);
    assert.equal(f.idType, 'string');
    assert.deepEqual(f.indicators, ['count', 'citations_total', 'altmetric_median']);
    assert.equal(f.sortBy, 'citations_total');
    assert.equal(f.direction, 'desc');
    assert.equal(f.limit, 5);
    assert.equal(f.limitGiven, true);
  });
  test('search publications return year', () => {
    const f = facet(search('search publications return year'));
    assert.equal(f.facetKind, 'value');
    assert.equal(f.entity, undefined);
    assert.equal(f.idType, 'integer');
    assert.deepEqual(f.indicators, ['count']);
    assert.equal(f.sortBy, 'count');
    assert.equal(f.limit, 20);
    assert.equal(f.limitGiven, false);
  });
  test('search publications return researchers', () => {
    const f = facet(search('search publications return researchers'));
    assert.deepEqual(f.entity?.displayFields, ['first_name', 'last_name', 'orcid_id', 'research_orgs']);
  });
  test('search grants return funders aggregate funding sort by funding asc', () => {
    const f = facet(search('search grants return funders aggregate funding sort by funding asc'));
    assert.deepEqual(f.indicators, ['count', 'funding']);
    assert.equal(f.direction, 'asc');
  });
  test('search publications return funders limit 5 return research_orgs limit 5 return year', () => {
    const q = search('search publications return funders limit 5 return research_orgs limit 5 return year');
    assert.deepEqual(
      q.returns.map((r) => r.key),
      ['funders', 'research_orgs', 'year'],
    );
  });
});

describe('function returns', () => {
  test('search publications for "brexit" return citations_per_year(2010, 2020)', () => {
    const r = search('search publications for "brexit" return citations_per_year(2010, 2020)').returns[0];
    assert.deepEqual(
      r && { kind: r.kind, key: r.key, ...(r.kind === 'function' ? { name: r.name, args: r.args } : {}) },
      {
        kind: 'function',
        key: 'citations_per_year',
        name: 'citations_per_year',
        args: { from: 2010, to: 2020 },
      },
    );
  });
  test('search publications return citations_per_year(to="2020", from=2010) as "cpy"', () => {
    const r = search('search publications return citations_per_year(to="2020", from=2010) as "cpy"').returns[0];
    assert.ok(r?.kind === 'function');
    assert.deepEqual(r.args, { from: 2010, to: 2020 });
    assert.equal(r.key, 'cpy');
  });
});

test('validated queries are frozen plain data that survive structuredClone', () => {
  const q = search(
    'search publications for "x" where year = 2020 return publications[id + unnest(researchers)] return funders aggregate citations_total',
  );
  assert.ok(Object.isFrozen(q));
  assert.ok(Object.isFrozen(q.returns));
  const copy = structuredClone(q);
  assert.deepEqual(copy, JSON.parse(JSON.stringify(q)));
  assert.equal(copy.returns.length, 2);
});
