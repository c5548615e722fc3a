// The consistency identities on the generated 10k-publication database, with researcher
// counts computed independently from the JSONL it was imported from.
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe } from 'node:test';
import type Database from 'better-sqlite3';
import { runQuery } from '../../src/engine/backends/sqlite/query-context.ts';
import { openReadOnly } from '../../src/store/sqlite/open.ts';
import { demoDataset } from '../fixtures/demo-db.ts';
import { consistencyTests } from './consistency.cases.ts';

interface JsonPublication {
  readonly title?: string;
  readonly researchers?: ReadonlyArray<string | { id?: string }>;
  readonly authors?: ReadonlyArray<{ researcher_id?: string | null }>;
}

function readPublications(dataDir: string): JsonPublication[] {
  return readdirSync(dataDir)
    .filter((f) => /^publications.*\.jsonl$/.test(f))
    .sort()
    .flatMap((f) =>
      readFileSync(join(dataDir, f), 'utf8')
        .split('\n')
        .filter((line) => line.trim() !== '')
        .map((line) => JSON.parse(line) as JsonPublication),
    );
}

/** Two adjacent words of a title: a phrase known to occur. */
function phraseWords(pubs: readonly JsonPublication[]): [string, string] {
  for (const p of pubs) {
    const words = (p.title ?? '').toLowerCase().split(/[^a-z]+/);
    for (let i = 0; i + 1 < words.length; i++) {
      const [a, b] = [words[i] as string, words[i + 1] as string];
      if (a.length >= 5 && b.length >= 5 && a !== b) return [a, b];
    }
  }
  throw new Error('no title with two adjacent long words');
}

describe('consistency identities on the generated 10k database', async () => {
  const { dbPath, dataDir } = await demoDataset({ publications: 10_000 });
  const pubs = readPublications(dataDir);
  let db: Database.Database;
  before(() => {
    db = openReadOnly(dbPath);
    assert.equal(db.prepare('SELECT count(*) FROM publications').pluck().get(), pubs.length);
  });
  after(() => db.close());
  consistencyTests(() => (q) => Promise.resolve(runQuery(db, q, { dslVersion: 2 })), {
    words: phraseWords(pubs),
    researcherCounts: () => {
      const counts = new Map<string, number>();
      for (const p of pubs) {
        const ids = new Set<string>();
        for (const a of p.authors ?? [])
          if (typeof a.researcher_id === 'string' && a.researcher_id !== '') ids.add(a.researcher_id);
        for (const r of p.researchers ?? []) {
          const id = typeof r === 'string' ? r : r.id;
          if (typeof id === 'string' && id !== '') ids.add(id);
        }
        for (const id of ids) counts.set(id, (counts.get(id) ?? 0) + 1);
      }
      return counts;
    },
  });
});
