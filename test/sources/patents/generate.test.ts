// Generated patents: the same seed gives the same patents, and every id a patent names is
// a record of the run (organizations, researchers, grants, publications, earlier patents),
// except citations of US patents outside the run, which are in number ranges the run never
// makes.
import assert from 'node:assert/strict';
import { before, describe, test } from 'node:test';
import type { Context } from '../../../src/data/generate/context.ts';
import { setUpContext } from '../../../src/data/generate/context-setup.ts';
import { grantId, publicationDoi, publicationId, researcherId } from '../../../src/data/generate/ids.ts';
import { VENDOR_DIR } from '../../../src/data/generate/reference-data.ts';
import { generatedPatentId, makePatents, patentsFor, planPatents } from '../../../src/sources/patents/generate.ts';
import type { PatentRecord } from '../../../src/sources/patents/native.ts';

const run = async (seed: number): Promise<{ ctx: Context; patents: PatentRecord[] }> => {
  const { ctx } = await setUpContext({ publications: 4000, seed, dataDir: VENDOR_DIR });
  return { ctx, patents: [...makePatents(ctx)] };
};

describe('generated patents', () => {
  let ctx: Context;
  let patents: PatentRecord[];
  before(async () => {
    ({ ctx, patents } = await run(20240601));
  });

  test('the same seed gives the same patents; another seed others', async () => {
    const again = await run(20240601);
    assert.equal(JSON.stringify(again.patents), JSON.stringify(patents));
    const other = await run(7);
    assert.notEqual(JSON.stringify(other.patents), JSON.stringify(patents));
  });

  test('one patent per 20 publications, each id once, any patent made alone alike', () => {
    assert.equal(patents.length, patentsFor(4000));
    assert.equal(new Set(patents.map((p) => p.id)).size, patents.length);
    const plan = planPatents(ctx);
    assert.deepEqual(
      patents.map((_, k) => generatedPatentId(ctx, plan, k)),
      patents.map((p) => p.id),
    );
  });

  test('every link names a record of the run', () => {
    const orgs = new Set(ctx.orgs.records.map((o) => o.id));
    const people = new Set(Array.from({ length: ctx.people.researchers }, (_, r) => researcherId(r)));
    const grants = new Set(Array.from({ length: ctx.plan.grants }, (_, g) => grantId(g)));
    const pubs = new Map(
      Array.from({ length: ctx.plan.publications }, (_, i) => [publicationId(i), publicationDoi(i)]),
    );
    const order = new Map(patents.map((p, k) => [p.id, k]));
    for (const [k, p] of patents.entries()) {
      for (const id of [...p.assignees, ...p.original_assignees, ...p.funders]) assert.ok(orgs.has(id), id);
      for (const id of p.researchers) assert.ok(people.has(id), id);
      assert.deepEqual(
        p.inventors.flatMap((i) => (i.researcher_id === undefined ? [] : [i.researcher_id])),
        p.researchers,
      );
      for (const id of p.associated_grant_ids ?? []) assert.ok(grants.has(id), id);
      for (const link of p.publications ?? []) assert.equal(pubs.get(link.id!), link.doi);
      assert.deepEqual(
        p.publications?.map((l) => l.id),
        p.publication_ids,
      );
      for (const ref of p.reference_ids) {
        const cited = order.get(ref);
        if (cited !== undefined) assert.ok(cited < k && patents[cited]!.publication_date <= p.publication_date, ref);
        else assert.match(ref, /^US-\d{7,8}-(A|B1|B2)$/, 'outside the run: a US patent number below 12,000,000');
      }
      if (p.federal_support !== undefined) {
        assert.equal(p.jurisdiction, 'US');
        assert.equal(p.funders.length, 1);
        assert.match(p.federal_support[0]!, new RegExp(p.associated_grant_ids![0]!.replace('.', '\\.')));
      }
    }
  });

  test('the records are plausible: dates in order, kinds by office, the fields linked at all', () => {
    for (const p of patents) {
      assert.ok(p.priority_date! <= p.date! && p.date! < p.publication_date, p.id);
      assert.equal(p.granted_date !== undefined, p.filing_status === 'Grant');
      assert.equal(p.jurisdiction, p.id.split('-')[0]);
      assert.ok(p.cpc.length > 0 && p.ipcr.length > 0);
      assert.ok(p.inventors.length >= 1 && p.inventors.length <= 8);
    }
    const share = (f: (p: PatentRecord) => boolean): number => patents.filter(f).length / patents.length;
    assert.ok(share((p) => p.jurisdiction === 'US') > 0.3);
    assert.ok(share((p) => p.researchers.length > 0) > 0.5);
    assert.ok(share((p) => p.assignees.length > 0) > 0.3);
    assert.ok(share((p) => p.publication_ids !== undefined) > 0.1);
    assert.ok(
      patents.some((p) => p.reference_ids.some((r) => patents.some((q) => q.id === r))),
      'patents cite patents of the run',
    );
    assert.ok(patents.some((p) => p.federal_support !== undefined));
  });
});
