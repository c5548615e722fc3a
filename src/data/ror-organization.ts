/**
 * One ROR v2 organization record reduced to what Quarry keeps: names, types, place, founding
 * year and external ids. Shared by the ROR importer, the generator (real names and places
 * under synthetic ids) and the script that vendors the organization sample.
 */
import type { OrganizationRecord } from '../model/native-records.ts';

/** A real organization, reduced to what the generator uses. */
export interface RorOrganization {
  readonly rorId: string;
  readonly name: string;
  readonly acronym?: string;
  readonly aliases: readonly string[];
  readonly types: readonly string[];
  readonly status: string;
  readonly established?: number;
  readonly cityId?: string;
  readonly cityName?: string;
  readonly stateCode?: string;
  readonly stateName?: string;
  readonly countryCode?: string;
  readonly countryName?: string;
  readonly latitude?: number;
  readonly longitude?: number;
  readonly wikidata: readonly string[];
  readonly isni: readonly string[];
  readonly fundref: readonly string[];
  readonly links: readonly string[];
}

/** An organization record's descriptive fields (names, types, place, founding year) from a ROR record. */
export type OrganizationDescription = Pick<
  OrganizationRecord,
  | 'acronym'
  | 'aliases'
  | 'types'
  | 'city_id'
  | 'city_name'
  | 'state_code'
  | 'state_name'
  | 'country_code'
  | 'country_name'
  | 'latitude'
  | 'longitude'
  | 'established'
>;

/**
 * The descriptive fields of an organization record, absent ones left out. Shared by the
 * generator (real names and places under synthetic ids) and the ROR importer.
 */
export function organizationDescription(org: RorOrganization): OrganizationDescription {
  return {
    ...(org.acronym === undefined ? {} : { acronym: org.acronym }),
    ...(org.aliases.length === 0 ? {} : { aliases: org.aliases }),
    types: org.types.map(organizationType),
    ...(org.cityId === undefined ? {} : { city_id: org.cityId }),
    ...(org.cityName === undefined ? {} : { city_name: org.cityName }),
    ...(org.stateCode === undefined ? {} : { state_code: org.stateCode }),
    ...(org.stateName === undefined ? {} : { state_name: org.stateName }),
    ...(org.countryCode === undefined ? {} : { country_code: org.countryCode }),
    ...(org.countryName === undefined ? {} : { country_name: org.countryName }),
    ...(org.latitude === undefined ? {} : { latitude: org.latitude }),
    ...(org.longitude === undefined ? {} : { longitude: org.longitude }),
    ...(org.established === undefined ? {} : { established: org.established }),
  };
}

/**
 * An organization type as the hosted service writes it (`Education`, `Government`,
 * `Funder`): ROR and OpenAlex give them in lower case (`education`). Filters compare types
 * exactly, so every importer and the generator store this form.
 *
 * @example organizationType('education') // 'Education'
 */
export function organizationType(type: string): string {
  return type.length === 0 ? type : type.charAt(0).toUpperCase() + type.slice(1).toLowerCase();
}

type Loose = Record<string, unknown>;
const str = (v: unknown): string | undefined => (typeof v === 'string' && v.length > 0 ? v : undefined);
const arr = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);

/** Maps one ROR v2 record to the generator's view (also used by the ROR importer's tests). */
export function rorOrganization(raw: Loose): RorOrganization | undefined {
  const rorId = str(raw['id']);
  const names = arr(raw['names']) as Loose[];
  const display = names.find((n) => arr(n['types']).includes('ror_display')) ?? names[0];
  const name = display === undefined ? undefined : str(display['value']);
  if (rorId === undefined || name === undefined) return undefined;
  const acronym = str(names.find((n) => arr(n['types']).includes('acronym'))?.['value']);
  const aliases = names
    .filter((n) => n !== display && !arr(n['types']).includes('acronym'))
    .map((n) => str(n['value']))
    .filter((v): v is string => v !== undefined);
  const location = (arr(raw['locations'])[0] ?? {}) as Loose;
  const geo = (location['geonames_details'] ?? {}) as Loose;
  const ext = (type: string): string[] =>
    (arr(raw['external_ids']) as Loose[])
      .filter((e) => e['type'] === type)
      .flatMap((e) => arr(e['all']).filter((v): v is string => typeof v === 'string'));
  const established = raw['established'];
  const lat = geo['lat'];
  const lng = geo['lng'];
  const geonamesId = location['geonames_id'];
  const cityName = str(geo['name']);
  const stateCode = str(geo['country_subdivision_code']);
  const stateName = str(geo['country_subdivision_name']);
  const countryCode = str(geo['country_code']);
  const countryName = str(geo['country_name']);
  return {
    rorId,
    name,
    ...(acronym === undefined ? {} : { acronym }),
    aliases,
    types: arr(raw['types']).filter((t): t is string => typeof t === 'string'),
    status: str(raw['status']) ?? 'active',
    ...(typeof established === 'number' ? { established } : {}),
    ...(typeof geonamesId === 'number' ? { cityId: String(geonamesId) } : {}),
    ...(cityName === undefined ? {} : { cityName }),
    ...(stateCode === undefined || countryCode === undefined ? {} : { stateCode: `${countryCode}-${stateCode}` }),
    ...(stateName === undefined ? {} : { stateName }),
    ...(countryCode === undefined ? {} : { countryCode }),
    ...(countryName === undefined ? {} : { countryName }),
    ...(typeof lat === 'number' ? { latitude: lat } : {}),
    ...(typeof lng === 'number' ? { longitude: lng } : {}),
    wikidata: ext('wikidata'),
    isni: ext('isni'),
    fundref: ext('fundref'),
    links: (arr(raw['links']) as Loose[]).map((l) => str(l['value'])).filter((v): v is string => v !== undefined),
  };
}
