// The in-memory link facet (engine/columnar/): the link column's layout, the top-k choice,
// and the facet's arithmetic and order, each against what SQLite gives for the same rows.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import Database from 'better-sqlite3';
import { aggregateFacet, medianOf, type Measure } from '../../../src/engine/columnar/facet-aggregation.ts';
import { buildLinkColumn } from '../../../src/engine/columnar/link-column.ts';
import { topK } from '../../../src/engine/columnar/top-k.ts';

describe('buildLinkColumn', () => {
  test('groups the rows by record key, ordinals in the order the ids came in', () => {
    const column = buildLinkColumn([
      ['a', 3],
      ['a', 1],
      ['b', 1],
      [null, 2],
      ['c', 3],
      ['c', 0],
    ]);
    assert.deepEqual(column.ids, ['a', 'b', 'c']);
    assert.equal(column.rows, 5);
    const linked = (key: number): number[] => [...column.values.subarray(column.offsets[key], column.offsets[key + 1])];
    assert.deepEqual(linked(0), [2]);
    assert.deepEqual(linked(1), [0, 1]);
    assert.deepEqual(linked(2), []);
    assert.deepEqual(linked(3), [0, 2]);
  });

  test('refuses a record key that is not a small non-negative integer', () => {
    assert.throws(() => buildLinkColumn([['a', -1]]), /record key/);
    assert.throws(() => buildLinkColumn([['a', 'x']]), /record key/);
  });
});

describe('topK', () => {
  test('keeps the k best, best first, for any k', () => {
    const values = [5, 1, 9, 3, 9, 7, 2, 8];
    const before = (a: number, b: number): boolean =>
      (values[a] as number) > (values[b] as number) || (values[a] === values[b] && a < b);
    const all = [...values.keys()];
    const sorted = [...all].sort((a, b) => (before(a, b) ? -1 : 1));
    for (let k = 0; k <= values.length + 1; k++) assert.deepEqual(topK(all, k, before), sorted.slice(0, k), `k = ${k}`);
  });
});

/** A link facet over `links` (record key → ids) with `field` per record, in SQLite and in memory. */
function bothWays(
  links: ReadonlyArray<readonly [number, string]>,
  field: ReadonlyArray<number | null>,
  select: string,
  order: string,
  measures: readonly Omit<Measure, 'column'>[],
  sortBy: string,
  direction: 'asc' | 'desc',
  limit: number,
): { sql: unknown[]; memory: unknown[] } {
  const db = new Database(':memory:');
  db.exec('CREATE TABLE link (pk INTEGER, id TEXT); CREATE TABLE rec (pk INTEGER PRIMARY KEY, x REAL)');
  const addLink = db.prepare('INSERT INTO link VALUES (?, ?)');
  for (const [pk, id] of links) addLink.run(pk, id);
  const addRec = db.prepare('INSERT INTO rec VALUES (?, ?)');
  field.forEach((x, pk) => addRec.run(pk, x));
  const sql = db
    .prepare(
      `SELECT l.id AS id, count(*) AS count${select} FROM rec s JOIN link l ON l.pk = s.pk GROUP BY 1 ORDER BY ${order}, id ASC LIMIT ?`,
    )
    .all(limit);
  const link = buildLinkColumn(
    db.prepare('SELECT id, pk FROM link ORDER BY id').raw().iterate() as Iterable<[unknown, unknown]>,
  );
  db.close();
  const column = Float64Array.from(field, (x) => (x === null ? NaN : x));
  const memory = aggregateFacet({
    link,
    matches: undefined,
    measures: measures.map((m) => ({ ...m, column })),
    sortBy,
    direction,
    limit,
  });
  return { sql, memory };
}

/** Rows with every number rounded to 9 decimals (the last bits of a float are not the question). */
const rounded = (rows: unknown[]): unknown[] =>
  rows.map((r) =>
    Object.fromEntries(
      Object.entries(r as Record<string, unknown>).map(([k, v]) => [
        k,
        typeof v === 'number' ? Math.round(v * 1e9) / 1e9 : v,
      ]),
    ),
  );

describe('aggregateFacet', () => {
  // Six records; org "b" has only records without a value, "e" has none linked with values.
  const field = [1.5, null, 3, 0.25, null, 10];
  const links: Array<[number, string]> = [
    [0, 'a'],
    [2, 'a'],
    [3, 'a'],
    [1, 'b'],
    [4, 'b'],
    [0, 'c'],
    [5, 'c'],
    [2, 'd'],
    [5, 'd'],
    [4, 'e'],
  ];

  test('counts per value, ties broken by id', () => {
    const { sql, memory } = bothWays(links, field, '', 'count DESC', [], 'count', 'desc', 10);
    assert.deepEqual(memory, sql);
    const asc = bothWays(links, field, '', 'count ASC', [], 'count', 'asc', 3);
    assert.deepEqual(asc.memory, asc.sql);
  });

  test('sums, averages, medians and geometric means as SQLite gives them, NULLs last both ways', () => {
    const measures = [
      { name: 'total', aggregation: 'sum', integer: false },
      { name: 'mean', aggregation: 'avg', integer: false },
      { name: 'mid', aggregation: 'median', integer: false },
      { name: 'gmean', aggregation: 'geometric_mean', integer: false },
    ] as const;
    const select =
      ', coalesce(sum(s.x), 0) AS total, avg(s.x) AS mean, median(s.x) AS mid, exp(avg(ln(s.x + 1))) - 1 AS gmean';
    for (const sortBy of ['total', 'mean', 'mid', 'gmean']) {
      for (const direction of ['desc', 'asc'] as const) {
        const order = direction === 'desc' ? `${sortBy} DESC` : `${sortBy} ASC NULLS LAST`;
        const { sql, memory } = bothWays(links, field, select, `${order}, count DESC`, measures, sortBy, direction, 10);
        assert.deepEqual(rounded(memory), rounded(sql), `sort by ${sortBy} ${direction}`);
      }
    }
  });

  test('real sums follow the compensated summation SQLite uses', () => {
    // 1e16 + 1 + -1e16 + 1: plain addition loses both ones; the compensated sum keeps them.
    const values = [1e16, 1, -1e16, 1];
    const rows: Array<[number, string]> = values.map((_, pk) => [pk, 'a']);
    const { sql, memory } = bothWays(
      rows,
      values,
      ', sum(s.x) AS total',
      'total DESC',
      [{ name: 'total', aggregation: 'sum', integer: false }],
      'total',
      'desc',
      1,
    );
    assert.deepEqual(memory, sql);
    assert.equal((memory[0] as { total: number }).total, 2);
  });

  test('only the matching records count', () => {
    const link = buildLinkColumn([
      ['a', 0],
      ['a', 1],
      ['b', 1],
      ['b', 2],
      ['b', 9],
    ]);
    const rows = aggregateFacet({
      link,
      matches: Int32Array.from([1, 2, 5, 42]),
      measures: [],
      sortBy: 'count',
      direction: 'desc',
      limit: 5,
    });
    assert.deepEqual(rows, [
      { id: 'b', count: 2 },
      { id: 'a', count: 1 },
    ]);
  });
});

describe('medianOf', () => {
  test('the middle value, or the mean of the middle two, as SQLite median() gives it', () => {
    const db = new Database(':memory:');
    const median = (xs: number[]): unknown =>
      db
        .prepare(`SELECT median(x) FROM (${xs.map(() => 'SELECT ? AS x').join(' UNION ALL ')})`)
        .pluck()
        .get(...xs);
    for (const xs of [[3], [4, 1], [0.1, 0.7, 0.2], [5, 1, 2, 8], [1e308, 1.7e308]])
      assert.equal(medianOf(xs), median(xs));
    assert.equal(medianOf([]), null);
    db.close();
  });
});
