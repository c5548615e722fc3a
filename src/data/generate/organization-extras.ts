/**
 * The identifiers and links of a generated organization beyond ROR's own: its Wikipedia
 * page (from the ROR record's links), the CNRS unit codes French laboratories carry in
 * their ROR aliases (`UMR 8539` → `UMR8539`), and, in shapes their registries use, UK
 * provider ids (UKPRN, HESA, UCAS) for British universities and OrgRef ids for
 * organizations older than that registry's last release. Only an organization's first use
 * (not its reused "site" copies) carries the identifiers, as with its ROR id.
 */
import type { OrganizationRecord } from '../../model/native-records.ts';
import type { RorOrganization } from '../ror-organization.ts';
import type { RandomSource } from './prng.ts';

type OrganizationExtras = Pick<
  OrganizationRecord,
  'wikipedia_url' | 'cnrs_ids' | 'ukprn_ids' | 'hesa_ids' | 'ucas_ids' | 'orgref_ids'
>;

const CNRS_UNIT = /\b(UMR|UPR|UAR|UMS|FRE|IRL|USR)\s*(?:[A-Z][A-Za-z-]*\s+)?(\d{3,4})\b/g;

/** CNRS unit codes named by a French organization's aliases, deduplicated: `['UMR8539']`. */
export function cnrsUnitsOf(org: Pick<RorOrganization, 'countryCode' | 'aliases'>): string[] {
  if (org.countryCode !== 'FR') return [];
  const units = new Set<string>();
  for (const alias of org.aliases) for (const m of alias.matchAll(CNRS_UNIT)) units.add(`${m[1]}${m[2]}`);
  return [...units];
}

/** The extra identifiers of organization `index`, first made from `org` (`cycle` 0), from its own stream. */
export function organizationExtras(
  index: number,
  org: RorOrganization,
  cycle: number,
  random: RandomSource,
): OrganizationExtras {
  const out: { -readonly [K in keyof OrganizationExtras]: OrganizationExtras[K] } = {};
  const wikipedia = org.links.find((url) => /^https?:\/\/[a-z-]+\.wikipedia\.org\//.test(url));
  if (wikipedia !== undefined) out.wikipedia_url = wikipedia;
  if (cycle > 0) return out;
  const r = random.draws('organization', index, 'external-ids');
  const cnrs = cnrsUnitsOf(org);
  if (cnrs.length > 0) out.cnrs_ids = cnrs;
  if (org.countryCode === 'GB' && org.types.includes('education')) {
    out.ukprn_ids = [String(10_000_000 + r.int(1000, 89_999))];
    out.hesa_ids = [String(r.int(1, 999)).padStart(4, '0')];
    out.ucas_ids = [`${(org.name.match(/[A-Z]/)?.[0] ?? 'U').toUpperCase()}${String(r.int(10, 99))}`];
  }
  if ((org.established ?? 0) < 2016 && r.chance(0.6)) out.orgref_ids = [String(r.int(10_000, 99_999_999))];
  return out;
}
