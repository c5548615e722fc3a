import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { parse } from '../../src/dsl/index.ts';
import { renderErrorBody } from '../../src/errors/index.ts';
import { validate } from '../../src/schema/index.ts';
import { SOURCE_NAMES } from '../../src/model/sources.ts';
import { unnestProductWarning } from '../../src/schema/rules/field-list.ts';
import { deprecatedKeyWarning } from '../../src/schema/deprecated-keys.ts';
import { deprecationWarning } from '../../src/schema/rules/removed-field.ts';
import { rejected, search, valid } from './helpers.ts';

// Tables whose test names are the queries. Each valid query must pass version 2; each
// invalid one must fail with the code given, and the message must say what is given.

const VALID_V2: readonly string[] = [
  'search grants return grants',
  'search researchers return researchers',
  'search organizations return organizations[basics + nuts]',
  'search publications where year = "2019" return publications',
  'search publications where year in [2013:2018] and research_orgs="grid.258806.1" return publications limit 5',
  'search publications where research_orgs.id in ["grid.1008.9","grid.1002.3"] return publications[id] limit 250',
  'search publications where journal.title ~ "nature" return journal',
  'search publications where date >= "2020" and date < "2020-06" return publications[id+date]',
  'search publications where altmetric is empty return publications',
  'search publications where research_orgs is not empty return publications',
  'search publications where count(research_orgs) >= 2 return research_orgs',
  'search publications where not (type = "article" or type = "book") return type',
  'search publications where authors = "smith" return publications',
  'search publications where issue = 3 return publications',
  'search publications where research_orgs.types = "Education" return research_orgs',
  'search grants where funding_usd > 1000000.5 return funders aggregate funding sort by funding limit 5',
  'search grants where active_year = 2020 return active_year',
  'search researchers where obsolete = 0 and total_publications > 10 return researchers[basics + extras]',
  'search researchers for "\\"Ana Silva\\"" return researchers',
  'search publications in authors for "\\"Jennifer A Doudna\\"" return publications limit 5',
  'search publications in authors for "Jennifer Doudna" return publications',
  'search grants in investigators for "\\"John Smith\\" OR \\"Ann Lee\\"" return grants',
  'search publications in full_data_exact for "graphene" return publications',
  'search publications return publications[basics - doi + extras + book + categories]',
  'search publications return publications[-doi]',
  'search publications return publications[id + unnest(researchers)]',
  'search publications return publications sort by times_cited asc limit 1000 skip 49000',
  'search publications for "x" return publications sort by relevance',
  'search publications for "x" return publications sort by date',
  'search publications return funders aggregate count, citations_total, recent_citations_total sort by citations_total limit 1000',
  'search publications return funders sort by count asc',
  'search publications return funders as "top" return funders as "all_funders"',
  'search publications return in "facets" funders return in "facets" year return funders',
  'search publications for "brexit" return citations_per_year(2010, 2020)',
  'search publications return citations_per_year(from=2015, to=2015)',
  'search publications return publications limit 0',
  'search publications return source_title return referenced_pubs return journal_lists return open_access',
  'search patents where assignees != "grid.410484.d" return patents limit 5',
  'search patents where assignee_names ~ "IBM" return assignees limit 5',
  'search clinical_trials in investigators for "\\"John Smith\\"" return clinical_trials limit 5',
  'search clinical_trials in raw_affiliations for "Mayo" where overall_status = "COMPLETED" return study_type',
  'search publications in raw_affiliations for "paris" return publications[id]',
  'search grants in raw_affiliations for "paris" where start_year >= 2015 return grants[id + investigators]',
  'search publications in funding for "wellcome" where year = 2020 return funders',
];

describe('valid queries (version 2)', () => {
  for (const text of VALID_V2) {
    test(text, () => {
      const { query, warnings } = valid(text);
      assert.equal(query.kind, 'search');
      // Publications' author objects carry a key the hosted service calls deprecated
      // (test/schema/deprecated-keys.test.ts); nothing else warns.
      const authors =
        query.kind === 'search' &&
        query.returns.some(
          (r) =>
            r.kind === 'records' &&
            r.fields.some((f) => f.field.source === 'publications' && f.field.name === 'authors'),
        );
      assert.deepEqual(warnings, authors ? [deprecatedKeyWarning('current_organization_id', 'authors')] : []);
    });
  }
});

const ERRORS_V2: ReadonlyArray<readonly [query: string, code: string, says: string]> = [
  ['search publication return publications', 'SCHEMA_UNKNOWN_SOURCE', "Did you mean 'publications'?"],
  ['search spaceships return spaceships', 'SCHEMA_UNKNOWN_SOURCE', "'spaceships' is not a source."],
  [
    'search publications where titel = "x" return publications',
    'SCHEMA_UNKNOWN_FIELD',
    "Field 'titel' is not a field of 'publications'. Did you mean 'title'?",
  ],
  ['search publications return publications[id + titel]', 'SCHEMA_UNKNOWN_FIELD', "Did you mean 'title'?"],
  ['search publications return publications[basic]', 'SCHEMA_UNKNOWN_FIELD', "Did you mean 'basics'?"],
  [
    'search publications where journal.name = "x" return publications',
    'SCHEMA_UNKNOWN_SUBFIELD',
    "'name' is not a field of the entity 'journals'",
  ],
  [
    'search publications where year.id = 1 return publications',
    'SCHEMA_NOT_AN_ENTITY',
    "Field 'year' is of type integer",
  ],
  [
    'search publications where FOR.name = "x" return publications',
    'SCHEMA_REMOVED_FIELD',
    "use 'category_for' instead",
  ],
  ['search publications return publications[id + references]', 'SCHEMA_REMOVED_FIELD', "use 'reference_ids' instead"],
  ['search publications return RCDC', 'SCHEMA_REMOVED_FIELD', "use 'category_rcdc' instead"],
  ['search publications return publications[terms]', 'SCHEMA_REMOVED_FIELD', "use 'concepts' instead"],
  ['search grants return grants[investigators_details]', 'SCHEMA_REMOVED_FIELD', "use 'investigators' instead"],
  ['search publications return publications [all] limit 5', 'SCHEMA_REMOVED_FIELDSET', 'basics + extras'],
  ['search publications where title = "x" return publications', 'SCHEMA_NOT_FILTERABLE', 'Search its text with for'],
  [
    'search publications where times_cited is empty return publications',
    'SCHEMA_OPERATOR_NOT_SUPPORTED',
    'does not support is empty',
  ],
  [
    'search publications where year ~ "20" return publications',
    'SCHEMA_OPERATOR_NOT_SUPPORTED',
    "Field 'year' (integer) does not support ~",
  ],
  [
    'search publications where concepts ~ "graphene" return publications',
    'SCHEMA_OPERATOR_NOT_SUPPORTED',
    "Field 'concepts' (json) does not support ~",
  ],
  [
    'search publications where count(year) > 1 return publications',
    'SCHEMA_OPERATOR_NOT_SUPPORTED',
    'does not support count()',
  ],
  [
    'search publications where research_orgs > "a" return publications',
    'SCHEMA_OPERATOR_NOT_SUPPORTED',
    'supports =, !=, in [...], is empty, count()',
  ],
  ['search publications where year = "twenty" return publications', 'SCHEMA_INVALID_VALUE', 'expected an integer'],
  ['search publications where date > "2020-13-01" return publications', 'SCHEMA_INVALID_VALUE', 'expected a date'],
  [
    'search publications where date in ["2020-02-30", "2020-02-29"] return publications',
    'SCHEMA_INVALID_VALUE',
    '"2020-02-30"',
  ],
  ['search publications where altmetric in [1:"x"] return publications', 'SCHEMA_INVALID_VALUE', 'expected a number'],
  ['search publications where doi ~ "  " return publications', 'SCHEMA_INVALID_VALUE', 'one or more words'],
  ['search publications where count(researchers) > 1.5 return publications', 'SCHEMA_INVALID_VALUE', 'whole number'],
  [
    'search publications where count(researchers) = 9223372036854775807 return publications',
    'SCHEMA_INVALID_VALUE',
    'expected a whole number from 0 to 9007199254740991',
  ],
  [
    'search publications where count(researchers) < 9007199254740992 return publications',
    'SCHEMA_INVALID_VALUE',
    'expected a whole number from 0 to 9007199254740991',
  ],
  [
    'search publications where times_cited > -9223372036854775808 return publications',
    'SCHEMA_INVALID_VALUE',
    'expected an integer from -9007199254740991 to 9007199254740991',
  ],
  [
    'search publications where year = "9223372036854775807" return publications',
    'SCHEMA_INVALID_VALUE',
    'expected an integer from -9007199254740991',
  ],
  ['search publications where altmetric > "1e400" return publications', 'SCHEMA_INVALID_VALUE', 'expected a number'],
  [
    'search publications for complex("cell phone", 9223372036854775807) return publications',
    'SCHEMA_SEARCH_FUNCTION_ARGUMENTS',
    'the largest distance must be at most 999999',
  ],
  [
    'search grants in authors for "x" return grants',
    'SCHEMA_UNKNOWN_INDEX',
    'concepts, raw_affiliations, investigators, full_data',
  ],
  ['search publications in title for "x" return publications', 'SCHEMA_UNKNOWN_INDEX', "Did you mean 'title_only'"],
  ['search publications in authors for "Doudna" return publications', 'SCHEMA_PERSON_NAME_PARTS', "'Doudna' has one"],
  ['search publications in authors for "\\"Doudna\\"" return publications', 'SCHEMA_PERSON_NAME_PARTS', "'authors'"],
  [
    'search publications where year in [2013:2018] return publication',
    'SCHEMA_UNKNOWN_RESULT',
    "'publication' is not a source or facet of 'publications'. Did you mean 'publications'?",
  ],
  [
    'search publications for "black holes" return spaceships',
    'SCHEMA_UNKNOWN_RESULT',
    "'spaceships' is not a source or facet",
  ],
  ['search publications return grants', 'SCHEMA_UNKNOWN_RESULT', "'grants' is not a source or facet of 'publications'"],
  [
    'search publications return title',
    'SCHEMA_NOT_A_FACET',
    "Field 'title' of 'publications' cannot be returned as a facet",
  ],
  [
    'search publications return year[id]',
    'SCHEMA_FACET_FIELD_LIST',
    "The facet 'year' groups plain values, not entities",
  ],
  [
    'search publications return research_orgs[nme]',
    'SCHEMA_UNKNOWN_FACET_FIELD',
    "'nme' is not a field of the organizations the facet 'research_orgs' shows. Did you mean 'name'?",
  ],
  [
    'search publications return researchers[unnest(research_orgs)]',
    'SCHEMA_FACET_FIELD_SHAPE',
    "'research_orgs' cannot be shown in the rows of the facet 'researchers'",
  ],
  [
    'search publications return category_for[title]',
    'SCHEMA_UNKNOWN_FACET_FIELD',
    "'title' is not a field of the categories the facet 'category_for' shows.",
  ],
  [
    'search publications return similar_documents(abstract="some text")',
    'SCHEMA_UNSUPPORTED_FUNCTION',
    "'similar_documents' is not offered by this deployment",
  ],
  [
    'search publications return citations_per_yr(2010, 2020)',
    'SCHEMA_UNKNOWN_FUNCTION',
    "Did you mean 'citations_per_year'?",
  ],
  ['search grants return citations_per_year(2010, 2020)', 'SCHEMA_FUNCTION_SOURCE', 'publications'],
  [
    'search publications return citations_per_year(2020, 2010)',
    'SCHEMA_FUNCTION_ARGUMENTS',
    'from (2020) is after to (2010)',
  ],
  ['search publications return citations_per_year(2010)', 'SCHEMA_FUNCTION_ARGUMENTS', 'two arguments'],
  ['search publications return citations_per_year("x", 2010)', 'SCHEMA_FUNCTION_ARGUMENTS', 'from must be a year'],
  ['search publications return citations_per_year(1500, 1900)', 'SCHEMA_FUNCTION_ARGUMENTS', 'at most 200 years apart'],
  ['search publications return citations_per_year(2010, 2020, 2030)', 'SCHEMA_FUNCTION_ARGUMENTS', 'two arguments'],
  ['search publications return citations_per_year(2010, 2020) limit 5', 'SCHEMA_FUNCTION_MODIFIER', "takes no 'limit'"],
  [
    'search publications return publications limit 2000',
    'SCHEMA_LIMIT_TOO_LARGE',
    'Limit 2000 exceeds maximum allowed limit 1000.',
  ],
  [
    'search publications return funders limit 1001',
    'SCHEMA_FACET_LIMIT_TOO_LARGE',
    'Facet limit 1001 exceeds maximum allowed limit 1000.',
  ],
  ['search publications return publications limit 1000 skip 49001', 'SCHEMA_PAGING_TOO_DEEP', 'skip + limit is 50001'],
  ['search publications return publications skip 49990', 'SCHEMA_PAGING_TOO_DEEP', 'skip + limit is 50010'],
  [
    'search publications return publications limit -5',
    'SCHEMA_NEGATIVE_PAGING',
    'limit must be zero or more, found -5',
  ],
  ['search publications return publications skip -1', 'SCHEMA_NEGATIVE_PAGING', 'skip must be zero or more'],
  [
    'search publications return year limit 10 skip 10',
    'SCHEMA_FACET_SKIP',
    'offset is not supported for facet results',
  ],
  [
    'search grants return funders aggregate citations_total',
    'SCHEMA_UNKNOWN_INDICATOR',
    "'citations_total' is not an indicator of 'grants'; it has count, funding.",
  ],
  [
    'search publications return funders aggregate citation_total',
    'SCHEMA_UNKNOWN_INDICATOR',
    "Did you mean 'citations_total'?",
  ],
  [
    'search publications return publications aggregate citations_total',
    'SCHEMA_AGGREGATE_ON_RECORDS',
    'aggregate applies to facet results',
  ],
  [
    'search publications return publications sort by research_orgs',
    'SCHEMA_INVALID_SORT_FIELD',
    'it holds several values',
  ],
  ['search publications return publications sort by journal', 'SCHEMA_INVALID_SORT_FIELD', 'it is an entity'],
  [
    'search publications return publications sort by journal.title',
    'SCHEMA_INVALID_SORT_FIELD',
    'sub-fields are not sort keys',
  ],
  ['search publications return publications sort by concepts', 'SCHEMA_INVALID_SORT_FIELD', 'structured values'],
  ['search publications return publications sort by yeer', 'SCHEMA_UNKNOWN_FIELD', "Did you mean 'year'?"],
  [
    'search publications return publications sort by relevance',
    'SCHEMA_RELEVANCE_WITHOUT_FULLTEXT',
    'needs a full-text search',
  ],
  ['search publications return funders sort by citations_total', 'SCHEMA_INVALID_FACET_SORT', 'Add it to aggregate'],
  ['search publications return funders aggregate rcr_avg sort by year', 'SCHEMA_INVALID_FACET_SORT', "not by 'year'"],
  [
    'search publications return publications[id + unnest(year)]',
    'SCHEMA_UNNEST_NOT_MULTIVALUE',
    'unnest(year) needs a multi-value field',
  ],
  [
    'search publications return publications[id + journal.title]',
    'SCHEMA_SUBFIELD_IN_FIELD_LIST',
    "'journal.title' names a sub-field",
  ],
  [
    'search publications return publications[basics - basics]',
    'SCHEMA_EMPTY_FIELD_LIST',
    "The field list of 'publications' leaves no field",
  ],
  ['search publications return year return year', 'SCHEMA_DUPLICATE_RESULT_KEY', "the key 'year'"],
  ['search publications return year as "funders" return funders', 'SCHEMA_DUPLICATE_RESULT_KEY', "'funders'"],
  ['search publications return in "year" funders return year', 'SCHEMA_DUPLICATE_RESULT_KEY', "'year'"],
  ['search publications return year return in "year" funders', 'SCHEMA_DUPLICATE_RESULT_KEY', "'year'"],
  ['search publications return year as "_stats"', 'SCHEMA_RESERVED_RESULT_KEY', "The key '_stats' is reserved"],
  ['search publications return in "_g" year', 'SCHEMA_RESERVED_RESULT_KEY', "'_g'"],
  [
    'search publications for min_should_match("a OR b", 3) return publications',
    'SCHEMA_SEARCH_FUNCTION_ARGUMENTS',
    '3 clauses must match but the search string has 2',
  ],
  [
    'search publications for min_should_match("a OR b", 0) return publications',
    'SCHEMA_SEARCH_FUNCTION_ARGUMENTS',
    'must be a whole number of 1 or more',
  ],
  [
    'search publications for min_should_match("a OR b") return publications',
    'SCHEMA_SEARCH_FUNCTION_ARGUMENTS',
    'it takes two arguments',
  ],
  [
    'search publications for min_should_match("a OR b OR c OR d OR e OR f OR g OR h OR i OR j OR k OR l OR m", 6) return publications',
    'SCHEMA_MIN_SHOULD_MATCH_TOO_BROAD',
    '6 of 13 clauses has 1716 combinations',
  ],
  [
    'search publications for complex("te?t model", 2) return publications',
    'SCHEMA_SEARCH_FUNCTION_ARGUMENTS',
    "only a trailing * is offered inside complex(), not 'te?t'",
  ],
  [
    'search publications for complex("\\"formal model\\"~3", 2) return publications',
    'SCHEMA_SEARCH_FUNCTION_ARGUMENTS',
    'the distance goes in the second argument',
  ],
];

describe('invalid queries (version 2)', () => {
  for (const [text, code, says] of ERRORS_V2) {
    test(text, () => {
      const err = rejected(text);
      assert.equal(err.code, code, err.message);
      assert.ok(err.message.includes(says), `message "${err.message}" should include "${says}"`);
      assert.ok(err.first.position, 'has a position');
    });
  }
});

describe('queries that are not searches', () => {
  test('citations_per_year(2010, 2020)', () => {
    const err = rejected('citations_per_year(2010, 2020)');
    assert.equal(err.code, 'SCHEMA_FUNCTION_NEEDS_SEARCH');
    assert.match(err.message, /search publications/);
  });
  test('similar_documents(abstract="University of Oxford")', () => {
    const err = rejected('similar_documents(abstract="University of Oxford")');
    assert.equal(err.code, 'SCHEMA_UNSUPPORTED_FUNCTION');
    assert.equal(err.category, 'unsupported');
  });
  test('similar_documents(abstract="x") is a search function, not a statement', () => {
    assert.equal(rejected('similar_documents(abstract="x")').code, 'SCHEMA_UNSUPPORTED_FUNCTION');
  });
  test('frobnicate(1)', () => {
    assert.equal(rejected('frobnicate(1)').code, 'SCHEMA_UNKNOWN_FUNCTION');
  });
  test('describe entity categorys', () => {
    const err = rejected('describe entity categorys');
    assert.equal(err.code, 'SCHEMA_UNKNOWN_ENTITY');
    assert.match(err.message, /Did you mean 'categories'\?/);
  });
  test('describe source grant', () => {
    const err = rejected('describe source grant');
    assert.equal(err.code, 'SCHEMA_UNKNOWN_SOURCE');
    assert.match(err.message, /Did you mean 'grants'\?/);
  });
  test('describe version / schema / source grants / entity journals validate', () => {
    for (const text of ['describe version', 'describe schema', 'describe source grants', 'describe entity journals']) {
      assert.equal(valid(text).query.kind, 'describe');
    }
  });
});

describe('unsupported versus unknown', () => {
  test('held sources are never reported as unsupported', () => {
    for (const name of SOURCE_NAMES) valid(`search ${name} return ${name}`);
  });
  test('an unsupported function comes first among several problems', () => {
    const err = rejected('search publications where titel = 1 return similar_documents(abstract="x")');
    assert.equal(err.code, 'SCHEMA_UNSUPPORTED_FUNCTION');
    assert.equal(err.problems.length, 2);
  });
});

describe('permissions', () => {
  test('search grants return grants — not subscribed to grants', () => {
    const err = rejected('search grants return grants', 2, { sources: ['publications'] });
    assert.equal(err.code, 'SCHEMA_SOURCE_NOT_SUBSCRIBED');
    assert.equal(err.category, 'permission');
  });
  test('search publications return publications — subscribed', () => {
    valid('search publications return publications', 2, { sources: ['publications'] });
  });
});

describe('all problems at once, with positions', () => {
  test('search publications where titel = 1 and yeer = 2 return publications[doi + x] limit 2000', () => {
    const text = 'search publications where titel = 1 and yeer = 2 return publications[doi + x] limit 2000';
    const err = rejected(text);
    assert.deepEqual(
      err.problems.map((p) => p.code),
      ['SCHEMA_UNKNOWN_FIELD', 'SCHEMA_UNKNOWN_FIELD', 'SCHEMA_UNKNOWN_FIELD', 'SCHEMA_LIMIT_TOO_LARGE'],
    );
    const at = (word: string): number => text.indexOf(word) + 1;
    assert.deepEqual(
      err.problems.map((p) => p.position?.column),
      [at('titel'), at('yeer'), at('x]'), at('2000')],
    );
    assert.deepEqual(err.problems[0]?.span, { start: 26, end: 31 });
  });
  test('a query spread over lines reports line and column of the field', () => {
    const text = 'search publications\n  where year = 2020\n    and titel = "x"\nreturn publications';
    const err = rejected(text);
    assert.deepEqual(err.first.position, { line: 3, column: 9 });
    const body = renderErrorBody(err, { dslVersion: 2 });
    assert.equal(body.errors.query.code, 'SCHEMA_UNKNOWN_FIELD');
    assert.equal(body.errors.query.line, 3);
    assert.equal(body.errors.query.column, 9);
    assert.equal(body.errors.query.header, '1 QueryError found');
    assert.equal(renderErrorBody(err, { dslVersion: 1 }).errors.query.header, 'Semantic Error');
  });
  test('problems are capped, the last one saying so', () => {
    const fields = Array.from({ length: 30 }, (_, i) => `nofield${i} = 1`).join(' and ');
    const text = `search publications where ${fields} return publications`;
    const err = rejected(text, 2, undefined, 10);
    assert.equal(err.problems.length, 10);
    assert.equal(err.problems[9]?.code, 'SCHEMA_TOO_MANY_PROBLEMS');
    assert.equal(rejected(text).problems.length, 20);
  });
});

describe('several unnest() in one field list', () => {
  test('search publications return publications[unnest(researchers) + unnest(funders)]', () => {
    // Retired: 'SCHEMA_UNNEST_MORE_THAN_ONE'. The rows are now the cartesian product, with a warning.
    const { warnings } = valid('search publications return publications[unnest(researchers) + unnest(funders)]');
    assert.deepEqual(warnings, [unnestProductWarning(['researchers', 'funders'])]);
  });
  test('search publications return publications[id + unnest(concepts)] — structured lists unnest too', () => {
    assert.deepEqual(valid('search publications return publications[id + unnest(concepts)]').warnings, []);
  });
});

describe('version 1', () => {
  test('search publications where FOR.name = "x" return publications[id + FOR + references]', () => {
    const { warnings } = valid(
      'search publications where FOR.name = "x" return publications[id + FOR + references]',
      1,
    );
    assert.deepEqual(warnings, [
      "Field 'FOR' is deprecated in favor of category_for. Please refer to https://docs.dimensions.ai/dsl/releasenotes.html for more details",
      "Field 'references' is deprecated in favor of reference_ids. Please refer to https://docs.dimensions.ai/dsl/releasenotes.html for more details",
    ]);
  });
  test('search publications return publications [all] limit 5', () => {
    const { warnings, query } = valid('search publications return publications [all] limit 5', 1);
    // The hosted service's v1 `[all]` holds the deprecated fields and gave these warnings,
    // in this order (spec/sample-results 03): open_access was then deprecated in favour of
    // open_access_categories.
    assert.deepEqual(warnings, [
      deprecationWarning('terms', 'concepts'),
      deprecationWarning('open_access', 'open_access_categories'),
      deprecationWarning('references', 'reference_ids'),
    ]);
    assert.ok(query.kind === 'search' && query.returns[0]?.kind === 'records' && query.returns[0].fields.length > 60);
    const names = query.kind === 'search' && query.returns[0]?.kind === 'records' ? query.returns[0].fields : [];
    assert.ok(names.some((f) => f.field.name === 'author_affiliations'));
  });
  test('search publications return publications: version 1 basics give author_affiliations, without a warning', () => {
    for (const query of [
      'search publications return publications',
      'search publications return publications[basics]',
    ]) {
      const { warnings, query: validated } = valid(query, 1);
      const fields =
        validated.kind === 'search' && validated.returns[0]?.kind === 'records' ? validated.returns[0].fields : [];
      const names = fields.map((f) => f.field.name);
      assert.ok(names.includes('author_affiliations'), query);
      assert.ok(!names.includes('authors'), query);
      assert.deepEqual(warnings, [], query);
    }
    // Named on its own it still warns.
    assert.deepEqual(valid('search publications return publications[id + author_affiliations]', 1).warnings, [
      deprecationWarning('author_affiliations', 'authors'),
    ]);
  });
  test('search publications return FOR_first aggregate citations_total', () => {
    const { warnings } = valid('search publications return FOR_first aggregate citations_total', 1);
    assert.deepEqual(warnings, [deprecationWarning('FOR_first', 'category_for')]);
  });
  test('search grants return grants[investigators_details + HRCS_HC]', () => {
    const q = search('search grants return grants[investigators_details + HRCS_HC]', 1);
    const ret = q.returns[0];
    assert.ok(ret?.kind === 'records');
    assert.deepEqual(
      ret.fields.map((f) => [f.field.name, f.field.deprecated?.readsFrom]),
      [
        ['investigators_details', 'investigators'],
        ['HRCS_HC', 'category_hrcs_hc'],
      ],
    );
    assert.equal(q.warnings.length, 2);
  });
  test('version 1 still rejects what is wrong in both versions', () => {
    assert.equal(rejected('search publications return publications limit 2000', 1).code, 'SCHEMA_LIMIT_TOO_LARGE');
  });
});

test('validation never throws anything but a QuarryError for parsed queries', () => {
  const texts = [...VALID_V2, ...ERRORS_V2.map(([q]) => q)];
  for (const text of texts) {
    for (const dslVersion of [1, 2] as const) {
      try {
        validate(parse(text), { dslVersion, source: text });
      } catch (error) {
        assert.equal((error as Error).name, 'QuarryError', `${text}: ${String(error)}`);
      }
    }
  }
});
