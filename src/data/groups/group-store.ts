/**
 * Storing, removing and listing groups. Groups are records of the `funder_groups` and
 * `research_org_groups` sources, written through the same record writer an import uses, so
 * both databases hold them in the tables their declarations give and every query sees them.
 * An import only adds or replaces the records it reads (and `quarry generate` writes its
 * demo groups under ids of their own, prefixed `demo-`), so the groups an administrator
 * defined stay through later imports; a database built anew needs them defined again, which
 * `quarry groups list --json` output, saved, makes a matter of one command per group.
 */
import type { RecordTarget } from '../../store/record-writer.ts';
import { ROW_PREPARATIONS } from '../../store/row-preparation.ts';
import type { NativeKind, NativeRecord } from '../../model/native-records.ts';
import { QuarryError } from '../../errors/index.ts';
import type { QueryPoster } from './descendants.ts';
import type { GroupSource, OrganizationGroup } from './group-sources.ts';

/** Writes one batch (groups to store, ids to remove) as one journaled run; the number removed. */
async function writeBatch(
  target: RecordTarget,
  source: GroupSource,
  batch: { readonly upserts: readonly OrganizationGroup[]; readonly removals: readonly string[] },
): Promise<number> {
  const kind = source as NativeKind;
  const prepare = ROW_PREPARATIONS[target.preparation] as (kind: NativeKind, record: NativeRecord) => unknown;
  const writer = await target.open({ batchSize: Math.max(1, batch.upserts.length), bulk: false });
  try {
    const label = `${source} (quarry groups)`;
    const run = await writer.begin({ groups: source }, [label]);
    const removed = await writer.commit(
      run,
      {
        upserts: new Map([[kind, batch.upserts.map((g) => prepare(kind, g as unknown as NativeRecord))]]) as never,
        removals: batch.removals.map((id) => ({ kind, id })),
      },
      { position: 0, line: batch.upserts.length + batch.removals.length, done: true },
    );
    await writer.end(run, 'done');
    // No finish(): groups have no derived data, and it would derive every source's again
    // (minutes at a million records). The commit's transaction already gave the data a new
    // epoch, which the SQLite result cache keys on, so queries see the change at once.
    return removed[kind] ?? 0;
  } finally {
    await writer.close();
  }
}

/** Stores `group` in `source`, replacing a group of the same id. */
export async function saveGroup(target: RecordTarget, source: GroupSource, group: OrganizationGroup): Promise<void> {
  await writeBatch(target, source, { upserts: [group], removals: [] });
}

/** Removes the group `id` of `source`; GROUP_NOT_FOUND when there is none. */
export async function removeGroup(target: RecordTarget, source: GroupSource, id: string): Promise<void> {
  const removed = await writeBatch(target, source, { upserts: [], removals: [id] });
  if (removed === 0) throw QuarryError.of('GROUP_NOT_FOUND', { params: { id: JSON.stringify(id), source } });
}

const PAGE = 1000;

/** Every group of `source`, by name. */
export async function listGroups(queries: QueryPoster, source: GroupSource): Promise<OrganizationGroup[]> {
  const groups: OrganizationGroup[] = [];
  for (let skip = 0; ; skip += PAGE) {
    const answer = (await queries.post(
      `search ${source} return ${source}[id + name + organization_ids] sort by name asc limit ${PAGE} skip ${skip}`,
    )) as Record<string, unknown>;
    const page = (answer[source] ?? []) as Readonly<Record<string, unknown>>[];
    for (const row of page)
      groups.push({
        id: String(row['id']),
        name: typeof row['name'] === 'string' ? row['name'] : '',
        organization_ids: Array.isArray(row['organization_ids']) ? (row['organization_ids'] as string[]) : [],
      });
    if (page.length < PAGE) return groups;
  }
}
