/**
 * The research_org_groups source (spec/schema-2026.md §7.12): named sets of research
 * organizations, declared with funder_groups' shape (`model/organization-groups.ts`). The
 * registry (`model/sources.ts`) lists it.
 */
import { defineOrganizationGroups } from '../../model/organization-groups.ts';

export const researchOrgGroups = defineOrganizationGroups(
  'research_org_groups',
  'research_org_group',
  'Named sets of research organizations, defined by the administrator.',
);
