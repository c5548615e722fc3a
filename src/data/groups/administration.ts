/**
 * The one implementation of `GroupAdministration` (src/store/organization-groups.ts): the
 * command line and the admin page both define, list and remove groups through it, over the
 * record database's writer and a query connection to the same database.
 */
import { QuarryError } from '../../errors/index.ts';
import type { RecordTarget } from '../../store/record-writer.ts';
import type { GroupAdministration, GroupDefinition, StoredGroup } from '../../store/organization-groups.ts';
import { organizationWithDescendants, type QueryPoster } from './descendants.ts';
import { checkedGroup, groupSource, GROUP_SOURCES } from './group-sources.ts';
import { listGroups, removeGroup, saveGroup } from './group-store.ts';
import { parseMembers } from './members-file.ts';

export interface GroupAdministrationDeps {
  /** The record database to write to (a new writer per change). */
  readonly target: () => RecordTarget;
  /** Queries on the same database: listing groups and walking the hierarchy. */
  readonly queries: QueryPoster;
}

export function groupAdministration(deps: GroupAdministrationDeps): GroupAdministration {
  return {
    sources: GROUP_SOURCES,
    async list(sourceName) {
      const sources = sourceName === undefined ? GROUP_SOURCES : [groupSource(sourceName)];
      const out: StoredGroup[] = [];
      for (const source of sources)
        for (const group of await listGroups(deps.queries, source)) out.push({ source, ...group });
      return out;
    },
    async define(definition: GroupDefinition) {
      const source = groupSource(definition.source);
      const { membersText, organization } = definition;
      const hasText = membersText !== undefined && membersText.trim() !== '';
      const hasOrganization = organization !== undefined && organization.trim() !== '';
      if (hasText === hasOrganization)
        throw QuarryError.of('GROUP_MEMBERS_OPTION', {
          params: { options: 'a list of organization ids, an organization and its descendants' },
        });
      // Checked before the walk, so a bad name or id is told without reading the hierarchy.
      checkedGroup({ id: definition.id, name: definition.name, organizationIds: ['-'] });
      const members = hasText
        ? parseMembers(membersText, definition.membersFrom ?? 'the members')
        : await organizationWithDescendants(deps.queries, (organization ?? '').trim());
      const group = checkedGroup({ id: definition.id, name: definition.name, organizationIds: members });
      await saveGroup(deps.target(), source, group);
      return { source, ...group };
    },
    async remove(sourceName, id) {
      await removeGroup(deps.target(), groupSource(sourceName), id);
    },
  };
}
