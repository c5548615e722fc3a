/**
 * What funder groups bring to the data layer (listed in `src/data/sources.ts`): the demo's
 * groups, made once the run's organizations are written. Administrators define their own
 * with `quarry groups`.
 */
import { defineSourceData } from '../../data/source-data.ts';
import { groupsAfterwards } from '../../data/generate/organization-groups.ts';
import { recordsGenerator } from '../../data/generate/source-generator.ts';
import type { OrganizationGroup } from '../../data/groups/group-sources.ts';
import { funderGroupsOfRun } from './generate.ts';

export const funderGroupData = defineSourceData({
  kind: 'funder_groups',
  generator: recordsGenerator<OrganizationGroup>({
    afterwards: (ctx, count) => groupsAfterwards(funderGroupsOfRun(ctx), count),
  }),
});
