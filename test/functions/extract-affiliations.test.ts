import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import type { FunctionCall, ListValue, StringValue } from '../../src/dsl/ast.ts';
import { parse } from '../../src/dsl/parse.ts';
import type { Span } from '../../src/errors/index.ts';
import type { MatchableOrganization } from '../../src/analytics/affiliations/organization.ts';
import { extractAffiliations, MAX_AFFILIATIONS } from '../../src/functions/extract-affiliations.ts';
import type { FunctionContext } from '../../src/functions/types.ts';

const organizations = JSON.parse(
  readFileSync(new URL('../fixtures/affiliations/organizations.json', import.meta.url), 'utf8'),
) as MatchableOrganization[];

/** The fixture as the store answers organization records. */
const rows = organizations.map((o) => ({
  id: o.id,
  name: o.name,
  aliases: o.aliases,
  acronym: o.acronyms[0] ?? null,
  city_name: o.city ?? null,
  state_name: o.state ?? null,
  country_code: o.countryCode ?? null,
  country_name: o.countryName ?? null,
  types: o.types,
  status: o.status,
  redirect: o.successor ?? null,
}));

function context(): FunctionContext & { reads: number; builds: number } {
  const cache = new Map<string, unknown>();
  const ctx = {
    reads: 0,
    builds: 0,
    dslVersion: 2 as const,
    query: () => Promise.reject(new Error('not used')),
    async *readAll(source: string, fields: readonly string[]) {
      assert.equal(source, 'organizations');
      assert.ok(fields.includes('name'));
      ctx.reads += 1;
      yield await Promise.resolve(rows.slice(0, 100));
      yield rows.slice(100);
    },
    async derived<T>(key: string, build: () => Promise<T>): Promise<T> {
      if (!cache.has(key)) {
        ctx.builds += 1;
        cache.set(key, await build());
      }
      return cache.get(key) as T;
    },
  };
  return ctx;
}

class Failure extends Error {
  constructor(
    message: string,
    readonly span: Span,
  ) {
    super(message);
  }
}
const fail = (message: string, span: Span): never => {
  throw new Failure(message, span);
};

function callOf(text: string): FunctionCall {
  const query = parse(text);
  assert.equal(query.kind, 'FunctionCallQuery');
  return query.call;
}

const span = (start: number, end: number): Span => ({ start, end });
const str = (value: string): StringValue => ({ kind: 'String', value, triple: false, span: span(0, 1) });

/** `extract_affiliations(json=VALUE)` built by hand (JSON literals come with the parser's JSON arguments). */
function jsonCall(value: StringValue | ListValue): FunctionCall {
  const name = { kind: 'Name' as const, value: 'json', span: span(21, 25) };
  return {
    kind: 'FunctionCall',
    name: { kind: 'Name', value: 'extract_affiliations', span: span(0, 20) },
    args: [{ kind: 'NamedArgument', name, value: { ...value, span: span(26, 40) }, span: span(21, 40) }],
    span: span(0, 41),
  };
}

test('answers the organizations a free-text affiliation names, in the hosted shape', async () => {
  const ctx = context();
  const args = extractAffiliations.check(
    callOf('extract_affiliations(affiliation="Department of Biology, Fudan University, Shanghai, China")'),
    fail,
  );
  const answer = (await extractAffiliations.run(args, ctx)) as {
    results: { input: unknown; matches: { institutes: { institute: Record<string, unknown>; score: number }[] }[] }[];
  };
  assert.equal(answer.results.length, 1);
  const result = answer.results[0]!;
  assert.deepEqual(result.input, { affiliation: 'Department of Biology, Fudan University, Shanghai, China' });
  const institutes = result.matches[0]!.institutes;
  const fudan = organizations.find((o) => o.name === 'Fudan University')!;
  assert.deepEqual(institutes[0]!.institute, {
    id: fudan.id,
    name: 'Fudan University',
    city: fudan.city ?? null,
    state: fudan.state ?? null,
    country: fudan.countryName ?? null,
  });
  assert.ok(institutes[0]!.score > 0 && institutes[0]!.score <= 1);
  // The index is built once and reused.
  await extractAffiliations.run(args, ctx);
  assert.equal(ctx.builds, 1);
  assert.equal(ctx.reads, 1);
});

test('answers empty matches for an affiliation naming no organization held', async () => {
  const args = extractAffiliations.check(
    callOf('extract_affiliations(affiliation="Independent researcher, Nowhere")'),
    fail,
  );
  assert.deepEqual(await extractAffiliations.run(args, context()), {
    results: [{ input: { affiliation: 'Independent researcher, Nowhere' }, matches: [] }],
  });
});

test('takes the structured form', async () => {
  const args = extractAffiliations.check(
    callOf('extract_affiliations(name="Fudan University", city="Shanghai", country="China")'),
    fail,
  );
  assert.deepEqual(args, { inputs: [{ name: 'Fudan University', city: 'Shanghai', country: 'China' }] });
  const answer = (await extractAffiliations.run(args, context())) as {
    results: { matches: { institutes: { institute: { name: string } }[] }[] }[];
  };
  assert.equal(answer.results[0]!.matches[0]!.institutes[0]!.institute.name, 'Fudan University');
});

test('takes the batch form, one result an input in order', async () => {
  const list = JSON.stringify([{ affiliation: 'Fudan University, Shanghai, China' }, { name: 'Nowhere Institute' }]);
  const args = extractAffiliations.check(jsonCall(str(list)), fail);
  const answer = (await extractAffiliations.run(args, context())) as {
    results: { input: unknown; matches: unknown[] }[];
  };
  assert.equal(answer.results.length, 2);
  assert.deepEqual(answer.results[1], { input: { name: 'Nowhere Institute' }, matches: [] });
  assert.equal(answer.results[0]!.matches.length, 1);
});

test('refuses bad arguments with a positioned message', () => {
  const refused = (call: FunctionCall, pattern: RegExp): void => {
    assert.throws(
      () => extractAffiliations.check(call, fail),
      (e: unknown) => e instanceof Failure && pattern.test(e.message) && e.span.end > e.span.start,
    );
  };
  refused(callOf('extract_affiliations(organisation="x")'), /no argument organisation/);
  refused(callOf('extract_affiliations(city="Paris")'), /needs affiliation/);
  refused(callOf('extract_affiliations(affiliation="x", name="y")'), /not both/);
  refused(callOf('extract_affiliations(affiliation=3)'), /must be a string/);
  const many = JSON.stringify(Array.from({ length: MAX_AFFILIATIONS + 1 }, () => ({ affiliation: 'x' })));
  refused(jsonCall(str(many)), /at most 200/);
  refused(jsonCall(str('[{"affiliation": 1}]')), /must be a string/);
  refused(jsonCall(str('[{"where": "x"}]')), /unknown key/);
  refused(jsonCall(str('{"affiliation": "x"}')), /list of objects/);
  refused(jsonCall(str('not json')), /list of objects/);
});
