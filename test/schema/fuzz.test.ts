import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { parse } from '../../src/dsl/index.ts';
import { isQuarryError } from '../../src/errors/index.ts';
import { schemaFor, validate } from '../../src/schema/index.ts';

// Generated queries built from the schema's own names plus noise: validation must either
// accept (and produce one validated return per return clause) or reject with coded
// problems whose spans lie inside the query; it must never throw anything else.

const schema = schemaFor(1);
const sources = [...schema.sources.keys(), 'patents', 'publication', 'datasets'];
const fieldNames = [
  ...new Set([...schema.sources.values()].flatMap((s) => s.fields.map((f) => f.name))),
  'titel',
  'nope',
  'research_orgs.name',
  'journal.title',
  'year.id',
  'all',
  'basics',
];
const indicatorNames = ['count', 'citations_total', 'funding', 'rcr_avg', 'nope'];

/** Mostly the source's own filterable, facet or scalar fields, sometimes anything. */
function namesOf(source: string): string[] {
  const s = schema.sources.get(source as never);
  return s ? s.fields.map((f) => f.name) : fieldNames;
}

function queryFor(source: string): fc.Arbitrary<string> {
  const own = namesOf(source);
  const descriptor = schema.sources.get(source as never);
  const facets = descriptor ? descriptor.fields.filter((f) => f.isFacet).map((f) => f.name) : fieldNames;
  const indexes = descriptor ? descriptor.searchIndexes.map((ix) => ix.name) : ['full_data'];
  const name = fc.oneof(
    { arbitrary: fc.constantFrom(...own), weight: 8 },
    { arbitrary: fc.constantFrom(...fieldNames), weight: 1 },
  );
  const value = fc.oneof(
    fc.integer({ min: -5, max: 3000 }).map(String),
    fc.constantFrom('"2020-01-22"', '"2020"', '"2020-13-40"', '"x y"', '""', '"grid.1"', '1.5', '"12"'),
  );
  const condition = fc.oneof(
    fc.tuple(name, fc.constantFrom('=', '!=', '>', '<', '>=', '<=', '~'), value).map(([f, op, v]) => `${f} ${op} ${v}`),
    fc.tuple(name, fc.array(value, { minLength: 1, maxLength: 3 })).map(([f, vs]) => `${f} in [${vs.join(', ')}]`),
    fc.tuple(name, value, value).map(([f, a, b]) => `${f} in [${a}:${b}]`),
    fc.tuple(name, fc.boolean()).map(([f, not]) => `${f} is ${not ? 'not ' : ''}empty`),
    fc.tuple(name, fc.integer({ min: -1, max: 9 })).map(([f, n]) => `count(${f}) > ${n}`),
  );
  const filter = fc.array(condition, { minLength: 1, maxLength: 2 }).map((cs) => cs.join(' or '));
  const modifiers = fc
    .record(
      {
        aggregate: fc.array(fc.constantFrom(...indicatorNames), { minLength: 1, maxLength: 2 }),
        sort: fc.tuple(fc.constantFrom(...own, 'relevance', 'count', 'funding'), fc.constantFrom('', ' asc', ' desc')),
        limit: fc.integer({ min: -1, max: 2000 }),
        skip: fc.integer({ min: -1, max: 60000 }),
      },
      { requiredKeys: [] },
    )
    .map((m) =>
      [
        m.aggregate ? ` aggregate ${m.aggregate.join(', ')}` : '',
        m.sort ? ` sort by ${m.sort[0]}${m.sort[1]}` : '',
        m.limit !== undefined ? ` limit ${m.limit}` : '',
        m.limit !== undefined && m.skip !== undefined ? ` skip ${m.skip}` : '',
      ].join(''),
    );
  const fieldList = fc
    .array(fc.tuple(fc.constantFrom('', '', '-', 'unnest'), name), { minLength: 1, maxLength: 4 })
    .map(
      (items) =>
        `[${items.map(([k, f], i) => (k === 'unnest' ? `${i > 0 ? '+ ' : ''}unnest(${f})` : `${k === '-' ? '- ' : i > 0 ? '+ ' : ''}${f}`)).join(' ')}]`,
    );
  const target = fc.oneof(
    { arbitrary: fc.constant(source), weight: 3 },
    // A source without facets (the organization groups) returns a facet name it lacks instead.
    { arbitrary: facets.length > 0 ? fc.constantFrom(...facets) : name, weight: 3 },
    { arbitrary: name, weight: 1 },
    {
      arbitrary: fc.constantFrom('citations_per_year(2010, 2020)', 'extract_concepts("x")', 'citations_per_year(2020)'),
      weight: 1,
    },
  );
  return fc
    .tuple(
      fc.option(
        fc.tuple(
          fc.oneof(
            { arbitrary: fc.constant(null), weight: 3 },
            { arbitrary: fc.constantFrom(...indexes, 'authors', 'nope'), weight: 1 },
          ),
          fc.constantFrom('malaria', 'Ana Silva', '\\"Jennifer A Doudna\\"'),
        ),
      ),
      fc.option(filter),
      fc.array(
        fc.tuple(
          target,
          fc.option(fieldList),
          fc.oneof({ arbitrary: fc.constant(''), weight: 2 }, { arbitrary: modifiers, weight: 1 }),
        ),
        {
          minLength: 1,
          maxLength: 2,
        },
      ),
    )
    .map(([fullText, where, returns]) => {
      const ft = fullText ? ` ${fullText[0] ? `in ${fullText[0]} ` : ''}for "${fullText[1]}"` : '';
      const rs = returns.map(([t, list, mods]) => ` return ${t}${list !== null && t === source ? list : ''}${mods}`);
      return `search ${source}${ft}${where ? ` where ${where}` : ''}${rs.join('')}`;
    });
}

const query = fc
  .oneof(
    { arbitrary: fc.constantFrom(...schema.sources.keys()), weight: 6 },
    { arbitrary: fc.constantFrom(...sources), weight: 1 },
  )
  .chain(queryFor);

test('generated queries: validated or rejected with positioned, coded problems; never a crash', () => {
  let accepted = 0;
  let rejected = 0;
  fc.assert(
    fc.property(query, fc.constantFrom(1 as const, 2 as const), (text, dslVersion) => {
      let ast;
      try {
        ast = parse(text);
      } catch (error) {
        if (isQuarryError(error)) return; // the language's concern, tested in test/dsl
        throw error;
      }
      try {
        const { query: validated } = validate(ast, { dslVersion, source: text });
        accepted++;
        assert.equal(validated.kind, 'search');
        if (validated.kind === 'search' && ast.kind === 'SearchQuery')
          assert.equal(validated.returns.length, ast.returns.length);
      } catch (error) {
        if (!isQuarryError(error)) throw error;
        rejected++;
        assert.ok(error.problems.length >= 1 && error.problems.length <= 20);
        for (const p of error.problems) {
          if (p.span === undefined) continue;
          assert.ok(
            p.span.start >= 0 && p.span.start <= p.span.end && p.span.end <= text.length,
            `${p.code} span in ${text}`,
          );
          assert.ok(p.position, p.code);
        }
      }
    }),
    { numRuns: 1500, seed: 20261122 },
  );
  assert.ok(accepted > 50, `some generated queries validate (${accepted})`);
  assert.ok(rejected > 20, `some are rejected (${rejected})`);
});
