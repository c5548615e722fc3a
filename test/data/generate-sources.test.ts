// The sources `generate()` makes through the generators' registry (patents, datasets,
// clinical trials): their
// shards are the same whether publication threads make the publications (and the datasets
// beside them) or not; they hold as many records as the source's own generator functions
// say; every id they name is a record of the run; the validation report judges their stated
// shares; and an import holds them all.
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, rmSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import Database from 'better-sqlite3';
import { recordWriterFor } from '../../src/backends.ts';
import { setUpContext } from '../../src/data/generate/context-setup.ts';
import { generate, type Manifest } from '../../src/data/generate/index.ts';
import { VENDOR_DIR } from '../../src/data/generate/reference-data.ts';
import { SOURCE_GENERATORS, type SourceGenerator } from '../../src/data/generate/source-generators.ts';
import { noSourceTallies, sourceChecks, tallySourceRecord } from '../../src/data/generate/source-tallies.ts';
import { importFiles } from '../../src/data/import/index.ts';
import { sourceRecordCounts } from '../../src/cli/commands/generate.ts';
import { isQuarryError } from '../../src/errors/index.ts';
import { NATIVE_KINDS, declaredSource } from '../../src/model/sources.ts';
import { clinicalTrialCount } from '../../src/sources/clinical_trials/generate.ts';
import { datasetCountOf, standaloneDatasetCount } from '../../src/sources/datasets/generate.ts';
import { patentsFor } from '../../src/sources/patents/generate.ts';

type Loose = Record<string, unknown>;

const work = mkdtempSync(join(tmpdir(), 'quarry-generate-sources-'));
after(() => rmSync(work, { recursive: true, force: true }));

/** 4,500 papers: two full thread batches of 2,000 and a partial one. */
const PUBLICATIONS = 4500;
const SEED = 20240601;
/** The kinds the run itself makes before the registered sources. */
const RUN_KINDS = ['categories', 'organizations', 'source_titles', 'grants', 'publications', 'researchers'];

function readKind(dir: string, kind: string): Loose[] {
  return readdirSync(dir)
    .filter((f) => new RegExp(`^${kind}-\\d{4}\\.jsonl$`).test(f))
    .sort()
    .flatMap((f) =>
      readFileSync(join(dir, f), 'utf8')
        .split('\n')
        .filter((l) => l !== '')
        .map((l) => JSON.parse(l) as Loose),
    );
}

const ids = (list: unknown): string[] =>
  Array.isArray(list) ? list.map((x) => (typeof x === 'string' ? x : String((x as Loose)['id']))) : [];

describe('the registered sources in a generated run', () => {
  const oneThread = join(work, 'one-thread');
  const twoThreads = join(work, 'two-threads');
  let manifest: Manifest;
  let threaded: Manifest;
  before(async () => {
    manifest = await generate({ publications: PUBLICATIONS, seed: SEED, outDir: oneThread, threads: 0 });
    threaded = await generate({ publications: PUBLICATIONS, seed: SEED, outDir: twoThreads, threads: 2 });
  });

  test('publication threads give the same shards, the datasets made beside the papers included', () => {
    assert.deepEqual(threaded, manifest);
    for (const { kind } of SOURCE_GENERATORS) {
      const files = manifest.shards.filter((s) => s.kind === kind).map((s) => s.file);
      assert.ok(files.length > 0, `${kind} shards`);
      for (const f of files) assert.ok(readFileSync(join(twoThreads, f)).equals(readFileSync(join(oneThread, f))), f);
    }
  });

  test('shards are named <kind>-NNNN.jsonl and counted in the manifest', () => {
    for (const generator of SOURCE_GENERATORS) {
      const shards = manifest.shards.filter((s) => s.kind === generator.kind);
      assert.deepEqual(
        shards.map((s) => s.file),
        shards.map((_, k) => `${generator.kind}-${String(k).padStart(4, '0')}.jsonl`),
      );
      assert.equal(
        manifest.counts[generator.kind],
        shards.reduce((n, s) => n + s.records, 0),
      );
    }
  });

  test("the counts are the sources' own: patentsFor, clinicalTrialCount, datasets per paper and standalone", async () => {
    assert.equal(readKind(oneThread, 'patents').length, patentsFor(PUBLICATIONS));
    assert.equal(readKind(oneThread, 'clinical_trials').length, clinicalTrialCount(PUBLICATIONS));
    const { ctx, yearOf } = await setUpContext({ publications: PUBLICATIONS, seed: SEED, dataDir: VENDOR_DIR });
    const datasets = readKind(oneThread, 'datasets');
    const perPaper = new Map<string, number>();
    for (const d of datasets) {
      const pub = d['associated_publication_id'];
      if (typeof pub === 'string') perPaper.set(pub, (perPaper.get(pub) ?? 0) + 1);
    }
    const publications = readKind(oneThread, 'publications');
    let linked = 0;
    publications.forEach((p, i) => {
      const division = ctx.fields.divisions[ctx.division[i] as number]?.code ?? '';
      const expected = datasetCountOf(ctx, i, division, yearOf(i));
      assert.equal(perPaper.get(p['id'] as string) ?? 0, expected, `datasets of ${String(p['id'])}`);
      linked += expected;
    });
    assert.ok(linked > 0, 'some papers have datasets');
    assert.equal(datasets.length, linked + standaloneDatasetCount(PUBLICATIONS));
    assert.equal(new Set(datasets.map((d) => d['id'])).size, datasets.length, 'each dataset once');
  });

  test('every id a patent, a dataset or a trial names is a record of the run', () => {
    const held = (kind: string): Set<string> => new Set(readKind(oneThread, kind).map((r) => r['id'] as string));
    const [orgs, researchers, grants, journals, categories] = [
      'organizations',
      'researchers',
      'grants',
      'source_titles',
      'categories',
    ].map(held) as [Set<string>, Set<string>, Set<string>, Set<string>, Set<string>];
    const doiOf = new Map(readKind(oneThread, 'publications').map((p) => [p['id'] as string, p['doi']]));
    const expectIn = (set: ReadonlySet<string>, what: string, of: string) => (id: string) =>
      assert.ok(set.has(id), `${of}: ${what} ${id} is not generated`);
    const patents = readKind(oneThread, 'patents');
    const patentIds = new Set(patents.map((p) => p['id'] as string));
    let citedInRun = 0;
    for (const p of patents) {
      const of = p['id'] as string;
      for (const key of ['assignees', 'original_assignees', 'funders']) ids(p[key]).forEach(expectIn(orgs, key, of));
      ids(p['researchers']).forEach(expectIn(researchers, 'researcher', of));
      ids(p['associated_grant_ids']).forEach(expectIn(grants, 'grant', of));
      ids(p['category_for']).forEach(expectIn(categories, 'category', of));
      for (const link of (p['publications'] as Loose[] | undefined) ?? [])
        assert.equal(doiOf.get(link['id'] as string), link['doi'], `${of}: publication ${String(link['id'])}`);
      // Citations of the run's own patents resolve; the others are US numbers the run never makes.
      for (const ref of ids(p['reference_ids']))
        if (patentIds.has(ref)) citedInRun++;
        else assert.match(ref, /^US-\d{7,8}-(A|B1|B2)$/, `${of} cites ${ref}`);
    }
    assert.ok(citedInRun > 0, 'patents cite patents of the run');
    for (const d of readKind(oneThread, 'datasets')) {
      const of = d['id'] as string;
      for (const key of ['research_orgs', 'funders']) ids(d[key]).forEach(expectIn(orgs, key, of));
      ids(d['researchers']).forEach(expectIn(researchers, 'researcher', of));
      ids(d['associated_grant_ids']).forEach(expectIn(grants, 'grant', of));
      ids(d['category_for']).forEach(expectIn(categories, 'category', of));
      if (d['journal'] !== undefined) expectIn(journals, 'journal', of)((d['journal'] as Loose)['id'] as string);
      for (const author of d['authors'] as Loose[]) {
        if (author['researcher_id'] !== undefined)
          expectIn(researchers, 'author', of)(author['researcher_id'] as string);
        ids(author['affiliations']).forEach(expectIn(orgs, 'affiliation', of));
      }
      const pub = d['associated_publication_id'];
      if (typeof pub === 'string')
        assert.equal((d['associated_publication'] as Loose)['doi'], doiOf.get(pub), `${of}: publication ${pub}`);
    }
    for (const t of readKind(oneThread, 'clinical_trials')) {
      const of = t['id'] as string;
      for (const key of ['research_orgs', 'funders', 'sponsors']) ids(t[key]).forEach(expectIn(orgs, key, of));
      ids(t['associated_grant_ids']).forEach(expectIn(grants, 'grant', of));
      ids(t['category_for']).forEach(expectIn(categories, 'category', of));
      for (const investigator of t['investigators'] as Loose[]) {
        expectIn(researchers, 'investigator', of)(investigator['researcher_id'] as string);
        ids(investigator['affiliations']).forEach(expectIn(orgs, 'affiliation', of));
      }
      for (const link of (t['publications'] as Loose[] | undefined) ?? [])
        assert.equal(doiOf.get(link['id'] as string), link['doi'], `${of}: publication ${String(link['id'])}`);
    }
  });

  test("the validation report judges each source's stated shares", () => {
    const checks = new Map(manifest.validation.checks.map((c) => [c.name, c]));
    for (const generator of SOURCE_GENERATORS)
      for (const share of generator.shares ?? []) {
        const check = checks.get(share.name);
        assert.ok(check?.ok === true, `${share.name}: ${JSON.stringify(check)}`);
      }
  });

  test('an import holds every generated record of the sources', async () => {
    const dbPath = join(work, 'records.db');
    const report = await importFiles({
      paths: [oneThread],
      open: recordWriterFor(dbPath),
      format: 'quarry',
      onError: 'abort',
    });
    assert.deepEqual(report.records, manifest.counts);
    const db = new Database(dbPath, { readonly: true });
    try {
      for (const generator of SOURCE_GENERATORS)
        assert.equal(
          db.prepare(`SELECT count(*) FROM ${generator.kind}`).pluck().get(),
          manifest.counts[generator.kind],
          generator.kind,
        );
    } finally {
      db.close();
    }
  });
});

describe('the generators registry', () => {
  test("each source's generator runs after the kinds its records refer to, in import order", () => {
    const made = new Set(RUN_KINDS);
    for (const generator of SOURCE_GENERATORS) {
      const source = declaredSource(generator.kind);
      assert.ok(source !== undefined, `${generator.kind} is a declared source`);
      for (const kind of source.refersTo) assert.ok(made.has(kind), `${generator.kind} refers to ${kind}`);
      assert.ok(generator.ofPublication !== undefined || generator.afterwards !== undefined, generator.kind);
      made.add(generator.kind);
    }
    const order = SOURCE_GENERATORS.map((g) => NATIVE_KINDS.indexOf(g.kind));
    assert.deepEqual(
      order,
      [...order].sort((a, b) => a - b),
    );
  });

  test('a share far from its target fails; a small sample is given room for its sampling error', () => {
    const generator: SourceGenerator = {
      kind: 'patents',
      shares: [
        { name: 'patents_odd_share', has: (r) => (r as { n: number }).n % 2 === 1, target: 0.5, tolerance: 0.02 },
      ],
    };
    const judge = (records: number, odd: number) => {
      const tallies = noSourceTallies([generator]);
      for (let k = 0; k < records; k++) tallySourceRecord(tallies, generator, { n: k < odd ? 1 : 0 });
      return sourceChecks([generator], tallies)[0]!;
    };
    assert.equal(judge(10_000, 5_050).ok, true);
    assert.equal(judge(10_000, 3_000).ok, false);
    // 30% of 20 records is within the sampling error of a half; of 10,000 it is not.
    assert.equal(judge(20, 6).ok, true);
    assert.equal(judge(0, 0).ok, false, 'no records: nothing shows the share');
  });
});

describe('records per source asked of a run', () => {
  test('a run makes the records asked of each source from the run; datasets beside papers still follow them', async () => {
    const dir = join(work, 'asked');
    const asked = { patents: 321, clinical_trials: 45, datasets: 67 };
    const manifest = await generate({ publications: 600, seed: SEED, outDir: dir, threads: 0, sourceRecords: asked });
    assert.equal(manifest.counts['patents'], 321);
    assert.equal(manifest.counts['clinical_trials'], 45);
    const datasets = readKind(dir, 'datasets');
    const standalone = datasets.filter((d) => d['associated_publication_id'] === undefined).length;
    assert.equal(standalone, 67, 'datasets without a paper');
    assert.equal(manifest.counts['datasets'], datasets.length);
    assert.equal(readKind(dir, 'patents').length, 321);
    // The datasets' share with a paper follows from the run's own numbers: not judged here;
    // a share that holds whatever the number (patents in the US) still is.
    const checks = manifest.validation.checks.map((c) => c.name);
    assert.ok(!checks.includes('datasets_with_paper_share'));
    assert.ok(checks.includes('patents_us_share'));
  });

  test('--source-records reads source=number pairs and refuses anything else with a coded error', () => {
    const sources = ['patents', 'datasets', 'clinical_trials'];
    assert.deepEqual(sourceRecordCounts('patents=1_000_000, clinical_trials=300000', sources), {
      patents: 1_000_000,
      clinical_trials: 300_000,
    });
    for (const bad of ['grants=10', 'patents=', 'patents=-3', 'patents=0', 'patents', 'patents=1e6'])
      assert.throws(
        () => sourceRecordCounts(bad, sources),
        (e: unknown) => isQuarryError(e) && e.problems[0]?.code === 'DATA_BAD_SOURCE_RECORDS',
        bad,
      );
  });
});
