/**
 * Everything one generator run shares between its stages: the plan, the real-data pools,
 * the per-entity typed arrays, and the researcher statistics gathered while papers and
 * grants are written (so researcher records are counted, never sampled).
 */
import type { Affiliation, OrganizationRecord } from '../../model/native-records.ts';
import type { CitationModel } from './citations.ts';
import type { Fields } from './fields.ts';
import type { SourceTitleSet } from './source-titles.ts';
import type { OrganizationSet } from './organizations.ts';
import type { People } from './people.ts';
import type { Plan } from './plan.ts';
import type { RandomSource } from './prng.ts';
import type { TextModel } from './text-model.ts';

/** Researcher facts gathered from authorships and investigator slots. */
export interface ResearcherStats {
  readonly firstYear: Int16Array;
  readonly lastYear: Int16Array;
  readonly publications: Uint16Array;
  readonly grants: Uint16Array;
  readonly firstGrantYear: Int16Array;
  readonly lastGrantYear: Int16Array;
  /** Up to ORGS_PER_RESEARCHER distinct organization indexes per researcher (-1 = none). */
  readonly orgs: Int32Array;
  /** Organization of the latest paper. */
  readonly currentOrg: Int32Array;
}

export const ORGS_PER_RESEARCHER = 4;

export interface Context {
  readonly random: RandomSource;
  readonly plan: Plan;
  readonly fields: Fields;
  /** Titles, abstracts and concepts from the model of real research text. */
  readonly text: TextModel;
  readonly orgs: OrganizationSet;
  /** The source titles; the journals among them hold the articles. */
  readonly journals: SourceTitleSet;
  readonly people: People;
  readonly names: { readonly first: readonly string[]; readonly last: readonly string[] };
  readonly stats: ResearcherStats;
  readonly citations: CitationModel;
  /** Publication year starts and the division, author count of each paper. */
  readonly pubStarts: Int32Array;
  readonly division: Uint8Array;
  readonly authors: Uint16Array;
  /** Grants by start year, their funder (organization index) and number. */
  readonly grantStarts: Int32Array;
  readonly grantFunder: Int32Array;
  /** Citation counts from the counting pass. */
  readonly cited: Int32Array;
  readonly recent: Int32Array;
  /** Mean citations per (year, division), for field citation ratios. */
  readonly meanCited: Float64Array;
}

/** Records an organization for researcher r (first ORGS_PER_RESEARCHER distinct kept). */
export function noteOrganization(stats: ResearcherStats, r: number, org: number): void {
  const base = r * ORGS_PER_RESEARCHER;
  for (let k = 0; k < ORGS_PER_RESEARCHER; k++) {
    const v = stats.orgs[base + k] as number;
    if (v === org) return;
    if (v < 0) {
      stats.orgs[base + k] = org;
      return;
    }
  }
}

/**
 * An organization as an affiliation object, in the hosted service's shape (`city_id` a
 * GeoNames number, `state`, `state_code`), with the string a publication would print.
 */
export function affiliation(org: OrganizationRecord): Affiliation {
  const cityId = org.city_id === undefined || !/^\d+$/.test(org.city_id) ? undefined : Number(org.city_id);
  const raw = [org.name, org.city_name, org.state_name, org.country_name].filter((p) => p !== undefined).join(', ');
  return {
    raw_affiliation: raw,
    id: org.id,
    name: org.name,
    ...(org.city_name === undefined ? {} : { city: org.city_name }),
    ...(cityId === undefined ? {} : { city_id: cityId }),
    ...(org.country_name === undefined ? {} : { country: org.country_name }),
    ...(org.country_code === undefined ? {} : { country_code: org.country_code }),
    ...(org.state_name === undefined ? {} : { state: org.state_name }),
    ...(org.state_code === undefined ? {} : { state_code: org.state_code }),
  };
}
