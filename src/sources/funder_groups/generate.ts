/**
 * The demo's funder groups (`src/data/generate/organization-groups.ts` makes them): sets of
 * the run's funders by country and type, as research offices group funders in reports.
 */
import type { Context } from '../../data/generate/context.ts';
import { demoGroups, EUROPE, inCountries, type GroupRule } from '../../data/generate/organization-groups.ts';
import type { OrganizationGroup } from '../../data/groups/group-sources.ts';

const RULES: readonly GroupRule[] = [
  { id: 'us-government-funders', name: 'US government funders', takes: inCountries(['US'], ['Government']) },
  { id: 'uk-funders', name: 'UK funders', takes: inCountries(['GB']) },
  { id: 'european-funders', name: 'European funders', takes: inCountries(EUROPE) },
  {
    id: 'asia-pacific-funders',
    name: 'Asia-Pacific funders',
    takes: inCountries(['AU', 'CN', 'IN', 'JP', 'KR', 'NZ', 'SG', 'TW']),
  },
  {
    id: 'charitable-funders',
    name: 'Charities and foundations',
    takes: (org) => (org.types ?? []).includes('Nonprofit'),
  },
];

/** The funder groups of the run. */
export function funderGroupsOfRun(ctx: Context): OrganizationGroup[] {
  return demoGroups(ctx, true, RULES);
}
