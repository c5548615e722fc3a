// The dataset generator over a small run (publications, grants, researchers and organizations
// made as `quarry generate` makes them): the same seed gives the same datasets, made in any
// order; another seed other ones; and every link names a record of the run.
import assert from 'node:assert/strict';
import { before, describe, test } from 'node:test';
import { setUpContext } from '../../../src/data/generate/context-setup.ts';
import type { Context } from '../../../src/data/generate/context.ts';
import { grantId, researcherId } from '../../../src/data/generate/ids.ts';
import { makePublication, notePaperAuthors, pickAuthors, startPaper } from '../../../src/data/generate/publications.ts';
import { VENDOR_DIR } from '../../../src/data/generate/reference-data.ts';
import type { PublicationRecord } from '../../../src/model/native-records.ts';
import {
  datasetsOfPublication,
  makeStandaloneDataset,
  standaloneDatasetCount,
} from '../../../src/sources/datasets/generate.ts';
import type { DatasetRecord } from '../../../src/sources/datasets/native.ts';

const PUBLICATIONS = 1500;

interface Run {
  readonly ctx: Context;
  readonly publications: readonly PublicationRecord[];
  readonly linked: readonly DatasetRecord[];
  readonly standalone: readonly DatasetRecord[];
}

/** A run's publications as `generate` makes them (one thread), then its datasets. */
async function run(seed: number): Promise<Run> {
  const { ctx, yearOf } = await setUpContext({ publications: PUBLICATIONS, seed, dataDir: VENDOR_DIR });
  const publications: PublicationRecord[] = [];
  const cursor = { at: 0 };
  for (let i = 0; i < PUBLICATIONS; i++) {
    const year = yearOf(i);
    const start = startPaper(ctx, i, year, pickAuthors(ctx, i, cursor));
    notePaperAuthors(ctx, year, start);
    publications.push(makePublication(ctx, i, year, start));
  }
  const linked = publications.flatMap((p, i) => datasetsOfPublication(ctx, i, p));
  const standalone = Array.from({ length: standaloneDatasetCount(PUBLICATIONS) }, (_, k) =>
    makeStandaloneDataset(ctx, k),
  );
  return { ctx, publications, linked, standalone };
}

describe('generated datasets', () => {
  let a: Run;
  before(async () => {
    a = await run(20240601);
  });

  test('the same seed gives the same datasets; another seed other ones', async () => {
    const b = await run(20240601);
    assert.deepEqual(b.linked, a.linked);
    assert.deepEqual(b.standalone, a.standalone);
    const c = await run(7);
    assert.notDeepEqual(
      c.standalone.map((d) => d.title),
      a.standalone.map((d) => d.title),
    );
  });

  test('a dataset does not depend on the order datasets are made in', () => {
    const reversed = a.standalone.map((_, k) => makeStandaloneDataset(a.ctx, a.standalone.length - 1 - k)).reverse();
    assert.deepEqual(reversed, a.standalone);
    const last = a.publications.length - 1;
    assert.deepEqual(
      datasetsOfPublication(a.ctx, last, a.publications[last]!),
      a.linked.filter((d) => d.associated_publication_id === a.publications[last]!.id),
    );
  });

  test('both kinds are made, in the proportions chosen', () => {
    // About 3% of papers have 1-3 datasets; 10 standalone datasets per 100 papers.
    assert.ok(a.linked.length >= 20 && a.linked.length <= 120, `${a.linked.length} datasets of publications`);
    assert.equal(a.standalone.length, 150);
    const ids = [...a.linked, ...a.standalone].map((d) => d.id);
    assert.equal(new Set(ids).size, ids.length);
    for (const d of [...a.linked, ...a.standalone]) {
      assert.equal(d.id, `doi:${d.doi}`);
      assert.match(d.doi, /^10\.99999\/data\./);
      assert.equal(Number(d.date.slice(0, 4)), d.year);
      assert.ok(d.title.length > 0);
      assert.ok(d.authors.length > 0, d.id);
    }
  });

  test('every link names a record of the run', () => {
    const { ctx, publications } = a;
    const pubs = new Map(publications.map((p) => [p.id, p]));
    const orgs = new Set(ctx.orgs.records.map((o) => o.id));
    const researchers = new Set(Array.from({ length: ctx.people.researchers }, (_, r) => researcherId(r)));
    const grants = new Set(Array.from({ length: ctx.plan.grants }, (_, g) => grantId(g)));
    const journals = new Set(ctx.journals.records.map((j) => j.id));
    const categories = new Set(ctx.fields.categories.map((c) => c.id));
    for (const d of [...a.linked, ...a.standalone]) {
      for (const o of [...d.research_orgs, ...d.funders]) assert.ok(orgs.has(o), `${d.id}: organization ${o}`);
      for (const au of d.authors) {
        if (au.researcher_id !== undefined) assert.ok(researchers.has(au.researcher_id), au.researcher_id);
        for (const f of au.affiliations) if (f.id !== undefined) assert.ok(orgs.has(f.id), f.id);
      }
      for (const r of d.researchers ?? []) assert.ok(researchers.has(r), `${d.id}: researcher ${r}`);
      for (const g of d.associated_grant_ids ?? []) assert.ok(grants.has(g), `${d.id}: grant ${g}`);
      if (d.journal !== undefined) assert.ok(journals.has(d.journal.id), `${d.id}: journal ${d.journal.id}`);
      for (const c of d.category_for ?? []) assert.ok(categories.has(c.id), `${d.id}: category ${c.id}`);
      for (const f of d.funder_details ?? []) if (f.id !== undefined) assert.ok(d.funders.includes(f.id));
    }
    for (const d of a.linked) {
      const pub = pubs.get(d.associated_publication_id ?? '');
      assert.ok(pub, `${d.id}: publication ${d.associated_publication_id}`);
      assert.equal(d.associated_publication?.id, pub.id);
      assert.equal(d.associated_publication?.doi, pub.doi);
      assert.deepEqual(d.associated_grant_ids ?? [], pub.supporting_grant_ids);
      assert.deepEqual(d.research_orgs, pub.research_orgs);
    }
    for (const d of a.standalone) {
      assert.equal(d.associated_publication, undefined);
      assert.equal(d.associated_publication_id, undefined);
    }
  });
});
