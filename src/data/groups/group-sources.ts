/**
 * The two group sources (spec/schema-2026.md §7.11–7.12) and what makes a group valid before
 * it is stored: an id, a name and at least one member organization.
 */
import { QuarryError } from '../../errors/index.ts';

export const GROUP_SOURCES = ['funder_groups', 'research_org_groups'] as const;
export type GroupSource = (typeof GROUP_SOURCES)[number];

/** A group as it is stored: a `funder_groups` or `research_org_groups` record. */
export interface OrganizationGroup {
  readonly id: string;
  readonly name: string;
  readonly organization_ids: readonly string[];
}

/**
 * The most members a group holds. The largest ROR tree (CNRS and its units) has under 2,000
 * organizations; a group is read whole on every page that shows it.
 */
export const MAX_GROUP_MEMBERS = 20_000;

const ID = /^[A-Za-z0-9][A-Za-z0-9._:-]{0,99}$/;
// One line of text: no control characters (a name is shown in pages and listed by the CLI one per line).
const NAME = /^[^\p{Cc}]{1,200}$/u;

/** The group source a name stands for, or a coded error listing them. */
export function groupSource(value: string): GroupSource {
  const found = GROUP_SOURCES.find((s) => s === value);
  if (found === undefined)
    throw QuarryError.of('GROUP_UNKNOWN_SOURCE', { params: { value, sources: GROUP_SOURCES.join(', ') } });
  return found;
}

/**
 * The id a group gets from its name when none is given: lower case, runs of anything but
 * letters and digits as one hyphen.
 *
 * @example idFromName('Wellcome & UKRI funders') // 'wellcome-ukri-funders'
 */
export function idFromName(name: string): string {
  return name
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 100)
    .replace(/-+$/, '');
}

/**
 * A group checked and put in its stored form: the name trimmed, the id given or made from the
 * name, the members distinct in the order given. Throws a coded error naming what is wrong.
 */
export function checkedGroup(input: {
  readonly id?: string | undefined;
  readonly name: string;
  readonly organizationIds: readonly string[];
}): OrganizationGroup {
  const name = input.name.trim();
  if (!NAME.test(name)) throw QuarryError.of('GROUP_BAD_NAME', { params: { value: JSON.stringify(input.name) } });
  const id = input.id === undefined || input.id.trim() === '' ? idFromName(name) : input.id.trim();
  if (!ID.test(id)) throw QuarryError.of('GROUP_BAD_ID', { params: { value: JSON.stringify(input.id ?? id) } });
  const members = [...new Set(input.organizationIds.map((m) => m.trim()).filter((m) => m !== ''))];
  if (members.length === 0) throw QuarryError.of('GROUP_NO_MEMBERS', { params: { id } });
  if (members.length > MAX_GROUP_MEMBERS)
    throw QuarryError.of('GROUP_TOO_MANY_MEMBERS', {
      params: { id, count: members.length, limit: MAX_GROUP_MEMBERS },
    });
  return { id, name, organization_ids: members };
}
