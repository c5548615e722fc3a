/**
 * Organizations for the matcher from the two places they come from: the protocol's
 * organization records (what the store holds) and ROR v2 records (the bench and fixtures).
 */
import type { MatchableOrganization } from './organization.ts';

type Loose = Record<string, unknown>;
const str = (v: unknown): string | undefined => (typeof v === 'string' && v.length > 0 ? v : undefined);
const strings = (v: unknown): string[] =>
  Array.isArray(v)
    ? v.filter((x): x is string => typeof x === 'string' && x.length > 0)
    : typeof v === 'string' && v.length > 0
      ? [v]
      : [];

/**
 * The organization fields the matcher reads from the store. Labels in other languages are
 * stored for full-text search only, so the store's records give names, acronyms and aliases.
 */
export const ORGANIZATION_FIELDS = [
  'id',
  'name',
  'acronym',
  'aliases',
  'city_name',
  'state_name',
  'country_code',
  'country_name',
  'types',
  'status',
  'redirect',
  'organization_parent_ids',
  'organization_child_ids',
] as const;

/** One organization record as the protocol answers it (fields of ORGANIZATION_FIELDS). */
export function fromOrganizationRecord(row: Loose): MatchableOrganization | undefined {
  const id = str(row['id']);
  const name = str(row['name']);
  if (id === undefined || name === undefined) return undefined;
  const city = str(row['city_name']);
  const state = str(row['state_name']);
  const countryCode = str(row['country_code']);
  const countryName = str(row['country_name']);
  const successor = str(row['redirect']);
  const parents = strings(row['organization_parent_ids']);
  const children = strings(row['organization_child_ids']);
  return {
    id,
    name,
    aliases: strings(row['aliases']),
    acronyms: strings(row['acronym']),
    ...(city === undefined ? {} : { city }),
    ...(state === undefined ? {} : { state }),
    ...(countryCode === undefined ? {} : { countryCode }),
    ...(countryName === undefined ? {} : { countryName }),
    types: strings(row['types']),
    status: (str(row['status']) ?? 'active').toLowerCase(),
    ...(successor === undefined ? {} : { successor }),
    ...(parents.length === 0 ? {} : { parents }),
    ...(children.length === 0 ? {} : { children }),
  };
}

/** One ROR v2 record (names with their types, locations, relationships). */
export function fromRorRecord(raw: Loose): MatchableOrganization | undefined {
  const id = str(raw['id']);
  const names = (Array.isArray(raw['names']) ? raw['names'] : []) as Loose[];
  const typed = (n: Loose, type: string): boolean =>
    Array.isArray(n['types']) && (n['types'] as unknown[]).includes(type);
  const display = names.find((n) => typed(n, 'ror_display')) ?? names[0];
  const name = display === undefined ? undefined : str(display['value']);
  if (id === undefined || name === undefined) return undefined;
  const geo = (((raw['locations'] as Loose[] | undefined) ?? [])[0] ?? {})['geonames_details'] as Loose | undefined;
  const relationships = (Array.isArray(raw['relationships']) ? raw['relationships'] : []) as Loose[];
  const successor = str(relationships.find((r) => r['type'] === 'successor')?.['id']);
  const related = (type: string): string[] =>
    relationships
      .filter((r) => r['type'] === type)
      .map((r) => str(r['id']))
      .filter((v): v is string => v !== undefined);
  const parents = related('parent');
  const children = related('child');
  const city = str(geo?.['name']);
  const state = str(geo?.['country_subdivision_name']);
  const countryCode = str(geo?.['country_code']);
  const countryName = str(geo?.['country_name']);
  return {
    id,
    name,
    aliases: names
      .filter((n) => n !== display && !typed(n, 'acronym'))
      .map((n) => str(n['value']))
      .filter((v): v is string => v !== undefined),
    acronyms: names
      .filter((n) => typed(n, 'acronym'))
      .map((n) => str(n['value']))
      .filter((v): v is string => v !== undefined),
    ...(city === undefined ? {} : { city }),
    ...(state === undefined ? {} : { state }),
    ...(countryCode === undefined ? {} : { countryCode }),
    ...(countryName === undefined ? {} : { countryName }),
    types: strings(raw['types']),
    status: str(raw['status']) ?? 'active',
    ...(successor === undefined ? {} : { successor }),
    ...(parents.length === 0 ? {} : { parents }),
    ...(children.length === 0 ? {} : { children }),
  };
}
