// Which filters the compiler describes as tests of number columns (compile/column-conditions.ts):
// only those a missing value fails exactly as in SQL.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { columnConditions } from '../../src/compile/column-conditions.ts';
import { narrowView } from '../../src/compile/narrow.ts';
import type { FilterPlan, PlanField } from '../../src/compile/plan.ts';
import { RECORDS_LAYOUT } from '../../src/compile/records-layout.ts';

const pubs = RECORDS_LAYOUT.sources.publications;
assert.ok(pubs !== undefined);
const narrow = narrowView(pubs);
assert.ok(narrow !== undefined);

const year: PlanField = { name: 'year', type: 'integer', multi: false };
const researchers: PlanField = { name: 'researchers', type: 'entity', multi: true, entity: 'researchers' };
const openAccess: PlanField = { name: 'open_access', type: 'string', multi: true };

test('comparisons, ranges and lists of number columns, and stored counts, joined by AND', () => {
  const filter: FilterPlan = {
    kind: 'and',
    items: [
      { kind: 'range', field: year, low: 2010, high: '2015' },
      { kind: 'count', field: researchers, op: '>', value: 1 },
      { kind: 'in', field: year, values: [2011, '2013'] },
    ],
  };
  assert.deepEqual(columnConditions(narrow, filter), [
    { column: 'year', test: { kind: 'range', low: 2010, high: 2015 } },
    { column: 'n_researchers', test: { kind: 'compare', op: '>', value: 1 } },
    { column: 'year', test: { kind: 'in', values: [2011, 2013] } },
  ]);
});

test('anything a missing value could pass, or that is not a number column, is not described', () => {
  const notDescribed: FilterPlan[] = [
    { kind: 'compare', field: year, op: '!=', value: 2019 },
    { kind: 'count', field: researchers, op: '!=', value: 1 },
    { kind: 'not', item: { kind: 'compare', field: year, op: '=', value: 2019 } },
    {
      kind: 'or',
      items: [
        { kind: 'compare', field: year, op: '=', value: 2019 },
        { kind: 'compare', field: year, op: '=', value: 2020 },
      ],
    },
    { kind: 'compare', field: openAccess, op: '=', value: 'gold' },
    { kind: 'compare', field: year, op: '=', value: 'soon' },
    {
      kind: 'and',
      items: [
        { kind: 'compare', field: year, op: '=', value: 2019 },
        { kind: 'compare', field: openAccess, op: '=', value: 'gold' },
      ],
    },
  ];
  for (const filter of notDescribed) assert.equal(columnConditions(narrow, filter), undefined, JSON.stringify(filter));
});
