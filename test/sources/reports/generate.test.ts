// Synthetic reports and policy documents: the same for a seed, in any order, different for
// another; linked only to records the run makes; policy documents published by the run's
// government organizations, with the places of their publisher.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { setUpContext } from '../../../src/data/generate/context-setup.ts';
import { publicationDoi, publicationId, researcherId } from '../../../src/data/generate/ids.ts';
import { VENDOR_DIR } from '../../../src/data/generate/reference-data.ts';
import {
  makePolicyDocument,
  planPolicyDocuments,
  policyDocumentCount,
  policyDocumentId,
  POLICY_FIRST_YEAR,
} from '../../../src/sources/policy_documents/generate.ts';
import { makeReport, planReports, reportCount, reportId } from '../../../src/sources/reports/generate.ts';

async function run(seed: number, publications = 20_000) {
  const { ctx } = await setUpContext({ publications, seed, dataDir: VENDOR_DIR });
  const reportPlan = planReports(ctx);
  const policyPlan = planPolicyDocuments(ctx);
  return {
    ctx,
    reportPlan,
    policyPlan,
    reports: Array.from({ length: reportPlan.count }, (_, k) => makeReport(ctx, reportPlan, k)),
    policies: Array.from({ length: policyPlan.count }, (_, k) => makePolicyDocument(ctx, policyPlan, k)),
  };
}

describe('generated reports and policy documents', async () => {
  const a = await run(20240601);
  const orgs = new Map(a.ctx.orgs.records.map((o) => [o.id, o]));

  test('counts scale with the run; ids are report.9 / policy.9 + 7 digits', () => {
    assert.equal(reportCount(1_000_000), 6000);
    assert.equal(policyDocumentCount(1_000_000), 5000);
    assert.equal(reportCount(100), 10);
    assert.equal(a.reports.length, 120);
    assert.equal(a.policies.length, 100);
    assert.ok(a.reports.every((r, k) => r.id === reportId(k) && /^report\.9\d{7}$/.test(r.id)));
    assert.ok(a.policies.every((p, k) => p.id === policyDocumentId(k) && /^policy\.9\d{7}$/.test(p.id)));
  });

  test('deterministic for a seed, in any order; another seed gives other records', async () => {
    const again = await run(20240601);
    const backwards = [...a.reports.keys()]
      .reverse()
      .map((k) => makeReport(again.ctx, again.reportPlan, k))
      .reverse();
    assert.deepEqual(backwards, a.reports);
    assert.deepEqual(again.policies, a.policies);
    const other = await run(7);
    assert.notDeepEqual(
      other.reports.map((r) => r.title),
      a.reports.map((r) => r.title),
    );
  });

  test('reports link only to organizations and researchers of the run, in their order of years', () => {
    const researchers = new Set(Array.from({ length: a.ctx.people.researchers }, (_, r) => researcherId(r)));
    for (const r of a.reports) {
      for (const id of [
        ...r.research_orgs,
        ...(r.publisher_orgs ?? []),
        ...(r.responsible_orgs ?? []),
        ...(r.funder_orgs ?? []),
      ])
        assert.ok(orgs.has(id), `${r.id}: organization ${id}`);
      for (const au of r.authors) {
        assert.ok(researchers.has(au.researcher_id!), `${r.id}: ${au.researcher_id}`);
        for (const f of au.affiliations) assert.ok(r.research_orgs.includes(f.id!), `${r.id}: affiliation`);
      }
      assert.ok(r.research_orgs.includes(r.responsible_orgs![0]!), r.id);
      assert.equal(r.date.slice(0, 4), String(r.year));
      assert.equal(r.publisher_details?.[0]?.name, orgs.get(r.publisher_orgs![0]!)?.name);
      assert.ok((r.concepts ?? []).length >= 3);
    }
    const years = a.reports.map((r) => r.year);
    assert.deepEqual(
      years,
      [...years].sort((x, y) => x - y),
    );
    const funded = a.reports.filter((r) => r.funder_orgs !== undefined).length / a.reports.length;
    assert.ok(funded > 0.15 && funded < 0.45, `funded share ${funded}`);
  });

  test('policy documents: a government publisher with its places, citing earlier publications of the run', () => {
    assert.ok(a.policyPlan.publishers.length > 0);
    for (const p of a.policies) {
      const publisher = orgs.get(p.publisher_org!);
      assert.ok(publisher, `${p.id}: publisher ${p.publisher_org}`);
      assert.ok(
        publisher.types.some((t) => t.toLowerCase() === 'government'),
        `${p.id}: ${publisher.types.join(',')}`,
      );
      assert.equal(p.publisher_org_name, publisher.name);
      assert.equal(p.publisher_org_country, publisher.country_code);
      assert.equal(p.publisher_org_state, publisher.state_code);
      assert.ok(p.year >= POLICY_FIRST_YEAR);
    }
    const pubYear = new Map<string, number>();
    for (let i = 0; i < a.ctx.plan.publications; i++) pubYear.set(publicationId(i), 0);
    const citing = a.policies.filter((p) => p.publication_ids !== undefined);
    assert.ok(citing.length / a.policies.length > 0.55, 'most cite publications');
    for (const p of citing) {
      assert.deepEqual(
        p.publications?.map((l) => l.id),
        p.publication_ids,
      );
      for (const l of p.publications ?? []) {
        assert.ok(pubYear.has(l.id!), `${p.id}: ${l.id}`);
        const i = Number(l.id!.slice(-8)) - 1;
        assert.equal(l.doi, publicationDoi(i));
      }
    }
  });
});
