// Records in the default order come newest first with ties by id ascending, and the
// year-filtered export loop (`where year = Y ... limit N skip M`) reads an index in that
// order and stops after the page. These check the order itself against a sort done here,
// page after page, and that SQLite's plan really sorts nothing.
import assert from 'node:assert/strict';
import { before, describe, test } from 'node:test';
import type Database from 'better-sqlite3';
import { runQuery, SqliteQueryContext } from '../../src/engine/backends/sqlite/query-context.ts';
import { prepareQuery } from '../../src/engine/run-query.ts';
import { openReadOnly } from '../../src/store/sqlite/open.ts';
import { demoDatabase } from '../fixtures/demo-db.ts';

type Rec = { id: string; date: string };

describe('default order', () => {
  let db: Database.Database;
  let year: number;
  before(async () => {
    db = openReadOnly(await demoDatabase({ publications: 1000 }));
    year = db
      .prepare('SELECT year FROM publications GROUP BY year ORDER BY count(*) DESC LIMIT 1')
      .pluck()
      .get() as number;
  });

  test('publications come newest first, ties by id ascending, and pages join up without gaps or repeats', () => {
    const expected = (db.prepare('SELECT id, date FROM publications WHERE year = ?').all(year) as Rec[]).sort((a, b) =>
      a.date === b.date ? (a.id < b.id ? -1 : 1) : a.date < b.date ? 1 : -1,
    );
    assert.ok(expected.length > 30, 'the year has enough publications for several pages');
    assert.ok(
      new Set(expected.map((r) => r.date)).size < expected.length,
      'some publications share a date, so ties are exercised',
    );
    const paged: Rec[] = [];
    for (let skip = 0; skip < expected.length; skip += 13) {
      const result = runQuery(
        db,
        `search publications where year = ${year} return publications[id+date] limit 13 skip ${skip}`,
        { dslVersion: 2 },
      );
      paged.push(...(result.publications as Rec[]));
    }
    assert.deepEqual(
      paged.map((r) => r.id),
      expected.map((r) => r.id),
    );
  });

  test('a year-filtered page in the default order reads the (year, date DESC, id) index in order: no sort', () => {
    const ctx = new SqliteQueryContext(db);
    const planOf = (text: string): readonly string[] => {
      const prepared = prepareQuery(text, { dslVersion: 2 });
      if (prepared.kind !== 'plan') throw new Error('expected a plan');
      const output = ctx.compile(prepared.plan).outputs[0];
      if (output?.kind !== 'records') throw new Error('expected a records page');
      return ctx.statements.plan(output.page);
    };
    for (const [text, index] of [
      [
        `search publications where year = ${year} return publications[id] limit 1000 skip 200`,
        'publications_year_date_desc_id',
      ],
      ['search grants where start_year = 2015 return grants[id] limit 50', 'grants_start_year_start_date_desc_id'],
    ] as const) {
      const steps = planOf(text);
      assert.ok(!steps.some((step) => step.includes('TEMP B-TREE')), `${text}: ${steps.join(' | ')}`);
      assert.ok(
        steps.some((step) => step.includes(index)),
        `${text} uses ${index}: ${steps.join(' | ')}`,
      );
    }
    // The whole source reads (date, id) backwards and sorts only the ids of one date.
    const whole = planOf('search publications return publications[id] limit 10');
    assert.ok(
      !whole.includes('USE TEMP B-TREE FOR ORDER BY') && whole.some((step) => step.includes('publications_date_id')),
      whole.join(' | '),
    );
  });

  test('a page under an organization filter chooses its keys in the narrow table, in the same order and count', () => {
    const org = db
      .prepare('SELECT org_id FROM publication_research_orgs GROUP BY org_id ORDER BY count(*) DESC LIMIT 1')
      .pluck()
      .get() as string;
    const expected = (
      db
        .prepare(
          'SELECT p.id, p.date FROM publications p JOIN publication_research_orgs l ON l.publication_pk = p.pk WHERE l.org_id = ? AND p.year >= ?',
        )
        .all(org, year - 3) as Rec[]
    ).sort((a, b) => (a.date === b.date ? (a.id < b.id ? -1 : 1) : a.date < b.date ? 1 : -1));
    assert.ok(expected.length > 20, 'the organization has enough publications for several pages');
    const query = (skip: number): string =>
      `search publications where research_orgs.id = "${org}" and year >= ${year - 3} return publications[id+date] limit 9 skip ${skip}`;
    const paged: Rec[] = [];
    for (let skip = 0; skip < expected.length; skip += 9) {
      const result = runQuery(db, query(skip), { dslVersion: 2 });
      assert.equal(
        (result._stats as { total_count: number }).total_count,
        expected.length,
        `total count at skip ${skip}`,
      );
      paged.push(...(result.publications as Rec[]));
    }
    assert.deepEqual(
      paged.map((r) => r.id),
      expected.map((r) => r.id),
    );
    const ctx = new SqliteQueryContext(db);
    const prepared = prepareQuery(query(0), { dslVersion: 2 });
    if (prepared.kind !== 'plan') throw new Error('expected a plan');
    const compiled = ctx.compile(prepared.plan);
    const output = compiled.outputs[0];
    if (output?.kind !== 'records') throw new Error('expected a records page');
    // The candidates come from the link table's index, which also holds their dates: only
    // those that can reach the page are checked against the short narrow rows
    // (compile/page-cut.ts), and the wide table is read by key for the page alone. The count
    // needs no record row: the link rows carry the year (compile/filters.ts, linkKeyCount).
    for (const sql of [compiled.count, output.page]) {
      const steps = ctx.statements.plan(sql);
      assert.ok(
        steps.some((step) => step.includes('publication_research_orgs_by_org_id')),
        `enters through the link index: ${steps.join(' | ')}`,
      );
    }
    assert.ok(output.page.text.includes('FROM "publications_narrow" s WHERE'), output.page.text);
    assert.ok(output.page.text.includes('WITH cut AS'), output.page.text);
    // One organization: a record has at most one of its link rows, so they are counted as they are.
    assert.ok(
      compiled.count.text.startsWith('SELECT count(*) AS n FROM "publication_research_orgs" l'),
      compiled.count.text,
    );
    assert.ok(ctx.statements.readsOneCoveringIndex(compiled.count), ctx.statements.plan(compiled.count).join(' | '));
  });

  test('an explicit sort, descending or ascending, breaks ties by id ascending', () => {
    for (const direction of ['desc', 'asc'] as const) {
      const result = runQuery(
        db,
        `search publications return publications[id+type] sort by type ${direction} limit 1000`,
        { dslVersion: 2 },
      );
      const rows = result.publications as Array<{ id: string; type: string }>;
      const sorted = [...rows].sort((a, b) => {
        const byType = a.type === b.type ? 0 : a.type < b.type ? -1 : 1;
        const byId = a.id < b.id ? -1 : 1;
        return (direction === 'desc' ? -byType : byType) || byId;
      });
      assert.deepEqual(
        rows.map((r) => r.id),
        sorted.map((r) => r.id),
        direction,
      );
    }
  });
});
