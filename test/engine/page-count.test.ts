// A records page that has to look at every match anyway also counts them
// (`CompiledRecords.pageWithTotal`), so `total_count` costs no second pass over the filter.
// These check that the counted page and the separate count always agree, including the
// pages that carry no count (past the end, nothing matched), and that the counted page is
// really the one used when the plan sorts every row.
import assert from 'node:assert/strict';
import { before, describe, test } from 'node:test';
import type Database from 'better-sqlite3';
import { runQuery, SqliteQueryContext } from '../../src/engine/backends/sqlite/query-context.ts';
import { prepareQuery } from '../../src/engine/run-query.ts';
import { openReadOnly } from '../../src/store/sqlite/open.ts';
import { demoDatabase } from '../fixtures/demo-db.ts';

/** The total the separate count statement gives: the same search returning only a facet. */
function countOnly(db: Database.Database, search: string): number {
  const result = runQuery(db, `${search} return year limit 1`, { dslVersion: 2 });
  return (result._stats as { total_count: number }).total_count;
}

describe('records pages that count their matches', () => {
  let db: Database.Database;
  before(async () => {
    db = openReadOnly(await demoDatabase({ publications: 1000 }));
  });

  const searches = [
    'search publications where year >= 2015',
    'search publications where year in [2010:2020] and type = "article"',
    'search publications for "health OR cell" where year >= 2012',
    'search publications where research_orgs.country_name = "Japan"',
    'search publications for "zzqxnotaword" where year >= 2000',
  ];
  const pages = [
    'return publications[id+title] sort by altmetric desc limit 7',
    'return publications[id] limit 5 skip 40000',
    'return publications[id+year] sort by times_cited desc limit 3',
  ];

  for (const search of searches) {
    for (const page of pages) {
      test(`${search} ${page}`, () => {
        const result = runQuery(db, `${search} ${page}`, { dslVersion: 2 });
        assert.equal((result._stats as { total_count: number }).total_count, countOnly(db, search));
        assert.ok(Array.isArray(result.publications));
      });
    }
  }

  // Relevance pages under a filter rank every match, so they count them as well.
  for (const search of [
    'search publications for "health OR cell" where year >= 2012',
    'search publications in title_only for "cell*" where type = "article"',
  ]) {
    for (const page of [
      'return publications[id+year] sort by relevance limit 4',
      'return publications[id] sort by relevance limit 4 skip 40000',
    ]) {
      test(`${search} ${page}`, () => {
        const result = runQuery(db, `${search} ${page}`, { dslVersion: 2 });
        const total = (result._stats as { total_count: number }).total_count;
        assert.ok(total > 0, 'the search matches something');
        assert.equal(total, countOnly(db, search));
      });
    }
  }

  test('a count that reads one covering index stays apart; a count through link tables is taken from the page', () => {
    const ctx = new SqliteQueryContext(db);
    const compiled = (text: string) => {
      const prepared = prepareQuery(text, { dslVersion: 2 });
      if (prepared.kind !== 'plan') throw new Error('expected a plan');
      return ctx.compile(prepared.plan);
    };
    assert.equal(
      ctx.statements.readsOneCoveringIndex(
        compiled('search publications where year >= 2015 return publications').count,
      ),
      true,
    );
    assert.equal(
      ctx.statements.readsOneCoveringIndex(
        compiled('search publications where research_orgs.country_name = "Japan" return publications').count,
      ),
      false,
    );
  });

  test('a page sorted by a field without an index is cut from the counted statement', () => {
    const ctx = new SqliteQueryContext(db);
    const prepared = prepareQuery(
      'search publications where research_orgs.country_name = "Japan" return publications[id+title] sort by altmetric desc limit 7',
      { dslVersion: 2 },
    );
    assert.equal(prepared.kind, 'plan');
    if (prepared.kind !== 'plan') return;
    const compiled = ctx.compile(prepared.plan);
    const records = compiled.outputs.find((o) => o.kind === 'records');
    assert.ok(records !== undefined && records.kind === 'records');
    assert.equal(ctx.statements.sortsEveryRow(records.page), true);
    const row = db.prepare(records.pageWithTotal.text).get(...records.pageWithTotal.params) as { __total: number };
    assert.equal(row.__total, countOnly(db, 'search publications where research_orgs.country_name = "Japan"'));
  });

  test('a page read in index order is not: it may stop after LIMIT rows', () => {
    const ctx = new SqliteQueryContext(db);
    const prepared = prepareQuery('search publications return publications[id] sort by times_cited desc limit 3', {
      dslVersion: 2,
    });
    if (prepared.kind !== 'plan') throw new Error('expected a plan');
    const records = ctx.compile(prepared.plan).outputs.find((o) => o.kind === 'records');
    assert.ok(records !== undefined && records.kind === 'records');
    assert.equal(ctx.statements.sortsEveryRow(records.page), false);
  });
});
