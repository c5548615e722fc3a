// Synthetic clinical trials: the same for a seed, different for another, and linked only to
// records the run makes (organizations, researchers, grants, publications) of biomedical fields.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { setUpContext } from '../../../src/data/generate/context-setup.ts';
import { BIOMEDICAL } from '../../../src/data/generate/fields.ts';
import { makeGrant } from '../../../src/data/generate/grants.ts';
import { grantId, publicationDoi, publicationId, researcherId } from '../../../src/data/generate/ids.ts';
import { VENDOR_DIR } from '../../../src/data/generate/reference-data.ts';
import {
  clinicalTrialCount,
  clinicalTrialId,
  makeClinicalTrial,
  planClinicalTrials,
} from '../../../src/sources/clinical_trials/generate.ts';
import { ctgovToTrial } from '../../../src/sources/clinical_trials/import-ctgov.ts';
import type { ClinicalTrialRecord } from '../../../src/sources/clinical_trials/native.ts';

async function run(seed: number, publications = 20_000) {
  const { ctx } = await setUpContext({ publications, seed, dataDir: VENDOR_DIR });
  const plan = planClinicalTrials(ctx);
  const trials = Array.from({ length: plan.count }, (_, t) => makeClinicalTrial(ctx, plan, t));
  return { ctx, plan, trials };
}

describe('generated clinical trials', async () => {
  const a = await run(20240601);

  test('the count scales with the run (6,000 per million publications) and ids are NCT9 + 7 digits', () => {
    assert.equal(clinicalTrialCount(1_000_000), 6000);
    assert.equal(clinicalTrialCount(1000), 10);
    assert.equal(a.trials.length, 120);
    assert.equal(clinicalTrialId(0), 'NCT90000001');
    assert.ok(a.trials.every((t, k) => t.id === clinicalTrialId(k) && /^NCT9\d{7}$/.test(t.id)));
  });

  test('deterministic for a seed, in any order; another seed gives other trials', async () => {
    const again = await run(20240601);
    assert.deepEqual(again.trials, a.trials);
    const backwards = [...a.trials.keys()].reverse().map((t) => makeClinicalTrial(again.ctx, again.plan, t));
    assert.deepEqual(backwards.reverse(), a.trials);
    const other = await run(7);
    assert.notDeepEqual(
      other.trials.map((t) => t.title),
      a.trials.map((t) => t.title),
    );
  });

  test('links only to records the run makes', () => {
    const { ctx } = a;
    const orgIds = new Set(ctx.orgs.records.map((o) => o.id));
    const researchers = new Set(Array.from({ length: ctx.people.researchers }, (_, r) => researcherId(r)));
    const grants = new Set(Array.from({ length: ctx.plan.grants }, (_, g) => grantId(g)));
    const publications = new Set(Array.from({ length: ctx.plan.publications }, (_, i) => publicationId(i)));
    for (const t of a.trials) {
      for (const id of [...t.research_orgs, ...t.funders, ...(t.sponsors ?? []).map((s) => s.id!)])
        assert.ok(orgIds.has(id), `${t.id}: organization ${id}`);
      for (const i of t.investigators) {
        assert.ok(researchers.has(i.researcher_id!), `${t.id}: researcher ${i.researcher_id}`);
        for (const f of i.affiliations) assert.ok(t.research_orgs.includes(f.id!), `${t.id}: affiliation ${f.id}`);
      }
      for (const g of t.associated_grant_ids ?? []) assert.ok(grants.has(g), `${t.id}: grant ${g}`);
      assert.deepEqual(
        t.publication_ids,
        t.publications?.map((p) => p.id),
      );
      for (const p of t.publications ?? []) {
        assert.ok(publications.has(p.id!), `${t.id}: publication ${p.id}`);
        assert.equal(p.doi, publicationDoi(Number(p.id!.slice(6)) - 1));
      }
    }
    // The links are there to check: some trials name grants, publications, collaborators.
    assert.ok(a.trials.some((t) => (t.associated_grant_ids ?? []).length > 0));
    assert.ok(a.trials.filter((t) => (t.publication_ids ?? []).length > 0).length > 20);
    assert.ok(a.trials.some((t) => t.funders.length > 0));
  });

  test('trials are of biomedical fields, and so are the grants and publications they name', () => {
    const { ctx } = a;
    const division = (ref: { id: string } | undefined): string => ref?.id.slice(0, 2) ?? '';
    for (const t of a.trials) {
      assert.ok(BIOMEDICAL.has(division(t.category_for?.[0])), t.id);
      // The grant's field as makeGrant draws it (the generator repeats that draw).
      for (const g of t.associated_grant_ids ?? []) {
        const grant = makeGrant(ctx, Number(g.slice('grant.9'.length)));
        assert.ok(BIOMEDICAL.has(division(grant.category_for?.[0])), `${t.id}: ${g}`);
      }
      for (const p of t.publications ?? [])
        assert.ok(BIOMEDICAL.has(ctx.fields.divisions[ctx.division[Number(p.id!.slice(6)) - 1]!]!.code), p.id);
    }
  });

  test('industry trials are led by companies of the run (its organizations of type Company)', () => {
    const { ctx, plan } = a;
    const companies = ctx.orgs.records.slice(0, ctx.plan.organizations).filter((o) => o.types.includes('Company'));
    assert.ok(companies.length > 0, 'the run has companies');
    assert.deepEqual(
      plan.companies.map((k) => ctx.orgs.records[k]?.id),
      companies.map((o) => o.id),
    );
    const companyIds = new Set(companies.map((o) => o.id));
    const industry = a.trials.filter((t) => t.sponsors?.[0]?.class === 'INDUSTRY');
    assert.ok(industry.length > 0, 'some trials have an industry sponsor');
    for (const t of industry) assert.ok(companyIds.has(t.sponsors![0]!.id!), `${t.id}: lead sponsor is a company`);
  });

  test('records have the shape the importer gives: dates, years, status, no empty or null values', () => {
    const sample: ClinicalTrialRecord = ctgovToTrial({
      protocolSection: { identificationModule: { nctId: 'NCT00000001', briefTitle: 'A title' } },
    });
    for (const t of a.trials) {
      assert.equal(t.registry, sample.registry);
      assert.match(t.start_date!, /^\d{4}-\d{2}-\d{2}$/);
      assert.ok(t.end_date! >= t.start_date!, t.id);
      assert.equal(t.active_years![0], Number(t.start_date!.slice(0, 4)));
      assert.equal(t.active_years!.at(-1), Number(t.end_date!.slice(0, 4)));
      assert.ok(t.date_inserted! <= t.start_date!);
      if (t.start_date! > '2025-12-31') assert.equal(t.overall_status, 'NOT_YET_RECRUITING');
      if (t.end_date! <= '2025-12-31')
        assert.ok(['COMPLETED', 'UNKNOWN', 'TERMINATED', 'WITHDRAWN'].includes(t.overall_status!), t.id);
      assert.equal(t.phase === undefined, t.study_type !== 'INTERVENTIONAL', t.id);
      for (const [k, v] of Object.entries(t)) {
        assert.notEqual(v, null, `${t.id}.${k}`);
        if (Array.isArray(v) && !['investigators', 'research_orgs', 'funders'].includes(k))
          assert.ok(v.length > 0, `${t.id}.${k} is empty`);
      }
    }
  });
});
