import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { parse } from '../../src/dsl/parse.ts';
import { print } from '../../src/dsl/printer.ts';
import type { DescribeQuery, FunctionCallQuery, ResultTarget } from '../../src/dsl/ast.ts';
import { filterShape, parseFilterOf, parseSearch } from './helpers.ts';

// Each test is named by its query; the expectation is the canonical text the printer gives,
// which spells out how the query was read (keywords, clause order, field lists, values).
const statements: Array<readonly [query: string, canonical: string]> = [
  ['search grants return grants', 'search grants return grants'],
  ['SEARCH grants RETURN grants', 'search grants return grants'],
  ['Search Grants Return Grants LIMIT 5 Skip 10', 'search Grants return Grants limit 5 skip 10'],
  ['search\n  publications\n\tfor "x"\r\n  return publications', 'search publications for "x" return publications'],
  ['search grants for "lung cancer" return grants', 'search grants for "lung cancer" return grants'],
  [
    'search publications in title_only for "malaria" return publications',
    'search publications in title_only for "malaria" return publications',
  ],
  [
    'search grants where start_year=2000 for "laryngectomy" return grants',
    'search grants for "laryngectomy" where start_year = 2000 return grants',
  ],
  [
    'search grants where start_year=2000 in title_only for "x" return grants',
    'search grants in title_only for "x" where start_year = 2000 return grants',
  ],
  [
    'search publications return funders limit 5 return research_orgs limit 5 return year',
    'search publications return funders limit 5 return research_orgs limit 5 return year',
  ],
  [
    'search publications return publications[id+title+doi]',
    'search publications return publications[id + title + doi]',
  ],
  [
    'search publications return publications [ basics + times_cited ]',
    'search publications return publications[basics + times_cited]',
  ],
  ['search publications return publications[basics - doi]', 'search publications return publications[basics - doi]'],
  [
    'search publications return publications[basics-doi-title+year]',
    'search publications return publications[basics - doi - title + year]',
  ],
  ['search publications return publications[-doi]', 'search publications return publications[-doi]'],
  [
    'search publications return publications[id+unnest(category_for)]',
    'search publications return publications[id + unnest(category_for)]',
  ],
  [
    'search publications return publications[UNNEST ( researchers )]',
    'search publications return publications[unnest(researchers)]',
  ],
  ['search publications return publications[journal.title]', 'search publications return publications[journal.title]'],
  [
    'search publications return publications[FOR + FOR_first]',
    'search publications return publications[FOR + FOR_first]',
  ],
  [
    'search publications return funders aggregate count, funding sort by funding limit 5',
    'search publications return funders aggregate count, funding sort by funding limit 5',
  ],
  [
    'search publications return funders aggregate altmetric_median,rcr_avg sort by rcr_avg DESC limit 5',
    'search publications return funders aggregate altmetric_median, rcr_avg sort by rcr_avg desc limit 5',
  ],
  [
    'search publications return publications sort by times_cited asc',
    'search publications return publications sort by times_cited asc',
  ],
  [
    'search grants for "x" return grants sort by relevance desc limit 5',
    'search grants for "x" return grants sort by relevance desc limit 5',
  ],
  ['search publications return funders sort by count', 'search publications return funders sort by count'],
  [
    'search publications return publications limit 5 sort by year',
    'search publications return publications sort by year limit 5',
  ],
  [
    'search publications return publications skip 40 limit 20',
    'search publications return publications limit 20 skip 40',
  ],
  ['search publications return publications skip 40', 'search publications return publications skip 40'],
  [
    'search publications return funders as "top_funders" limit 3',
    'search publications return funders as "top_funders" limit 3',
  ],
  [
    'search publications return in "facets" funders return in "facets" year',
    'search publications return in "facets" funders return in "facets" year',
  ],
  [
    'search publications return in "g" funders as "f" aggregate citations_total sort by citations_total asc limit 5',
    'search publications return in "g" funders as "f" aggregate citations_total sort by citations_total asc limit 5',
  ],
  [
    'search publications for "brexit" return citations_per_year(2010, 2020)',
    'search publications for "brexit" return citations_per_year(2010, 2020)',
  ],
  ['search publications return publication', 'search publications return publication'],
  ['search publications return publications [all] limit 5', 'search publications return publications[all] limit 5'],
  ['search publications return publications limit 2000', 'search publications return publications limit 2000'],
  ['search publications return year limit 10 skip 10', 'search publications return year limit 10 skip 10'],
  ['search publications return publications limit -1', 'search publications return publications limit -1'],
  [
    'search patents where assignees != "grid.410484.d" return patents limit 5',
    'search patents where assignees != "grid.410484.d" return patents limit 5',
  ],
  ['describe version', 'describe version'],
  ['describe schema', 'describe schema'],
  ['DESCRIBE Source publications', 'describe source publications'],
  ['describe entity categories', 'describe entity categories'],
  ['extract_concepts("malaria is a disease")', 'extract_concepts("malaria is a disease")'],
  ['extract_concepts("text", return_scores=true)', 'extract_concepts("text", return_scores=true)'],
  ['classify(title="t", abstract="a", system="FOR")', 'classify(title="t", abstract="a", system="FOR")'],
  [
    'similar_documents(ids=["pub.1", "pub.2"], limit=5, threshold=0.5, flag=FALSE)',
    'similar_documents(ids=["pub.1", "pub.2"], limit=5, threshold=0.5, flag=false)',
  ],
  ['f()', 'f()'],
  ['extract_concepts("""He said "hi" twice""")', 'extract_concepts("""He said "hi" twice""")'],
  [
    'search publications for """a "quoted phrase" inside""" return publications',
    'search publications for """a "quoted phrase" inside""" return publications',
  ],
  ['search publications for "乳がん" return publications', 'search publications for "乳がん" return publications'],
  ['search publications for "a\\\\b" return publications', 'search publications for "a\\b" return publications'],
  [
    'search publications for "\\"phrase one\\" AND \\"phrase two\\"" return publications',
    'search publications for "\\"phrase one\\" AND \\"phrase two\\"" return publications',
  ],
  [
    'search publications for "c\\+\\+ \\(lang\\)" return publications',
    'search publications for "c\\+\\+ \\(lang\\)" return publications',
  ],
];

// Search functions after `for`, and boosts inside the search string.
statements.push(
  [
    'search publications for min_should_match("a OR b OR c", 2) return publications',
    'search publications for min_should_match("a OR b OR c", 2) return publications',
  ],
  [
    'search publications in title_only for COMPLEX("quantum networking",3) return publications',
    'search publications in title_only for COMPLEX("quantum networking", 3) return publications',
  ],
  [
    'search publications for "formal^4 model \\"deep nets\\"~3^2.5" return publications',
    'search publications for "formal^4 model \\"deep nets\\"~3^2.5" return publications',
  ],
);

describe('parser: statements', () => {
  for (const [query, canonical] of statements) {
    test(query, () => {
      assert.equal(print(parse(query)), canonical);
    });
  }
});

// Filters: the shape is fully parenthesised so that precedence is visible.
const filters: ReadonlyArray<readonly [filter: string, shape: string]> = [
  ['year=2019', 'year=2019'],
  ['year = 2019', 'year=2019'],
  ['year="2019"', 'year="2019"'],
  ['year != 2019', 'year!=2019'],
  ['year > 2019', 'year>2019'],
  ['year < 2019', 'year<2019'],
  ['year >= 2019', 'year>=2019'],
  ['year <= 2019', 'year<=2019'],
  ['research_orgs.name ~ "Saarland Uni"', 'research_orgs.name~"Saarland Uni"'],
  ['altmetric > 2.5', 'altmetric>2.5'],
  ['score > -3', 'score>-3'],
  ['score > 1e3', 'score>1e3'],
  ['date > "2020-01-22"', 'date>"2020-01-22"'],
  ['obsolete=0', 'obsolete=0'],
  ['research_orgs.id in ["grid.1008.9","grid.1002.3"]', 'research_orgs.id in ["grid.1008.9","grid.1002.3"]'],
  [
    'research_org_names in [ "UC Berkeley", "UC Davis", "UCLA" ]',
    'research_org_names in ["UC Berkeley","UC Davis","UCLA"]',
  ],
  ['year in [2013:2018]', 'year in [2013:2018]'],
  ['start_year in [ 2010 : 2015 ]', 'start_year in [2010:2015]'],
  ['date in ["2019-01":"2019-06"]', 'date in ["2019-01":"2019-06"]'],
  ['year in [2019]', 'year in [2019]'],
  ['doi is empty', 'doi is empty'],
  ['doi IS NOT EMPTY', 'doi is not empty'],
  ['count(research_orgs) > 5', 'count(research_orgs)>5'],
  ['COUNT ( researchers ) >= 50', 'count(researchers)>=50'],
  ['a = 1 and b = 2 and c = 3', '(and a=1 b=2 c=3)'],
  ['a = 1 or b = 2 and c = 3', '(or a=1 (and b=2 c=3))'],
  ['a = 1 and b = 2 or c = 3', '(or (and a=1 b=2) c=3)'],
  ['(a = 1 or b = 2) and c = 3', '(and (or a=1 b=2) c=3)'],
  ['not a = 1 and b = 2', '(and (not a=1) b=2)'],
  ['not (a = 1 or b = 2)', '(not (or a=1 b=2))'],
  ['not not a = 1', '(not (not a=1))'],
  ['a = 1 AND b = 2 OR NOT c = 3', '(or (and a=1 b=2) (not c=3))'],
  ['((a = 1))', 'a=1'],
  ['(a = 1 and b = 2) and c = 3', '(and (and a=1 b=2) c=3)'],
  ['FOR = "1103"', 'FOR="1103"'],
  ['not = 1', 'not=1'],
  ['in in [1, 2]', 'in in [1,2]'],
  ['count = 3', 'count=3'],
  ['name = "a \\"quoted\\" word"', 'name="a \\"quoted\\" word"'],
  ['name = "back\\\\slash"', 'name="back\\\\slash"'],
  // binary not: `a not b` is `a and not b`, at the level of `and`
  ['a = 1 not b = 2', '(and a=1 (not b=2))'],
  ['a = 1 not b = 2 and c = 3', '(and a=1 (not b=2) c=3)'],
  ['a = 1 or b = 2 not c = 3', '(or a=1 (and b=2 (not c=3)))'],
  ['a = 1 NOT (b = 2 or c = 3)', '(and a=1 (not (or b=2 c=3)))'],
  ['a = 1 not not = 2', '(and a=1 (not not=2))'],
  // `field = [...]` is `in`
  ['year = [2013:2018]', 'year in [2013:2018]'],
  ['research_orgs = ["grid.1", "grid.2"]', 'research_orgs in ["grid.1","grid.2"]'],
];

describe('parser: filters', () => {
  for (const [filter, shape] of filters) {
    test(`where ${filter}`, () => {
      assert.equal(filterShape(parseFilterOf(filter)), shape);
    });
  }
});

describe('parser: tree details', () => {
  test('search publications in authors for "\\"Jennifer A Doudna\\"" return publications limit 5', () => {
    const q = parseSearch('search publications in authors for "\\"Jennifer A Doudna\\"" return publications limit 5');
    assert.equal(q.source.value, 'publications');
    assert.equal(q.fullText?.index?.value, 'authors');
    assert.equal(q.fullText?.text.value, '"Jennifer A Doudna"');
    assert.deepEqual(q.fullText?.ast.kind, 'TextPhrase');
    assert.equal(q.returns[0]?.limit?.value, 5);
    assert.equal(q.returns[0]?.limit?.integer, true);
  });

  test('search publications return publications — no field list means fields is absent', () => {
    const q = parseSearch('search publications return publications');
    const target = q.returns[0]?.target as ResultTarget;
    assert.equal(target.kind, 'ResultTarget');
    assert.equal(target.fields, undefined);
    assert.equal(q.fullText, undefined);
    assert.equal(q.filter, undefined);
  });

  test('search publications return publications[basics - doi + unnest(researchers)] — field specs', () => {
    const q = parseSearch('search publications return publications[basics - doi + unnest(researchers)]');
    const target = q.returns[0]?.target as ResultTarget;
    assert.deepEqual(
      target.fields?.map((f) =>
        f.kind === 'FieldRef' ? `${f.exclude ? '-' : '+'}${f.path.path}` : `unnest ${f.path.path}`,
      ),
      ['+basics', '-doi', 'unnest researchers'],
    );
  });

  test('search publications return funders aggregate count, funding sort by funding asc limit 5 — return clause', () => {
    const q = parseSearch(
      'search publications return funders as "x" aggregate count, funding sort by funding asc limit 5 skip 2',
    );
    const r = q.returns[0]!;
    assert.equal(r.alias?.value, 'x');
    assert.deepEqual(
      r.aggregate?.map((n) => n.value),
      ['count', 'funding'],
    );
    assert.equal(r.sort?.key.path, 'funding');
    assert.equal(r.sort?.direction, 'asc');
    assert.equal(r.skip?.value, 2);
  });

  test('sort by year — direction absent when not written', () => {
    const q = parseSearch('search publications return publications sort by year');
    assert.equal(q.returns[0]?.sort?.direction, undefined);
    assert.equal(Object.hasOwn(q.returns[0]!.sort!, 'direction'), false);
  });

  test('describe source publications — target and name', () => {
    const q = parse('describe source publications') as DescribeQuery;
    assert.equal(q.target, 'source');
    assert.equal(q.name?.value, 'publications');
    const v = parse('describe version') as DescribeQuery;
    assert.equal(v.name, undefined);
  });

  test('extract_concepts("abc", return_scores=true, n=[1, "a"]) — positional and named arguments', () => {
    const q = parse('extract_concepts("abc", return_scores=true, n=[1, "a"])') as FunctionCallQuery;
    assert.equal(q.kind, 'FunctionCallQuery');
    assert.equal(q.call.name.value, 'extract_concepts');
    assert.deepEqual(
      q.call.args.map((a) => a.kind),
      ['PositionalArgument', 'NamedArgument', 'NamedArgument'],
    );
    const named = q.call.args[2];
    assert.ok(named?.kind === 'NamedArgument' && named.value.kind === 'List');
    assert.equal(named.value.items.length, 2);
  });

  test('search publications for "brexit" return citations_per_year(2010, 2020) — function result', () => {
    const q = parseSearch('search publications for "brexit" return citations_per_year(2010, 2020)');
    const target = q.returns[0]?.target;
    assert.ok(target?.kind === 'FunctionTarget');
    assert.equal(target.call.name.value, 'citations_per_year');
    assert.deepEqual(
      target.call.args.map((a) => (a.value.kind === 'Number' ? a.value.value : null)),
      [2010, 2020],
    );
  });

  test('where year="2019" — a quoted number stays a string; the schema decides', () => {
    const f = parseFilterOf('year="2019"');
    assert.ok(f.kind === 'Comparison' && f.value.kind === 'String');
    assert.equal(f.value.value, '2019');
    assert.equal(f.value.triple, false);
  });

  test('where score > 2.5 — number flags', () => {
    const f = parseFilterOf('score > 2.5');
    assert.ok(f.kind === 'Comparison' && f.value.kind === 'Number');
    assert.equal(f.value.value, 2.5);
    assert.equal(f.value.integer, false);
    assert.equal(f.value.raw, '2.5');
  });

  test('spans: every node points at its own text', () => {
    const text =
      'search publications for "malaria" where research_orgs.id = "grid.1" and year in [2010:2012] return funders aggregate count sort by count limit 5';
    const q = parseSearch(text);
    const slice = (s: { start: number; end: number }) => text.slice(s.start, s.end);
    assert.equal(slice(q.span), text);
    assert.equal(slice(q.source.span), 'publications');
    assert.equal(slice(q.fullText!.span), 'for "malaria"');
    assert.equal(slice(q.fullText!.text.span), '"malaria"');
    assert.equal(slice(q.fullText!.ast.span), 'malaria');
    assert.equal(slice(q.filter!.span), 'research_orgs.id = "grid.1" and year in [2010:2012]');
    const and = q.filter!;
    assert.ok(and.kind === 'And');
    assert.equal(slice(and.operands[0]!.span), 'research_orgs.id = "grid.1"');
    const first = and.operands[0]!;
    assert.ok(first.kind === 'Comparison');
    assert.equal(slice(first.field.span), 'research_orgs.id');
    assert.equal(slice(and.operands[1]!.span), 'year in [2010:2012]');
    const r = q.returns[0]!;
    assert.equal(slice(r.span), 'return funders aggregate count sort by count limit 5');
    assert.equal(slice(r.sort!.span), 'sort by count');
    assert.equal(slice(r.limit!.span), '5');
  });

  test('nodes are frozen', () => {
    const q = parseSearch('search publications where a = 1 and b = 2 return publications[id]');
    assert.ok(Object.isFrozen(q));
    assert.ok(Object.isFrozen(q.returns));
    assert.ok(Object.isFrozen(q.filter));
    assert.ok(q.filter?.kind === 'And' && Object.isFrozen(q.filter.operands));
    const target = q.returns[0]!.target as ResultTarget;
    assert.ok(Object.isFrozen(target.fields));
    assert.throws(() => {
      (q as { source: unknown }).source = null;
    }, TypeError);
    assert.ok(Object.isFrozen(q.span) && Object.isFrozen(q.source.span));
    assert.ok(q.returns[0]!.target.kind === 'ResultTarget' && Object.isFrozen(q.returns[0]!.target.fields![0]!));
    const text = parseSearch('search p for "a (b OR c)" return p').fullText!.ast;
    assert.ok(
      text.kind === 'TextAnd' &&
        Object.isFrozen(text) &&
        Object.isFrozen(text.operands) &&
        Object.isFrozen(text.operands[1]!.span),
    );
  });

  test('trees are plain data that survive structuredClone', () => {
    const q = parse('search publications for "a AND \\"b c\\"~3" where x in [1:2] return publications[id] limit 5');
    assert.deepEqual(structuredClone(q), q);
  });
});
