// A filter that is a test of one link field's values, with only tests of record columns the
// link rows carry beside it, is counted on the link table alone (compile/filters.ts,
// linkKeyCount): on the generated 10k database its total is the number of records the
// page returns, read on the records themselves; other filters keep the record count.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type Database from 'better-sqlite3';
import { SqliteQueryContext } from '../../src/engine/backends/sqlite/query-context.ts';
import { prepareQuery } from '../../src/engine/run-query.ts';
import type { SearchPlan } from '../../src/compile/plan.ts';
import { openReadOnly } from '../../src/store/sqlite/open.ts';
import { demoDataset } from '../fixtures/demo-db.ts';

/** Whether a count statement reads the organization link rows alone (`count(*)` for one value, distinct keys for several). */
const countsLinkRows = (sql: string): boolean =>
  /^SELECT count\((\*|DISTINCT l\."publication_pk")\) AS n FROM "publication_research_orgs" l WHERE/.test(sql);

function planOf(query: string): SearchPlan {
  const prepared = prepareQuery(query, { dslVersion: 2 });
  if (prepared.kind !== 'plan') throw new Error(`${query}: no plan`);
  return prepared.plan;
}

describe('counting on the link table alone', async () => {
  const { dbPath } = await demoDataset({ publications: 10_000 });
  let db: Database.Database;
  let ctx: SqliteQueryContext;
  let orgs: string[];
  before(() => {
    db = openReadOnly(dbPath);
    ctx = new SqliteQueryContext(db);
    orgs = db
      .prepare(
        'SELECT id FROM organizations WHERE n_publications BETWEEN 20 AND 300 ORDER BY n_publications DESC LIMIT 4',
      )
      .pluck()
      .all() as string[];
    assert.equal(orgs.length, 4);
  });
  after(() => db.close());

  test('gives the number of records the filter keeps', () => {
    const [a, b, c, d] = orgs.map((o) => JSON.stringify(o));
    const queries = [
      `search publications where research_orgs.id in [${a},${b}] and year in [2015:2020] return publications[id] limit 1000`,
      `search publications where research_orgs.id = ${c} return publications[id] limit 1000`,
      `search publications where research_orgs = ${d} and year = 2019 return publications[id] limit 1000`,
      `search publications where research_orgs.id in [${a},${c}] and year >= 2018 and year != 2020 return publications[id] limit 1000`,
      `search publications where research_orgs.id in [${b},${d}] and year > 2030 return publications[id] limit 1000`,
    ];
    let linkCounted = 0;
    for (const query of queries) {
      const plan = planOf(query);
      if (countsLinkRows(ctx.compile(plan).count.text)) linkCounted++;
      const result = ctx.execute(plan);
      const rows = result.publications as unknown[];
      assert.equal((result._stats as { total_count: number }).total_count, rows.length, query);
    }
    // All but the one with `!=` (which lets a missing year through, so it is not carried).
    assert.equal(linkCounted, queries.length - 1);
  });

  test('other filters count the records', () => {
    const a = JSON.stringify(orgs[0]);
    for (const query of [
      `search publications where research_orgs.id = ${a} and type = "article" return publications[id] limit 5`,
      `search publications where research_orgs.name = "x" and year = 2019 return publications[id] limit 5`,
      `search publications where research_orgs.id = ${a} or year = 2019 return publications[id] limit 5`,
      `search publications for "cell" where research_orgs.id = ${a} return publications[id] limit 5`,
    ])
      assert.ok(!countsLinkRows(ctx.compile(planOf(query)).count.text), query);
  });
});
