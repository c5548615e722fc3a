/**
 * The funder_groups source (spec/schema-2026.md §7.11): named sets of funding organizations,
 * declared with research_org_groups' shape (`model/organization-groups.ts`). The registry
 * (`model/sources.ts`) lists it.
 */
import { defineOrganizationGroups } from '../../model/organization-groups.ts';

export const funderGroups = defineOrganizationGroups(
  'funder_groups',
  'funder_group',
  'Named sets of funding organizations, defined by the administrator.',
);
