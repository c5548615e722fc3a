// The organizations' `ultimate_parent_id` and `hierarchy_details`, derived by finish() from the
// parent/child relationships of ROR records: a small hand-made ROR v2 file (a three-level tree, an
// organization with two parents, a relationship named by one side only, a cycle, a parent not
// held, an organization without parents or children) is imported with the ROR importer into
// SQLite and PostgreSQL, and each engine must answer the same: filters on ultimate_parent_id,
// the details returned parsed, the field refused as a filter, and describe's fields.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { openLocalQueries, recordWriterFor, type LocalQueries } from '../../src/backends.ts';
import { importFiles } from '../../src/data/import/index.ts';
import { isQuarryError } from '../../src/errors/index.ts';
import { organizationHierarchies } from '../../src/store/organization-hierarchy.ts';
import { createTestPgDatabase, type TestPgDatabase } from '../fixtures/pg-db.ts';

const ror = (n: number): string => `https://ror.org/0hier${String(n).padStart(4, '0')}`;
const UNIVERSITY = ror(1);
const FACULTY = ror(2);
const LABORATORY = ror(3);
const JOINT_INSTITUTE = ror(4);
const COUNCIL = ror(6);
const ZETA = ror(7);
const ETA = ror(8);
const FOUNDATION = ror(9);
const STATION = ror(10);
const NOT_HELD = ror(99);

type Relationship = readonly [id: string, type: 'parent' | 'child' | 'related'];

/** name, id, relationships as the record names them (some one-sided on purpose). */
const ORGANIZATIONS: readonly (readonly [string, string, readonly Relationship[]])[] = [
  ['Alpha University', UNIVERSITY, [[FACULTY, 'child']]],
  [
    'Beta Faculty of Science',
    FACULTY,
    [
      [UNIVERSITY, 'parent'],
      [LABORATORY, 'child'],
    ],
  ],
  ['Gamma Physics Laboratory', LABORATORY, [[FACULTY, 'parent']]],
  // Two parents: the faculty names it nowhere, the council names it as its child.
  ['Delta Joint Institute', JOINT_INSTITUTE, [[FACULTY, 'parent']]],
  ['Epsilon Research Council', COUNCIL, [[JOINT_INSTITUTE, 'child']]],
  // A cycle: each the parent of the other.
  ['Zeta Institute', ZETA, [[ETA, 'parent']]],
  ['Eta Institute', ETA, [[ZETA, 'parent']]],
  ['Theta Foundation', FOUNDATION, [[UNIVERSITY, 'related']]],
  ['Iota Station', STATION, [[NOT_HELD, 'parent']]],
];

function rorRecord([name, id, relationships]: (typeof ORGANIZATIONS)[number]): object {
  return {
    id,
    names: [{ lang: 'en', types: ['ror_display', 'label'], value: name }],
    locations: [
      {
        geonames_id: 2643743,
        geonames_details: { country_code: 'GB', country_name: 'United Kingdom', lat: 51.5, lng: -0.12, name: 'London' },
      },
    ],
    relationships: relationships.map(([other, type]) => ({ id: other, label: 'named', type })),
    status: 'active',
    types: ['education'],
    external_ids: [],
    links: [],
    domains: [],
    established: null,
    admin: {
      created: { date: '2024-01-01', schema_version: '2.1' },
      last_modified: { date: '2024-01-01', schema_version: '2.1' },
    },
  };
}

const details = (
  parent_ids: string[],
  child_ids: string[],
  ancestor_ids: string[],
  descendant_ids: string[],
): Record<string, unknown> => ({ parent_ids, child_ids, ancestor_ids, descendant_ids, depth: ancestor_ids.length });

/** What each organization must hold: ultimate_parent_id, hierarchy_details. */
const EXPECTED: ReadonlyMap<string, readonly [string, Record<string, unknown>]> = new Map([
  [UNIVERSITY, [UNIVERSITY, details([], [FACULTY], [], [FACULTY, LABORATORY, JOINT_INSTITUTE])]],
  [
    FACULTY,
    [UNIVERSITY, details([UNIVERSITY], [LABORATORY, JOINT_INSTITUTE], [UNIVERSITY], [LABORATORY, JOINT_INSTITUTE])],
  ],
  [LABORATORY, [UNIVERSITY, details([FACULTY], [], [UNIVERSITY, FACULTY], [])]],
  // Up through the smaller of its two parents' ids (the faculty's), to the university.
  [JOINT_INSTITUTE, [UNIVERSITY, details([FACULTY, COUNCIL], [], [UNIVERSITY, FACULTY], [])]],
  [COUNCIL, [COUNCIL, details([], [JOINT_INSTITUTE], [], [JOINT_INSTITUTE])]],
  // The walk up stops before an organization it passed already.
  [ZETA, [ETA, details([ETA], [ETA], [ETA], [ETA])]],
  [ETA, [ZETA, details([ZETA], [ZETA], [ZETA], [ZETA])]],
  [FOUNDATION, [FOUNDATION, details([], [], [], [])]],
  [STATION, [NOT_HELD, details([NOT_HELD], [], [NOT_HELD], [])]],
]);

test('the walk gives each organization its top, chain, children and descendants', () => {
  const held = ORGANIZATIONS.map(([, id, relationships]) => ({
    id,
    parentIds: relationships.filter(([, t]) => t === 'parent').map(([other]) => other),
    childIds: relationships.filter(([, t]) => t === 'child').map(([other]) => other),
  }));
  const walked = organizationHierarchies(held);
  assert.deepEqual(
    new Map([...walked].map(([id, h]) => [id, [h.ultimate_parent_id, h.hierarchy_details]])),
    new Map(EXPECTED),
  );
  // The same answer whatever order the organizations come in.
  assert.deepEqual(organizationHierarchies([...held].reverse()), walked);
});

test('a long chain and a long cycle are walked without recursion or looping', () => {
  const n = 1000;
  const at = (k: number): string => `c${String(k).padStart(4, '0')}`;
  const chain = Array.from({ length: n }, (_, k) => ({
    id: at(k),
    parentIds: k === 0 ? [] : [at(k - 1)],
    childIds: [],
  }));
  const last = organizationHierarchies(chain).get(at(n - 1));
  assert.equal(last?.ultimate_parent_id, 'c0000');
  assert.equal(last?.hierarchy_details.depth, n - 1);
  const ring = organizationHierarchies([
    { id: 'a', parentIds: ['c'], childIds: [] },
    { id: 'b', parentIds: ['a'], childIds: [] },
    { id: 'c', parentIds: ['b'], childIds: [] },
  ]);
  // a → c → b, and b's parent a was passed: the chain stops at b.
  assert.deepEqual(ring.get('a')?.hierarchy_details.ancestor_ids, ['b', 'c']);
  assert.equal(ring.get('a')?.ultimate_parent_id, 'b');
});

const dir = mkdtempSync(join(tmpdir(), 'quarry-hierarchy-'));
const FILE = join(dir, 'ror.jsonl');
const SQLITE = join(dir, 'records.db');
let pgDb: TestPgDatabase;
const engines: { name: string; database: () => string }[] = [
  { name: 'SQLite', database: () => SQLITE },
  { name: 'PostgreSQL', database: () => pgDb.url },
];
const queries = new Map<string, LocalQueries>();

before(async () => {
  writeFileSync(FILE, ORGANIZATIONS.map((o) => `${JSON.stringify(rorRecord(o))}\n`).join(''));
  pgDb = await createTestPgDatabase('hierarchy');
  for (const engine of engines) {
    const database = engine.database();
    await importFiles({ paths: [FILE], open: recordWriterFor(database), format: 'ror', onError: 'abort' });
    queries.set(engine.name, await openLocalQueries(database, 2));
  }
});
after(async () => {
  for (const q of queries.values()) await q.close();
  await pgDb?.drop();
  rmSync(dir, { recursive: true, force: true });
});

const idsUnder = (top: string): string[] =>
  [...EXPECTED]
    .filter(([, [t]]) => t === top)
    .map(([id]) => id)
    .sort();

for (const engine of engines)
  describe(`organization hierarchy on ${engine.name}`, { timeout: 120_000 }, () => {
    const post = async (text: string): Promise<Record<string, unknown>> =>
      (await queries.get(engine.name)!.post(text)) as Record<string, unknown>;
    const ids = (answer: Record<string, unknown>): string[] =>
      ((answer['organizations'] ?? []) as { id: string }[]).map((o) => o.id).sort();

    for (const top of [UNIVERSITY, COUNCIL, ETA, NOT_HELD, FOUNDATION])
      test(`ultimate_parent_id = "${top}" finds the organizations under it (and itself when held)`, async () => {
        const answer = await post(`search organizations where ultimate_parent_id = "${top}" return organizations[id]`);
        assert.deepEqual(ids(answer), idsUnder(top));
      });

    test('ultimate_parent_id in a list, and negated', async () => {
      assert.deepEqual(
        ids(
          await post(`search organizations where ultimate_parent_id in ["${ZETA}", "${ETA}"] return organizations[id]`),
        ),
        [ZETA, ETA].sort(),
      );
      assert.deepEqual(
        ids(await post(`search organizations where not ultimate_parent_id = "${UNIVERSITY}" return organizations[id]`)),
        [...EXPECTED.keys()].filter((id) => !idsUnder(UNIVERSITY).includes(id)).sort(),
      );
    });

    test('every organization returns its ultimate_parent_id and hierarchy_details, parsed', async () => {
      const answer = await post(
        'search organizations return organizations[id + ultimate_parent_id + hierarchy_details] limit 100',
      );
      const rows = answer['organizations'] as { id: string; ultimate_parent_id: string; hierarchy_details: unknown }[];
      assert.equal(rows.length, EXPECTED.size);
      for (const row of rows) {
        const [top, expected] = EXPECTED.get(row.id)!;
        assert.deepEqual([row.ultimate_parent_id, row.hierarchy_details], [top, expected], row.id);
      }
    });

    test('hierarchy_details is not a filter: a coded error, not a crash', async () => {
      await assert.rejects(
        post('search organizations where hierarchy_details = "x" return organizations[id]'),
        (e) => isQuarryError(e) && e.category !== 'internal',
      );
    });

    // After the tests that read the fixture as written: it adds a record.
    test('a later import of an organization under the laboratory updates the chain above it', async () => {
      const probe = ror(engine.name === 'SQLite' ? 11 : 12);
      const file = join(dir, `more-${engine.name}.jsonl`);
      writeFileSync(file, `${JSON.stringify(rorRecord(['Kappa Probe Group', probe, [[LABORATORY, 'parent']]]))}\n`);
      await importFiles({ paths: [file], open: recordWriterFor(engine.database()), format: 'ror', onError: 'abort' });
      const fresh = await openLocalQueries(engine.database(), 1);
      try {
        const answer = (await fresh.post(
          `search organizations where id in ["${probe}", "${UNIVERSITY}", "${LABORATORY}"] return organizations[id + ultimate_parent_id + hierarchy_details]`,
        )) as {
          organizations: { id: string; ultimate_parent_id: string; hierarchy_details: Record<string, unknown> }[];
        };
        const byId = new Map(answer.organizations.map((o) => [o.id, o]));
        assert.deepEqual(byId.get(probe)?.ultimate_parent_id, UNIVERSITY);
        assert.deepEqual(
          byId.get(probe)?.hierarchy_details,
          details([LABORATORY], [], [UNIVERSITY, FACULTY, LABORATORY], []),
        );
        assert.deepEqual(byId.get(LABORATORY)?.hierarchy_details['descendant_ids'], [probe]);
        assert.deepEqual(byId.get(UNIVERSITY)?.hierarchy_details['descendant_ids'], [
          FACULTY,
          LABORATORY,
          JOINT_INSTITUTE,
          probe,
        ]);
      } finally {
        await fresh.close();
      }
    });

    test('describe lists both fields with their types and filterability', async () => {
      const described = (await post('describe source organizations')) as {
        fields: Record<string, { is_filter: boolean; type: string; description: string }>;
      };
      const { ultimate_parent_id: top, hierarchy_details: hierarchy } = described.fields;
      assert.equal(top?.type, 'string');
      assert.equal(top?.is_filter, true);
      assert.equal(hierarchy?.type, 'json');
      assert.equal(hierarchy?.is_filter, false);
      assert.match(hierarchy?.description ?? '', /ancestor_ids/);
    });
  });
