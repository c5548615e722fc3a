// The DSL text the MCP tools write: string literals that read back as the value whatever it
// holds, and the next page of run_query rewritten in place or appended.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { parse } from '../../src/dsl/index.ts';
import { dslCall, dslString } from '../../src/mcp/dsl-text.ts';
import { nextPageQuery } from '../../src/mcp/next-page.ts';

describe('dslString and dslCall', () => {
  for (const value of ['plain', 'say "hi"', 'back\\slash', 'ends with \\', '\\"', 'line\nbreak', '乳がん'])
    test(`reads back ${JSON.stringify(value)}`, () => {
      const query = parse(`search grants where title = ${dslString(value)} return grants`);
      assert.equal(query.kind, 'SearchQuery');
      const filter = query.kind === 'SearchQuery' ? query.filter : undefined;
      assert.equal(filter?.kind === 'Comparison' ? filter.value.value : undefined, value);
    });

  test('a call with named arguments, absent ones left out, lists and objects as literals', () => {
    assert.equal(
      dslCall('extract_affiliations', { json: [{ affiliation: 'Univ "X"' }], name: undefined }),
      'extract_affiliations(json=[{"affiliation": "Univ \\"X\\""}])',
    );
    const call = parse(dslCall('check_researcher_ids', { ids: ['ur.1', 'ur.2'] }));
    assert.equal(call.kind, 'FunctionCallQuery');
  });
});

describe('nextPageQuery', () => {
  const stats = (total: number) => ({ _stats: { total_count: total } });

  test('appends limit and skip to a query without them, before a trailing semicolon', () => {
    assert.equal(
      nextPageQuery('search grants return grants;', stats(50)),
      'search grants return grants limit 20 skip 20;',
    );
  });

  test('rewrites the skip in place, keeping the rest as written', () => {
    assert.equal(
      nextPageQuery('search grants return grants[id]  limit 10   skip 20', stats(50)),
      'search grants return grants[id]  limit 10   skip 30',
    );
    assert.equal(
      nextPageQuery('search grants return grants limit 10', stats(50)),
      'search grants return grants limit 10 skip 10',
    );
  });

  test('no next page past the last record, for facets, or at the depth limit', () => {
    assert.equal(nextPageQuery('search grants return grants limit 10 skip 40', stats(50)), undefined);
    assert.equal(nextPageQuery('search grants return funders limit 10', stats(50)), undefined);
    assert.equal(nextPageQuery('search grants return grants return funders', stats(50)), undefined);
    assert.equal(
      nextPageQuery('search grants return grants limit 1000 skip 48500', stats(100_000)),
      'search grants return grants limit 500 skip 49500',
    );
    assert.equal(nextPageQuery('search grants return grants limit 1000 skip 49000', stats(100_000)), undefined);
  });
});
