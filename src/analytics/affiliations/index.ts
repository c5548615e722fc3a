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
  /** Organization id → its compared names (name and aliases), to check a related record against a string. */
  readonly compared: ReadonlyMap<string, readonly string[]>;
  /** Words that appear in many names ("university", "research", "cancer"): a name made only of them says little alone. */
  readonly commonWords: ReadonlySet<string>;
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
/** How many names a word must be in to count as common. */
const COMMON_WORD_NAMES = 20;

export function buildAffiliationIndex(organizations: Iterable<MatchableOrganization>): AffiliationIndex {
  const names = new Map<string, MatchableOrganization[]>();
  const acronyms = new Map<string, MatchableOrganization[]>();
  const countries = new Map<string, string>();
  const places = new Set<string>();
  const byId = new Map<string, MatchableOrganization>();
  const compared = new Map<string, string[]>();
  let longestName = 1;
  for (const [code, variant] of COUNTRY_VARIANTS) countries.set(variant, code);
  for (const org of organizations) {
    byId.set(org.id, org);
    for (const name of [org.name, ...org.aliases]) {
      const key = normalise(name);
      if (key.length === 0) continue;
      add(names, key, org);
      add(compared, org.id, key);
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
  const wordNames = new Map<string, number>();
  for (const key of names.keys())
    for (const word of new Set(key.split(' '))) wordNames.set(word, (wordNames.get(word) ?? 0) + 1);
  const threshold = Math.min(COMMON_WORD_NAMES, Math.max(2, Math.round(names.size / 1000)));
  // Place words ("michigan", "columbia") name something even when many names carry them.
  const placeWords = new Set([...places, ...countries.keys()].flatMap((p) => p.split(' ')));
  const commonWords = new Set(
    [...wordNames].filter(([word, n]) => n >= threshold && !placeWords.has(word)).map(([word]) => word),
  );
  return { names, acronyms, countries, places, commonWords, byId, compared, longestName, size: byId.size };
}
