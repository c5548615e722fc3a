/**
 * What research organization groups bring to the data layer (listed in `src/data/sources.ts`): the demo's
 * groups, made once the run's organizations are written. Administrators define their own
 * with `quarry groups`.
 */
import { defineSourceData } from '../../data/source-data.ts';
import { groupsAfterwards } from '../../data/generate/organization-groups.ts';
import { recordsGenerator } from '../../data/generate/source-generator.ts';
import type { OrganizationGroup } from '../../data/groups/group-sources.ts';
import { researchOrgGroupsOfRun } from './generate.ts';

export const researchOrgGroupData = defineSourceData({
  kind: 'research_org_groups',
  generator: recordsGenerator<OrganizationGroup>({
    afterwards: (ctx, count) => groupsAfterwards(researchOrgGroupsOfRun(ctx), count),
  }),
});
