/**
 * The demo's organization groups: a few named sets of the run's organizations, each the
 * organizations one rule picks (a country and a type, as real groups such as "UK
 * universities" or "US government funders" are), so `search funder_groups` has something to
 * show and the groups' members are held. A rule that picks nobody at the run's scale makes no
 * group. Ids start with `demo-`, so a group an administrator defines (`quarry groups`) never
 * clashes with one.
 */
import type { OrganizationRecord } from '../../model/native-records.ts';
import type { OrganizationGroup } from '../groups/group-sources.ts';
import type { Context } from './context.ts';
import type { LaterRecords } from './source-generator.ts';

/** One demo group: its id (after `demo-`), name, and which organizations it takes. */
export interface GroupRule {
  readonly id: string;
  readonly name: string;
  readonly takes: (org: OrganizationRecord) => boolean;
}

/**
 * The most members a demo group holds: the first organizations the rule takes, which are the
 * most published ones (research organizations are weighted by their index).
 */
const MOST_MEMBERS = 500;

/** Whether `org` is in one of the countries and has one of the types (none given: any type). */
export function inCountries(countries: readonly string[], types: readonly string[] = []) {
  return (org: OrganizationRecord): boolean =>
    org.country_code !== undefined &&
    countries.includes(org.country_code) &&
    (types.length === 0 || (org.types ?? []).some((t) => types.includes(t)));
}

/** The European Union's member states and the United Kingdom, Norway and Switzerland. */
export const EUROPE = [
  'AT',
  'BE',
  'BG',
  'HR',
  'CY',
  'CZ',
  'DK',
  'EE',
  'FI',
  'FR',
  'DE',
  'GR',
  'HU',
  'IE',
  'IT',
  'LV',
  'LT',
  'LU',
  'MT',
  'NL',
  'PL',
  'PT',
  'RO',
  'SK',
  'SI',
  'ES',
  'SE',
  'GB',
  'NO',
  'CH',
];

/** The groups `rules` make of the run's research organizations (`funders` false) or of its funders. */
export function demoGroups(ctx: Context, funders: boolean, rules: readonly GroupRule[]): OrganizationGroup[] {
  const { records, firstFunder } = ctx.orgs;
  const pool = funders ? records.slice(firstFunder) : records.slice(0, firstFunder);
  const groups: OrganizationGroup[] = [];
  for (const rule of rules) {
    const members = pool
      .filter(rule.takes)
      .slice(0, MOST_MEMBERS)
      .map((o) => o.id);
    if (members.length > 0) groups.push({ id: `demo-${rule.id}`, name: rule.name, organization_ids: members });
  }
  return groups;
}

/** The groups a run makes, or the first `count` of them when the run asks for that many. */
export function groupsAfterwards(
  groups: readonly OrganizationGroup[],
  count: number | undefined,
): LaterRecords<OrganizationGroup> {
  const made = count === undefined ? groups : groups.slice(0, count);
  return { count: made.length, make: (k) => made[k] as OrganizationGroup };
}
