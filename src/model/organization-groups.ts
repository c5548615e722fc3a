/**
 * The two sources of named sets of organizations, `funder_groups` and `research_org_groups`
 * (spec/schema-2026.md §7.11–7.12): the same three fields, the same storage, declared once
 * here and instantiated by each source's module. An administrator defines the groups
 * (`quarry groups`, the admin page) and the demo generator ships a few; they are records
 * like any other, so `search funder_groups for "..." return funder_groups` works as on the
 * hosted service.
 */
import type { SourceTable } from './field-table.ts';
import { t } from './layout-parts.ts';
import { distinctIds, ids, text } from './record-values.ts';
import { defineSource } from './source-module.ts';

/** The field table both group sources share, with the description of the one it serves. */
function groupFields<const Description extends string>(description: Description) {
  return {
    description,
    fields: [
      ['id', 'string', 'f', 'The identifier of the group.'],
      ['name', 'string', 'f', 'The name of the group.'],
      ['organization_ids', 'string', 'fm', 'The identifiers of the organizations which are members of this group.'],
    ],
    removedInV2: [],
    fieldsets: [
      {
        name: 'basics',
        description: 'Returned when no field list is given.',
        fields: ['id', 'name', 'organization_ids'],
      },
    ],
    searchIndexes: [{ name: 'name', description: 'The name of the group.' }],
    defaultIndex: 'name',
    indicators: ['count'],
    defaultOrder: { field: 'name', direction: 'asc' },
  } as const satisfies SourceTable;
}

/**
 * Declares a group source: its table (`name`), the link table of its members
 * (`<singular>_organizations`, by organization id, so a member need not be held) and a
 * full-text table for the `name` search index.
 *
 * @example export const funderGroups = defineOrganizationGroups('funder_groups', 'funder_group', 'Named sets of funders.');
 */
export function defineOrganizationGroups<
  const Name extends string,
  const Singular extends string,
  const Description extends string,
>(name: Name, singular: Singular, description: Description) {
  const members = `${singular}_organizations` as const;
  return defineSource({
    name,
    singular,
    // Members are organizations: an import writes those first.
    refersTo: ['organizations'],
    fieldTable: groupFields(description),
    requiredFields: [['name', 'string']],
    storage: {
      table: { table: name, columns: [t('name')], indexes: [['name']] },
      links: [
        {
          table: members,
          key: [t('org_id')],
          extra: [],
          reverse: ['org_id'],
          holds: { field: 'organization_ids' },
        },
      ],
      fullText: { table: `${name}_fts`, columns: ['name'], indexes: { name: ['name'] } },
    },
    rows: {
      links: (record) =>
        ({ [members]: ids(distinctIds(record['organization_ids'])) }) as Record<typeof members, ReturnType<typeof ids>>,
      fullText: (record) => [text(record['name'])],
    },
  });
}
