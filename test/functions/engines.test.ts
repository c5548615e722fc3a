// extract_grants and check_researcher_ids run on both engines over the same small
// database (test/functions/fixture.ts) and give the same answers; the function reads through
// the engine under the caller's time limit and abort, and keeps its index per data epoch.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { createPostgresEngine } from '../../src/engine/backends/postgres/engine.ts';
import { createSqliteEngine } from '../../src/engine/backends/sqlite/engine.ts';
import { DerivedValues, READ_ALL_BATCH, runFunction, type FunctionHost } from '../../src/engine/function-context.ts';
import type { QueryEngine, QueryResult } from '../../src/engine/types.ts';
import { QuarryError } from '../../src/errors/index.ts';
import type { PreparedFunction } from '../../src/functions/types.ts';
import { prepareQuery } from '../../src/engine/run-query.ts';
import { openLocalQueries } from '../../src/backends.ts';
import { SOURCE_NAMES } from '../../src/model/sources.ts';
import type { TestPgDatabase } from '../fixtures/pg-db.ts';
import { functionsDatabase, functionsPgDatabase } from './fixture.ts';

// [query, answer]
const CASES: Array<readonly [string, QueryResult]> = [
  // The sample answer of the hosted documentation's grants notebook, on this data.
  [
    'extract_grants(grant_number="30410203277", funder_name="National Natural Science Foundation of China")',
    { grant_id: 'grant.1004' },
  ],
  ['extract_grants(grant_number="30410203277", funder_name="EPSRC")', { grant_id: 'grant.1005' }],
  ['extract_grants(grant_number="30410203277", fundref="501100001809")', { grant_id: 'grant.1004' }],
  ['extract_grants(grant_number="30410203277", funder_name="")', { grant_id: null }],
  ['extract_grants(grant_number="30410203277", funder_name="Wellcome Trust")', { grant_id: null }],
  // NIH numbers with and without type, activity code and support year.
  ['extract_grants(grant_number="1R01CA123456-01A1", fundref="10.13039/100000054")', { grant_id: 'grant.1001' }],
  ['extract_grants(grant_number="5R01CA123456-02")', { grant_id: 'grant.1002' }],
  ['extract_grants(grant_number="R01 CA123456", funder_name="NCI")', { grant_id: 'grant.1002' }],
  ['extract_grants(grant_number="CA123456", funder_name="national  cancer institute")', { grant_id: 'grant.1002' }],
  ['extract_grants(grant_number="ca-123456")', { grant_id: 'grant.1002' }],
  ['extract_grants(grant_number="CA123457")', { grant_id: null }],
  // Case, spaces, dashes, dots and slashes.
  [
    'extract_grants("ep k012345 1", funder_name="Engineering and Physical Sciences Research Council")',
    { grant_id: 'grant.1003' },
  ],
  ['extract_grants(grant_number="EP.K012345.1", fundref="501100000266")', { grant_id: 'grant.1003' }],
  ['extract_grants(grant_number="EP/K012345/1", fundref="100000054")', { grant_id: null }],
  [
    'check_researcher_ids(["ur.0100000001.01", "ur.0100000002.02", "ur.0100000003.03", "ur.0999999999.99"])',
    {
      researcher_ids: [
        { id: 'ur.0100000001.01', obsolete: 0 },
        { id: 'ur.0100000002.02', obsolete: 1, redirect: ['ur.0100000001.01'] },
        { id: 'ur.0100000003.03', obsolete: 1, redirect: [] },
        { id: 'ur.0999999999.99', obsolete: 1, redirect: [] },
      ],
    },
  ],
];

function behaviour(name: string, open: () => Promise<QueryEngine>, close: () => Promise<void>): void {
  describe(`statement functions on ${name}`, { timeout: 120_000 }, () => {
    let engine: QueryEngine;
    before(async () => {
      engine = await open();
    });
    after(async () => {
      await engine?.close();
      await close();
    });
    for (const [query, answer] of CASES) {
      test(query, async () => {
        const outcome = await engine.run(query, { dslVersion: 2 });
        assert.deepEqual(outcome.result, answer);
        assert.deepEqual(JSON.parse(outcome.json), answer);
        assert.equal(outcome.labels?.source, 'function');
        assert.equal(outcome.labels?.result, query.slice(0, query.indexOf('(')));
      });
    }
    test('check_researcher_ids takes its most ids in one call', async () => {
      const ids = Array.from({ length: 400 }, (_, i) => `ur.09${String(i).padStart(8, '0')}.01`);
      ids[7] = 'ur.0100000001.01';
      const outcome = await engine.run(`check_researcher_ids([${ids.map((id) => `"${id}"`).join(', ')}])`, {
        dslVersion: 2,
      });
      const answers = outcome.result['researcher_ids'] as { id: string; obsolete: number }[];
      assert.deepEqual(
        answers.map((a) => a.id),
        ids,
      );
      assert.deepEqual(answers[7], { id: 'ur.0100000001.01', obsolete: 0 });
      assert.equal(answers.filter((a) => a.obsolete === 1).length, 399);
    });
    test('a query the function runs keeps the caller subscription', async () => {
      await assert.rejects(
        engine.run('extract_grants(grant_number="EP/K012345/1", fundref="501100000266")', {
          dslVersion: 2,
          permissions: { sources: ['grants'] },
        }),
        (error: unknown) => error instanceof QuarryError && error.first.code === 'SCHEMA_SOURCE_NOT_SUBSCRIBED',
      );
    });
    test('an aborted call is cancelled', async () => {
      const controller = new AbortController();
      controller.abort(new Error('client went away'));
      await assert.rejects(
        engine.run('extract_grants(grant_number="CA123456")', { dslVersion: 2, signal: controller.signal }),
        (error: unknown) => error instanceof QuarryError && error.first.code === 'ENGINE_CANCELLED',
      );
    });
  });
}

let sqliteEngine: QueryEngine | undefined;
behaviour(
  'SQLite',
  () => {
    sqliteEngine = createSqliteEngine({ dbPath: functionsDatabase(), workers: 1, expensiveWorkers: 1 });
    return Promise.resolve(sqliteEngine);
  },
  () => Promise.resolve(),
);

let pgDb: TestPgDatabase | undefined;
behaviour(
  'PostgreSQL',
  async () => {
    pgDb = await functionsPgDatabase();
    return createPostgresEngine({ url: pgDb.url, connections: 2 });
  },
  async () => {
    await pgDb?.drop();
  },
);

// The context itself, over a stand-in engine: paging, time limits, derived values.
describe('the function context', () => {
  const ids = Array.from({ length: READ_ALL_BATCH * 2 + 5 }, (_, i) => `r.${String(i).padStart(5, '0')}`);
  function host(epoch: { value: string }, seen: string[]): FunctionHost {
    return {
      defaultTimeoutMs: 5_000,
      dataEpoch: () => epoch.value,
      run: (text) => {
        // What readAll asks is a query of the language like any other.
        assert.equal(prepareQuery(text, { dslVersion: 2 }).kind, 'plan');
        seen.push(text);
        const after = /where id > "([^"]+)"/.exec(text)?.[1];
        const page = ids.filter((id) => after === undefined || id > after).slice(0, READ_ALL_BATCH);
        const source = /^search (\w+)/.exec(text)?.[1] ?? '';
        const result = { [source]: page.map((id) => ({ id })) };
        return Promise.resolve({ result, json: JSON.stringify(result), timings: { parseMs: 0, executeMs: 0 } });
      },
    };
  }
  const counting = (builds: { n: number }): PreparedFunction => ({
    name: 'count_all',
    reads: ['researchers'],
    async run(context) {
      const total = await context.derived('total', async () => {
        builds.n++;
        let n = 0;
        for await (const batch of context.readAll('researchers', ['id'])) n += batch.length;
        return n;
      });
      return { total };
    },
  });

  test('readAll pages by id past any window, derived builds once per epoch', async () => {
    const epoch = { value: 'a' };
    const seen: string[] = [];
    const builds = { n: 0 };
    const derived = new DerivedValues();
    const fn = counting(builds);
    assert.deepEqual(await runFunction(fn, { dslVersion: 2 }, host(epoch, seen), derived), { total: ids.length });
    assert.equal(seen.length, 3);
    assert.match(seen[1] ?? '', /where id > "r\.00999" return researchers\[id\] sort by id asc limit 1000$/);
    assert.deepEqual(await runFunction(fn, { dslVersion: 2 }, host(epoch, seen), derived), { total: ids.length });
    assert.equal(builds.n, 1);
    epoch.value = 'b';
    await runFunction(fn, { dslVersion: 2 }, host(epoch, seen), derived);
    assert.equal(builds.n, 2);
  });

  test('readAll pages through every source by id', async () => {
    for (const source of SOURCE_NAMES) {
      const seen: string[] = [];
      const all: PreparedFunction = {
        name: 'all',
        reads: [source],
        async run(context) {
          let n = 0;
          for await (const batch of context.readAll(source, ['id'])) n += batch.length;
          return { n };
        },
      };
      // The stand-in validates each page query for the source itself before answering it.
      assert.deepEqual(await runFunction(all, { dslVersion: 2 }, host({ value: '' }, seen), new DerivedValues()), {
        n: ids.length,
      });
      assert.equal(seen.length, 3);
    }
  });

  test('a source the function does not declare is refused', async () => {
    const sneaky: PreparedFunction = {
      name: 'sneaky',
      reads: ['grants'],
      async run(context) {
        for await (const _batch of context.readAll('researchers', ['id'])) break;
        return {};
      },
    };
    await assert.rejects(
      runFunction(sneaky, { dslVersion: 2 }, host({ value: '' }, []), new DerivedValues()),
      /does not declare/,
    );
  });

  test('a build longer than the caller may wait goes on, and a later call finds it', async () => {
    const epoch = { value: 'a' };
    const builds = { n: 0 };
    const fn = counting(builds);
    const fast = host(epoch, []);
    const slow: FunctionHost = {
      ...fast,
      run: async (text, options) => {
        await new Promise((resolve) => setTimeout(resolve, 40));
        return fast.run(text, options);
      },
    };
    const derived = new DerivedValues();
    await assert.rejects(
      runFunction(fn, { dslVersion: 2, timeoutMs: 50 }, slow, derived),
      (error: unknown) => error instanceof QuarryError && error.first.code === 'ENGINE_TIMEOUT',
    );
    await new Promise((resolve) => setTimeout(resolve, 300));
    assert.deepEqual(await runFunction(fn, { dslVersion: 2, timeoutMs: 50 }, slow, derived), { total: ids.length });
    assert.equal(builds.n, 1);
  });

  test('the time limit covers the whole function', async () => {
    const slow: PreparedFunction = {
      name: 'slow',
      reads: [],
      async run(context) {
        await new Promise((resolve) => setTimeout(resolve, 100));
        return context.query('search researchers return researchers');
      },
    };
    await assert.rejects(
      runFunction(slow, { dslVersion: 2, timeoutMs: 20 }, host({ value: '' }, []), new DerivedValues()),
      (error: unknown) => error instanceof QuarryError && error.first.code === 'ENGINE_TIMEOUT',
    );
  });
});

describe('statement functions on a local database (quarry query --db)', () => {
  test('a function runs through the engine the local queries start for it; searches as before', async () => {
    const local = await openLocalQueries(functionsDatabase(), 2);
    try {
      assert.deepEqual(await local.post('extract_grants(grant_number="5R01CA123456-02")'), { grant_id: 'grant.1002' });
      const page = (await local.post('search grants return grants[id] limit 1')) as { grants: unknown[] };
      assert.equal(page.grants.length, 1);
    } finally {
      await local.close();
    }
  });
});
