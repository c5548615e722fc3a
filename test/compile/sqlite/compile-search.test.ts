// The SQL the compiler produces for representative plans: values only as parameters,
// the indexed shapes docs/storage.md describes.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { FacetOutput, PlanField, RecordsOutput, SearchPlan } from '../../../src/compile/plan.ts';
import { compileSearch } from '../../../src/compile/sqlite/compile-search.ts';
import { compileFilter } from '../../../src/compile/sqlite/filters.ts';
import { RECORDS_LAYOUT } from '../../../src/compile/records-layout.ts';

const pubs = RECORDS_LAYOUT.sources.publications!;
const year: PlanField = { name: 'year', type: 'integer', multi: false };
const orgId: PlanField = {
  name: 'research_orgs',
  subfield: 'id',
  type: 'entity',
  multi: true,
  entity: 'organizations',
};
const orgName: PlanField = { ...orgId, subfield: 'name' };
const records = (extra: Partial<RecordsOutput> = {}): RecordsOutput => ({
  kind: 'records',
  key: 'publications',
  fields: [
    { key: 'id', field: 'id' },
    { key: 'title', field: 'title' },
  ],
  order: { by: 'default' },
  limit: 20,
  skip: 0,
  pagingGiven: false,
  ...extra,
});
const yearFacet: FacetOutput = {
  kind: 'facet',
  key: 'year',
  field: 'year',
  valueType: 'integer',
  multi: false,
  indicators: [],
  sortBy: 'count',
  direction: 'desc',
  limit: 1000,
};
const plan = (p: Partial<SearchPlan>): SearchPlan => ({
  kind: 'search',
  source: 'publications',
  outputs: [records()],
  warnings: [],
  ...p,
});
const noExpand = { expandPattern: (): string[] => [] };

describe('filters', () => {
  test('scalar comparison binds the value, coerced to the field type', () => {
    assert.deepEqual(compileFilter(pubs, { kind: 'compare', field: year, op: '=', value: '2019' }), {
      text: '(s."year" = ?)',
      params: [2019],
    });
  });
  test('range and list', () => {
    assert.deepEqual(compileFilter(pubs, { kind: 'range', field: year, low: 2013, high: 2018 }), {
      text: '(s."year" BETWEEN ? AND ?)',
      params: [2013, 2018],
    });
    assert.deepEqual(compileFilter(pubs, { kind: 'in', field: year, values: [1, 2, 3] }), {
      text: '(s."year" IN (?, ?, ?))',
      params: [1, 2, 3],
    });
  });
  test('an entity id uses the link table (covering reverse index)', () => {
    assert.deepEqual(compileFilter(pubs, { kind: 'compare', field: orgId, op: '=', value: 'grid.1' }), {
      text: 's."pk" IN (SELECT l."publication_pk" FROM "publication_research_orgs" l WHERE 1 AND l."org_id" = ?)',
      params: ['grid.1'],
    });
    assert.deepEqual(compileFilter(pubs, { kind: 'compare', field: orgId, op: '!=', value: 'grid.1' }), {
      text: 'NOT s."pk" IN (SELECT l."publication_pk" FROM "publication_research_orgs" l WHERE 1 AND l."org_id" = ?)',
      params: ['grid.1'],
    });
  });
  test('json fields compare every leaf value, without regard to case', () => {
    const authors: PlanField = { name: 'authors', type: 'json', multi: true };
    assert.deepEqual(compileFilter(pubs, { kind: 'compare', field: authors, op: '=', value: 'Smith' }), {
      text: `EXISTS (SELECT 1 FROM json_tree(s."doc", '$.authors') j WHERE j.atom IS NOT NULL AND lower(j.atom) = ?)`,
      params: ['smith'],
    });
  });
  test('an entity sub-field searches the entity table first, then the link table by value', () => {
    const sql = compileFilter(pubs, { kind: 'words', field: orgName, words: ['Saarland', '50%_off'] });
    assert.equal(
      sql.text,
      `s."pk" IN (SELECT l."publication_pk" FROM "publication_research_orgs" l WHERE 1 AND l."org_id" IN (SELECT e."id" FROM "organizations" e WHERE e."name" LIKE ? ESCAPE '\\' AND e."name" LIKE ? ESCAPE '\\'))`,
    );
    assert.deepEqual(sql.params, ['%Saarland%', '%50\\%\\_off%']);
  });
  test('not is two-valued', () => {
    assert.equal(
      compileFilter(pubs, { kind: 'not', item: { kind: 'compare', field: year, op: '>', value: 1 } }).text,
      '(((s."year" > ?)) IS NOT TRUE)',
    );
  });
  test('category schemes and value fields use their discriminator', () => {
    const cat: PlanField = {
      name: 'category_for',
      subfield: 'name',
      type: 'entity',
      multi: true,
      entity: 'categories',
    };
    assert.match(compileFilter(pubs, { kind: 'compare', field: cat, op: '=', value: 'x' }).text, /l."scheme" = 'for'/);
    const oa: PlanField = { name: 'open_access', type: 'string', multi: true };
    assert.match(
      compileFilter(pubs, { kind: 'compare', field: oa, op: '=', value: 'gold' }).text,
      /"publication_values" l WHERE l."field" = 'open_access' AND l."value" = \?/,
    );
  });
  test('count per record when combined; alone, one grouped pass where records without links count 0', () => {
    const { subfield: _s, ...field } = orgId;
    assert.deepEqual(compileFilter(pubs, { kind: 'count', field, op: '>', value: 5 }), {
      text: '(SELECT count(*) FROM "publication_research_orgs" l WHERE l."publication_pk" = s."pk") > ?',
      params: [5],
    });
    assert.deepEqual(compileFilter(pubs, { kind: 'count', field, op: '>', value: 5 }, { alone: true }), {
      text: 's."pk" IN (SELECT l."publication_pk" FROM "publication_research_orgs" l WHERE 1 GROUP BY l."publication_pk" HAVING count(*) > ?)',
      params: [5],
    });
    assert.deepEqual(compileFilter(pubs, { kind: 'count', field, op: '<', value: 2 }, { alone: true }), {
      text: 's."pk" NOT IN (SELECT l."publication_pk" FROM "publication_research_orgs" l WHERE 1 GROUP BY l."publication_pk" HAVING NOT (count(*) < ?))',
      params: [2],
    });
  });
});

describe('statements', () => {
  test('count and page share the filter; paging is bound', () => {
    const c = compileSearch(
      RECORDS_LAYOUT,
      plan({ filter: { kind: 'compare', field: year, op: '=', value: 2020 } }),
      noExpand,
    );
    assert.deepEqual(c.count, {
      text: 'SELECT count(*) AS n FROM "publications" s WHERE (s."year" = ?)',
      params: [2020],
    });
    const page = c.outputs[0];
    assert.ok(page?.kind === 'records');
    assert.equal(
      page.page.text,
      'SELECT s."pk" AS __key, s."doc" AS __doc, s."id" AS "id", s."title" AS "title" FROM "publications" s WHERE (s."year" = ?) ORDER BY s."date" DESC, s."id" ASC LIMIT ? OFFSET ?',
    );
    assert.deepEqual(page.page.params, [2020, 20, 0]);
  });

  test('the whole source is counted without a WHERE clause (SQLite counts B-tree pages then)', () => {
    const c = compileSearch(RECORDS_LAYOUT, plan({}), noExpand);
    assert.deepEqual(c.count, { text: 'SELECT count(*) AS n FROM "publications"', params: [] });
  });

  test('full text restricts by rowid and ranks by bm25', () => {
    const c = compileSearch(
      RECORDS_LAYOUT,
      plan({
        fullText: { index: 'title_only', expr: { kind: 'word', text: 'malaria' } },
        outputs: [records({ order: { by: 'relevance' } })],
      }),
      noExpand,
    );
    assert.deepEqual(c.count, {
      text: 'SELECT count(*) AS n FROM "publications_fts" WHERE "publications_fts" MATCH ?',
      params: ['{title} : ("malaria")'],
    });
    const filtered = compileSearch(
      RECORDS_LAYOUT,
      plan({
        filter: { kind: 'compare', field: year, op: '=', value: 2020 },
        fullText: { index: 'title_only', expr: { kind: 'word', text: 'malaria' } },
      }),
      noExpand,
    );
    assert.deepEqual(filtered.count, {
      text: 'SELECT count(*) AS n FROM "publications" s WHERE (s."year" = ?) AND s."pk" IN (SELECT rowid FROM "publications_fts" WHERE "publications_fts" MATCH ?)',
      params: [2020, '{title} : ("malaria")'],
    });
    const page = c.outputs[0];
    assert.ok(page?.kind === 'records');
    assert.equal(
      page.page.text,
      'WITH top AS (SELECT "publications_fts".rowid AS k, bm25("publications_fts") AS score FROM "publications_fts" WHERE "publications_fts" MATCH ? ORDER BY score, k LIMIT ? OFFSET ?) ' +
        'SELECT s."pk" AS __key, s."doc" AS __doc, s."id" AS "id", s."title" AS "title" FROM top JOIN "publications" s ON s."pk" = top.k ORDER BY top.score, s."id" ASC',
    );
    assert.deepEqual(page.page.params, ['{title} : ("malaria")', 20, 0]);
  });

  test('a whole-corpus entity facet reads the stored per-entity counts', () => {
    const facet: FacetOutput = {
      kind: 'facet',
      key: 'researchers',
      field: 'researchers',
      entity: 'researchers',
      valueType: 'entity',
      multi: true,
      indicators: [],
      sortBy: 'count',
      direction: 'desc',
      limit: 20,
    };
    const out = compileSearch(RECORDS_LAYOUT, plan({ outputs: [facet] }), noExpand).outputs[0];
    assert.ok(out?.kind === 'facet');
    assert.equal(
      out.statement.text,
      'SELECT e."id" AS id, e."n_publications" AS count FROM "researchers" e WHERE e."n_publications" > 0 ORDER BY e."n_publications" DESC, id ASC LIMIT ?',
    );
  });

  test('a filtered facet groups the link table', () => {
    const facet: FacetOutput = {
      kind: 'facet',
      key: 'funders',
      field: 'funders',
      entity: 'organizations',
      valueType: 'entity',
      multi: true,
      indicators: ['citations_total', 'fcr_gavg'],
      sortBy: 'citations_total',
      direction: 'desc',
      limit: 5,
    };
    const out = compileSearch(
      RECORDS_LAYOUT,
      plan({ filter: { kind: 'compare', field: year, op: '=', value: 2020 }, outputs: [facet] }),
      noExpand,
    ).outputs[0];
    assert.ok(out?.kind === 'facet');
    assert.equal(
      out.statement.text,
      'SELECT l."org_id" AS id, count(*) AS count, coalesce(sum(s."times_cited"), 0) AS "citations_total", exp(avg(ln(s."field_citation_ratio" + 1))) - 1 AS "fcr_gavg" FROM "publications" s JOIN "publication_funders" l ON l."publication_pk" = s."pk" WHERE (s."year" = ?) AND l."org_id" IS NOT NULL GROUP BY 1 ORDER BY "citations_total" DESC NULLS LAST, count DESC, id ASC LIMIT ?',
    );
    assert.deepEqual(out.statement.params, [2020, 5]);
  });

  test('a value facet groups a column', () => {
    const out = compileSearch(RECORDS_LAYOUT, plan({ outputs: [yearFacet] }), noExpand).outputs[0];
    assert.ok(out?.kind === 'facet');
    assert.equal(
      out.statement.text,
      `SELECT s."year" AS id, count(*) AS count FROM "publications" s WHERE 1 AND s."year" IS NOT NULL AND s."year" != '' GROUP BY 1 ORDER BY count DESC, id ASC LIMIT ?`,
    );
  });
});
