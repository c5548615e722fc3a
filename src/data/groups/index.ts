/** Organization groups: what the command line and the admin page use to define, list and remove them. */
export { organizationWithDescendants, type QueryPoster } from './descendants.ts';
export { checkedGroup, groupSource, GROUP_SOURCES, type GroupSource, type OrganizationGroup } from './group-sources.ts';
export { listGroups, removeGroup, saveGroup } from './group-store.ts';
export { parseMembers, readMembersText } from './members-file.ts';
export { groupAdministration, type GroupAdministrationDeps } from './administration.ts';
