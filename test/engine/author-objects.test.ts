// Publications' author objects carry every key the hosted service sends, whatever the record
// holds (spec/schema-2026.md §6.4): the key sets are read from the hosted service's real
// answers (test/fixtures/spec/sample-results/), and the answers of SQLite (facets from
// memory and in SQL) and PostgreSQL are compared with them. Missing author-level texts are
// "" and missing affiliation values null, as there; held values come back unchanged.
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { createPostgresEngine } from '../../src/engine/backends/postgres/engine.ts';
import { SqliteQueryContext } from '../../src/engine/backends/sqlite/query-context.ts';
import { prepareQuery } from '../../src/engine/run-query.ts';
import type { QueryEngine } from '../../src/engine/types.ts';
import { openRecordStore } from '../../src/store/sqlite/records-store.ts';
import { createTestPgDatabase, writePgRecords, type TestPgDatabase } from '../fixtures/pg-db.ts';

type Obj = Record<string, unknown>;
const SAMPLES = new URL('../fixtures/spec/sample-results/', import.meta.url);
const sample = (name: string): Obj => JSON.parse(readFileSync(new URL(name, SAMPLES), 'utf8')) as Obj;

/** The union of the keys of some objects, sorted. */
const keysOf = (objects: readonly Obj[]): string[] => [...new Set(objects.flatMap((o) => Object.keys(o)))].sort();

/** Version 2: the author object shown in `describe schema`'s long description of `authors`. */
function hostedV2(): { author: string[]; affiliation: string[] } {
  const schema = sample('14_describe_schema_authors_field_v2.json') as {
    result_excerpt: { sources: { publications: { fields: { authors: { long_description: string } } } } };
  };
  const text = schema.result_excerpt.sources.publications.fields.authors.long_description;
  const example = JSON.parse(text.slice(text.indexOf('{', text.indexOf('code-block:: json')))) as Obj;
  return { author: keysOf([example]), affiliation: keysOf(example.affiliations as Obj[]) };
}

/** Version 1: every author object of a real `author_affiliations` answer. */
function hostedV1(): { author: string[]; affiliation: string[] } {
  const answer = sample('08_publications_in_authors_v1_author_affiliations.json') as {
    result_excerpt: { publications: Array<{ author_affiliations: Obj[][] }> };
  };
  const authors = answer.result_excerpt.publications.flatMap((p) => p.author_affiliations.flat());
  return { author: keysOf(authors), affiliation: keysOf(authors.flatMap((a) => a.affiliations as Obj[])) };
}

const V2 = hostedV2();
const V1 = hostedV1();

/** Every author object of the samples: the v2 example and the authors of two v1 answers. */
function hostedAuthors(): Obj[] {
  const schema = sample('14_describe_schema_authors_field_v2.json') as {
    result_excerpt: { sources: { publications: { fields: { authors: { long_description: string } } } } };
  };
  const text = schema.result_excerpt.sources.publications.fields.authors.long_description;
  const v2 = JSON.parse(text.slice(text.indexOf('{', text.indexOf('code-block:: json')))) as Obj;
  const v1 = [
    '08_publications_in_authors_v1_author_affiliations.json',
    '03_publications_all_fieldset_with_warnings_v1.json',
  ]
    .map((name) => sample(name) as { result_excerpt: { publications: Array<{ author_affiliations?: Obj[][] }> } })
    .flatMap((answer) => answer.result_excerpt.publications.flatMap((p) => (p.author_affiliations ?? []).flat()));
  return [v2, ...v1];
}

/** A value's JSON type: what a client that reads the key without checking depends on. */
const jsonType = (value: unknown): string => (value === null ? 'null' : Array.isArray(value) ? 'list' : typeof value);

/** The JSON types each key's values take in the samples, for author and affiliation keys. */
function hostedTypes(): { author: Map<string, Set<string>>; affiliation: Map<string, Set<string>> } {
  const author = new Map<string, Set<string>>();
  const affiliation = new Map<string, Set<string>>();
  const note = (into: Map<string, Set<string>>, object: Obj) => {
    for (const [key, value] of Object.entries(object)) {
      if (!into.has(key)) into.set(key, new Set());
      into.get(key)?.add(jsonType(value));
    }
  };
  for (const a of hostedAuthors()) {
    note(author, a);
    for (const affiliation_ of a.affiliations as Obj[]) note(affiliation, affiliation_);
  }
  return { author, affiliation };
}

const HOSTED_TYPES = hostedTypes();

/** The hosted service's non-empty `orcid` values, as written in the samples. */
const HOSTED_ORCIDS = hostedAuthors()
  .map((a) => a.orcid)
  .filter((o): o is string => typeof o === 'string' && o !== '');

/** The printed form of a list of ids, the one form the samples give a non-empty `orcid`. */
const PRINTED_LIST = /^\['[^']+'(, '[^']+')*\]$/;

const FULL_AFFILIATION = {
  raw_affiliation: 'Saarland University, Saarbrücken, Germany',
  id: 'grid.1',
  name: 'Saarland University',
  city: 'Saarbrücken',
  city_id: 2842647,
  country: 'Germany',
  country_code: 'DE',
  state: 'Saarland',
  state_code: 'DE-SL',
};

const PUBLICATIONS = [
  {
    id: 'pub.1',
    title: 'Three kinds of author',
    type: 'article',
    year: 2021,
    authors: [
      // Everything held.
      {
        first_name: 'Ada',
        last_name: 'Lovelace',
        researcher_id: 'ur.01',
        orcid: '0000-0002-1825-0097',
        corresponding: true,
        current_organization_id: 'grid.1',
        affiliations: [FULL_AFFILIATION],
        raw_affiliation: [FULL_AFFILIATION.raw_affiliation],
      },
      // A name only, as importers write authors they cannot identify.
      { first_name: 'Bo', last_name: 'Li', affiliations: [] },
      // An affiliation known by its name alone, as in the hosted service's own answers.
      { first_name: 'Carl M', last_name: 'Bender', affiliations: [{ name: 'Washington University in St. LouisUSA' }] },
    ],
  },
  { id: 'pub.2', title: 'No authors', type: 'article', year: 2022 },
];

type Run = (query: string, dslVersion: 1 | 2) => Promise<Obj>;

const recordsOf = (answer: Obj): Obj[] =>
  [...((answer.publications ?? []) as Obj[])].sort((a, b) => String(a.id).localeCompare(String(b.id)));

function assertValueForms(author: Obj, affiliationKeys: readonly string[]): void {
  for (const [key, value] of Object.entries(author)) {
    if (key === 'affiliations' || key === 'raw_affiliation') assert.ok(Array.isArray(value), `${key} is a list`);
    // `corresponding` is "true" for the corresponding author, "" otherwise.
    else if (key === 'corresponding') assert.ok(value === 'true' || value === '', `corresponding ${String(value)}`);
    else assert.equal(typeof value, 'string', `${key} is a string`);
  }
  for (const affiliation of author.affiliations as Obj[]) {
    assert.deepEqual(Object.keys(affiliation).sort(), [...affiliationKeys]);
    for (const [key, value] of Object.entries(affiliation)) {
      const form = key === 'city_id' ? 'number' : 'string';
      assert.ok(value === null || typeof value === form, `affiliation ${key} is a ${form} or null: ${String(value)}`);
    }
  }
}

/**
 * Our author objects against the samples' value types, key by key: an affiliation value the
 * data lacks is null, as the samples write the ones the hosted service lacks (`state`).
 */
function assertHostedTypes(author: Obj): void {
  for (const [key, value] of Object.entries(author)) {
    const seen = HOSTED_TYPES.author.get(key);
    assert.ok(seen?.has(jsonType(value)), `author ${key}: ${jsonType(value)}, samples: ${[...(seen ?? [])].join('|')}`);
  }
  for (const affiliation of author.affiliations as Obj[]) {
    for (const [key, value] of Object.entries(affiliation)) {
      const seen = HOSTED_TYPES.affiliation.get(key);
      assert.ok(
        value === null || seen?.has(jsonType(value)),
        `affiliation ${key}: ${jsonType(value)}, samples: ${[...(seen ?? [])].join('|')}`,
      );
    }
  }
  if (author.orcid !== '') assert.match(String(author.orcid), PRINTED_LIST);
}

function authorTests(run: () => Run): void {
  test('author values take the value types of the hosted samples (orcid a printed list, corresponding text)', async () => {
    // Guards the reading above: the samples write orcid as text, a non-empty one as a printed list.
    assert.deepEqual([...(HOSTED_TYPES.author.get('orcid') ?? [])], ['string']);
    assert.deepEqual([...(HOSTED_TYPES.author.get('corresponding') ?? [])], ['string']);
    assert.ok(HOSTED_ORCIDS.length > 0 && HOSTED_ORCIDS.every((o) => PRINTED_LIST.test(o)));
    for (const dslVersion of [1, 2] as const) {
      const query =
        dslVersion === 2
          ? 'search publications where id = "pub.1" return publications[id + authors]'
          : 'search publications where id = "pub.1" return publications[id + author_affiliations]';
      const [pub1] = recordsOf(await run()(query, dslVersion));
      const authors = dslVersion === 2 ? (pub1?.authors as Obj[]) : (pub1?.author_affiliations as Obj[][])[0]!;
      assert.equal(authors.length, 3);
      for (const author of authors) assertHostedTypes(author);
      assert.equal(authors[0]?.orcid, "['0000-0002-1825-0097']", `v${dslVersion}`);
      assert.equal(authors[1]?.orcid, '', `v${dslVersion}`);
    }
  });

  test('the hosted samples give both versions their keys', () => {
    // Guards the parsing above: the samples name the keys the documentation names.
    assert.ok(V2.author.includes('corresponding') && V2.author.includes('raw_affiliation'));
    assert.ok(!V1.author.includes('corresponding') && !V1.author.includes('raw_affiliation'));
    assert.ok(V2.affiliation.includes('raw_affiliation') && !V1.affiliation.includes('raw_affiliation'));
  });

  test('v2 authors: every author and affiliation has the hosted keys, with their value forms', async () => {
    const [pub1, pub2] = recordsOf(await run()('search publications return publications[id + authors]', 2));
    const authors = pub1?.authors as Obj[];
    assert.equal(authors.length, 3);
    for (const author of authors) {
      assert.deepEqual(Object.keys(author).sort(), V2.author);
      assertValueForms(author, V2.affiliation);
    }
    // What the record holds comes back as held, orcid and corresponding in their hosted text
    // forms; what it lacks is "" (author) or null (affiliation).
    assert.deepEqual(authors[0], {
      ...PUBLICATIONS[0]!.authors?.[0],
      orcid: "['0000-0002-1825-0097']",
      corresponding: 'true',
    });
    assert.deepEqual(authors[1], {
      first_name: 'Bo',
      last_name: 'Li',
      corresponding: '',
      orcid: '',
      current_organization_id: '',
      researcher_id: '',
      affiliations: [],
      raw_affiliation: [],
    });
    assert.deepEqual((authors[2]?.affiliations as Obj[])[0], {
      ...Object.fromEntries(V2.affiliation.map((k) => [k, null])),
      name: 'Washington University in St. LouisUSA',
    });
    // A publication without authors has no `authors` key, as absent values are left out.
    assert.deepEqual(pub2, { id: 'pub.2' });
  });

  test('v2 unnest(authors): every row has the same author columns', async () => {
    const rows = (await run()('search publications where id = "pub.1" return publications[id + unnest(authors)]', 2))
      .publications as Obj[];
    assert.equal(rows.length, 3);
    const expected = ['id', ...V2.author.map((k) => `authors.${k}`)].sort();
    for (const row of rows) assert.deepEqual(Object.keys(row).sort(), expected);
  });

  test('v1 author_affiliations: one list of authors with the hosted v1 keys', async () => {
    const [pub1] = recordsOf(await run()('search publications return publications[id + author_affiliations]', 1));
    const lists = pub1?.author_affiliations as Obj[][];
    assert.equal(lists.length, 1);
    const authors = lists[0]!;
    assert.deepEqual(
      authors.map((a) => a.last_name),
      ['Lovelace', 'Li', 'Bender'],
    );
    for (const author of authors) {
      assert.deepEqual(Object.keys(author).sort(), V1.author);
      assertValueForms(author, V1.affiliation);
    }
    const { raw_affiliation: _raw, ...v1Affiliation } = FULL_AFFILIATION;
    assert.deepEqual((authors[0]?.affiliations as Obj[])[0], v1Affiliation);
    assert.equal(authors[0]?.orcid, "['0000-0002-1825-0097']");
    assert.equal(authors[1]?.researcher_id, '');
  });
}

function sqliteRun(ctx: SqliteQueryContext): Run {
  return (query, dslVersion) => {
    const prepared = prepareQuery(query, { dslVersion });
    return Promise.resolve(
      prepared.kind === 'plan' ? ctx.execute(prepared.plan) : prepared.kind === 'answer' ? prepared.result : {},
    );
  };
}

describe('author objects: SQLite', () => {
  const path = join(mkdtempSync(join(tmpdir(), 'quarry-author-objects-')), 'records.db');
  const store = openRecordStore(path, { mmapMb: 0, cacheMb: 16 });
  store.upsert('publications', PUBLICATIONS);
  store.finish({ optimize: false, analyze: false });
  after(() => store.close());

  describe('facets from memory', () => authorTests(() => sqliteRun(new SqliteQueryContext(store.db))));
  describe('facets in SQL', () => authorTests(() => sqliteRun(new SqliteQueryContext(store.db, { columnar: false }))));
});

describe('author objects: PostgreSQL', { timeout: 120_000 }, () => {
  let db: TestPgDatabase;
  let engine: QueryEngine;
  before(async () => {
    db = await createTestPgDatabase('authorobjects');
    await writePgRecords(db.url, [['publications', PUBLICATIONS]]);
    engine = createPostgresEngine({ url: db.url });
  });
  after(async () => {
    await engine?.close();
    await db?.drop();
  });

  authorTests(() => async (q, dslVersion) => (await engine.run(q, { dslVersion })).result);
});
