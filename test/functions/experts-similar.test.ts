// `identify experts ...` and `search ... for similar_documents("...")` on both engines
// (SQLite and PostgreSQL) over the same small record set (experts-fixture.ts). Expected
// answers are derived from the fixture and from plain searches of the same engine, never
// written out as numbers. identify experts runs as the engines dispatch it (prepareQuery
// gives the prepared function), with a FunctionContext whose `query` is the engine's own.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { createPostgresEngine } from '../../src/engine/backends/postgres/engine.ts';
import { runQuery } from '../../src/engine/backends/sqlite/query-context.ts';
import { prepareQuery } from '../../src/engine/run-query.ts';
import type { QueryEngine } from '../../src/engine/types.ts';
import { QuarryError } from '../../src/errors/index.ts';
import type { FunctionContext, QueryResult } from '../../src/functions/types.ts';
import { openReadOnly } from '../../src/store/sqlite/open.ts';
import type { TestPgDatabase } from '../fixtures/pg-db.ts';
import {
  ANA,
  BEN,
  CHEN,
  DANA,
  ELI,
  ORG_B,
  PUBLICATIONS,
  expertsDatabase,
  expertsPgDatabase,
} from './experts-fixture.ts';

type Row = Record<string, unknown>;
type Run = (text: string) => Promise<QueryResult>;

function contextOf(run: Run): FunctionContext {
  return {
    query: run,
    readAll: () => {
      throw new Error('not used');
    },
    derived: () => {
      throw new Error('not used');
    },
    dslVersion: 2,
  };
}

async function identify(run: Run, text: string): Promise<QueryResult> {
  const prepared = prepareQuery(text, { dslVersion: 2 });
  assert.equal(prepared.kind, 'function', 'identify experts prepares a function');
  if (prepared.kind !== 'function') throw new Error('not a function');
  assert.equal(prepared.prepared.name, 'identify_experts');
  return prepared.prepared.run(contextOf(run));
}

const rows = (value: unknown): Row[] => value as Row[];
const close = (a: number, b: number): boolean => Math.abs(a - b) <= 1e-9 * Math.max(1, Math.abs(a), Math.abs(b));

function suite(name: string, setup: () => Promise<{ run: Run; done: () => Promise<void> }>): void {
  describe(name, () => {
    let run: Run;
    let done: (() => Promise<void>) | undefined;
    before(async () => {
      ({ run, done } = await setup());
    });
    after(async () => {
      await done?.();
    });

    describe('similar_documents', () => {
      const own = PUBLICATIONS[0]!;
      test('a record comes first for its own abstract, scores descending', async () => {
        const result = await run(
          `search publications for similar_documents(${JSON.stringify(own.abstract)}) return publications[id + score]`,
        );
        const found = rows(result.publications);
        assert.equal(found[0]?.id, own.id);
        const scores = found.map((r) => r.score as number);
        assert.ok(scores.every((s) => typeof s === 'number' && s > 0));
        assert.deepEqual(
          scores,
          [...scores].sort((a, b) => b - a),
        );
      });
      test('sort by score gives the same order', async () => {
        const text = JSON.stringify(own.abstract);
        const ranked = await run(`search publications for similar_documents(${text}) return publications[id + score]`);
        const sorted = await run(
          `search publications for similar_documents(${text}) return publications[id + score] sort by score desc`,
        );
        assert.deepEqual(
          rows(sorted.publications).map((r) => r.id),
          rows(ranked.publications).map((r) => r.id),
        );
      });
      test('a where filter combines with it', async () => {
        const result = await run(
          'search publications for similar_documents("graphene sheets of carbon, graphene films") where year >= 2010 return publications[id + year]',
        );
        const found = rows(result.publications);
        assert.ok(found.length > 0);
        assert.ok(found.every((r) => (r.year as number) >= 2010));
        assert.ok(!found.some((r) => r.id === own.id), 'the 2004 paper is filtered out');
        const expected = PUBLICATIONS.filter(
          (p) => p.year >= 2010 && /graphene|carbon|films|sheets/i.test(`${p.title} ${p.abstract}`),
        )
          .map((p) => p.id)
          .sort();
        assert.deepEqual(found.map((r) => r.id).sort(), expected);
      });
      test('in an index', async () => {
        const result = await run(
          'search publications in title_only for similar_documents("malaria parasites and their drug resistance") return publications[id]',
        );
        assert.equal(rows(result.publications)[0]?.id, 'pub.1910000004');
        const expected = PUBLICATIONS.filter((p) => /malaria|parasites|drug|resistance/i.test(p.title))
          .map((p) => p.id)
          .sort();
        assert.deepEqual(
          rows(result.publications)
            .map((r) => r.id)
            .sort(),
          expected,
        );
      });
      test('on grants', async () => {
        const result = await run(
          'search grants for similar_documents("graphene transistors") return grants[id + score]',
        );
        assert.deepEqual(
          rows(result.grants).map((r) => r.id),
          ['grant.9100001'],
        );
      });
    });

    describe('identify experts', () => {
      test('the authors of the matching documents, ranked by summed relevance', async () => {
        const docs = await run(
          'search publications in concepts for "graphene" return publications[id + score + researchers]',
        );
        const expected = new Map<string, { docs: number; score: number }>();
        for (const d of rows(docs.publications)) {
          for (const r of rows(d.researchers)) {
            const e = expected.get(r.id as string) ?? { docs: 0, score: 0 };
            expected.set(r.id as string, { docs: e.docs + 1, score: e.score + (d.score as number) });
          }
        }
        const result = await identify(run, 'identify experts from concepts "graphene" return experts');
        const experts = rows(result.experts);
        assert.deepEqual(experts.map((e) => e.id).sort(), [ANA, BEN, ELI].sort());
        for (const e of experts) {
          const want = expected.get(e.id as string)!;
          assert.equal(e.docs_found, want.docs, `docs_found of ${String(e.id)}`);
          assert.ok(close(e.score as number, want.score), `score of ${String(e.id)}`);
          assert.equal(typeof e.first_name, 'string');
          assert.equal(typeof e.last_name, 'string');
        }
        assert.equal(experts.find((e) => e.id === ANA)?.docs_found, 2);
        const scores = experts.map((e) => e.score as number);
        assert.deepEqual(
          scores,
          [...scores].sort((a, b) => b - a),
        );
        assert.deepEqual(result._stats, { total_count: 3 });
        assert.equal(typeof result._copyright, 'string');
        assert.deepEqual(Object.keys(result._version as Row).sort(), ['release', 'version']);
      });
      test('several concepts, a where filter, limit', async () => {
        const result = await identify(
          run,
          'identify experts from concepts "\\"malaria\\" OR \\"graphene\\"" using publications where year >= 2015 return experts[basics] limit 10',
        );
        const ids = rows(result.experts).map((e) => e.id);
        // 2016 graphene (Ana), 2018 malaria (Chen, Dana), 2019 malaria (Dana); Ben (2004) and Eli (2010) filtered out.
        assert.deepEqual([...ids].sort(), [ANA, CHEN, DANA].sort());
        assert.equal(rows(result.experts).find((e) => e.id === DANA)?.docs_found, 2);
        const limited = await identify(
          run,
          'identify experts from concepts "malaria OR graphene" where year >= 2015 return experts[id] limit 1 skip 1',
        );
        assert.deepEqual(
          rows(limited.experts).map((e) => e.id),
          [ids[1]],
        );
        assert.deepEqual(limited._stats, { total_count: 3 });
      });
      test('using grants ranks investigators', async () => {
        const result = await identify(
          run,
          'identify experts from concepts "graphene" using grants return experts[id + last_name]',
        );
        assert.deepEqual(
          rows(result.experts).map((e) => [e.id, e.last_name, e.docs_found]),
          [[BEN, 'Novak', 1]],
        );
      });
      test('annotate coauthorship and organizational overlap', async () => {
        const result = await identify(
          run,
          `identify experts from concepts "graphene OR malaria" return experts[id] annotate coauthorship, organizational overlap with ["${CHEN}", "${ORG_B}"]`,
        );
        const notes = new Map(rows(result.experts).map((e) => [e.id, e.annotations]));
        // Ben wrote the neural-network paper with Chen; Dana the malaria vaccine paper.
        assert.deepEqual(notes.get(BEN), { coauthorship: 1, organizational: true });
        assert.deepEqual(notes.get(DANA), { coauthorship: 1, organizational: false });
        // Ana shares Chen's organization; Eli is at the organization given.
        assert.deepEqual(notes.get(ANA), { coauthorship: 0, organizational: true });
        assert.deepEqual(notes.get(ELI), { coauthorship: 0, organizational: true });
        // Chen is one of the given researchers: no coauthorship with himself.
        assert.deepEqual(notes.get(CHEN), { coauthorship: 0, organizational: true });
        const one = await identify(
          run,
          `identify experts from concepts "malaria" return experts[id] annotate organizational with ["${ORG_B}"]`,
        );
        assert.deepEqual(
          rows(one.experts).map((e) => e.annotations),
          rows(one.experts).map(() => ({ organizational: false })),
        );
      });
      test('no matching documents: no experts', async () => {
        const result = await identify(run, 'identify experts from concepts "astrophysics" return experts');
        assert.deepEqual(result.experts, []);
        assert.deepEqual(result._stats, { total_count: 0 });
      });
    });
  });
}

suite('SQLite', () => {
  const db = openReadOnly(expertsDatabase());
  return Promise.resolve({
    run: (text: string) => Promise.resolve(runQuery(db, text, { dslVersion: 2 })),
    done: () => {
      db.close();
      return Promise.resolve();
    },
  });
});

suite('PostgreSQL', async () => {
  const pg: TestPgDatabase = await expertsPgDatabase();
  const engine: QueryEngine = createPostgresEngine({ url: pg.url });
  return {
    run: async (text) => (await engine.run(text, { dslVersion: 2 })).result,
    done: async () => {
      await engine.close();
      await pg.drop();
    },
  };
});

describe('bad input is a positioned 400', () => {
  const cases: readonly (readonly [query: string, code: string, at: string])[] = [
    [
      'search publications for similar_documents("the of and in") return publications',
      'SCHEMA_SEARCH_FUNCTION_ARGUMENTS',
      '"the',
    ],
    [
      'search publications for similar_documents("graphene", 3) return publications',
      'SCHEMA_SEARCH_FUNCTION_ARGUMENTS',
      '3)',
    ],
    ['search publications for similar_documents(3) return publications', 'DSL_UNEXPECTED_TOKEN', '3)'],
    ['identify experts from concepts "x" using patents return experts', 'SCHEMA_IDENTIFY_EXPERTS', 'patents'],
    ['identify experts from concepts "x" return experts[basics + foo]', 'SCHEMA_UNKNOWN_FIELD', 'foo'],
    ['identify experts from concepts "x" where yeer = 1 return experts', 'SCHEMA_UNKNOWN_FIELD', 'yeer'],
    ['identify experts from concepts "x" return experts sort by score', 'SCHEMA_IDENTIFY_EXPERTS', 'sort'],
    ['identify experts from concepts "x" return researchers', 'SCHEMA_IDENTIFY_EXPERTS', 'researchers'],
    [
      'identify experts from concepts "x" return experts annotate friends with ["ur.1"]',
      'SCHEMA_IDENTIFY_EXPERTS',
      'friends',
    ],
    [
      'identify experts from concepts "x" return experts annotate coauthorship with ["nope"]',
      'SCHEMA_IDENTIFY_EXPERTS',
      '"nope"',
    ],
    ['identify experts from concepts return experts', 'DSL_UNEXPECTED_TOKEN', 'return'],
    ['identify experts from concepts "x" return experts annotate coauthorship ["ur.1"]', 'DSL_UNEXPECTED_TOKEN', '['],
    ['identify experts from concepts "(x" return experts', 'DSL_FULLTEXT_UNEXPECTED', '" return'],
  ];
  for (const [query, code, at] of cases) {
    test(query, () => {
      try {
        prepareQuery(query, { dslVersion: 2 });
        assert.fail('should throw');
      } catch (error) {
        assert.ok(error instanceof QuarryError, String(error));
        const first = error.problems[0]!;
        assert.equal(first.code, code, first.message);
        assert.equal(first.span?.start, query.indexOf(at), `${first.message} at ${JSON.stringify(first.span)}`);
      }
    });
  }
});
