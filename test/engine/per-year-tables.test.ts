// citations_per_year and funding_per_year read the per-year tables finish() builds: on a
// generated 3k database, in SQLite and in PostgreSQL, their answer is the direct SQL's over
// the references and active years, for the whole corpus, filters on the narrow and the wide
// table, full-text searches, and every kind of currency (a column of the corpus totals,
// a column without, an amount kept in the grant's document).
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type Database from 'better-sqlite3';
import pg from 'pg';
import type { CompiledPerYear } from '../../src/compile/citations.ts';
import { compileSearch } from '../../src/compile/compile-search.ts';
import { postgresDialect } from '../../src/compile/postgres/dialect.ts';
import { RECORDS_LAYOUT } from '../../src/compile/records-layout.ts';
import { SqliteQueryContext } from '../../src/engine/backends/sqlite/query-context.ts';
import { prepareQuery } from '../../src/engine/run-query.ts';
import type { SearchPlan } from '../../src/compile/plan.ts';
import type { Sql } from '../../src/compile/sql.ts';
import { openReadOnly } from '../../src/store/sqlite/open.ts';
import { demoDataset } from '../fixtures/demo-db.ts';
import { createTestPgDatabase, loadNativeShards, type TestPgDatabase } from '../fixtures/pg-db.ts';

type Row = { year: number; value: number };

/** How many of the queries have nothing to count: the one over the year 1700. */
const EMPTY = 1;

function planOf(query: string): SearchPlan {
  const prepared = prepareQuery(query, { dslVersion: 2 });
  if (prepared.kind !== 'plan') throw new Error(`${query}: no plan`);
  return prepared.plan;
}

function perYearOf(outputs: readonly { kind: string }[]): CompiledPerYear {
  const found = outputs.find((o): o is CompiledPerYear => o.kind === 'per_year');
  if (found === undefined) throw new Error('no per-year output');
  return found;
}

const normalized = (rows: readonly Record<string, unknown>[]): Row[] =>
  rows.map((r) => ({ year: Number(r.year), value: Number(r.value) }));

/** Citations are counts (equal); funding sums fractions, whose last bits depend on the order they are added in. */
function assertSameAnswer(query: string, pre: Row[], direct: Row[]): void {
  assert.deepEqual(
    pre.map((r) => r.year),
    direct.map((r) => r.year),
    `${query}: the years`,
  );
  direct.forEach((d, k) => {
    const p = pre[k] as Row;
    if (query.includes('citations_per_year')) assert.equal(p.value, d.value, `${query}: ${d.year}`);
    else
      assert.ok(Math.abs(p.value - d.value) <= 1e-9 * Math.abs(d.value), `${query}: ${d.year} ${p.value} ${d.value}`);
  });
}

describe('the per-year tables answer as the direct SQL', { timeout: 600_000 }, () => {
  let sqlite: Database.Database;
  let context: SqliteQueryContext;
  let pgDb: TestPgDatabase;
  let client: pg.Client;
  const queries: string[] = [];
  before(async () => {
    const { dbPath, dataDir } = await demoDataset({ publications: 3_000 });
    sqlite = openReadOnly(dbPath);
    context = new SqliteQueryContext(sqlite);
    // A common word of publications and one of grants, from the data.
    const word = (table: string): string =>
      sqlite
        .prepare(`SELECT term FROM ${table} WHERE term GLOB '[a-z]*' ORDER BY doc DESC LIMIT 1 OFFSET 40`)
        .pluck()
        .get() as string;
    const pubWord = word('publications_fts_vocab');
    const grantWord = word('grants_fts_vocab');
    const cites = 'citations_per_year(1990, 2030)';
    queries.push(
      `search publications return ${cites}`,
      `search publications where year = 2018 return ${cites}`,
      `search publications where type = "article" and year >= 2015 return ${cites}`,
      `search publications where research_org_countries = "DE" return ${cites}`,
      // A field the narrow table lacks: the matches are read from the wide rows.
      `search publications where pages is not empty return ${cites}`,
      `search publications for "${pubWord}" return ${cites}`,
      `search publications for "${pubWord}" where year in [2015:2020] return ${cites}`,
      'search publications where year = 1700 return citations_per_year(2010, 2020)',
    );
    // Every generated grant holds its amount in each currency, so all twelve have something to count.
    for (const currency of ['USD', 'EUR', 'CNY']) {
      const funding = `funding_per_year(1990, 2040, "${currency}")`;
      queries.push(
        `search grants return ${funding}`,
        `search grants where start_year >= 2015 return ${funding}`,
        `search grants where active_year = 2018 return ${funding}`,
        `search grants for "${grantWord}" return ${funding}`,
      );
    }
    pgDb = await createTestPgDatabase('per_year');
    await loadNativeShards(dataDir, pgDb.url);
    client = new pg.Client({ connectionString: pgDb.url });
    await client.connect();
  });
  after(async () => {
    sqlite?.close();
    await client?.end();
    await pgDb?.drop();
  });

  test('SQLite: every query, from the tables and by the direct SQL', () => {
    const run = (sql: Sql): Record<string, unknown>[] => {
      try {
        return sqlite.prepare(sql.text).all(...sql.params) as Record<string, unknown>[];
      } catch (error) {
        throw new Error(`${(error as Error).message}: ${sql.text}`);
      }
    };
    let nonZero = 0;
    for (const query of queries) {
      const compiled = perYearOf(context.compile(planOf(query)).outputs);
      const pre = compiled.preAggregated;
      assert.ok(pre !== undefined, `${query}: no pre-aggregated statement`);
      assert.equal(run(pre.fresh).length, 1, `${query}: the tables are fresh after finish()`);
      const direct = normalized(run(compiled.statement));
      assertSameAnswer(query, normalized(run(pre.statement)), direct);
      if (direct.some((r) => r.value > 0)) nonZero++;
    }
    assert.equal(nonZero, queries.length - EMPTY);
  });

  test('PostgreSQL: every query, from the tables and by the direct SQL', async () => {
    const run = async (sql: Sql): Promise<Record<string, unknown>[]> =>
      (await client.query(sql.text, [...sql.params])).rows as Record<string, unknown>[];
    let nonZero = 0;
    for (const query of queries) {
      const compiled = perYearOf(
        compileSearch(postgresDialect, RECORDS_LAYOUT, planOf(query), { expandPattern: () => [] }).outputs,
      );
      const pre = compiled.preAggregated;
      assert.ok(pre !== undefined, `${query}: no pre-aggregated statement`);
      assert.equal((await run(pre.fresh)).length, 1, `${query}: the tables are fresh after finish()`);
      const direct = normalized(await run(compiled.statement));
      assertSameAnswer(query, normalized(await run(pre.statement)), direct);
      if (direct.some((r) => r.value > 0)) nonZero++;
    }
    assert.equal(nonZero, queries.length - EMPTY);
  });
});
