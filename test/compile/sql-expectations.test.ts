// The SQL the base compiler produces for representative plans, one expectation per dialect:
// values only as parameters, the indexed shapes docs/storage.md describes. Each row's name
// says what it shows; a dialect without an expectation in some row fails the table.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { compileSearch, type CompiledSearch } from '../../src/compile/compile-search.ts';
import type { Dialect } from '../../src/compile/dialect.ts';
import { compileFilter } from '../../src/compile/filters.ts';
import { narrowView } from '../../src/compile/narrow.ts';
import type { FacetOutput, FilterPlan, PlanField, RecordsOutput, SearchPlan } from '../../src/compile/plan.ts';
import { RECORDS_LAYOUT } from '../../src/compile/records-layout.ts';
import type { SourceLayout, StorageLayout } from '../../src/compile/layout.ts';
import type { Sql } from '../../src/compile/sql.ts';
import { postgresDialect } from '../../src/compile/postgres/dialect.ts';
import { sqliteDialect } from '../../src/compile/sqlite/dialect.ts';

/** Every dialect the compiler has; each row below must give each of them an expectation. */
const DIALECTS = { sqlite: sqliteDialect, postgres: postgresDialect } as const satisfies Record<string, Dialect>;
type DialectName = keyof typeof DIALECTS;

/** The layout each dialect's engine compiles with: both stores keep the narrow side tables. */
const LAYOUTS: Readonly<Record<DialectName, StorageLayout>> = { sqlite: RECORDS_LAYOUT, postgres: RECORDS_LAYOUT };
const layoutOf = (d: Dialect): StorageLayout => LAYOUTS[d.name];
const pubsOf = (d: Dialect): SourceLayout => layoutOf(d).sources.publications!;
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
const { subfield: _s, ...orgs } = orgId;
const authors: PlanField = { name: 'authors', type: 'json', multi: true };
const abstract: PlanField = { name: 'abstract', type: 'string', multi: false };
const categoryName: PlanField = {
  name: 'category_for',
  subfield: 'name',
  type: 'entity',
  multi: true,
  entity: 'categories',
};
const openAccess: PlanField = { name: 'open_access', type: 'string', multi: true };
const referenceIds: PlanField = { name: 'reference_ids', type: 'string', multi: true };
const researcherId: PlanField = {
  name: 'researchers',
  subfield: 'id',
  type: 'entity',
  multi: true,
  entity: 'researchers',
};
const records = (extra: Partial<RecordsOutput> = {}): RecordsOutput => ({
  kind: 'records',
  key: 'publications',
  fields: [
    { key: 'id', field: 'id' },
    { key: 'title', field: 'title' },
    // Kept in the document (no column): the page reads it.
    { key: 'authors', field: 'authors' },
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
const researchersFacet: FacetOutput = {
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
const fundersFacet: FacetOutput = {
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
const plan = (p: Partial<SearchPlan>): SearchPlan => ({
  kind: 'search',
  source: 'publications',
  outputs: [records()],
  warnings: [],
  ...p,
});
const noExpand = { expandPattern: (): string[] => [] };
const malaria = { index: 'title_only', expr: { kind: 'word', text: 'malaria' } } as const;
const year2020: FilterPlan = { kind: 'compare', field: year, op: '=', value: 2020 };
const cited: FilterPlan = {
  kind: 'compare',
  field: { name: 'times_cited', type: 'integer', multi: false },
  op: '>',
  value: 5,
};
const orgAndYear: FilterPlan = {
  kind: 'and',
  items: [{ kind: 'compare', field: orgId, op: '=', value: 'grid.1' }, year2020],
};

/** Records of two organizations in a year: link rows alone stand for them (both tests are on the link rows). */
const orgsAndYear: FilterPlan = {
  kind: 'and',
  items: [{ kind: 'in', field: orgId, values: ['grid.1', 'grid.2'] }, year2020],
};
/** Records of two organizations in any year. */
const orgsAnyYear: FilterPlan = { kind: 'in', field: orgId, values: ['grid.1', 'grid.2'] };
/** The same organization and year, and a column the link rows do not carry. */
const orgYearCited: FilterPlan = {
  kind: 'and',
  items: [...orgAndYear.items, cited],
};

/** A filter on a column and on a field only the record document holds. */
const authorsAndYear: FilterPlan = {
  kind: 'and',
  items: [year2020, { kind: 'compare', field: authors, op: '=', value: 'Smith' }],
};
/** What a row compiles to when the dialect has no such statement. */
const none: Sql = { text: '(none)', params: [] };

const filter =
  (f: FilterPlan, options: { alone?: boolean } = {}) =>
  (d: Dialect): Sql => {
    const sql = compileFilter(d, pubsOf(d), f, options);
    return { text: d.placeholders(sql.text), params: sql.params };
  };
const search = (p: SearchPlan) => (d: Dialect) => compileSearch(d, layoutOf(d), p, noExpand);
const count = (p: SearchPlan) => (d: Dialect) => search(p)(d).count;
const output = (p: SearchPlan, pick: (c: CompiledSearch['outputs'][number]) => Sql) => (d: Dialect) => {
  const out = search(p)(d).outputs[0];
  assert.ok(out !== undefined);
  return pick(out);
};
const page = (o: CompiledSearch['outputs'][number]): Sql => {
  assert.ok(o.kind === 'records');
  return o.page;
};
const statement = (o: CompiledSearch['outputs'][number]): Sql => {
  assert.ok(o.kind !== 'records');
  return o.statement;
};
const preAggregated = (o: CompiledSearch['outputs'][number]): Sql => {
  assert.ok(o.kind === 'per_year' && o.preAggregated !== undefined);
  return o.preAggregated.statement;
};
const freshness = (o: CompiledSearch['outputs'][number]): Sql => {
  assert.ok(o.kind === 'per_year' && o.preAggregated !== undefined);
  return o.preAggregated.fresh;
};

interface Row {
  readonly name: string;
  readonly compile: (dialect: Dialect) => Sql;
  readonly expect: Readonly<Record<DialectName, Sql>>;
}

const FILTERS: readonly Row[] = [
  {
    name: 'scalar comparison binds the value, coerced to the field type',
    compile: filter({ kind: 'compare', field: year, op: '=', value: '2019' }),
    expect: {
      sqlite: { text: '(s."year" = ?)', params: [2019] },
      postgres: { text: '(s."year" = $1)', params: [2019] },
    },
  },
  {
    name: 'a range binds both ends',
    compile: filter({ kind: 'range', field: year, low: 2013, high: 2018 }),
    expect: {
      sqlite: { text: '(s."year" BETWEEN ? AND ?)', params: [2013, 2018] },
      postgres: { text: '(s."year" BETWEEN $1 AND $2)', params: [2013, 2018] },
    },
  },
  {
    name: 'a list binds every value',
    compile: filter({ kind: 'in', field: year, values: [1, 2, 3] }),
    expect: {
      sqlite: { text: '(s."year" IN (?, ?, ?))', params: [1, 2, 3] },
      postgres: { text: '(s."year" IN ($1, $2, $3))', params: [1, 2, 3] },
    },
  },
  {
    name: 'an entity id uses the link table (covering reverse index)',
    compile: filter({ kind: 'compare', field: orgId, op: '=', value: 'grid.1' }),
    expect: {
      sqlite: {
        text: 's."pk" IN (SELECT l."publication_pk" FROM "publication_research_orgs" l WHERE 1 AND l."org_id" = ?)',
        params: ['grid.1'],
      },
      postgres: {
        text: 's."pk" IN (SELECT l."publication_pk" FROM "publication_research_orgs" l WHERE TRUE AND l."org_id" = $1)',
        params: ['grid.1'],
      },
    },
  },
  {
    name: 'a cited id is looked up in the vocabulary, then its citing records are the posting list (SQLite) or the reverse index (PostgreSQL)',
    compile: filter({ kind: 'compare', field: referenceIds, op: '=', value: 'pub.1' }),
    expect: {
      sqlite: {
        text: 's."pk" IN (SELECT l."publication_pk" FROM (SELECT p."cited_key" AS "cited_key", j.value AS "publication_pk" FROM "publication_references_postings" p, json_each(postings_json(p."publication_pks")) j) l WHERE 1 AND l."cited_key" IN (SELECT t."id" FROM "cited_ids" t WHERE t."cited_id" = ?))',
        params: ['pub.1'],
      },
      postgres: {
        text: 's."pk" IN (SELECT l."publication_pk" FROM "publication_references" l WHERE TRUE AND l."cited_key" IN (SELECT t."id" FROM "cited_ids" t WHERE t."cited_id" = $1))',
        params: ['pub.1'],
      },
    },
  },
  {
    name: "a researcher's publications are its posting list (SQLite) or the reverse index (PostgreSQL)",
    compile: filter({ kind: 'compare', field: researcherId, op: '=', value: 'ur.1' }),
    expect: {
      sqlite: {
        text: 's."pk" IN (SELECT l."publication_pk" FROM (SELECT p."researcher_id" AS "researcher_id", j.value AS "publication_pk" FROM "publication_researchers_postings" p, json_each(postings_json(p."publication_pks")) j) l WHERE 1 AND l."researcher_id" = ?)',
        params: ['ur.1'],
      },
      postgres: {
        text: 's."pk" IN (SELECT l."publication_pk" FROM "publication_researchers" l WHERE TRUE AND l."researcher_id" = $1)',
        params: ['ur.1'],
      },
    },
  },
  {
    name: 'an entity id inequality keeps records without the value',
    compile: filter({ kind: 'compare', field: orgId, op: '!=', value: 'grid.1' }),
    expect: {
      sqlite: {
        text: 'NOT s."pk" IN (SELECT l."publication_pk" FROM "publication_research_orgs" l WHERE 1 AND l."org_id" = ?)',
        params: ['grid.1'],
      },
      postgres: {
        text: 'NOT s."pk" IN (SELECT l."publication_pk" FROM "publication_research_orgs" l WHERE TRUE AND l."org_id" = $1)',
        params: ['grid.1'],
      },
    },
  },
  {
    name: 'json fields compare every leaf value, without regard to case',
    compile: filter({ kind: 'compare', field: authors, op: '=', value: 'Smith' }),
    expect: {
      sqlite: {
        text: `EXISTS (SELECT 1 FROM json_tree(CAST(unpack_utf8(s."doc") AS TEXT), '$.authors') j WHERE j.atom IS NOT NULL AND lower(j.atom) = ?)`,
        params: ['smith'],
      },
      postgres: {
        text: "EXISTS (SELECT 1 FROM jsonb_path_query(s.\"doc\"::jsonb, 'strict $.authors.**', '{}', true) j(v) WHERE jsonb_typeof(j.v) NOT IN ('object', 'array', 'null') AND lower((j.v #>> '{}')) = $1)",
        params: ['smith'],
      },
    },
  },
  {
    name: 'in an AND, the tests that read the record document come after the others, as written otherwise',
    compile: filter({ kind: 'and', items: [...authorsAndYear.items].reverse() }),
    expect: {
      sqlite: {
        text: `((s."year" = ?) AND EXISTS (SELECT 1 FROM json_tree(CAST(unpack_utf8(s."doc") AS TEXT), '$.authors') j WHERE j.atom IS NOT NULL AND lower(j.atom) = ?))`,
        params: [2020, 'smith'],
      },
      postgres: {
        text: `((s."year" = $1) AND EXISTS (SELECT 1 FROM jsonb_path_query(s."doc"::jsonb, 'strict $.authors.**', '{}', true) j(v) WHERE jsonb_typeof(j.v) NOT IN ('object', 'array', 'null') AND lower((j.v #>> '{}')) = $2))`,
        params: [2020, 'smith'],
      },
    },
  },
  {
    name: 'an entity sub-field searches the entity table first, then the link table by value',
    compile: filter({ kind: 'words', field: orgName, words: ['Saarland', '50%_off'] }),
    expect: {
      sqlite: {
        text: `s."pk" IN (SELECT l."publication_pk" FROM "publication_research_orgs" l WHERE 1 AND l."org_id" IN (SELECT e."id" FROM "organizations" e WHERE e."name" LIKE ? ESCAPE '\\' AND e."name" LIKE ? ESCAPE '\\'))`,
        params: ['%Saarland%', '%50\\%\\_off%'],
      },
      postgres: {
        text: 's."pk" IN (SELECT l."publication_pk" FROM "publication_research_orgs" l WHERE TRUE AND l."org_id" IN (SELECT e."id" FROM "organizations" e WHERE e."name"::text ILIKE $1 ESCAPE \'\\\' AND e."name"::text ILIKE $2 ESCAPE \'\\\'))',
        params: ['%Saarland%', '%50\\%\\_off%'],
      },
    },
  },
  {
    name: 'not is two-valued',
    compile: filter({ kind: 'not', item: { kind: 'compare', field: year, op: '>', value: 1 } }),
    expect: {
      sqlite: { text: '(((s."year" > ?)) IS NOT TRUE)', params: [1] },
      postgres: { text: '(((s."year" > $1)) IS NOT TRUE)', params: [1] },
    },
  },
  {
    name: 'category schemes use their discriminator',
    compile: filter({ kind: 'compare', field: categoryName, op: '=', value: 'x' }),
    expect: {
      sqlite: {
        text: `s."pk" IN (SELECT l."publication_pk" FROM "publication_categories" l WHERE l."scheme" = 'for' AND l."category_id" IN (SELECT e."id" FROM "categories" e WHERE e."name" = ?))`,
        params: ['x'],
      },
      postgres: {
        text: 's."pk" IN (SELECT l."publication_pk" FROM "publication_categories" l WHERE l."scheme" = \'for\' AND l."category_id" IN (SELECT e."id" FROM "categories" e WHERE e."name" = $1))',
        params: ['x'],
      },
    },
  },
  {
    name: 'value fields use their discriminator',
    compile: filter({ kind: 'compare', field: openAccess, op: '=', value: 'gold' }),
    expect: {
      sqlite: {
        text: `s."pk" IN (SELECT l."publication_pk" FROM "publication_values" l WHERE l."field" = '3' AND l."value" = ?)`,
        params: ['gold'],
      },
      postgres: {
        text: 's."pk" IN (SELECT l."publication_pk" FROM "publication_values" l WHERE l."field" = \'3\' AND l."value" = $1)',
        params: ['gold'],
      },
    },
  },
  {
    name: 'is empty on a link field with a stored count reads the count, not the link rows',
    compile: filter({ kind: 'empty', field: referenceIds, empty: true }),
    expect: {
      sqlite: {
        text: 's."pk" IN (SELECT n."pk" FROM "publications_narrow" n WHERE n."n_reference_ids" = 0)',
        params: [],
      },
      postgres: {
        text: 's."pk" IN (SELECT n."pk" FROM "publications_narrow" n WHERE n."n_reference_ids" = 0)',
        params: [],
      },
    },
  },
  {
    // Beside another test that chooses the records first, each one's narrow row is read
    // instead of the key set of the 900k records (at 1M) that have references.
    name: 'is not empty on a stored count beside another test of the same AND reads each record its narrow row',
    compile: filter({
      kind: 'and',
      items: [
        { kind: 'compare', field: year, op: '=', value: 2019 },
        { kind: 'empty', field: referenceIds, empty: false },
      ],
    }),
    expect: {
      sqlite: {
        text: '((s."year" = ?) AND (SELECT n."n_reference_ids" FROM "publications_narrow" n WHERE n."pk" = s."pk") > 0)',
        params: [2019],
      },
      postgres: {
        text: '((s."year" = $1) AND (SELECT n."n_reference_ids" FROM "publications_narrow" n WHERE n."pk" = s."pk") > 0)',
        params: [2019],
      },
    },
  },
  {
    name: 'is empty on stored counts alone in an AND reads the key sets',
    compile: filter({
      kind: 'and',
      items: [
        { kind: 'empty', field: referenceIds, empty: true },
        { kind: 'empty', field: referenceIds, empty: false },
      ],
    }),
    expect: {
      sqlite: {
        text: '(s."pk" IN (SELECT n."pk" FROM "publications_narrow" n WHERE n."n_reference_ids" = 0) AND s."pk" IN (SELECT n."pk" FROM "publications_narrow" n WHERE n."n_reference_ids" > 0))',
        params: [],
      },
      postgres: {
        text: '(s."pk" IN (SELECT n."pk" FROM "publications_narrow" n WHERE n."n_reference_ids" = 0) AND s."pk" IN (SELECT n."pk" FROM "publications_narrow" n WHERE n."n_reference_ids" > 0))',
        params: [],
      },
    },
  },
  {
    name: 'is empty on a column',
    compile: filter({ kind: 'empty', field: year, empty: true }),
    expect: {
      sqlite: { text: `(s."year" IS NULL OR s."year" = '')`, params: [] },
      postgres: { text: '(s."year" IS NULL OR s."year"::text = \'\')', params: [] },
    },
  },
  {
    // Packed values are never NULL or '' (those stay as they are), so emptiness reads the
    // stored column: unpacking every abstract of the corpus would cost seconds. SQLite keeps
    // the abstracts in a table of their own: one lookup of the record's row there.
    name: 'is empty on a packed text column tests the stored value, unpacking nothing, where it is kept',
    compile: filter({ kind: 'empty', field: abstract, empty: true }),
    expect: {
      sqlite: {
        text: `NOT EXISTS (SELECT 1 FROM "publication_abstracts" apart WHERE apart."pk" = s."pk" AND apart."abstract" != '')`,
        params: [],
      },
      postgres: { text: '(s."abstract" IS NULL OR s."abstract"::text = \'\')', params: [] },
    },
  },
  {
    name: 'count of a link field the narrow table counts: a key set of its stored counts',
    compile: filter({ kind: 'count', field: orgs, op: '>', value: 5 }),
    expect: {
      sqlite: {
        text: 's."pk" IN (SELECT n."pk" FROM "publications_narrow" n WHERE n."n_research_orgs" > ?)',
        params: [5],
      },
      postgres: {
        text: 's."pk" IN (SELECT n."pk" FROM "publications_narrow" n WHERE n."n_research_orgs" > $1)',
        params: [5],
      },
    },
  },
  {
    name: 'count of a link field on the narrow table itself: its column',
    compile: (d) => {
      const sql = compileFilter(d, narrowView(pubs)!, { kind: 'count', field: orgs, op: '>', value: 5 });
      return { text: d.placeholders(sql.text), params: sql.params };
    },
    expect: {
      postgres: { text: 's."n_research_orgs" > $1', params: [5] },
      sqlite: { text: 's."n_research_orgs" > ?', params: [5] },
    },
  },
  {
    name: 'a link table carrying the record year reads the value and the year as one index range',
    compile: filter({
      kind: 'and',
      items: [
        { kind: 'in', field: orgId, values: ['grid.1', 'grid.2'] },
        { kind: 'range', field: year, low: 2019, high: 2021 },
      ],
    }),
    expect: {
      sqlite: {
        text: '(s."pk" IN (SELECT l."publication_pk" FROM "publication_research_orgs" l WHERE 1 AND l."org_id" IN (?, ?) AND (l."year" BETWEEN ? AND ?)) AND (s."year" BETWEEN ? AND ?))',
        params: ['grid.1', 'grid.2', 2019, 2021, 2019, 2021],
      },
      postgres: {
        text: '(s."pk" IN (SELECT l."publication_pk" FROM "publication_research_orgs" l WHERE TRUE AND l."org_id" IN ($1, $2) AND (l."year" BETWEEN $3 AND $4)) AND (s."year" BETWEEN $5 AND $6))',
        params: ['grid.1', 'grid.2', 2019, 2021, 2019, 2021],
      },
    },
  },
  {
    name: 'a year test that lets missing years through (!=) does not narrow the link rows',
    compile: filter({
      kind: 'and',
      items: [
        { kind: 'compare', field: orgName, op: '=', value: 'Saarland University' },
        { kind: 'compare', field: year, op: '!=', value: 2020 },
      ],
    }),
    expect: {
      sqlite: {
        text: '(s."pk" IN (SELECT l."publication_pk" FROM "publication_research_orgs" l WHERE 1 AND l."org_id" IN (SELECT e."id" FROM "organizations" e WHERE e."name" = ?)) AND (s."year" IS NULL OR s."year" != ?))',
        params: ['Saarland University', 2020],
      },
      postgres: {
        text: '(s."pk" IN (SELECT l."publication_pk" FROM "publication_research_orgs" l WHERE TRUE AND l."org_id" IN (SELECT e."id" FROM "organizations" e WHERE e."name" = $1)) AND (s."year" IS NULL OR s."year" != $2))',
        params: ['Saarland University', 2020],
      },
    },
  },
  {
    name: 'count of an uncounted link field combined with other conditions: counted per record',
    compile: filter({ kind: 'count', field: openAccess, op: '>', value: 1 }),
    expect: {
      postgres: {
        text: `(SELECT count(*) FROM "publication_values" l WHERE l."publication_pk" = s."pk" AND l."field" = '3') > $1`,
        params: [1],
      },
      sqlite: {
        text: `(SELECT count(*) FROM "publication_values" l WHERE l."publication_pk" = s."pk" AND l."field" = '3') > ?`,
        params: [1],
      },
    },
  },
  {
    name: 'count of an uncounted link field alone: one grouped pass over the link table',
    compile: filter({ kind: 'count', field: openAccess, op: '>', value: 1 }, { alone: true }),
    expect: {
      sqlite: {
        text: `s."pk" IN (SELECT l."publication_pk" FROM "publication_values" l WHERE l."field" = '3' GROUP BY l."publication_pk" HAVING count(*) > ?)`,
        params: [1],
      },
      postgres: {
        text: `s."pk" IN (SELECT l."publication_pk" FROM "publication_values" l WHERE l."field" = '3' GROUP BY l."publication_pk" HAVING count(*) > $1)`,
        params: [1],
      },
    },
  },
  {
    name: 'count alone where 0 passes: records without links qualify unless their group fails',
    compile: filter({ kind: 'count', field: openAccess, op: '<', value: 2 }, { alone: true }),
    expect: {
      sqlite: {
        text: `s."pk" NOT IN (SELECT l."publication_pk" FROM "publication_values" l WHERE l."field" = '3' GROUP BY l."publication_pk" HAVING NOT (count(*) < ?))`,
        params: [2],
      },
      postgres: {
        text: `s."pk" NOT IN (SELECT l."publication_pk" FROM "publication_values" l WHERE l."field" = '3' GROUP BY l."publication_pk" HAVING NOT (count(*) < $1))`,
        params: [2],
      },
    },
  },
];

const STATEMENTS: readonly Row[] = [
  {
    name: 'count shares the filter',
    compile: count(plan({ filter: year2020 })),
    expect: {
      sqlite: { text: 'SELECT count(*) AS n FROM "publications" s WHERE (s."year" = ?)', params: [2020] },
      postgres: { text: 'SELECT count(*) AS n FROM "publications" s WHERE (s."year" = $1)', params: [2020] },
    },
  },
  {
    name: 'a page: columns, the default order with ties by id, paging bound',
    compile: output(plan({ filter: year2020 }), page),
    expect: {
      sqlite: {
        text: 'SELECT s."pk" AS __key, s."doc" AS __doc, s."id" AS "id", s."title" AS "title" FROM "publications" s WHERE (s."year" = ?) ORDER BY s."date" DESC, s."id" ASC LIMIT ? OFFSET ?',
        params: [2020, 20, 0],
      },
      postgres: {
        text: 'SELECT s."pk" AS __key, s."doc" AS __doc, s."id" AS "id", s."title" AS "title" FROM "publications" s WHERE (s."year" = $1) ORDER BY s."date" DESC NULLS LAST, s."id" ASC LIMIT $2 OFFSET $3',
        params: [2020, 20, 0],
      },
    },
  },
  {
    name: 'a filter of a link field and of the year its rows carry is counted on the link table alone',
    compile: count(plan({ filter: orgAndYear })),
    expect: {
      // One value: a record has at most one of the rows, so they are counted as they are.
      sqlite: {
        text: 'SELECT count(*) AS n FROM "publication_research_orgs" l WHERE 1 AND (l."org_id" = ?) AND (l."year" = ?)',
        params: ['grid.1', 2020],
      },
      postgres: {
        text: 'SELECT count(*) AS n FROM "publication_research_orgs" l WHERE TRUE AND (l."org_id" = $1) AND (l."year" = $2)',
        params: ['grid.1', 2020],
      },
    },
  },
  {
    name: 'a filter of several values of a link field is counted on the link table by distinct record',
    compile: count(plan({ filter: orgsAndYear })),
    expect: {
      sqlite: {
        text: 'SELECT count(DISTINCT l."publication_pk") AS n FROM "publication_research_orgs" l WHERE 1 AND (l."org_id" IN (?, ?)) AND (l."year" = ?)',
        params: ['grid.1', 'grid.2', 2020],
      },
      postgres: {
        text: 'SELECT count(DISTINCT l."publication_pk") AS n FROM "publication_research_orgs" l WHERE TRUE AND (l."org_id" IN ($1, $2)) AND (l."year" = $3)',
        params: ['grid.1', 'grid.2', 2020],
      },
    },
  },
  {
    name: 'a filter entered through a link table, with a field its rows do not carry, counts its matches in the narrow table',
    compile: count(
      plan({ filter: { kind: 'and', items: [...(orgAndYear.kind === 'and' ? orgAndYear.items : []), cited] } }),
    ),
    expect: {
      sqlite: {
        text: 'SELECT count(*) AS n FROM "publications_narrow" s WHERE (s."pk" IN (SELECT l."publication_pk" FROM "publication_research_orgs" l WHERE 1 AND l."org_id" = ? AND (l."year" = ?)) AND (s."year" = ?) AND (s."times_cited" > ?))',
        params: ['grid.1', 2020, 2020, 5],
      },
      postgres: {
        text: 'SELECT count(*) AS n FROM "publications_narrow" s WHERE (s."pk" IN (SELECT l."publication_pk" FROM "publication_research_orgs" l WHERE TRUE AND l."org_id" = $1 AND (l."year" = $2)) AND (s."year" = $3) AND (s."times_cited" > $4))',
        params: ['grid.1', 2020, 2020, 5],
      },
    },
  },
  {
    name: 'a page under a link-table filter chooses its keys in the narrow table, then reads their wide rows',
    compile: output(plan({ filter: orgYearCited }), page),
    expect: {
      sqlite: {
        text:
          'WITH top AS (SELECT s."pk" AS k FROM "publications_narrow" s WHERE (s."pk" IN (SELECT l."publication_pk" FROM "publication_research_orgs" l WHERE 1 AND l."org_id" = ? AND (l."year" = ?)) AND (s."year" = ?) AND (s."times_cited" > ?)) ORDER BY s."date" DESC, s."id" ASC LIMIT ? OFFSET ?) ' +
          'SELECT s."pk" AS __key, s."doc" AS __doc, s."id" AS "id", s."title" AS "title" FROM top JOIN "publications" s ON s."pk" = top.k ORDER BY s."date" DESC, s."id" ASC',
        params: ['grid.1', 2020, 2020, 5, 20, 0],
      },
      postgres: {
        text:
          'WITH top AS (SELECT s."pk" AS k FROM "publications_narrow" s WHERE (s."pk" IN (SELECT l."publication_pk" FROM "publication_research_orgs" l WHERE TRUE AND l."org_id" = $1 AND (l."year" = $2)) AND (s."year" = $3) AND (s."times_cited" > $4)) ORDER BY s."date" DESC NULLS LAST, s."id" ASC LIMIT $5 OFFSET $6) ' +
          'SELECT s."pk" AS __key, s."doc" AS __doc, s."id" AS "id", s."title" AS "title" FROM top JOIN "publications" s ON s."pk" = top.k ORDER BY s."date" DESC NULLS LAST, s."id" ASC',
        params: ['grid.1', 2020, 2020, 5, 20, 0],
      },
    },
  },
  {
    name: 'a page under a filter of link rows alone is cut on the link index at its reach before any record row is read',
    compile: output(plan({ filter: orgsAnyYear, outputs: [records({ skip: 40, limit: 10 })] }), page),
    expect: {
      sqlite: {
        text:
          'WITH top AS (SELECT s."pk" AS k FROM "publications_narrow" s WHERE s."pk" IN (WITH cut AS (SELECT l."date" AS v FROM "publication_research_orgs" l WHERE 1 AND (l."org_id" IN (?, ?)) ORDER BY l."date" DESC LIMIT 1 OFFSET ?) ' +
          'SELECT l."publication_pk" FROM "publication_research_orgs" l WHERE 1 AND (l."org_id" IN (?, ?)) AND coalesce(l."date" >= (SELECT v FROM cut), (SELECT v FROM cut) IS NULL)) ORDER BY s."date" DESC, s."id" ASC LIMIT ? OFFSET ?) ' +
          'SELECT s."pk" AS __key, s."doc" AS __doc, s."id" AS "id", s."title" AS "title" FROM top JOIN "publications" s ON s."pk" = top.k ORDER BY s."date" DESC, s."id" ASC',
        // Two values: a record has up to two of the rows, so the bound is row (40 + 10) × 2.
        params: ['grid.1', 'grid.2', 99, 'grid.1', 'grid.2', 10, 40],
      },
      postgres: {
        text:
          'WITH top AS (SELECT s."pk" AS k FROM "publications_narrow" s WHERE s."pk" IN (WITH cut AS (SELECT l."date" AS v FROM "publication_research_orgs" l WHERE TRUE AND (l."org_id" IN ($1, $2)) ORDER BY l."date" DESC NULLS LAST LIMIT 1 OFFSET $3) ' +
          'SELECT l."publication_pk" FROM "publication_research_orgs" l WHERE TRUE AND (l."org_id" IN ($4, $5)) AND coalesce(l."date" >= (SELECT v FROM cut), (SELECT v FROM cut) IS NULL)) ORDER BY s."date" DESC NULLS LAST, s."id" ASC LIMIT $6 OFFSET $7) ' +
          'SELECT s."pk" AS __key, s."doc" AS __doc, s."id" AS "id", s."title" AS "title" FROM top JOIN "publications" s ON s."pk" = top.k ORDER BY s."date" DESC NULLS LAST, s."id" ASC',
        params: ['grid.1', 'grid.2', 99, 'grid.1', 'grid.2', 10, 40],
      },
    },
  },
  {
    name: 'with the years listed, the bound is found range by range of the index (value, year), each read in date order',
    compile: output(plan({ filter: orgsAndYear, outputs: [records({ skip: 40, limit: 10 })] }), page),
    expect: {
      sqlite: {
        text:
          'WITH top AS (SELECT s."pk" AS k FROM "publications_narrow" s WHERE s."pk" IN (WITH cut AS (SELECT v FROM (' +
          'SELECT * FROM (SELECT l."date" AS v FROM "publication_research_orgs" l WHERE 1 AND l."org_id" = ? AND l."year" = ? ORDER BY l."date" DESC LIMIT ?) AS segment0 UNION ALL ' +
          'SELECT * FROM (SELECT l."date" AS v FROM "publication_research_orgs" l WHERE 1 AND l."org_id" = ? AND l."year" = ? ORDER BY l."date" DESC LIMIT ?) AS segment1' +
          ') AS segments ORDER BY v DESC LIMIT 1 OFFSET ?) ' +
          'SELECT l."publication_pk" FROM "publication_research_orgs" l WHERE 1 AND (l."org_id" IN (?, ?)) AND (l."year" = ?) AND coalesce(l."date" >= (SELECT v FROM cut), (SELECT v FROM cut) IS NULL)) ORDER BY s."date" DESC, s."id" ASC LIMIT ? OFFSET ?) ' +
          'SELECT s."pk" AS __key, s."doc" AS __doc, s."id" AS "id", s."title" AS "title" FROM top JOIN "publications" s ON s."pk" = top.k ORDER BY s."date" DESC, s."id" ASC',
        params: ['grid.1', 2020, 100, 'grid.2', 2020, 100, 99, 'grid.1', 'grid.2', 2020, 10, 40],
      },
      postgres: {
        text:
          'WITH top AS (SELECT s."pk" AS k FROM "publications_narrow" s WHERE s."pk" IN (WITH cut AS (SELECT v FROM (' +
          'SELECT * FROM (SELECT l."date" AS v FROM "publication_research_orgs" l WHERE TRUE AND l."org_id" = $1 AND l."year" = $2 ORDER BY l."date" DESC NULLS LAST LIMIT $3) AS segment0 UNION ALL ' +
          'SELECT * FROM (SELECT l."date" AS v FROM "publication_research_orgs" l WHERE TRUE AND l."org_id" = $4 AND l."year" = $5 ORDER BY l."date" DESC NULLS LAST LIMIT $6) AS segment1' +
          ') AS segments ORDER BY v DESC NULLS LAST LIMIT 1 OFFSET $7) ' +
          'SELECT l."publication_pk" FROM "publication_research_orgs" l WHERE TRUE AND (l."org_id" IN ($8, $9)) AND (l."year" = $10) AND coalesce(l."date" >= (SELECT v FROM cut), (SELECT v FROM cut) IS NULL)) ORDER BY s."date" DESC NULLS LAST, s."id" ASC LIMIT $11 OFFSET $12) ' +
          'SELECT s."pk" AS __key, s."doc" AS __doc, s."id" AS "id", s."title" AS "title" FROM top JOIN "publications" s ON s."pk" = top.k ORDER BY s."date" DESC NULLS LAST, s."id" ASC',
        params: ['grid.1', 2020, 100, 'grid.2', 2020, 100, 99, 'grid.1', 'grid.2', 2020, 10, 40],
      },
    },
  },
  {
    name: 'the keys of a count over several values are there for engines that count distinct keys themselves',
    compile: (d: Dialect): Sql => search(plan({ filter: orgsAndYear }))(d).countKeys ?? none,
    expect: {
      sqlite: {
        text: 'SELECT l."publication_pk" AS k FROM "publication_research_orgs" l WHERE 1 AND (l."org_id" IN (?, ?)) AND (l."year" = ?)',
        params: ['grid.1', 'grid.2', 2020],
      },
      postgres: {
        text: 'SELECT l."publication_pk" AS k FROM "publication_research_orgs" l WHERE TRUE AND (l."org_id" IN ($1, $2)) AND (l."year" = $3)',
        params: ['grid.1', 'grid.2', 2020],
      },
    },
  },
  {
    name: 'one value needs no distinct keys: its count is the rows',
    compile: (d: Dialect): Sql => search(plan({ filter: orgAndYear }))(d).countKeys ?? none,
    expect: { sqlite: none, postgres: none },
  },
  {
    name: 'a page sorted by a field the narrow table lacks keeps the wide table',
    compile: output(
      plan({ filter: orgAndYear, outputs: [records({ order: { by: 'field', field: 'title', direction: 'asc' } })] }),
      page,
    ),
    expect: {
      sqlite: {
        text: 'SELECT s."pk" AS __key, s."doc" AS __doc, s."id" AS "id", s."title" AS "title" FROM "publications" s WHERE (s."pk" IN (SELECT l."publication_pk" FROM "publication_research_orgs" l WHERE 1 AND l."org_id" = ? AND (l."year" = ?)) AND (s."year" = ?)) ORDER BY s."title" ASC NULLS LAST, s."id" ASC LIMIT ? OFFSET ?',
        params: ['grid.1', 2020, 2020, 20, 0],
      },
      postgres: {
        text: 'SELECT s."pk" AS __key, s."doc" AS __doc, s."id" AS "id", s."title" AS "title" FROM "publications" s WHERE (s."pk" IN (SELECT l."publication_pk" FROM "publication_research_orgs" l WHERE TRUE AND l."org_id" = $1 AND (l."year" = $2)) AND (s."year" = $3)) ORDER BY s."title" ASC NULLS LAST, s."id" ASC LIMIT $4 OFFSET $5',
        params: ['grid.1', 2020, 2020, 20, 0],
      },
    },
  },
  {
    name: 'a page reads the document and packed text columns as stored (the engine unpacks them)',
    compile: output(
      plan({
        outputs: [
          records({
            fields: [
              { key: 'abstract', field: 'abstract' },
              { key: 'authors', field: 'authors' },
            ],
          }),
        ],
      }),
      page,
    ),
    expect: {
      sqlite: {
        text: 'SELECT s."pk" AS __key, s."doc" AS __doc, (SELECT apart."abstract" FROM "publication_abstracts" apart WHERE apart."pk" = s."pk") AS "abstract" FROM "publications" s WHERE 1 ORDER BY s."date" DESC, s."id" ASC LIMIT ? OFFSET ?',
        params: [20, 0],
      },
      postgres: {
        text: 'SELECT s."pk" AS __key, s."doc" AS __doc, s."abstract" AS "abstract" FROM "publications" s WHERE TRUE ORDER BY s."date" DESC NULLS LAST, s."id" ASC LIMIT $1 OFFSET $2',
        params: [20, 0],
      },
    },
  },
  {
    name: 'a page whose fields are all columns reads no document',
    compile: output(plan({ filter: year2020, outputs: [records({ fields: [{ key: 'doi', field: 'doi' }] })] }), page),
    expect: {
      sqlite: {
        text: 'SELECT s."pk" AS __key, NULL AS __doc, s."doi" AS "doi" FROM "publications" s WHERE (s."year" = ?) ORDER BY s."date" DESC, s."id" ASC LIMIT ? OFFSET ?',
        params: [2020, 20, 0],
      },
      postgres: {
        text: 'SELECT s."pk" AS __key, NULL AS __doc, s."doi" AS "doi" FROM "publications" s WHERE (s."year" = $1) ORDER BY s."date" DESC NULLS LAST, s."id" ASC LIMIT $2 OFFSET $3',
        params: [2020, 20, 0],
      },
    },
  },
  {
    name: 'a page of narrow columns under a link-table filter is read from the narrow table alone',
    compile: output(
      plan({
        filter: orgYearCited,
        outputs: [
          records({
            fields: [
              { key: 'id', field: 'id' },
              { key: 'times_cited', field: 'times_cited' },
            ],
          }),
        ],
      }),
      page,
    ),
    expect: {
      sqlite: {
        text: 'SELECT s."pk" AS __key, NULL AS __doc, s."id" AS "id", s."times_cited" AS "times_cited" FROM "publications_narrow" s WHERE (s."pk" IN (SELECT l."publication_pk" FROM "publication_research_orgs" l WHERE 1 AND l."org_id" = ? AND (l."year" = ?)) AND (s."year" = ?) AND (s."times_cited" > ?)) ORDER BY s."date" DESC, s."id" ASC LIMIT ? OFFSET ?',
        params: ['grid.1', 2020, 2020, 5, 20, 0],
      },
      postgres: {
        text: 'SELECT s."pk" AS __key, NULL AS __doc, s."id" AS "id", s."times_cited" AS "times_cited" FROM "publications_narrow" s WHERE (s."pk" IN (SELECT l."publication_pk" FROM "publication_research_orgs" l WHERE TRUE AND l."org_id" = $1 AND (l."year" = $2)) AND (s."year" = $3) AND (s."times_cited" > $4)) ORDER BY s."date" DESC NULLS LAST, s."id" ASC LIMIT $5 OFFSET $6',
        params: ['grid.1', 2020, 2020, 5, 20, 0],
      },
    },
  },
  {
    name: 'the whole source is counted without a WHERE clause (SQLite counts B-tree pages then)',
    compile: count(plan({})),
    expect: {
      sqlite: { text: 'SELECT count(*) AS n FROM "publications"', params: [] },
      postgres: { text: 'SELECT count(*) AS n FROM "publications"', params: [] },
    },
  },
  {
    name: 'full text alone is counted in the index',
    compile: count(plan({ fullText: malaria, outputs: [records({ order: { by: 'relevance' } })] })),
    expect: {
      sqlite: {
        text: 'SELECT count(*) AS n FROM "publications_fts" WHERE "publications_fts" MATCH ?',
        params: ['{title} : ("malaria")'],
      },
      postgres: {
        text: 'SELECT count(*) AS n FROM "publications" s WHERE s."fts" @@ to_tsquery(\'simple\', $1)',
        params: ["'malaria':A"],
      },
    },
  },
  {
    name: 'full text with a filter restricts the records by key',
    compile: count(plan({ filter: year2020, fullText: malaria })),
    expect: {
      sqlite: {
        text: 'SELECT count(*) AS n FROM "publications" s WHERE (s."year" = ?) AND s."pk" IN (SELECT rowid FROM "publications_fts" WHERE "publications_fts" MATCH ?)',
        params: [2020, '{title} : ("malaria")'],
      },
      postgres: {
        text: 'SELECT count(*) AS n FROM "publications" s WHERE (s."year" = $1) AND s."fts" @@ to_tsquery(\'simple\', $2)',
        params: [2020, "'malaria':A"],
      },
    },
  },
  {
    name: 'a relevance page ranks in the index, then reads the page of records',
    compile: output(plan({ fullText: malaria, outputs: [records({ order: { by: 'relevance' } })] }), page),
    expect: {
      sqlite: {
        text:
          'WITH top AS (SELECT "publications_fts".rowid AS k, bm25("publications_fts") AS score FROM "publications_fts" WHERE "publications_fts" MATCH ? ORDER BY score, k LIMIT ? OFFSET ?) ' +
          'SELECT s."pk" AS __key, s."doc" AS __doc, s."id" AS "id", s."title" AS "title" FROM top JOIN "publications" s ON s."pk" = top.k ORDER BY top.score, s."id" ASC',
        params: ['{title} : ("malaria")', 20, 0],
      },
      postgres: {
        text: 'WITH top AS (SELECT s."pk" AS k, -ts_rank(s."fts", q) AS score FROM "publications" s CROSS JOIN to_tsquery(\'simple\', $1) q WHERE s."fts" @@ q ORDER BY score, k LIMIT $2 OFFSET $3) SELECT s."pk" AS __key, s."doc" AS __doc, s."id" AS "id", s."title" AS "title" FROM top JOIN "publications" s ON s."pk" = top.k ORDER BY top.score, s."id" ASC',
        params: ["'malaria':A", 20, 0],
      },
    },
  },
  {
    name: 'a whole-corpus entity facet reads the stored per-entity counts',
    compile: output(plan({ outputs: [researchersFacet] }), statement),
    expect: {
      sqlite: {
        text: 'SELECT e."id" AS id, e."n_publications" AS count FROM "researchers" e WHERE e."n_publications" > 0 ORDER BY e."n_publications" DESC, id ASC LIMIT ?',
        params: [20],
      },
      postgres: {
        text: 'SELECT e."id" AS id, e."n_publications" AS count FROM "researchers" e WHERE e."n_publications" > 0 ORDER BY e."n_publications" DESC, id ASC LIMIT $1',
        params: [20],
      },
    },
  },
  {
    name: 'a filtered facet groups the link table, with indicators',
    compile: output(plan({ filter: year2020, outputs: [fundersFacet] }), statement),
    expect: {
      sqlite: {
        text: 'SELECT l."org_id" AS id, count(*) AS count, coalesce(sum(s."times_cited"), 0) AS "citations_total", exp(avg(ln(s."field_citation_ratio" + 1))) - 1 AS "fcr_gavg" FROM "publications_narrow" s JOIN "publication_funders" l ON l."publication_pk" = s."pk" WHERE (s."year" = ?) AND l."org_id" IS NOT NULL GROUP BY 1 ORDER BY "citations_total" DESC NULLS LAST, count DESC, id ASC LIMIT ?',
        params: [2020, 5],
      },
      postgres: {
        text: 'SELECT l."org_id" AS id, count(*) AS count, coalesce(sum(s."times_cited"), 0) AS "citations_total", exp(avg(ln(s."field_citation_ratio" + 1))) - 1 AS "fcr_gavg" FROM "publications_narrow" s JOIN "publication_funders" l ON l."publication_pk" = s."pk" WHERE (s."year" = $1) AND l."org_id" IS NOT NULL GROUP BY 1 ORDER BY "citations_total" DESC NULLS LAST, count DESC, id ASC LIMIT $2',
        params: [2020, 5],
      },
    },
  },
  {
    name: 'the count beside a facet reads the narrow table, with a stored link count as a column',
    compile: count(
      plan({
        filter: { kind: 'and', items: [year2020, { kind: 'count', field: orgs, op: '>', value: 2 }] },
        outputs: [fundersFacet],
      }),
    ),
    expect: {
      postgres: {
        text: 'SELECT count(*) AS n FROM "publications_narrow" s WHERE ((s."year" = $1) AND s."n_research_orgs" > $2)',
        params: [2020, 2],
      },
      sqlite: {
        text: 'SELECT count(*) AS n FROM "publications_narrow" s WHERE ((s."year" = ?) AND s."n_research_orgs" > ?)',
        params: [2020, 2],
      },
    },
  },
  {
    name: 'a facet on a field the narrow table lacks reads the wide table',
    compile: output(
      plan({ outputs: [{ ...yearFacet, key: 'publisher', field: 'publisher', valueType: 'string' }] }),
      statement,
    ),
    expect: {
      postgres: {
        text: `SELECT s."publisher" AS id, count(*) AS count FROM "publications" s WHERE TRUE AND (s."publisher" IS NOT NULL AND s."publisher"::text != '') GROUP BY 1 ORDER BY count DESC, id ASC LIMIT $1`,
        params: [1000],
      },
      sqlite: {
        text: `SELECT s."publisher" AS id, count(*) AS count FROM "publications" s WHERE 1 AND (s."publisher" IS NOT NULL AND s."publisher" != '') GROUP BY 1 ORDER BY count DESC, id ASC LIMIT ?`,
        params: [1000],
      },
    },
  },
  {
    name: 'citations per year read the narrow table on both sides',
    compile: output(
      plan({
        filter: year2020,
        outputs: [{ kind: 'citations_per_year', key: 'citations_per_year', from: 2010, to: 2020 }],
      }),
      statement,
    ),
    expect: {
      postgres: {
        text: 'WITH m AS MATERIALIZED (SELECT s."id" AS id FROM "publications_narrow" s WHERE (s."year" = $1)) SELECT c."year" AS year, count(*) AS value FROM m CROSS JOIN "cited_ids" v CROSS JOIN "publication_references" r CROSS JOIN "publications_narrow" c WHERE v."cited_id" = m.id AND r."cited_key" = v."id" AND c."pk" = r."publication_pk" AND c."year" BETWEEN $2 AND $3 GROUP BY 1 ORDER BY 1',
        params: [2020, 2010, 2020],
      },
      sqlite: {
        text: 'WITH m AS MATERIALIZED (SELECT s."id" AS id FROM "publications_narrow" s WHERE (s."year" = ?)) SELECT c."year" AS year, count(*) AS value FROM m CROSS JOIN "cited_ids" v CROSS JOIN (SELECT p."cited_key" AS "cited_key", j.value AS "publication_pk" FROM "publication_references_postings" p, json_each(postings_json(p."publication_pks")) j) r CROSS JOIN "publications_narrow" c WHERE v."cited_id" = m.id AND r."cited_key" = v."id" AND c."pk" = r."publication_pk" AND c."year" BETWEEN ? AND ? GROUP BY 1 ORDER BY 1',
        params: [2020, 2010, 2020],
      },
    },
  },
  {
    name: 'citations per year of matches sum their rows of the per-year table (the matches from the narrow table)',
    compile: output(
      plan({
        filter: year2020,
        outputs: [{ kind: 'citations_per_year', key: 'citations_per_year', from: 2010, to: 2020 }],
      }),
      preAggregated,
    ),
    expect: {
      postgres: {
        text: 'WITH m AS MATERIALIZED (SELECT s."pk" AS k FROM "publications_narrow" s WHERE (s."year" = $1)) SELECT y.year AS year, sum(y.citations) AS value FROM m CROSS JOIN "publication_citations_by_year" y WHERE y."publication_pk" = m.k AND y.year BETWEEN $2 AND $3 GROUP BY 1 ORDER BY 1',
        params: [2020, 2010, 2020],
      },
      sqlite: {
        text: 'WITH m AS MATERIALIZED (SELECT s."pk" AS k FROM "publications_narrow" s WHERE (s."year" = ?)) SELECT y.year AS year, sum(y.citations) AS value FROM m CROSS JOIN "publication_citations_by_year" y WHERE y."publication_pk" = m.k AND y.year BETWEEN ? AND ? GROUP BY 1 ORDER BY 1',
        params: [2020, 2010, 2020],
      },
    },
  },
  {
    name: 'citations per year of the whole corpus read the corpus totals',
    compile: output(
      plan({ outputs: [{ kind: 'citations_per_year', key: 'citations_per_year', from: 2010, to: 2020 }] }),
      preAggregated,
    ),
    expect: {
      postgres: {
        text: 'SELECT year, citations AS value FROM "citations_by_year" WHERE year BETWEEN $1 AND $2 ORDER BY 1',
        params: [2010, 2020],
      },
      sqlite: {
        text: 'SELECT year, citations AS value FROM "citations_by_year" WHERE year BETWEEN ? AND ? ORDER BY 1',
        params: [2010, 2020],
      },
    },
  },
  {
    name: 'the per-year tables are read only while their freshness row is in store_meta',
    compile: output(
      plan({ outputs: [{ kind: 'citations_per_year', key: 'citations_per_year', from: 2010, to: 2020 }] }),
      freshness,
    ),
    expect: {
      postgres: { text: `SELECT 1 AS fresh FROM "store_meta" WHERE "key" = 'per_year_publications'`, params: [] },
      sqlite: { text: `SELECT 1 AS fresh FROM "store_meta" WHERE "key" = 'per_year_publications'`, params: [] },
    },
  },
  {
    name: 'funding per year of the whole corpus in a currency with a column reads the corpus totals',
    compile: output(
      plan({
        source: 'grants',
        outputs: [{ kind: 'funding_per_year', key: 'funding_per_year', from: 2010, to: 2020, currency: 'EUR' }],
      }),
      preAggregated,
    ),
    expect: {
      postgres: {
        text: `SELECT year, amount AS value FROM "funding_by_year" WHERE currency = 'EUR' AND year BETWEEN $1 AND $2 ORDER BY 1`,
        params: [2010, 2020],
      },
      sqlite: {
        text: `SELECT year, amount AS value FROM "funding_by_year" WHERE currency = 'EUR' AND year BETWEEN ? AND ? ORDER BY 1`,
        params: [2010, 2020],
      },
    },
  },
  {
    name: "funding per year in a currency kept in the document spreads the amounts over each grant's funded years, read as numbers",
    compile: output(
      plan({
        source: 'grants',
        outputs: [{ kind: 'funding_per_year', key: 'funding_per_year', from: 2010, to: 2020, currency: 'CNY' }],
      }),
      preAggregated,
    ),
    expect: {
      postgres: {
        text: `WITH m AS MATERIALIZED (SELECT s."pk" AS k, CAST((s."doc" ->> 'funding_cny') AS DOUBLE PRECISION) AS amount FROM "grants" s WHERE TRUE AND CAST((s."doc" ->> 'funding_cny') AS DOUBLE PRECISION) > 0) SELECT f.year AS year, sum(m.amount * f.shares * 1.0 / f.years) AS value FROM m CROSS JOIN "grant_funding_years" f WHERE f."grant_pk" = m.k AND f.year BETWEEN $1 AND $2 GROUP BY 1 ORDER BY 1`,
        params: [2010, 2020],
      },
      sqlite: {
        text: `WITH m AS MATERIALIZED (SELECT s."pk" AS k, CAST(json_extract(CAST(unpack_utf8(s."doc") AS TEXT), '$.funding_cny') AS DOUBLE PRECISION) AS amount FROM "grants" s WHERE 1 AND CAST(json_extract(CAST(unpack_utf8(s."doc") AS TEXT), '$.funding_cny') AS DOUBLE PRECISION) > 0) SELECT f.year AS year, sum(m.amount * f.shares * 1.0 / f.years) AS value FROM m CROSS JOIN "grant_funding_years" f WHERE f."grant_pk" = m.k AND f.year BETWEEN ? AND ? GROUP BY 1 ORDER BY 1`,
        params: [2010, 2020],
      },
    },
  },
  {
    name: 'funding per year in USD reads the narrow grants table',
    compile: output(
      plan({
        source: 'grants',
        outputs: [{ kind: 'funding_per_year', key: 'funding_per_year', from: 2010, to: 2020, currency: 'USD' }],
      }),
      statement,
    ),
    expect: {
      sqlite: {
        text: `WITH m AS MATERIALIZED (SELECT s."pk" AS "pk", s."start_year" AS start_year, s."funding_usd" AS amount FROM "grants_narrow" s WHERE 1 AND s."funding_usd" > 0), a AS (SELECT s."pk" AS pk, CAST(l."value" AS INTEGER) AS year FROM m s JOIN "grant_values" l ON l."grant_pk" = s."pk" AND l."field" = '14' UNION ALL SELECT s."pk", CAST(s.start_year AS INTEGER) FROM m s WHERE NOT EXISTS (SELECT 1 FROM "grant_values" l WHERE l."grant_pk" = s."pk" AND l."field" = '14') AND s.start_year IS NOT NULL), n AS (SELECT pk, count(*) AS years FROM a GROUP BY pk) SELECT a.year AS year, sum(m.amount * 1.0 / n.years) AS value FROM a JOIN n ON n.pk = a.pk JOIN m ON m."pk" = a.pk WHERE a.year BETWEEN ? AND ? GROUP BY 1 ORDER BY 1`,
        params: [2010, 2020],
      },
      postgres: {
        text: `WITH m AS MATERIALIZED (SELECT s."pk" AS "pk", s."start_year" AS start_year, s."funding_usd" AS amount FROM "grants_narrow" s WHERE TRUE AND s."funding_usd" > 0), a AS (SELECT s."pk" AS pk, CAST(l."value" AS INTEGER) AS year FROM m s JOIN "grant_values" l ON l."grant_pk" = s."pk" AND l."field" = '14' UNION ALL SELECT s."pk", CAST(s.start_year AS INTEGER) FROM m s WHERE NOT EXISTS (SELECT 1 FROM "grant_values" l WHERE l."grant_pk" = s."pk" AND l."field" = '14') AND s.start_year IS NOT NULL), n AS (SELECT pk, count(*) AS years FROM a GROUP BY pk) SELECT a.year AS year, sum(m.amount * 1.0 / n.years) AS value FROM a JOIN n ON n.pk = a.pk JOIN m ON m."pk" = a.pk WHERE a.year BETWEEN $1 AND $2 GROUP BY 1 ORDER BY 1`,
        params: [2010, 2020],
      },
    },
  },
  {
    name: 'funding per year in EUR reads the wide grants table (no EUR column in the narrow one)',
    compile: output(
      plan({
        source: 'grants',
        outputs: [{ kind: 'funding_per_year', key: 'funding_per_year', from: 2010, to: 2020, currency: 'EUR' }],
      }),
      statement,
    ),
    expect: {
      sqlite: {
        text: `WITH m AS MATERIALIZED (SELECT s."pk" AS "pk", s."start_year" AS start_year, s."funding_eur" AS amount FROM "grants" s WHERE 1 AND s."funding_eur" > 0), a AS (SELECT s."pk" AS pk, CAST(l."value" AS INTEGER) AS year FROM m s JOIN "grant_values" l ON l."grant_pk" = s."pk" AND l."field" = '14' UNION ALL SELECT s."pk", CAST(s.start_year AS INTEGER) FROM m s WHERE NOT EXISTS (SELECT 1 FROM "grant_values" l WHERE l."grant_pk" = s."pk" AND l."field" = '14') AND s.start_year IS NOT NULL), n AS (SELECT pk, count(*) AS years FROM a GROUP BY pk) SELECT a.year AS year, sum(m.amount * 1.0 / n.years) AS value FROM a JOIN n ON n.pk = a.pk JOIN m ON m."pk" = a.pk WHERE a.year BETWEEN ? AND ? GROUP BY 1 ORDER BY 1`,
        params: [2010, 2020],
      },
      postgres: {
        text: `WITH m AS MATERIALIZED (SELECT s."pk" AS "pk", s."start_year" AS start_year, s."funding_eur" AS amount FROM "grants" s WHERE TRUE AND s."funding_eur" > 0), a AS (SELECT s."pk" AS pk, CAST(l."value" AS INTEGER) AS year FROM m s JOIN "grant_values" l ON l."grant_pk" = s."pk" AND l."field" = '14' UNION ALL SELECT s."pk", CAST(s.start_year AS INTEGER) FROM m s WHERE NOT EXISTS (SELECT 1 FROM "grant_values" l WHERE l."grant_pk" = s."pk" AND l."field" = '14') AND s.start_year IS NOT NULL), n AS (SELECT pk, count(*) AS years FROM a GROUP BY pk) SELECT a.year AS year, sum(m.amount * 1.0 / n.years) AS value FROM a JOIN n ON n.pk = a.pk JOIN m ON m."pk" = a.pk WHERE a.year BETWEEN $1 AND $2 GROUP BY 1 ORDER BY 1`,
        params: [2010, 2020],
      },
    },
  },
  {
    name: 'a facet field list over researchers reads their records by id (columns only: no document), research_orgs by the page keys',
    compile: output(
      plan({
        outputs: [
          {
            ...researchersFacet,
            entityRecords: {
              source: 'researchers',
              fields: [
                { key: 'first_name', field: 'first_name' },
                { key: 'research_orgs', field: 'research_orgs' },
              ],
              idLists: ['research_orgs'],
            },
          },
        ],
      }),
      (o) => {
        assert.ok(o.kind === 'facet' && o.records !== undefined);
        return { text: [o.records.sqlPrefix, ...o.records.hydrate.map((h) => h.sqlPrefix)].join(' | '), params: [] };
      },
    ),
    expect: {
      sqlite: {
        text: `SELECT s."pk" AS __key, NULL AS __doc, s."first_name" AS "first_name", s."id" AS __id FROM "researchers" s WHERE s."id" IN  | SELECT l."researcher_pk" AS __key, l."org_id" AS id, e."name" AS "name", e."acronym" AS "acronym", e."city_name" AS "city_name", e."state_name" AS "state_name", e."country_name" AS "country_name", e."latitude" AS "latitude", e."longitude" AS "longitude", (SELECT json_group_array(v."value") FROM "organization_values" v WHERE v."organization_pk" = e."pk" AND v."field" = '23') AS "__list_linkout", (SELECT json_group_array(v."value") FROM "organization_values" v WHERE v."organization_pk" = e."pk" AND v."field" = '17') AS "__list_types" FROM "researcher_research_orgs" l LEFT JOIN "organizations" e ON e."id" = l."org_id" WHERE 1 AND l."researcher_pk" IN `,
        params: [],
      },
      postgres: {
        text: `SELECT s."pk" AS __key, NULL AS __doc, s."first_name" AS "first_name", s."id" AS __id FROM "researchers" s WHERE s."id" IN  | SELECT l."researcher_pk" AS __key, l."org_id" AS id, e."name" AS "name", e."acronym" AS "acronym", e."city_name" AS "city_name", e."state_name" AS "state_name", e."country_name" AS "country_name", e."latitude" AS "latitude", e."longitude" AS "longitude", (SELECT json_agg(v."value")::text FROM "organization_values" v WHERE v."organization_pk" = e."pk" AND v."field" = '23') AS "__list_linkout", (SELECT json_agg(v."value")::text FROM "organization_values" v WHERE v."organization_pk" = e."pk" AND v."field" = '17') AS "__list_types" FROM "researcher_research_orgs" l LEFT JOIN "organizations" e ON e."id" = l."org_id" WHERE TRUE AND l."researcher_pk" IN `,
        params: [],
      },
    },
  },
  {
    name: 'a value facet groups a column',
    compile: output(plan({ outputs: [{ ...yearFacet, key: 'type', field: 'type', valueType: 'string' }] }), statement),
    expect: {
      sqlite: {
        text: `SELECT s."type" AS id, count(*) AS count FROM "publications_narrow" s WHERE 1 AND (s."type" IS NOT NULL AND s."type" != '') GROUP BY 1 ORDER BY count DESC, id ASC LIMIT ?`,
        params: [1000],
      },
      postgres: {
        text: `SELECT s."type" AS id, count(*) AS count FROM "publications_narrow" s WHERE TRUE AND (s."type" IS NOT NULL AND s."type"::text != '') GROUP BY 1 ORDER BY count DESC, id ASC LIMIT $1`,
        params: [1000],
      },
    },
  },
  {
    name: 'a whole-source facet of a column with stored value counts reads them',
    compile: output(plan({ outputs: [yearFacet] }), statement),
    expect: {
      sqlite: {
        text: 'SELECT c."year" AS id, c."n" AS count FROM "publication_year_counts" c WHERE c."n" > 0 ORDER BY c."n" DESC, id ASC LIMIT ?',
        params: [1000],
      },
      postgres: {
        text: 'SELECT c."year" AS id, c."n" AS count FROM "publication_year_counts" c WHERE c."n" > 0 ORDER BY c."n" DESC, id ASC LIMIT $1',
        params: [1000],
      },
    },
  },
  {
    name: 'a search whose filter unpacks the document keeps its matching keys first (SQLite; PostgreSQL stores it plain)',
    compile: (d) =>
      search(plan({ filter: authorsAndYear, outputs: [records(), yearFacet] }))(d).prelude?.at(-1) ?? none,
    expect: {
      sqlite: {
        text: `INSERT INTO temp.search_matches SELECT s."pk" FROM "publications" s WHERE ((s."year" = ?) AND EXISTS (SELECT 1 FROM json_tree(CAST(unpack_utf8(s."doc") AS TEXT), '$.authors') j WHERE j.atom IS NOT NULL AND lower(j.atom) = ?))`,
        params: [2020, 'smith'],
      },
      postgres: none,
    },
  },
  {
    name: 'then its count, pages and facets read those keys instead of unpacking every document again',
    compile: (d) => {
      const compiled = search(plan({ filter: authorsAndYear, outputs: [records(), yearFacet] }))(d);
      const [records_, facet] = compiled.outputs;
      assert.ok(records_ !== undefined && facet !== undefined);
      return { text: [compiled.count, page(records_), statement(facet)].map((x) => x.text).join('\n'), params: [] };
    },
    expect: {
      sqlite: {
        text: [
          'SELECT count(*) AS n FROM "publications" s WHERE s."pk" IN (SELECT k FROM temp.search_matches)',
          'SELECT s."pk" AS __key, s."doc" AS __doc, s."id" AS "id", s."title" AS "title" FROM "publications" s WHERE s."pk" IN (SELECT k FROM temp.search_matches) ORDER BY s."date" DESC, s."id" ASC LIMIT ? OFFSET ?',
          `SELECT s."year" AS id, count(*) AS count FROM "publications" s WHERE s."pk" IN (SELECT k FROM temp.search_matches) AND (s."year" IS NOT NULL AND s."year" != '') GROUP BY 1 ORDER BY count DESC, id ASC LIMIT ?`,
        ].join('\n'),
        params: [],
      },
      postgres: {
        text: [
          `SELECT count(*) AS n FROM "publications" s WHERE ((s."year" = $1) AND EXISTS (SELECT 1 FROM jsonb_path_query(s."doc"::jsonb, 'strict $.authors.**', '{}', true) j(v) WHERE jsonb_typeof(j.v) NOT IN ('object', 'array', 'null') AND lower((j.v #>> '{}')) = $2))`,
          `SELECT s."pk" AS __key, s."doc" AS __doc, s."id" AS "id", s."title" AS "title" FROM "publications" s WHERE ((s."year" = $1) AND EXISTS (SELECT 1 FROM jsonb_path_query(s."doc"::jsonb, 'strict $.authors.**', '{}', true) j(v) WHERE jsonb_typeof(j.v) NOT IN ('object', 'array', 'null') AND lower((j.v #>> '{}')) = $2)) ORDER BY s."date" DESC NULLS LAST, s."id" ASC LIMIT $3 OFFSET $4`,
          `SELECT s."year" AS id, count(*) AS count FROM "publications" s WHERE ((s."year" = $1) AND EXISTS (SELECT 1 FROM jsonb_path_query(s."doc"::jsonb, 'strict $.authors.**', '{}', true) j(v) WHERE jsonb_typeof(j.v) NOT IN ('object', 'array', 'null') AND lower((j.v #>> '{}')) = $2)) AND (s."year" IS NOT NULL AND s."year"::text != '') GROUP BY 1 ORDER BY count DESC, id ASC LIMIT $3`,
        ].join('\n'),
        params: [],
      },
    },
  },
  {
    name: 'a filtered facet of that column groups the matching records',
    compile: output(plan({ filter: year2020, outputs: [yearFacet] }), statement),
    expect: {
      sqlite: {
        text: `SELECT s."year" AS id, count(*) AS count FROM "publications_narrow" s WHERE (s."year" = ?) AND (s."year" IS NOT NULL AND s."year" != '') GROUP BY 1 ORDER BY count DESC, id ASC LIMIT ?`,
        params: [2020, 1000],
      },
      postgres: {
        text: `SELECT s."year" AS id, count(*) AS count FROM "publications_narrow" s WHERE (s."year" = $1) AND (s."year" IS NOT NULL AND s."year"::text != '') GROUP BY 1 ORDER BY count DESC, id ASC LIMIT $2`,
        params: [2020, 1000],
      },
    },
  },
];

for (const [title, rows] of [
  ['filters', FILTERS],
  ['statements', STATEMENTS],
] as const) {
  describe(title, () => {
    for (const row of rows) {
      for (const [name, dialect] of Object.entries(DIALECTS) as [DialectName, Dialect][]) {
        test(`${row.name} [${name}]`, () => {
          const expected = row.expect[name];
          assert.ok(expected !== undefined, `no ${name} expectation`);
          const actual = row.compile(dialect);
          assert.deepEqual({ text: actual.text, params: [...actual.params] }, expected);
        });
      }
    }
  });
}
