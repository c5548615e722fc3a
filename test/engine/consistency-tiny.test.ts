import { after, describe } from 'node:test';
import { openReadOnly } from '../../src/store/sqlite/open.ts';
import { consistencyTests } from './consistency.cases.ts';
import { PUBLICATIONS, tinyDatabase } from './fixtures/tiny-db.ts';

describe('consistency identities on the hand-written fixture', () => {
  const db = openReadOnly(tinyDatabase());
  after(() => db.close());
  consistencyTests(() => db, {
    words: ['machine', 'learning'],
    researcherCounts: () => {
      const m = new Map<string, number>();
      for (const p of PUBLICATIONS) {
        const ids = new Set(('authors' in p ? p.authors : []).map((a: { researcher_id: string }) => a.researcher_id));
        for (const id of ids) m.set(id, (m.get(id) ?? 0) + 1);
      }
      return m;
    },
  });
});
