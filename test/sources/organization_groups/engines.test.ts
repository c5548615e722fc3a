// The group sources (funder_groups, research_org_groups) on both engines. Real ROR records (two
// whole parent/child trees, test/fixtures/data/ror/ror_v2_hierarchy.jsonl) are imported with
// the ROR importer into SQLite and PostgreSQL, groups are written as native records and through
// the administrator's path (saveGroup / removeGroup, what `quarry groups` and the admin page
// call), and every query below must give the same answer on both: describe against the spec's
// field tables, the basics, filters on each field, full text in the `name` index, sorting,
// paging, counts; the walk down the hierarchy that defines a group from an organization.
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { openLocalQueries, recordWriterFor, type LocalQueries } from '../../../src/backends.ts';
import { organizationWithDescendants } from '../../../src/data/groups/descendants.ts';
import { checkedGroup, GROUP_SOURCES } from '../../../src/data/groups/group-sources.ts';
import { listGroups, removeGroup, saveGroup } from '../../../src/data/groups/group-store.ts';
import { importFiles } from '../../../src/data/import/index.ts';
import { isQuarryError } from '../../../src/errors/index.ts';
import { createTestPgDatabase, type TestPgDatabase } from '../../fixtures/pg-db.ts';

const ROR = new URL('../../fixtures/data/ror/ror_v2_hierarchy.jsonl', import.meta.url).pathname;
const SPEC = readFileSync(new URL('../../fixtures/spec/schema-2026-groups.md', import.meta.url), 'utf8');

const ror = (id: string): string => `https://ror.org/${id}`;
const DEPARTMENT_OF_SPACE = ror('000kjq947');
const ISRO = ror('00cwrns71');
const URSC = ror('002dyaa55');
const ARMED_FORCES_STAFF = ror('000xab928');
const MILITARY_UNIVERSITY = ror('029me2p54');
const AIR_FORCE_ACADEMY = ror('045hg4108');
const MILITARY_ACADEMY = ror('0245c5212');
const MILITARY_ACADEMY_RESEARCH = ror('01sabsj32');
const NAVAL_SCHOOL = ror('01ev6gy70');
const AIR_FORCE = ror('05yksqt98');
// Children ISRO's record names that the fixture does not hold (nothing below them is known).
const ISRO_CHILDREN_NOT_HELD = [ror('02xqs5h32'), ror('00a14tf81'), ror('04a39s417'), ror('0491y3t26')];

const FUNDER_GROUPS = [
  { id: 'space-agencies', name: 'Space agencies of India', organization_ids: [DEPARTMENT_OF_SPACE, ISRO] },
  { id: 'defence-funders', name: 'Portuguese defence funders', organization_ids: [AIR_FORCE, ARMED_FORCES_STAFF] },
  { id: 'mixed', name: 'Satellite and naval research', organization_ids: [URSC, NAVAL_SCHOOL, 'grid.1008.9'] },
];
const RESEARCH_ORG_GROUPS = [
  { id: 'military-schools', name: 'Military schools', organization_ids: [AIR_FORCE_ACADEMY, NAVAL_SCHOOL] },
];

const sorted = (ids: readonly string[]): string[] => [...ids].sort();

/** Each query and the answer's rows under its first `return` (or `{ total }`: the total count). */
const CASES: readonly (readonly [query: string, expected: unknown])[] = [
  ['search funder_groups return funder_groups limit 1', { total: 3 }],
  // Default: the basics, by name.
  [
    'search funder_groups return funder_groups',
    [...FUNDER_GROUPS]
      .sort((a, b) => (a.name < b.name ? -1 : 1))
      .map((g) => ({ ...g, organization_ids: sorted(g.organization_ids) })),
  ],
  [
    'search funder_groups return funder_groups[id] sort by name desc limit 2 skip 1',
    [{ id: 'mixed' }, { id: 'defence-funders' }],
  ],
  ['search funder_groups where id = "mixed" return funder_groups[name]', [{ name: 'Satellite and naval research' }]],
  [
    'search funder_groups where name = "Portuguese defence funders" return funder_groups[id]',
    [{ id: 'defence-funders' }],
  ],
  ['search funder_groups where name ~ "India" return funder_groups[id]', [{ id: 'space-agencies' }]],
  // Membership: a member need not be held.
  [`search funder_groups where organization_ids = "${ISRO}" return funder_groups[id]`, [{ id: 'space-agencies' }]],
  ['search funder_groups where organization_ids = "grid.1008.9" return funder_groups[id]', [{ id: 'mixed' }]],
  [
    `search funder_groups where organization_ids in ["${AIR_FORCE}", "${URSC}"] return funder_groups[id] sort by name asc`,
    [{ id: 'defence-funders' }, { id: 'mixed' }],
  ],
  ['search funder_groups where organization_ids is empty return funder_groups[id]', []],
  // Full text, in the `name` index and by default.
  ['search funder_groups in name for "funders" return funder_groups[id]', [{ id: 'defence-funders' }]],
  [
    'search funder_groups for "naval OR space" return funder_groups[id] sort by name asc',
    [{ id: 'mixed' }, { id: 'space-agencies' }],
  ],
  ['search funder_groups for "military" return funder_groups[id]', []],
  ['search research_org_groups for "military" return research_org_groups[id]', [{ id: 'military-schools' }]],
  [
    `search research_org_groups where organization_ids = "${NAVAL_SCHOOL}" return research_org_groups[id + name]`,
    [{ id: 'military-schools', name: 'Military schools' }],
  ],
];

function shown(query: string, expected: unknown, answer: Record<string, unknown>): unknown {
  if (expected !== null && typeof expected === 'object' && 'total' in expected)
    return { total: (answer['_stats'] as { total_count: number }).total_count };
  const key = /return ([a-z_]+)/.exec(query)?.[1] as string;
  return answer[key] ?? [];
}

const dir = mkdtempSync(join(tmpdir(), 'quarry-groups-'));
const SQLITE = join(dir, 'records.db');
let pgDb: TestPgDatabase;
const engines: { name: string; database: () => string }[] = [
  { name: 'SQLite', database: () => SQLITE },
  { name: 'PostgreSQL', database: () => pgDb.url },
];
const queries = new Map<string, LocalQueries>();

before(async () => {
  const shards = join(dir, 'shards');
  const { mkdirSync } = await import('node:fs');
  mkdirSync(shards);
  writeFileSync(join(shards, 'funder_groups-0001.jsonl'), FUNDER_GROUPS.map((g) => `${JSON.stringify(g)}\n`).join(''));
  writeFileSync(
    join(shards, 'research_org_groups-0001.jsonl'),
    RESEARCH_ORG_GROUPS.map((g) => `${JSON.stringify(g)}\n`).join(''),
  );
  pgDb = await createTestPgDatabase('groups');
  for (const engine of engines) {
    const database = engine.database();
    await importFiles({ paths: [ROR], open: recordWriterFor(database), format: 'ror', onError: 'abort' });
    await importFiles({ paths: [shards], open: recordWriterFor(database), format: 'quarry', onError: 'abort' });
    queries.set(engine.name, await openLocalQueries(database, 2));
  }
});
after(async () => {
  for (const q of queries.values()) await q.close();
  await pgDb?.drop();
  rmSync(dir, { recursive: true, force: true });
});

/** The spec's field table of a group source: name → filterable, facet. */
function specFields(source: string): Map<string, { filter: boolean; facet: boolean; multi: boolean }> {
  const start = SPEC.indexOf(`\`${source}\`\n`);
  const end = SPEC.indexOf('\n### ', start);
  const text = SPEC.slice(start, end < 0 ? undefined : end);
  return new Map(
    text
      .split('\n')
      .filter((l) => l.startsWith('| `'))
      .map((l) => {
        const [name = '', type = '', f = '', fa = ''] = l
          .split('|')
          .slice(1, -1)
          .map((c) => c.trim());
        return [name.replace(/`/g, ''), { filter: f === '✓', facet: fa === '✓', multi: type.startsWith('list<') }];
      }),
  );
}

for (const engine of engines)
  describe(`groups on ${engine.name}`, { timeout: 120_000 }, () => {
    const post = (text: string): Promise<Record<string, unknown>> =>
      queries.get(engine.name)!.post(text) as Promise<Record<string, unknown>>;

    for (const source of GROUP_SOURCES)
      test(`describe source ${source} gives the spec's fields, flags and search index`, async () => {
        const described = (await post(`describe source ${source}`)) as {
          fields: Record<string, { is_filter: boolean; is_facet: boolean; is_multivalue: boolean; type: string }>;
          fieldsets: string[];
          search_fields: string[];
        };
        const spec = specFields(source);
        assert.deepEqual(Object.keys(described.fields).sort(), [...spec.keys()].sort());
        for (const [name, flags] of spec) {
          const field = described.fields[name];
          assert.equal(field?.is_filter, flags.filter, name);
          assert.equal(field?.is_facet, flags.facet, name);
          assert.equal(field?.is_multivalue, flags.multi, name);
        }
        assert.deepEqual(described.fieldsets, ['basics']);
        assert.deepEqual(described.search_fields, ['name']);
      });

    for (const [query, expected] of CASES)
      test(query, async () => {
        assert.deepEqual(shown(query, expected, await post(query)), expected);
      });

    test('a group source has no facets: returning a field as one is refused with a coded error', async () => {
      await assert.rejects(
        post('search funder_groups return name'),
        (e) => isQuarryError(e) && e.category === 'semantic',
      );
    });

    test('the walk down the hierarchy: the root, its children, theirs, each once (one school has two parents)', async () => {
      const q = queries.get(engine.name)!;
      const members = await organizationWithDescendants(q, ARMED_FORCES_STAFF);
      assert.equal(members[0], ARMED_FORCES_STAFF);
      assert.deepEqual(
        sorted(members),
        sorted([
          ARMED_FORCES_STAFF,
          MILITARY_UNIVERSITY,
          AIR_FORCE_ACADEMY,
          MILITARY_ACADEMY,
          MILITARY_ACADEMY_RESEARCH,
          NAVAL_SCHOOL,
        ]),
      );
      // Level by level: the university before the schools, the schools before the research centre.
      assert.ok(members.indexOf(MILITARY_UNIVERSITY) < members.indexOf(MILITARY_ACADEMY));
      assert.ok(members.indexOf(MILITARY_ACADEMY) < members.indexOf(MILITARY_ACADEMY_RESEARCH));
    });

    test('children named by a held record but not held themselves are members, with nothing below them', async () => {
      const members = await organizationWithDescendants(queries.get(engine.name)!, DEPARTMENT_OF_SPACE);
      assert.deepEqual(sorted(members), sorted([DEPARTMENT_OF_SPACE, ISRO, URSC, ...ISRO_CHILDREN_NOT_HELD]));
    });

    test('a leaf is a group of one; an organization not held is a coded not_found', async () => {
      assert.deepEqual(await organizationWithDescendants(queries.get(engine.name)!, NAVAL_SCHOOL), [NAVAL_SCHOOL]);
      await assert.rejects(
        organizationWithDescendants(queries.get(engine.name)!, ror('0000000xx')),
        (e) => isQuarryError(e) && e.code === 'GROUP_ORGANIZATION_NOT_FOUND',
      );
    });

    test('an administrator saves, replaces and removes a group; queries see each step', async () => {
      const database = engine.database();
      const members = await organizationWithDescendants(queries.get(engine.name)!, ARMED_FORCES_STAFF);
      await saveGroup(
        recordWriterFor(database),
        'research_org_groups',
        checkedGroup({ name: 'Portuguese armed forces', organizationIds: members }),
      );
      const fresh = await openLocalQueries(database, 2);
      try {
        const groups = await listGroups(fresh, 'research_org_groups');
        assert.deepEqual(
          groups.map((g) => g.id),
          ['military-schools', 'portuguese-armed-forces'],
        );
        assert.deepEqual(sorted(groups[1]?.organization_ids ?? []), sorted(members));
        assert.deepEqual(
          await fresh.post(
            `search research_org_groups where organization_ids = "${MILITARY_ACADEMY_RESEARCH}" return research_org_groups[id]`,
          ),
          { research_org_groups: [{ id: 'portuguese-armed-forces' }], _stats: { total_count: 1 } },
        );
      } finally {
        await fresh.close();
      }
      // The same id again replaces the group: its members are the new ones only.
      await saveGroup(
        recordWriterFor(database),
        'research_org_groups',
        checkedGroup({
          id: 'portuguese-armed-forces',
          name: 'Portuguese naval school',
          organizationIds: [NAVAL_SCHOOL],
        }),
      );
      await removeGroup(recordWriterFor(database), 'research_org_groups', 'military-schools');
      const after = await openLocalQueries(database, 2);
      try {
        assert.deepEqual(await listGroups(after, 'research_org_groups'), [
          { id: 'portuguese-armed-forces', name: 'Portuguese naval school', organization_ids: [NAVAL_SCHOOL] },
        ]);
        assert.deepEqual(await listGroups(after, 'funder_groups').then((g) => g.length), 3);
      } finally {
        await after.close();
      }
      await assert.rejects(
        removeGroup(recordWriterFor(database), 'research_org_groups', 'military-schools'),
        (e) => isQuarryError(e) && e.code === 'GROUP_NOT_FOUND',
      );
    });
  });
