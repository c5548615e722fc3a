// A synthetic record database for the end-to-end test, built through the store's writer:
// enough publications that a broad aggregate takes a noticeable time, so a query can be
// made to run past a short time limit. Replace with test/fixtures/demo-db.ts once the
// data area provides it.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openRecordStore } from '../../src/store/sqlite/records-store.ts';

const WORDS =
  'graphene battery malaria vaccine protein neural network climate ocean soil carbon quantum lattice enzyme genome cell cancer therapy learning model robot sensor polymer catalyst river forest urban policy economy health trial dose'.split(
    ' ',
  );

/** A tiny deterministic generator, so every run builds the same records. */
function rng(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s * 1664525 + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

export function syntheticDatabase(publications: number): string {
  const random = rng(42);
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(random() * xs.length)] as T;
  const words = (n: number) => Array.from({ length: n }, () => pick(WORDS)).join(' ');
  const path = join(mkdtempSync(join(tmpdir(), 'quarry-e2e-')), 'records.db');
  const store = openRecordStore(path);
  const orgs = Array.from({ length: 50 }, (_, i) => ({
    id: `grid.9${String(i).padStart(5, '0')}.a`,
    name: `University of ${pick(WORDS)} ${i}`,
    country_name: pick(['Germany', 'Japan', 'Brazil']),
    types: ['Education'],
  }));
  const researchers = Array.from({ length: 2000 }, (_, i) => ({
    id: `ur.0${String(i).padStart(9, '0')}.01`,
    first_name: `F${i}`,
    last_name: `L${i}`,
  }));
  store.upsert('organizations', orgs);
  store.upsert('researchers', researchers);
  const batch: object[] = [];
  for (let i = 0; i < publications; i++) {
    const authors = Array.from({ length: 1 + Math.floor(random() * 4) }, () => {
      const r = pick(researchers);
      return {
        first_name: r.first_name,
        last_name: r.last_name,
        researcher_id: r.id,
        affiliations: [{ id: pick(orgs).id }],
      };
    });
    batch.push({
      id: `pub.1${String(i).padStart(9, '0')}`,
      title: words(8),
      abstract: words(40),
      year: 2000 + Math.floor(random() * 24),
      type: pick(['article', 'chapter', 'proceeding']),
      times_cited: Math.floor(random() * 200),
      authors,
    });
    if (batch.length === 2000) store.upsert('publications', batch.splice(0));
  }
  if (batch.length > 0) store.upsert('publications', batch);
  store.finish();
  store.close();
  return path;
}
