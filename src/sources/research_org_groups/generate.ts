/**
 * The demo's research organization groups (`src/data/generate/organization-groups.ts` makes
 * them): sets of the run's research organizations by country and type, as benchmarking
 * groups of universities and hospitals are.
 */
import type { Context } from '../../data/generate/context.ts';
import { demoGroups, EUROPE, inCountries, type GroupRule } from '../../data/generate/organization-groups.ts';
import type { OrganizationGroup } from '../../data/groups/group-sources.ts';

const RULES: readonly GroupRule[] = [
  { id: 'us-universities', name: 'US universities', takes: inCountries(['US'], ['Education']) },
  { id: 'uk-universities', name: 'UK universities', takes: inCountries(['GB'], ['Education']) },
  { id: 'european-universities', name: 'European universities', takes: inCountries(EUROPE, ['Education']) },
  {
    id: 'german-research-institutes',
    name: 'German research institutes',
    takes: inCountries(['DE'], ['Facility', 'Government', 'Nonprofit']),
  },
  { id: 'australian-universities', name: 'Australian universities', takes: inCountries(['AU'], ['Education']) },
  {
    id: 'hospitals',
    name: 'Hospitals and health systems',
    takes: (org) => (org.types ?? []).includes('Healthcare'),
  },
];

/** The research organization groups of the run. */
export function researchOrgGroupsOfRun(ctx: Context): OrganizationGroup[] {
  return demoGroups(ctx, false, RULES);
}
