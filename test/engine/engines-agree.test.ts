// SQLite and PostgreSQL give the same answers on the same data: a generated 3k
// database is loaded into both, and every query shape of the benchmarks (with values
// drawn from the data, several variants each) plus a list of constructs runs on both.
// Counts, facet rows and records must be equal; under relevance order (full text without
// `sort by`) the two rank by different formulas (bm25, ts_rank), so the pages are compared
// as sets of ids when the whole match set fits on the page, and by count otherwise.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type Database from 'better-sqlite3';
import { createPostgresEngine } from '../../src/engine/backends/postgres/engine.ts';
import { runQuery } from '../../src/engine/backends/sqlite/query-context.ts';
import type { QueryEngine, QueryResult } from '../../src/engine/types.ts';
import { QuarryError } from '../../src/errors/index.ts';
import { openReadOnly } from '../../src/store/sqlite/open.ts';
import { queryShapes } from '../../bench/query-shapes.ts';
import { demoDataset } from '../fixtures/demo-db.ts';
import { createTestPgDatabase, loadNativeShards, type TestPgDatabase } from '../fixtures/pg-db.ts';

const CONSTRUCTS = [
  'search publications where year in [2015:2018] and type = "article" return publications[id + title + year] limit 50',
  'search publications where not type = "article" return type',
  'search publications where times_cited > 10 return publications[id + times_cited] sort by times_cited desc limit 30',
  'search publications where times_cited > 10 return publications[id + altmetric] sort by altmetric limit 30',
  'search publications where research_orgs is empty return publications[id] limit 20',
  'search publications where abstract is empty return publications[id + title + abstract] limit 20',
  'search publications where abstract is not empty return publications[id + abstract + authors] limit 20',
  'search grants where abstract is not empty return grants[id + abstract] limit 20',
  'search publications where funders is not empty return funders aggregate citations_total, citations_median, fcr_gavg, rcr_avg limit 20',
  'search publications where count(research_orgs) >= 3 return research_orgs limit 20',
  'search publications where count(researchers) < 2 return year',
  'search publications where open_access = "closed" return open_access',
  'search publications where research_org_countries = "DE" return research_org_countries limit 10',
  'search publications return category_for limit 20',
  'search publications return journal limit 10',
  'search publications where year = 2020 return research_org_cities limit 10',
  'search publications where concepts = "cell" return publications[id + concepts] limit 20',
  'search publications return citations_per_year(2010, 2024)',
  'search grants where active_year = 2018 return active_year',
  // The years are integers in grant_values, which PostgreSQL keeps as text: pages show numbers.
  'search grants where active_year = 2018 return grants[id + active_year] limit 20',
  'search grants return funders aggregate funding limit 10',
  'search grants where start_year in [2012:2016] return grants[id + title + start_date + funding_usd] limit 40',
  'search researchers where total_publications > 2 return researchers[id + first_name + last_name + research_orgs] limit 30',
  'search researchers return current_research_org limit 10',
  'search organizations where types = "Education" return organizations[basics] limit 30',
  'search organizations return country_name limit 20',
  'search publications return publications[basics + extras] limit 25 skip 40',
  'search publications where year >= 2019 return publications[id] limit 1000',
];

function relevanceOrdered(query: string): boolean {
  return /\sfor\s/.test(query) && !/\ssort by\s/.test(query);
}

async function answer(run: () => Promise<QueryResult>): Promise<QueryResult | { error: string }> {
  try {
    return await run();
  } catch (error) {
    if (error instanceof QuarryError) return { error: error.code };
    throw error;
  }
}

describe('SQLite and PostgreSQL answer alike on a generated 3k database', { timeout: 600_000 }, () => {
  let sqlite: Database.Database;
  let pgDb: TestPgDatabase;
  let engine: QueryEngine;
  const queries: string[] = [...CONSTRUCTS];
  before(async () => {
    const { dbPath, dataDir } = await demoDataset({ publications: 3_000 });
    sqlite = openReadOnly(dbPath);
    for (const [, make] of queryShapes(sqlite)) for (let i = 0; i < 2; i++) queries.push(make(i));
    pgDb = await createTestPgDatabase('agree');
    await loadNativeShards(dataDir, pgDb.url);
    engine = createPostgresEngine({ url: pgDb.url });
  });
  after(async () => {
    sqlite.close();
    await engine?.close();
    await pgDb?.drop();
  });

  test('every query: the same counts, facet rows and records', async () => {
    assert.ok(queries.length > 50);
    const differences: string[] = [];
    for (const query of queries) {
      const a = await answer(() => Promise.resolve().then(() => runQuery(sqlite, query, { dslVersion: 2 })));
      const b = await answer(async () => (await engine.run(query, { dslVersion: 2 })).result);
      try {
        if ('error' in a || 'error' in b) {
          assert.deepEqual(b, a);
          continue;
        }
        assert.deepEqual(b._stats, a._stats, '_stats');
        for (const key of Object.keys(a)) {
          if (key.startsWith('_')) continue;
          const [x, y] = [a[key], b[key]] as [Array<Record<string, unknown>>, Array<Record<string, unknown>>];
          if (
            relevanceOrdered(query) &&
            Array.isArray(x) &&
            'title' in (x[0] ?? {}) === false &&
            key === 'publications'
          ) {
            assert.equal(y.length, x.length, key);
          } else if (
            relevanceOrdered(query) &&
            Array.isArray(x) &&
            x.every((r) => 'id' in r) &&
            !('count' in (x[0] ?? {}))
          ) {
            const total = (a._stats as { total_count: number }).total_count;
            assert.equal(y.length, x.length, `${key}: page size`);
            if (total <= x.length)
              assert.deepEqual(
                y.map((r) => String(r.id)).sort(),
                x.map((r) => String(r.id)).sort(),
                `${key}: the same records`,
              );
          } else {
            assert.deepEqual(y, x, key);
          }
        }
      } catch (error) {
        differences.push(
          `${query}\n  ${error instanceof Error ? error.message.split('\n').slice(0, 12).join('\n  ') : String(error)}`,
        );
      }
    }
    assert.deepEqual(differences, []);
  });
});
