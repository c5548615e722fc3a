// The example queries people copy first (README, the API home page, the demo instructions
// `npm start` prints, the console's examples) find records in the demo dataset: full-text
// examples name topics the generated titles and abstracts really cover.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { after, before, describe, test } from 'node:test';
import { createSqliteEngine } from '../../src/engine/backends/sqlite/engine.ts';
import type { QueryEngine } from '../../src/engine/types.ts';
import { EXAMPLE_QUERIES } from '../../src/web/pages/console.ts';
import { demoDatabase } from '../fixtures/demo-db.ts';

const read = (path: string): string => readFileSync(new URL(`../../${path}`, import.meta.url), 'utf8');

/** Every full-text search query written in a file (up to the quote, backtick or tag that closes it). */
function fullTextQueries(text: string): string[] {
  const found = text.match(/search \w+(?: in \w+)? for "(?:[^"\\]|\\.)*"[^`'<\n]*/g) ?? [];
  return [...new Set(found.map((q) => q.trim()))];
}

const SOURCES = ['README.md', 'src/web/pages/home.ts', 'src/main.ts', 'src/client/client.ts'];

describe('example queries find records in the demo dataset', () => {
  let engine: QueryEngine;
  before(async () => {
    engine = createSqliteEngine({ dbPath: await demoDatabase(), workers: 1 });
  });
  after(() => engine.close());

  const firstCount = async (query: string): Promise<number> => {
    const { result } = await engine.run(query, { dslVersion: 2 });
    const total = (result['_stats'] as { total_count?: number } | undefined)?.total_count ?? 0;
    const lists = Object.entries(result).filter(([k, v]) => k !== '_stats' && Array.isArray(v));
    return Math.min(total, ...lists.map(([, v]) => (v as unknown[]).length));
  };

  for (const source of SOURCES) {
    const queries = fullTextQueries(read(source));
    test(`${source} has full-text examples`, () => assert.ok(queries.length > 0, source));
    for (const query of queries) {
      test(`${source}: ${query}`, async () => {
        assert.ok((await firstCount(query)) > 0, `${query} finds nothing in the demo`);
      });
    }
  }

  for (const example of EXAMPLE_QUERIES.filter((e) => e.query.startsWith('search'))) {
    test(`console: ${example.title}`, async () => {
      assert.ok((await firstCount(example.query)) > 0, `${example.query} finds nothing in the demo`);
    });
  }
});
