// The first finish() after a bulk load leaves full pages in the trees the load and finish()
// itself filled: the researchers whose totals finish() set (rows grown in place, rewritten in
// key order), the posting lists kept by text value (built before the compaction) and the
// per-year table (filled in key order, then its key rebuilt). Nothing is lost on the way:
// every row keeps its pk, so the full-text index keyed by it still finds the researchers.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { openRecordStore, type RecordStore } from '../../src/store/sqlite/records-store.ts';

const dir = mkdtempSync(join(tmpdir(), 'quarry-full-pages-'));
after(() => rmSync(dir, { recursive: true, force: true }));

const RESEARCHERS = 6000;
const PUBLICATIONS = 3000;
const researcherId = (i: number): string => `ur.${String(1_000_000 + i)}`;
const publicationId = (i: number): string => `pub.19${String(i).padStart(8, '0')}`;

/** Each publication has three authors and cites up to six earlier ones, in years spread over 2000–2019. */
function publication(i: number) {
  return {
    id: publicationId(i),
    title: `Title ${i}`,
    type: 'article',
    year: 2000 + (i % 20),
    date: `${2000 + (i % 20)}-03-01`,
    authors: [0, 1, 2].map((k) => {
      const r = researcherId((i * 7 + k * 1999) % RESEARCHERS);
      return { first_name: 'A', last_name: r, researcher_id: r, affiliations: [] };
    }),
    reference_ids: Array.from({ length: Math.min(i, 6) }, (_, k) =>
      publicationId((((i * 48_271) % 65_521) + k * 977) % i),
    ),
  };
}

/** The share of a tree's pages that holds cells (1 when full). */
function fill(store: RecordStore, tree: string): number {
  return store.db
    .prepare<[string], number>('SELECT 1.0 - 1.0 * sum(unused) / sum(pgsize) FROM dbstat WHERE name = ?')
    .pluck()
    .get(tree)!;
}

function load(bulk: boolean): RecordStore {
  const store = openRecordStore(join(dir, `${bulk ? 'bulk' : 'plain'}.db`), { bulk, cacheMb: 16, mmapMb: 0 });
  const researchers = Array.from({ length: RESEARCHERS }, (_, i) => ({
    id: researcherId(i),
    first_name: 'Given',
    last_name: `Family${i}`,
  }));
  for (let i = 0; i < researchers.length; i += 500) store.upsert('researchers', researchers.slice(i, i + 500));
  const publications = Array.from({ length: PUBLICATIONS }, (_, i) => publication(i));
  for (let i = 0; i < publications.length; i += 500) store.upsert('publications', publications.slice(i, i + 500));
  return store;
}

describe('full pages after a bulk load', () => {
  test('the grown researcher rows, the text-keyed lists and the per-year table fill their pages; the rows are all there', () => {
    const plain = load(false);
    plain.finish({ optimize: false, analyze: false });
    const bulk = load(true);
    const steps = bulk.finish({ optimize: false, analyze: false }).steps.map((s) => s.step);
    assert.ok(steps.includes('compact'));

    // Rows grown in place and lists written in key order: the plain load keeps the split
    // pages, the bulk load's are rebuilt (small trees: their last page is partly empty).
    for (const tree of ['researchers', 'publication_researchers_postings']) {
      const share = fill(plain, tree);
      assert.ok(share < 0.9, `${tree} filled row by row keeps room in its pages (${share.toFixed(3)})`);
    }
    for (const tree of ['researchers', 'publication_researchers_postings', 'publication_citations_by_year']) {
      const share = fill(bulk, tree);
      assert.ok(share > 0.95, `${tree} is full after the bulk load's finish (${share.toFixed(3)})`);
    }
    // Every finish() fills the per-year table's pages, bulk or not.
    assert.ok(fill(plain, 'publication_citations_by_year') > 0.95);

    // The same rows, pks and derived values either way.
    const researchers = 'SELECT pk, id, last_name, n_publications, first_publication_year FROM researchers ORDER BY pk';
    const perYear = 'SELECT * FROM publication_citations_by_year ORDER BY 1, 2';
    assert.deepEqual(bulk.db.prepare(researchers).all(), plain.db.prepare(researchers).all());
    assert.deepEqual(bulk.db.prepare(perYear).all(), plain.db.prepare(perYear).all());
    assert.equal(bulk.db.prepare('SELECT sum(n_publications) FROM researchers').pluck().get(), PUBLICATIONS * 3);
    // Indexes and full-text search over the rewritten table.
    const named = bulk.db
      .prepare(
        "SELECT r.id FROM researchers_fts f JOIN researchers r ON r.pk = f.rowid WHERE researchers_fts MATCH 'Family4321'",
      )
      .pluck()
      .all();
    assert.deepEqual(named, [researcherId(4321)]);
    const byId = bulk.db.prepare('EXPLAIN QUERY PLAN SELECT pk FROM researchers WHERE id = ?').all('x');
    assert.match(JSON.stringify(byId), /USING (COVERING )?INDEX/);
    assert.equal(bulk.db.pragma('integrity_check', { simple: true }), 'ok');
    // The store writes on into the rewritten tables (its statements were prepared before).
    bulk.upsert('researchers', [{ id: researcherId(RESEARCHERS), first_name: 'New', last_name: 'Comer' }]);
    bulk.upsert('grants', [{ id: 'grant.1', title: 'A grant', researchers: [researcherId(RESEARCHERS)] }]);
    bulk.finish({ optimize: false, analyze: false });
    const added = bulk.db
      .prepare<[string], { last_name: string; n_grants: number }>(
        'SELECT last_name, n_grants FROM researchers WHERE id = ?',
      )
      .get(researcherId(RESEARCHERS));
    assert.deepEqual({ ...added }, { last_name: 'Comer', n_grants: 1 });
    plain.close();
    bulk.close();
  });
});
