/**
 * The look-up tables the affiliation matcher reads: every organization's compared names
 * (name, aliases, labels), its acronyms, and the places (cities, states, countries) the
 * registry knows, so a place written in a string can confirm or rule out a candidate.
 */
import { COUNTRY_VARIANTS } from './countries.ts';
import { normalise } from './normalise.ts';
import type { MatchableOrganization } from './organization.ts';

export interface AffiliationIndex {
  /** Compared name → organizations bearing it. */
  readonly names: ReadonlyMap<string, readonly MatchableOrganization[]>;
  /** Acronym as written (case kept) → organizations. */
  readonly acronyms: ReadonlyMap<string, readonly MatchableOrganization[]>;
  /** Compared country name or variant → country codes. */
  readonly countries: ReadonlyMap<string, string>;
  /** Compared city and state names → true. */
  readonly places: ReadonlySet<string>;
  readonly byId: ReadonlyMap<string, MatchableOrganization>;
  /** The most words of any compared name. */
  readonly longestName: number;
  readonly size: number;
}

function add<K, V>(map: Map<K, V[]>, key: K, value: V): void {
  const list = map.get(key);
  if (list === undefined) map.set(key, [value]);
  else if (!list.includes(value)) list.push(value);
}

/** Builds the index over organization records (any order; withdrawn ones kept for their successors). */
export function buildAffiliationIndex(organizations: Iterable<MatchableOrganization>): AffiliationIndex {
  const names = new Map<string, MatchableOrganization[]>();
  const acronyms = new Map<string, MatchableOrganization[]>();
  const countries = new Map<string, string>();
  const places = new Set<string>();
  const byId = new Map<string, MatchableOrganization>();
  let longestName = 1;
  for (const [code, variant] of COUNTRY_VARIANTS) countries.set(variant, code);
  for (const org of organizations) {
    byId.set(org.id, org);
    for (const name of [org.name, ...org.aliases]) {
      const key = normalise(name);
      if (key.length === 0) continue;
      add(names, key, org);
      longestName = Math.max(longestName, key.split(' ').length);
    }
    for (const acronym of org.acronyms) {
      const key = acronym.replace(/[.\s]/g, '');
      if (key.length >= 2) add(acronyms, key, org);
    }
    if (org.countryName !== undefined && org.countryCode !== undefined) {
      const key = normalise(org.countryName);
      if (!countries.has(key)) countries.set(key, org.countryCode);
    }
    if (org.city !== undefined) places.add(normalise(org.city));
    if (org.state !== undefined) places.add(normalise(org.state));
  }
  return { names, acronyms, countries, places, byId, longestName, size: byId.size };
}
