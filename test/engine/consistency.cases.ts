// Identities any correct engine satisfies on any database: both sides are computed by
// queries (or, for researcher counts, from the source records) and compared.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { QueryResult } from '../../src/engine/types.ts';

type Row = { id: string | number; count: number };

export interface ConsistencyOptions {
  /** Words that occur in the corpus, for the full-text identities. */
  readonly words: readonly [string, string];
  /** Publications per researcher id, computed independently from the source records. */
  readonly researcherCounts?: () => ReadonlyMap<string, number>;
}

/** Runs a query (version 2) on the engine under test. */
export type RunQuery = (query: string) => Promise<QueryResult>;

export function consistencyTests(getRun: () => RunQuery, options: ConsistencyOptions): void {
  const run = (q: string): Promise<QueryResult> => getRun()(q);
  const total = async (q: string): Promise<number> => ((await run(q))._stats as { total_count: number }).total_count;
  const facet = async (q: string, key: string): Promise<Row[]> => (await run(q))[key] as Row[];
  const sum = (rows: readonly Row[]): number => rows.reduce((n, r) => n + r.count, 0);

  test('the year facet (limit 1000) sums to total_count', async () => {
    const r = await run('search publications return year limit 1000');
    const rows = r.year as Row[];
    assert.ok(rows.length > 0);
    assert.equal(sum(rows), (r._stats as { total_count: number }).total_count);
  });

  test('where year = Y counts what the year facet says for Y', async () => {
    for (const row of await facet('search publications return year limit 1000', 'year')) {
      assert.equal(
        await total(`search publications where year = ${row.id} return publications[id] limit 1`),
        row.count,
        `year ${row.id}`,
      );
    }
  });

  test('where year in [A:B] equals the sum of those facet rows', async () => {
    const rows = await facet('search publications return year limit 1000', 'year');
    const years = rows.map((r) => r.id as number).sort((a, b) => a - b);
    const a = years[Math.floor(years.length / 4)] as number;
    const b = years[Math.floor((3 * years.length) / 4)] as number;
    assert.equal(
      await total(`search publications where year in [${a}:${b}] return year`),
      sum(rows.filter((r) => (r.id as number) >= a && (r.id as number) <= b)),
    );
  });

  test('where X and where not X add up to the whole', async () => {
    const whole = await total('search publications return publications[id] limit 1');
    for (const x of [
      'year >= 2015',
      'type = "article"',
      'count(researchers) > 2',
      'research_orgs is empty',
      'times_cited > 3 and year < 2020',
      'funders is not empty or open_access = "closed"',
    ]) {
      assert.equal(
        (await total(`search publications where ${x} return year`)) +
          (await total(`search publications where not (${x}) return year`)),
        whole,
        x,
      );
    }
  });

  test('phrase ⊆ AND ⊆ single term (and each is a subset by ids)', async () => {
    const [w1, w2] = options.words;
    const ids = async (q: string): Promise<Set<string>> =>
      new Set(((await run(q)).publications as Array<{ id: string }>).map((p) => p.id));
    const phrase = await total(`search publications for "\\"${w1} ${w2}\\"" return year`);
    const both = await total(`search publications for "${w1} AND ${w2}" return year`);
    const one = await total(`search publications for "${w1}" return year`);
    assert.ok(phrase <= both && both <= one, `${phrase} <= ${both} <= ${one}`);
    assert.ok(one > 0);
    const phraseIds = await ids(`search publications for "\\"${w1} ${w2}\\"" return publications[id] limit 1000`);
    const bothIds = await ids(`search publications for "${w1} ${w2}" return publications[id] limit 1000`);
    for (const id of phraseIds) assert.ok(bothIds.has(id) || bothIds.size === 1000, id);
  });

  test('full text and filters intersect', async () => {
    const [w1] = options.words;
    const both = await total(`search publications for "${w1}" where year >= 2015 return year`);
    const text = await total(`search publications for "${w1}" return year`);
    const neither = await total(`search publications for "${w1}" where not year >= 2015 return year`);
    assert.equal(both + neither, text);
  });

  if (options.researcherCounts !== undefined) {
    const counts = options.researcherCounts;
    test('researchers facet counts equal publications per researcher computed from the records', async () => {
      const expected = counts();
      const rows = await facet('search publications return researchers limit 1000', 'researchers');
      assert.ok(rows.length > 0);
      for (const row of rows) assert.equal(row.count, expected.get(row.id as string) ?? 0, String(row.id));
      // the rows are the top researchers: nobody left out has more publications than the last row
      const last = rows[rows.length - 1] as Row;
      const shown = new Set(rows.map((r) => r.id));
      for (const [id, n] of expected) if (!shown.has(id)) assert.ok(n <= last.count, `${id} has ${n} > ${last.count}`);
    });

    test('a filtered researchers facet (grouping path) agrees with the whole-corpus counts', async () => {
      const years = (await facet('search publications return year limit 1000', 'year')).map((r) => r.id as number);
      const min = Math.min(...years);
      const rows = await facet(`search publications where year >= ${min} return researchers limit 1000`, 'researchers');
      const expected = counts();
      for (const row of rows) assert.equal(row.count, expected.get(row.id as string) ?? 0, String(row.id));
    });
  }
}
