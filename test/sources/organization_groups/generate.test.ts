// The demo's organization groups: each group is the run's organizations of one country and
// type, its members held records of the right side (funders for funder_groups, research
// organizations for research_org_groups), ids prefixed `demo-`, the same for a seed.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { setUpContext } from '../../../src/data/generate/context-setup.ts';
import { EUROPE } from '../../../src/data/generate/organization-groups.ts';
import { VENDOR_DIR } from '../../../src/data/generate/reference-data.ts';
import { SOURCE_GENERATORS } from '../../../src/data/generate/source-generators.ts';
import { funderGroupsOfRun } from '../../../src/sources/funder_groups/generate.ts';
import { researchOrgGroupsOfRun } from '../../../src/sources/research_org_groups/generate.ts';

async function run(seed: number, publications = 20_000) {
  const { ctx } = await setUpContext({ publications, seed, dataDir: VENDOR_DIR });
  return { ctx, funders: funderGroupsOfRun(ctx), research: researchOrgGroupsOfRun(ctx) };
}

describe('generated organization groups', async () => {
  const a = await run(20240601);
  const byId = new Map(a.ctx.orgs.records.map((o, index) => [o.id, { ...o, index }]));

  test('a few named groups of each source, ids prefixed demo-', () => {
    assert.ok(a.funders.length >= 3, `${a.funders.length} funder groups`);
    assert.ok(a.research.length >= 4, `${a.research.length} research organization groups`);
    for (const g of [...a.funders, ...a.research]) {
      assert.match(g.id, /^demo-[a-z-]+$/);
      assert.ok(g.name.length > 0);
      assert.ok(g.organization_ids.length > 0, g.id);
      assert.equal(new Set(g.organization_ids).size, g.organization_ids.length, g.id);
    }
  });

  test('members are held: funders in funder groups, research organizations in the others', () => {
    const { firstFunder } = a.ctx.orgs;
    for (const g of a.funders)
      for (const id of g.organization_ids) assert.ok((byId.get(id)?.index ?? -1) >= firstFunder, `${g.id}: ${id}`);
    for (const g of a.research)
      for (const id of g.organization_ids) {
        const index = byId.get(id)?.index;
        assert.ok(index !== undefined && index < firstFunder, `${g.id}: ${id}`);
      }
  });

  test('each group holds what its name says', () => {
    const members = (groups: typeof a.funders, id: string) =>
      (groups.find((g) => g.id === id)?.organization_ids ?? []).map((m) => byId.get(m));
    for (const org of members(a.research, 'demo-uk-universities')) {
      assert.equal(org?.country_code, 'GB');
      assert.ok(org?.types?.includes('Education'));
    }
    for (const org of members(a.funders, 'demo-us-government-funders')) {
      assert.equal(org?.country_code, 'US');
      assert.ok(org?.types?.includes('Government'));
    }
    for (const org of members(a.funders, 'demo-european-funders')) assert.ok(EUROPE.includes(org?.country_code ?? ''));
    // Every research organization of the run that is a UK university is in the group (up to its cap).
    const ukUniversities = a.ctx.orgs.records
      .slice(0, a.ctx.orgs.firstFunder)
      .filter((o) => o.country_code === 'GB' && o.types?.includes('Education'));
    assert.equal(members(a.research, 'demo-uk-universities').length, Math.min(500, ukUniversities.length));
  });

  test('the same for a seed; the generator registry makes them after the organizations', async () => {
    const again = await run(20240601);
    assert.deepEqual(again.funders, a.funders);
    assert.deepEqual(again.research, a.research);
    const generator = SOURCE_GENERATORS.find((g) => g.kind === 'funder_groups');
    const later = generator?.afterwards?.(a.ctx);
    assert.equal(later?.count, a.funders.length);
    assert.deepEqual(later?.make(0), a.funders[0]);
    assert.equal(generator?.afterwards?.(a.ctx, 2).count, 2);
  });
});
