// Link facets answered from in-memory columns (engine/backends/sqlite/columnar-facets.ts)
// give the SQL facet's answer: on the generated 10k database, for every kind of match set
// (whole corpus, a filter, full text, a count() filter, a document filter), indicator, sort
// and direction; a link field past the memory budget stays with SQL; a write to the records
// makes the next facet read the columns again.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import type Database from 'better-sqlite3';
import { parseKeys } from '../../src/engine/backends/sqlite/columnar-facets.ts';
import { SqliteQueryContext } from '../../src/engine/backends/sqlite/query-context.ts';
import { prepareQuery } from '../../src/engine/run-query.ts';
import type { SearchPlan } from '../../src/compile/plan.ts';
import { openReadOnly } from '../../src/store/sqlite/open.ts';
import { openRecordStore } from '../../src/store/sqlite/records-store.ts';
import { demoDataset } from '../fixtures/demo-db.ts';

function planOf(query: string): SearchPlan {
  const prepared = prepareQuery(query, { dslVersion: 2 });
  if (prepared.kind !== 'plan') throw new Error(`${query}: no plan`);
  return prepared.plan;
}

/** Whether the compiled query has a facet the in-memory path can answer. */
function hasColumnarFacet(ctx: SqliteQueryContext, plan: SearchPlan): boolean {
  return ctx.compile(plan).outputs.some((o) => o.kind === 'facet' && o.columnar !== undefined);
}

/**
 * `db` with every statement it prepares recorded in `prepared`, and every time one of them
 * is read (`get`, `all`, `iterate`) its text in `ran`.
 */
function watchStatements(db: Database.Database): {
  watched: Database.Database;
  prepared: string[];
  ran: string[];
} {
  const prepared: string[] = [];
  const ran: string[] = [];
  const watchStatement = (sql: string, statement: Database.Statement): Database.Statement => {
    const proxy: Database.Statement = new Proxy(statement, {
      get(target, name, receiver) {
        const value: unknown = Reflect.get(target, name, receiver);
        if (typeof value !== 'function') return value;
        const method = value as (...a: unknown[]) => unknown;
        return (...args: unknown[]) => {
          if (name === 'get' || name === 'all' || name === 'iterate') ran.push(sql);
          const result = method.apply(target, args);
          // pluck() and raw() hand back the statement: keep watching it.
          return result === target ? proxy : result;
        };
      },
    });
    return proxy;
  };
  const watched = new Proxy(db, {
    get(target, name, receiver) {
      if (name === 'prepare')
        return (sql: string) => {
          prepared.push(sql);
          return watchStatement(sql, target.prepare(sql));
        };
      const value: unknown = Reflect.get(target, name, receiver);
      return typeof value === 'function' ? (value as (...a: unknown[]) => unknown).bind(target) : value;
    },
  });
  return { watched, prepared, ran };
}

const QUERIES = [
  // Whole corpus, with indicators (no stored counts to read then).
  'search publications return research_orgs aggregate rcr_avg, altmetric_median, citations_median, fcr_gavg sort by fcr_gavg limit 20',
  'search publications return funders aggregate citations_total, altmetric_avg limit 8',
  // A filter on the narrow table, each sort and direction.
  'search publications where year > 2015 return funders aggregate citations_avg sort by citations_avg limit 10',
  'search publications where year > 2015 return research_orgs sort by count asc limit 10',
  'search publications where year > 2015 return research_orgs aggregate altmetric_median sort by altmetric_median limit 10',
  'search publications where year > 2015 return research_orgs aggregate rcr_avg sort by rcr_avg asc limit 10',
  'search publications where year > 2015 return research_orgs aggregate recent_citations_total sort by recent_citations_total limit 1000',
  // count() filters, full text, both, and a filter on the document.
  'search publications where count(researchers) > 1 return funders limit 5',
  'search publications for "cell" where count(research_orgs) > 2 return research_orgs limit 5',
  'search publications for "cell" return research_orgs aggregate altmetric_median, rcr_avg sort by rcr_avg limit 5',
  'search publications for "cell" return funders aggregate citations_total sort by citations_total limit 5',
  'search publications for "cell" return category_for limit 10',
  'search publications for "cell" return researchers limit 10',
  'search publications for "cell" return research_orgs[name] limit 5',
  'search publications where authors != "zzqq" and year = 2019 return research_orgs limit 7',
  // Filters of number columns alone, tested on the held columns instead of SQL.
  'search publications where times_cited >= 10 and year in [2012, 2015, 2018] return research_orgs aggregate citations_total limit 10',
  'search publications where year = "2019" return funders limit 5',
  'search publications where count(research_orgs) >= 2 and count(researchers) < 5 return research_orgs limit 10',
  'search publications where year <= 2005 return funders aggregate rcr_avg sort by rcr_avg asc limit 10',
  'search publications where altmetric > 10.5 and year in [2000:2030] return research_orgs limit 5',
  // Several facets in one search; and grants.
  'search publications where year in [2010:2014] return funders limit 5 return research_orgs aggregate rcr_avg limit 5 return year',
  'search grants where active_year = 2018 return research_orgs aggregate funding sort by funding limit 10',
  'search grants for "cell" return funders aggregate funding limit 10',
  // Values read through the organizations: a record with two organizations in one country counts once.
  'search publications return research_org_countries aggregate citations_total, rcr_avg limit 20',
  'search publications where year > 2015 return research_org_cities sort by count asc limit 10',
  'search publications for "cell" return funder_countries aggregate citations_median sort by citations_median limit 10',
  'search publications where count(research_orgs) >= 2 return research_org_state_codes limit 10',
  'search grants where active_year = 2018 return research_org_countries aggregate funding limit 10',
  // Nothing matches.
  'search publications for "zzqqxxnothing" return research_orgs limit 5',
];

describe('link facets from memory', async () => {
  const { dbPath } = await demoDataset({ publications: 10_000 });
  let db: Database.Database;
  let memory: SqliteQueryContext;
  let sql: SqliteQueryContext;
  before(() => {
    db = openReadOnly(dbPath);
    memory = new SqliteQueryContext(db);
    sql = new SqliteQueryContext(db, { columnar: false });
  });
  after(() => db.close());

  test('give the SQL facet its answer, total count included', () => {
    let answeredFromMemory = 0;
    for (const query of QUERIES) {
      const plan = planOf(query);
      if (hasColumnarFacet(memory, plan)) answeredFromMemory++;
      assert.deepEqual(memory.execute(plan), sql.execute(plan), query);
    }
    // Every query but the two whose facets SQL keeps (a scalar column, and none).
    assert.ok(answeredFromMemory >= QUERIES.length - 1, `${answeredFromMemory} of ${QUERIES.length} from memory`);
    // And the answers have rows to compare.
    const rows = memory.execute(planOf(QUERIES[3] as string)).research_orgs as unknown[];
    assert.equal(rows.length, 10);
  });

  test('a link field past the memory budget stays with SQL, with the same answer', () => {
    const small = new SqliteQueryContext(db, { columnar: { budgetBytes: 10_000 } });
    const plan = planOf(QUERIES[0] as string);
    assert.ok(small.columnar !== undefined);
    const compiled = small.compile(plan).outputs[0];
    assert.ok(compiled?.kind === 'facet');
    assert.equal(small.columnar.rows(small.statements, compiled), undefined);
    assert.equal(small.columnar.heldBytes, 0);
    assert.deepEqual(small.execute(plan), sql.execute(plan));
    // Within it, the same facet is read into memory, and holds what it says.
    const roomy = new SqliteQueryContext(db);
    assert.ok(roomy.columnar?.rows(roomy.statements, compiled) !== undefined);
    assert.ok(roomy.columnar.heldBytes > 10_000);
  });
});

describe('the memory budget', async () => {
  const { dbPath } = await demoDataset({ publications: 10_000 });
  test('a link whose entities alone would pass it is not read at all', () => {
    const db = openReadOnly(dbPath);
    try {
      // Record every statement the in-memory path prepares.
      const { watched, prepared } = watchStatements(db);
      const researchers = db.prepare('SELECT count(*) FROM researchers').pluck().get() as number;
      const links = db.prepare('SELECT count(*) FROM publication_researchers').pluck().get() as number;
      // Room for the link rows, not for the researchers' ids beside them.
      const budget = links * 4 + researchers * 20;
      const ctx = new SqliteQueryContext(watched, { columnar: { budgetBytes: budget } });
      const plan = planOf('search publications where year > 2015 return researchers limit 5');
      const compiled = ctx.compile(plan).outputs[0];
      assert.ok(compiled?.kind === 'facet' && compiled.columnar !== undefined);
      assert.equal(ctx.columnar?.rows(ctx.statements, compiled), undefined);
      assert.ok(!prepared.some((sql) => sql.includes('ORDER BY 1')), prepared.join('\n'));
      // With room for them, the same link is read.
      const roomy = new SqliteQueryContext(watched, { columnar: { budgetBytes: links * 4 + researchers * 200 } });
      assert.ok(roomy.columnar?.rows(roomy.statements, compiled) !== undefined);
      assert.ok(prepared.some((sql) => sql.includes('ORDER BY 1')));
    } finally {
      db.close();
    }
  });
});

describe('filters of number columns', async () => {
  const { dbPath } = await demoDataset({ publications: 10_000 });
  test('are tested on the held columns: SQLite hands over no keys', () => {
    const db = openReadOnly(dbPath);
    try {
      const { watched, prepared, ran } = watchStatements(db);
      const ctx = new SqliteQueryContext(watched);
      const sql = new SqliteQueryContext(db, { columnar: false });
      // The matching keys (matchingKeys), not a link field's rows grouped by value.
      const keysRead = (): boolean => prepared.some((text) => text.includes('group_concat(k)'));
      const columns = planOf(
        'search publications where count(researchers) > 1 and year >= 2010 return funders limit 5',
      );
      assert.deepEqual(ctx.execute(columns), sql.execute(columns));
      assert.equal(keysRead(), false);
      // A full-text search still asks SQLite for its keys.
      const text = planOf('search publications for "cell" return funders limit 5');
      assert.deepEqual(ctx.execute(text), sql.execute(text));
      assert.equal(keysRead(), true);
      // Three facets of one search read its keys once.
      const three = planOf(
        'search publications for "cell" return funders limit 5 return research_orgs limit 5 return category_for limit 5',
      );
      const before = ran.filter((text) => text.includes('group_concat(k)')).length;
      assert.deepEqual(ctx.execute(three), sql.execute(three));
      assert.equal(ran.filter((text) => text.includes('group_concat(k)')).length - before, 1);
    } finally {
      db.close();
    }
  });
});

describe('parseKeys', () => {
  const bytes = (text: string): Uint8Array => Buffer.from(text, 'latin1');
  test('reads the joined keys SQLite hands over', () => {
    assert.deepEqual([...parseKeys(bytes('12,7,300,0'))], [12, 7, 300, 0]);
    assert.deepEqual([...parseKeys(bytes('5'))], [5]);
    assert.deepEqual([...parseKeys(bytes(''))], []);
    assert.deepEqual([...parseKeys(bytes('2147483647'))], [2147483647]);
  });
  test('refuses anything but non-negative integers', () => {
    assert.throws(() => parseKeys(bytes('1,-2')), /not a non-negative integer/);
    assert.throws(() => parseKeys(bytes('1,2.5')), /not a non-negative integer/);
  });
});

describe('link facets from memory after a write', () => {
  test('read the columns again once the records change', () => {
    const dir = mkdtempSync(join(tmpdir(), 'quarry-columnar-'));
    const path = join(dir, 'records.db');
    const store = openRecordStore(path);
    try {
      store.upsert('publications', [
        { id: 'pub.1', title: 'one', year: 2020, research_orgs: ['grid.1.a'], relative_citation_ratio: 1 },
        { id: 'pub.2', title: 'two', year: 2020, research_orgs: ['grid.1.a', 'grid.2.b'], relative_citation_ratio: 3 },
      ]);
      store.finish();
      const db = openReadOnly(path);
      try {
        const ctx = new SqliteQueryContext(db);
        const query = planOf('search publications where year = 2020 return research_orgs aggregate rcr_avg limit 5');
        assert.ok(hasColumnarFacet(ctx, query));
        const facet = (): unknown => ctx.execute(query).research_orgs;
        assert.deepEqual(facet(), [
          { id: 'grid.1.a', count: 2, rcr_avg: 2 },
          { id: 'grid.2.b', count: 1, rcr_avg: 3 },
        ]);
        store.upsert('publications', [
          { id: 'pub.3', title: 'three', year: 2020, research_orgs: ['grid.2.b'], relative_citation_ratio: 5 },
          { id: 'pub.4', title: 'four', year: 2020, research_orgs: ['grid.2.b', 'grid.3.c'] },
        ]);
        store.finish();
        assert.deepEqual(facet(), [
          { id: 'grid.2.b', count: 3, rcr_avg: 4 },
          { id: 'grid.1.a', count: 2, rcr_avg: 2 },
          { id: 'grid.3.c', count: 1, rcr_avg: null },
        ]);
      } finally {
        db.close();
      }
    } finally {
      store.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
