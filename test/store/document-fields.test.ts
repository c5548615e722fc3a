// A record's `doc` leaves out the fields a page shows from their link rows (`store/rows.ts`,
// `shownFromLinks`): every answer must be what it was when `doc` held them too, in SQLite and
// in PostgreSQL. The same records are written into two stores; the second's documents are
// then rewritten as they were first written (every field without a column of its own), and every query that can
// touch those fields (whole records in both language versions, each link-held field and each
// of its entity's sub-fields as a filter, each as a facet) must answer the same in both.
import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { test } from 'node:test';
import { RECORDS_LAYOUT } from '../../src/compile/records-layout.ts';
import { runQuery } from '../../src/engine/backends/sqlite/query-context.ts';
import { ENTITY_SPECS } from '../../src/model/entities.ts';
import { SOURCE_FIELD_TABLES, SOURCE_NAMES } from '../../src/model/sources.ts';
import { SOURCE_TABLES, type RecordKind } from '../../src/model/storage.ts';
import { openRecordStore, type RecordStore } from '../../src/store/sqlite/records-store.ts';
import type { NativeKind } from '../../src/model/native-records.ts';
import { createPostgresEngine } from '../../src/engine/backends/postgres/engine.ts';
import type { QueryEngine } from '../../src/engine/types.ts';
import { createTestPgDatabase, queryPg, writePgRecords } from '../fixtures/pg-db.ts';
import pg from 'pg';
import { demoDataDir } from '../fixtures/demo-db.ts';

/** The patents of test/sources/patents/fixture/ (the generator makes none yet). */
const PATENT_FIXTURE = fileURLToPath(new URL('../sources/patents/fixture/', import.meta.url));

type Loose = Record<string, unknown>;

/** The document as stores wrote it before: every field but the id and those with a column (and references). */
function documentAsFirstWritten(kind: RecordKind, record: Loose): string {
  const columns = new Set(SOURCE_TABLES[kind].columns.map((c) => c.name));
  const doc: Loose = {};
  for (const [key, value] of Object.entries(record)) {
    if (key === 'id' || value === undefined || value === null) continue;
    if (typeof value !== 'object' && columns.has(key)) continue;
    if ((kind === 'publications' || kind === 'patents') && key === 'reference_ids') continue;
    doc[key] = value;
  }
  return JSON.stringify(doc);
}

function readRecords(dir: string, kind: string, limit: number): Loose[] {
  const lines = readdirSync(dir)
    .filter((f) => f.startsWith(`${kind}-`) && f.endsWith('.jsonl'))
    .sort()
    .flatMap((f) => readFileSync(join(dir, f), 'utf8').split('\n'))
    .filter((line) => line.trim() !== '');
  return lines.slice(0, limit).map((line) => JSON.parse(line) as Loose);
}

/** Edge cases beside the generated records: empty lists, orgs only under the authors, a journal without a title. */
const EDGE_PUBLICATIONS: Loose[] = [
  {
    id: 'pub.edge1',
    title: 'Affiliations only under the authors',
    year: 2021,
    date: '2021-03-01',
    type: 'article',
    authors: [{ first_name: 'Ana', last_name: 'Silva', affiliations: [{ id: 'grid.edge.1', name: 'Edge Lab' }] }],
    research_orgs: [],
    funders: [],
    open_access: [],
    category_for: [],
    concepts: [],
    concepts_scores: [{ concept: 'edge scores', relevance: 0.5 }],
    journal: { id: 'jour.edge1' },
  },
  { id: 'pub.edge2', title: 'No lists at all', year: 2022, date: '2022-01-01', type: 'preprint' },
];

/** Researchers whose current organization is held, is not held, or is given as an object. */
const EDGE_RESEARCHERS: Loose[] = [
  { id: 'ur.edge1', first_name: 'Rui', last_name: 'Edge', research_orgs: [], current_research_org: 'grid.unheld' },
  {
    id: 'ur.edge2',
    first_name: 'Ana',
    last_name: 'Edge',
    current_research_org: { id: 'grid.unheld.2', name: 'Elsewhere' },
  },
];

/**
 * Datasets of the first publications (the generator writes none yet), linked to what each
 * publication links, as generated datasets are: every link field a dataset has, and a
 * repository for two of three.
 */
function datasetsOf(publications: readonly Loose[]): Loose[] {
  const repositories = [undefined, { id: 'cern.zenodo', name: 'Zenodo' }, { id: 'dryad.dryad', name: 'Dryad' }];
  return publications.slice(0, 60).map((p, k) => ({
    id: `doi:10.99999/ds.${k}`,
    doi: `10.99999/ds.${k}`,
    title: `Data of ${String(p['title'])}`,
    year: p['year'],
    date: p['date'],
    authors: p['authors'],
    research_orgs: p['research_orgs'],
    funders: p['funders'],
    associated_grant_ids: p['supporting_grant_ids'],
    category_for: p['category_for'],
    keywords: ((p['concepts'] as unknown[] | undefined) ?? []).slice(0, 3),
    journal: p['journal'],
    repository: repositories[k % 3],
    associated_publication: { id: p['id'], doi: p['doi'] },
    associated_publication_id: p['id'],
  }));
}

/**
 * Clinical trials of the first publications (the generator writes none yet), linked to what
 * each publication links: its authors as investigators (researchers and affiliations), its
 * organizations, funders, grants, categories and MeSH terms, and the publication itself by id
 * and DOI (every other trial names one by DOI alone, which no held publication answers).
 */
function trialsOf(publications: readonly Loose[]): Loose[] {
  return publications.slice(0, 60).map((p, k) => {
    const year = Number(p['year']);
    const authors = ((p['authors'] as Loose[] | undefined) ?? []).slice(0, 3);
    return {
      id: `NCT9${String(k).padStart(7, '0')}`,
      title: `Trial of ${String(p['title'])}`,
      registry: 'ClinicalTrials.gov',
      start_date: p['date'],
      active_years: [year, year + 1],
      overall_status: ['COMPLETED', 'RECRUITING'][k % 2],
      study_type: 'INTERVENTIONAL',
      investigators: authors.map((a) => ({ ...a, role: 'PRINCIPAL_INVESTIGATOR' })),
      research_orgs: p['research_orgs'],
      funders: p['funders'],
      associated_grant_ids: p['supporting_grant_ids'],
      category_for: p['category_for'],
      mesh_terms: p['mesh_terms'],
      conditions: ((p['concepts'] as unknown[] | undefined) ?? []).slice(0, 2),
      study_arms: ['Placebo', `Arm ${k % 3}`],
      publication_ids: k % 2 === 0 ? [p['id']] : [],
      publications: [k % 2 === 0 ? { id: p['id'], doi: p['doi'] } : { doi: p['doi'] }],
    };
  });
}

/** The records both stores get, by kind in import order. */
function recordsOf(dir: string): [NativeKind, Loose[]][] {
  const publications = [...readRecords(dir, 'publications', 300), ...EDGE_PUBLICATIONS];
  return [
    ['categories', readRecords(dir, 'categories', 1000)],
    ['organizations', readRecords(dir, 'organizations', 400)],
    ['source_titles', readRecords(dir, 'source_titles', 1000)],
    ['researchers', [...readRecords(dir, 'researchers', 400), ...EDGE_RESEARCHERS]],
    ['grants', readRecords(dir, 'grants', 150)],
    ['publications', publications],
    ['patents', readRecords(PATENT_FIXTURE, 'patents', 100)],
    ['datasets', datasetsOf(publications)],
    ['clinical_trials', trialsOf(publications)],
    ['policy_documents', readRecords(dir, 'policy_documents', 200)],
    ['reports', readRecords(dir, 'reports', 200)],
    ['funder_groups', readRecords(dir, 'funder_groups', 100)],
    ['research_org_groups', readRecords(dir, 'research_org_groups', 100)],
  ];
}

const KINDS = SOURCE_NAMES;

/** Queries over the fields a link table or an entity column holds, for each kind. */
function probes(): string[] {
  const out: string[] = [];
  for (const kind of KINDS) {
    out.push(`search ${kind} return ${kind}[all] limit 1000`);
    const source = RECORDS_LAYOUT.sources[kind];
    const held = new Set([...Object.keys(source?.links ?? {}), ...Object.keys(source?.entityColumns ?? {})]);
    for (const [name, type] of SOURCE_FIELD_TABLES[kind].fields) {
      if (!held.has(name)) continue;
      const entity = (ENTITY_SPECS as Readonly<Record<string, (typeof ENTITY_SPECS)[keyof typeof ENTITY_SPECS]>>)[type];
      const paths = [name, ...(entity?.fields ?? []).map(([sub]) => `${name}.${sub}`)];
      for (const path of paths)
        for (const test of ['is empty', 'is not empty'])
          out.push(`search ${kind} where ${path} ${test} return ${kind}[id + ${name}] limit 1000`);
      out.push(`search ${kind} return ${name} limit 1000`);
    }
  }
  return out;
}

function outcome(store: RecordStore, query: string, dslVersion: 1 | 2): string {
  try {
    return JSON.stringify(runQuery(store.db, query, { dslVersion }));
  } catch (error) {
    return `error: ${(error as Error).message}`;
  }
}

test('documents without the link-held fields answer every query as documents with them did', async () => {
  const dataDir = await demoDataDir({ publications: 1000 });
  const dir = mkdtempSync(join(tmpdir(), 'quarry-doc-fields-'));
  const current = openRecordStore(join(dir, 'current.db'), { cacheMb: 16 });
  const before = openRecordStore(join(dir, 'before.db'), { cacheMb: 16 });
  try {
    const records = recordsOf(dataDir);
    for (const [kind, list] of records) {
      current.upsert(kind, list);
      before.upsert(kind, list);
    }
    for (const [kind, list] of records) {
      if (!(KINDS as readonly string[]).includes(kind)) continue;
      const update = before.db.prepare(`UPDATE ${kind} SET doc = ? WHERE id = ?`);
      for (const record of list) update.run(documentAsFirstWritten(kind, record), record['id']);
    }

    // The documents did lose the fields (otherwise the comparison below proves nothing).
    const docBytes = (store: RecordStore, kind: string): number =>
      store.db.prepare(`SELECT sum(length(unpack_text(doc))) FROM ${kind}`).pluck().get() as number;
    for (const kind of KINDS) assert.ok(docBytes(current, kind) < docBytes(before, kind), `${kind} documents shrink`);
    const edge = JSON.parse(
      current.db.prepare(`SELECT unpack_text(doc) FROM publications WHERE id = 'pub.edge1'`).pluck().get() as string,
    ) as Loose;
    // Shown from links: research_orgs (from the authors), concepts (from the scores), journal.
    // Kept: the empty lists nothing links, which pages show as the record has them.
    assert.deepEqual(Object.keys(edge).sort(), [
      'authors',
      'category_for',
      'concepts_scores',
      'funders',
      'open_access',
    ]);

    const queries = probes();
    let answered = 0;
    for (const query of queries) {
      for (const version of [1, 2] as const) {
        const expected = outcome(before, query, version);
        assert.equal(outcome(current, query, version), expected, `v${version}: ${query}`);
        if (!expected.startsWith('error:') && expected.includes('"id"')) answered += 1;
      }
    }
    // A current organization that is not held shows its id (the page reads no document for
    // these fields; before, it showed nothing).
    const researchers = runQuery(
      current.db,
      'search researchers where last_name = "Edge" return researchers[id + current_research_org]',
      { dslVersion: 2 },
    )['researchers'];
    assert.deepEqual(researchers, [
      { id: 'ur.edge1', current_research_org: 'grid.unheld' },
      { id: 'ur.edge2', current_research_org: 'grid.unheld.2' },
    ]);

    // A list of the linked organizations is read from them, not from a document holding their ids.
    const total = (query: string): unknown =>
      (runQuery(current.db, query, { dslVersion: 2 })['_stats'] as { total_count: number }).total_count;
    const funded = total('search publications where funders is not empty return publications[id]');
    assert.ok((funded as number) > 0);
    assert.equal(total('search publications where funders.types = "Funder" return publications[id]'), funded);

    // Most probes run and return records or facet rows (some are refused alike: no facet of a list of ids).
    assert.ok(answered > queries.length, `${answered} answers of ${queries.length * 2} runs`);
  } finally {
    current.close();
    before.close();
  }
});

test(
  'on PostgreSQL too, the same queries answer the same on both forms of the documents',
  { timeout: 300_000 },
  async () => {
    const dataDir = await demoDataDir({ publications: 1000 });
    const current = await createTestPgDatabase('doc-fields');
    const before = await createTestPgDatabase('doc-fields-before');
    const engines: QueryEngine[] = [];
    try {
      const records = recordsOf(dataDir);
      await writePgRecords(current.url, records);
      await writePgRecords(before.url, records);
      const client = new pg.Client({ connectionString: before.url });
      await client.connect();
      try {
        for (const [kind, list] of records) {
          if (!(KINDS as readonly string[]).includes(kind)) continue;
          for (const record of list)
            await client.query(`UPDATE ${kind} SET doc = $1::json WHERE id = $2`, [
              documentAsFirstWritten(kind, record),
              record['id'],
            ]);
        }
      } finally {
        await client.end();
      }
      // The documents did lose the fields (otherwise the comparison below proves nothing).
      for (const kind of KINDS) {
        const bytes = async (url: string): Promise<number> =>
          Number((await queryPg<{ n: string }>(url, `SELECT sum(length(doc::text)) AS n FROM ${kind}`))[0]?.n);
        assert.ok((await bytes(current.url)) < (await bytes(before.url)), `${kind} documents shrink`);
      }
      const [now, then] = [createPostgresEngine({ url: current.url }), createPostgresEngine({ url: before.url })];
      engines.push(now, then);
      const answer = async (engine: QueryEngine, query: string, dslVersion: 1 | 2): Promise<string> => {
        try {
          return JSON.stringify((await engine.run(query, { dslVersion })).result);
        } catch (error) {
          return `error: ${(error as Error).message}`;
        }
      };
      let answered = 0;
      const queries = probes();
      for (const query of queries)
        for (const version of [1, 2] as const) {
          const expected = await answer(then, query, version);
          assert.equal(await answer(now, query, version), expected, `v${version}: ${query}`);
          if (!expected.startsWith('error:') && expected.includes('"id"')) answered += 1;
        }
      assert.ok(answered > queries.length, `${answered} answers of ${queries.length * 2} runs`);
    } finally {
      for (const engine of engines) await engine.close();
      await current.drop();
      await before.drop();
    }
  },
);
