import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { gunzipSync } from 'node:zlib';
import { recordWriterFor } from '../../src/backends.ts';
import { importFiles } from '../../src/data/import/index.ts';
import { assertValid, generate, validate, type Manifest } from '../../src/data/generate/index.ts';
import { RandomSource } from '../../src/data/generate/prng.ts';
import { estimatePowerLawExponent, lotka } from '../../src/data/generate/distributions.ts';
import { organizationId, publicationId, researcherId, syntheticOrcid } from '../../src/data/generate/ids.ts';
import type {
  PublicationRecord,
  ResearcherRecord,
  GrantRecord,
  OrganizationRecord,
} from '../../src/model/native-records.ts';

const work = mkdtempSync(join(tmpdir(), 'quarry-generate-test-'));
after(() => rmSync(work, { recursive: true, force: true }));

/** SHA-256 over every file of a folder (names and bytes, sorted by name). */
function folderHash(dir: string): string {
  const h = createHash('sha256');
  for (const f of readdirSync(dir).sort()) {
    h.update(f);
    h.update(readFileSync(join(dir, f)));
  }
  return h.digest('hex');
}

function readKind<T>(dir: string, kind: string): T[] {
  return readdirSync(dir)
    .filter((f) => f.startsWith(`${kind}-`))
    .sort()
    .flatMap((f) =>
      readFileSync(join(dir, f), 'utf8')
        .split('\n')
        .filter((l) => l !== '')
        .map((l) => JSON.parse(l) as T),
    );
}

describe('generator at 1k', () => {
  let first: Manifest;
  const a = join(work, 'a');
  before(async () => {
    first = await generate({ publications: 1000, seed: 20240601, outDir: a });
  });

  test('the same seed and scale give byte-identical output', async () => {
    const b = join(work, 'b');
    await generate({ publications: 1000, seed: 20240601, outDir: b });
    assert.equal(folderHash(b), folderHash(a));
  });

  test('helper threads write the same bytes as one thread (papers in batches, authors picked in order)', async () => {
    // 4,500 papers: two full batches of 2,000 and a partial one, in two threads.
    const inThread = join(work, 'one-thread');
    const threaded = join(work, 'threads');
    const one = await generate({ publications: 4500, seed: 20240601, outDir: inThread, threads: 0 });
    const two = await generate({ publications: 4500, seed: 20240601, outDir: threaded, threads: 2 });
    assert.deepEqual(two.validation, one.validation);
    assert.equal(folderHash(threaded), folderHash(inThread));
    assert.equal(two.counts['publications'], 4500);
  });

  test('gzip shards hold the same lines, and an import reads them as it reads plain ones', async () => {
    const zipped = join(work, 'gzip');
    const manifest = await generate({ publications: 1000, seed: 20240601, outDir: zipped, gzip: true });
    const plainFiles = readdirSync(a)
      .filter((f) => f.endsWith('.jsonl'))
      .sort();
    const zippedFiles = readdirSync(zipped)
      .filter((f) => f.endsWith('.jsonl.gz'))
      .sort();
    assert.deepEqual(
      zippedFiles,
      plainFiles.map((f) => `${f}.gz`),
    );
    for (const f of plainFiles)
      assert.equal(
        gunzipSync(readFileSync(join(zipped, `${f}.gz`))).toString('utf8'),
        readFileSync(join(a, f), 'utf8'),
        f,
      );
    for (const shard of manifest.shards) {
      const bytes = readFileSync(join(zipped, shard.file));
      assert.equal(shard.bytes, bytes.length);
      assert.equal(shard.sha256, createHash('sha256').update(bytes).digest('hex'));
    }
    const db = join(work, 'gzip.db');
    const report = await importFiles({
      paths: [zipped],
      open: recordWriterFor(db),
      format: 'quarry',
      onError: 'abort',
    });
    assert.deepEqual(report.records, first.counts);
  });

  test('another seed gives different output', async () => {
    const c = join(work, 'c');
    await generate({ publications: 1000, seed: 7, outDir: c });
    assert.notEqual(folderHash(c), folderHash(a));
  });

  test('the manifest lists every shard with its SHA-256 and counts', () => {
    const manifest = JSON.parse(readFileSync(join(a, 'manifest.json'), 'utf8')) as Manifest;
    assert.deepEqual(manifest, JSON.parse(JSON.stringify(first)));
    assert.equal(manifest.seed, 20240601);
    assert.equal(manifest.counts['publications'], 1000);
    for (const s of manifest.shards) {
      assert.equal(
        createHash('sha256')
          .update(readFileSync(join(a, s.file)))
          .digest('hex'),
        s.sha256,
        s.file,
      );
      assert.equal(
        readFileSync(join(a, s.file), 'utf8')
          .split('\n')
          .filter((l) => l !== '').length,
        s.records,
      );
    }
    const files = readdirSync(a)
      .filter((f) => f.endsWith('.jsonl'))
      .sort();
    assert.deepEqual(files, manifest.shards.map((s) => s.file).sort());
  });

  test('ids and DOIs follow the synthetic formats', () => {
    const pubs = readKind<PublicationRecord>(a, 'publications');
    const ids = new Set(pubs.map((p) => p.id));
    assert.equal(ids.size, 1000);
    for (const p of pubs) {
      assert.match(p.id, /^pub\.19\d{8}$/);
      assert.match(p.doi ?? '', /^10\.99999\/syn\.19\d{8}$/);
      assert.match(p.date, /^\d{4}-\d{2}-\d{2}$/);
      assert.equal(Number(p.date.slice(0, 4)), p.year);
    }
    for (const r of readKind<ResearcherRecord>(a, 'researchers')) assert.match(r.id, /^ur\.0\d{9}\.\d{2}$/);
    for (const o of readKind<OrganizationRecord>(a, 'organizations')) assert.match(o.id, /^grid\.9\d{5}\.[0-9a-f]$/);
    for (const g of readKind<GrantRecord>(a, 'grants')) assert.match(g.id, /^grant\.9\d{6}$/);
  });

  test('times_cited and recent_citations are counts of generated citing papers', () => {
    const pubs = readKind<PublicationRecord>(a, 'publications');
    const index = new Map(pubs.map((p, k) => [p.id, k]));
    const cited = new Map<string, number>();
    const recent = new Map<string, number>();
    for (const p of pubs) {
      for (const ref of p.reference_ids) {
        const k = index.get(ref);
        assert.ok(k !== undefined, `${p.id} cites ${ref}, which is not generated`);
        assert.ok(pubs[k]!.year <= p.year, 'references go to earlier papers');
        cited.set(ref, (cited.get(ref) ?? 0) + 1);
        if (p.year >= 2024) recent.set(ref, (recent.get(ref) ?? 0) + 1);
      }
      assert.equal(new Set(p.reference_ids).size, p.reference_ids.length, 'no duplicate references');
    }
    for (const p of pubs) {
      assert.equal(p.times_cited, cited.get(p.id) ?? 0, p.id);
      assert.equal(p.recent_citations, recent.get(p.id) ?? 0, p.id);
    }
  });

  test('researcher totals, years and organizations come from the authorships', () => {
    const pubs = readKind<PublicationRecord>(a, 'publications');
    const grants = readKind<GrantRecord>(a, 'grants');
    const count = new Map<string, number>();
    const years = new Map<string, [number, number]>();
    const orgs = new Map<string, Set<string>>();
    for (const p of pubs) {
      const seen = new Set<string>();
      for (const au of p.authors) {
        if (au.researcher_id === undefined) continue;
        assert.ok(!seen.has(au.researcher_id), `${au.researcher_id} twice on ${p.id}`);
        seen.add(au.researcher_id);
        count.set(au.researcher_id, (count.get(au.researcher_id) ?? 0) + 1);
        const y = years.get(au.researcher_id) ?? [9999, 0];
        years.set(au.researcher_id, [Math.min(y[0], p.year), Math.max(y[1], p.year)]);
        const set = orgs.get(au.researcher_id) ?? new Set();
        set.add(au.affiliations[0]!.id!);
        orgs.set(au.researcher_id, set);
      }
      const affiliationOrgs = new Set(p.authors.flatMap((au) => au.affiliations.map((f) => f.id)));
      for (const o of p.research_orgs)
        assert.ok(affiliationOrgs.has(o), `${p.id}: research_orgs ${o} without an affiliation`);
    }
    const grantCount = new Map<string, number>();
    for (const g of grants)
      for (const inv of g.investigators)
        if (inv.researcher_id !== undefined)
          grantCount.set(inv.researcher_id, (grantCount.get(inv.researcher_id) ?? 0) + 1);
    const researchers = readKind<ResearcherRecord>(a, 'researchers');
    assert.equal(researchers.length, count.size, 'every researcher has publications');
    for (const r of researchers) {
      assert.equal(r.total_publications, count.get(r.id), r.id);
      assert.equal(r.total_grants, grantCount.get(r.id) ?? 0, r.id);
      assert.deepEqual([r.first_publication_year, r.last_publication_year], years.get(r.id));
      for (const o of r.research_orgs)
        assert.ok(orgs.get(r.id)!.has(o) || grants.some((g) => g.research_orgs.includes(o)), `${r.id} org ${o}`);
    }
  });

  test("supporting grants exist and a paper's funders are its grants' funders", () => {
    const pubs = readKind<PublicationRecord>(a, 'publications');
    const grants = new Map(readKind<GrantRecord>(a, 'grants').map((g) => [g.id, g]));
    const orgIds = new Set(readKind<OrganizationRecord>(a, 'organizations').map((o) => o.id));
    for (const p of pubs) {
      const expected = new Set(p.supporting_grant_ids.flatMap((id) => grants.get(id)?.funders ?? ['missing']));
      assert.deepEqual(new Set(p.funders), expected, p.id);
      for (const o of [...p.research_orgs, ...p.funders])
        assert.ok(orgIds.has(o), `${p.id}: unknown organization ${o}`);
    }
  });

  test('titles and abstracts read like research: lengths, key topics, no slot tokens left', () => {
    const pubs = readKind<PublicationRecord>(a, 'publications');
    const words = (t: string): number => t.split(/\s+/).filter((w) => /\p{L}/u.test(w)).length;
    const titled = pubs.filter((p) => words(p.title) >= 4 && words(p.title) <= 30);
    assert.ok(titled.length >= 0.95 * pubs.length, `${titled.length} of ${pubs.length} titles of 4-30 words`);
    const lengths = pubs
      .map((p) => p.abstract)
      .filter((t): t is string => t !== undefined)
      .map(words)
      .sort((x, y) => x - y);
    const median = lengths[lengths.length >> 1] as number;
    assert.ok(median >= 160 && median <= 320, `median abstract ${median} words`);
    // A paper's first concept is its central topic: its title or abstract names it.
    const named = pubs.filter((p) => {
      const text = `${p.title} ${p.abstract ?? ''}`.toLowerCase();
      return text.includes((p.concepts?.[0] ?? '').toLowerCase());
    });
    assert.ok(named.length >= 0.9 * pubs.length, `${named.length} of ${pubs.length} name their first concept`);
    assert.ok(!pubs.some((p) => /[§@]/.test(`${p.title} ${p.abstract ?? ''}`)), 'no slot token is left in the text');
    // The same words recur across papers of a field: text is drawn from a shared model, not per-paper noise.
    const titleWords = new Map<string, number>();
    for (const p of pubs)
      for (const w of new Set(p.title.toLowerCase().split(/\W+/))) titleWords.set(w, (titleWords.get(w) ?? 0) + 1);
    assert.ok((titleWords.get('of') ?? 0) > pubs.length / 4, 'function words are common in titles');
  });

  test('organizations carry real ROR names and places under synthetic ids', () => {
    const orgs = readKind<OrganizationRecord>(a, 'organizations');
    const withRor = orgs.filter((o) => (o.ror_ids?.length ?? 0) > 0);
    assert.ok(withRor.length > 0);
    for (const o of withRor) {
      assert.match(o.ror_ids![0]!, /^https:\/\/ror\.org\/0[a-z0-9]{8}$/);
      assert.ok(o.name.length > 0 && (o.country_name ?? '').length > 0);
    }
    // Types as the hosted service writes them (`Education`, `Funder`), not ROR's lower case.
    assert.ok(orgs.some((o) => o.types.includes('Funder')));
    assert.ok(orgs.every((o) => o.types.every((t) => /^[A-Z][a-z]+$/.test(t))));
  });

  test('categories are the real FoR 2020 divisions and groups, and the published labels of the other schemes', () => {
    const all = readKind<{ id: string; name: string; scheme: string }>(a, 'categories');
    const cats = all.filter((c) => c.scheme === 'for');
    assert.equal(cats.length, 23 + 213);
    const count = (scheme: string) => all.filter((c) => c.scheme === scheme).length;
    assert.deepEqual(
      [count('sdg'), count('uoa'), count('hra'), count('bra'), count('hrcs_hc'), count('hrcs_rac')],
      [17, 34, 4, 4, 21, 48],
    );
    assert.ok(all.some((c) => c.scheme === 'sdg' && c.id === '40007' && c.name === '7 Affordable and Clean Energy'));
    assert.ok(all.some((c) => c.scheme === 'uoa' && c.id === '30012' && c.name === 'B12 Engineering'));
    assert.ok(all.some((c) => c.scheme === 'hrcs_hc' && c.id === '911' && c.name === 'Cancer'));
    assert.ok(
      all.some(
        (c) => c.scheme === 'hrcs_rac' && c.id === '10201' && c.name === '2.1 Biological and endogenous factors',
      ),
    );
    assert.ok(cats.some((c) => c.id === '4611' && c.name === '4611 Machine learning'));
    assert.ok(cats.some((c) => c.id === '46' && c.name === '46 Information and Computing Sciences'));
  });
});

describe('counter-based draws', () => {
  test('a draw depends only on its key, not on the order of other draws', () => {
    const r1 = new RandomSource(1);
    const r2 = new RandomSource(1);
    const before = r1.draws('publication', 5, 'x').next();
    r2.draws('publication', 4, 'y').next();
    assert.equal(r2.draws('publication', 5, 'x').next(), before);
    assert.notEqual(new RandomSource(2).draws('publication', 5, 'x').next(), before);
  });

  test('the power-law estimate recovers the Lotka exponent it was drawn with', () => {
    const law = lotka(2.2, 60);
    const r = new RandomSource(3).draws('t', 0, 'lotka');
    const counts: number[] = new Array<number>(61).fill(0);
    for (let k = 0; k < 50_000; k++) counts[law.sample(r.next()) + 1]!++;
    assert.ok(Math.abs(estimatePowerLawExponent(counts) - 2.2) < 0.05);
  });

  test('identifier helpers', () => {
    assert.equal(publicationId(0), 'pub.1900000001');
    assert.equal(researcherId(0), 'ur.0000000001.01');
    assert.match(organizationId(0), /^grid\.900000\.[0-9a-f]$/);
    // ISO 7064 11,2 check character, as ORCID computes it.
    assert.match(syntheticOrcid(12), /^0000-0000-9000-012[0-9X]$/);
  });
});

describe('validation report and errors', () => {
  test('out-of-tolerance figures fail the report with DATA_VALIDATION_FAILED', () => {
    const report = validate({
      publications: 10_000,
      authorSlots: 20_000,
      papersPerResearcher: [0, 1000, 218, 89, 47, 29, 19],
      oldPapers: 100,
      oldUncited: 50,
      funded: 3800,
      citationLinks: 170_000,
      organizationLinks: 23_000,
      openAccessByYear: new Map([
        [1995, [100, 15]],
        [2015, [100, 45]],
        [2024, [100, 58]],
      ]),
    });
    assert.equal(report.passed, false);
    assert.deepEqual(
      report.checks.filter((c) => !c.ok).map((c) => c.name),
      ['authors_per_paper', 'uncited_share_5y'],
    );
    assert.throws(
      () => assertValid(report),
      (err: { code?: string; message: string }) =>
        err.code === 'DATA_VALIDATION_FAILED' && /authors_per_paper=2/.test(err.message),
    );
  });

  test('bad scale, seed and missing reference data are coded errors', async () => {
    await assert.rejects(generate({ publications: 0, outDir: join(work, 'x') }), { code: 'DATA_BAD_SCALE' });
    await assert.rejects(generate({ publications: 10, seed: -1, outDir: join(work, 'x') }), { code: 'DATA_BAD_SEED' });
    await assert.rejects(generate({ publications: 10, outDir: join(work, 'x'), dataDir: join(work, 'no-such-dir') }), {
      code: 'DATA_SHARED_DATA_MISSING',
    });
  });
});
