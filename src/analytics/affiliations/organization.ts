/** What the affiliation matcher knows of an organization: its names and its place. */
export interface MatchableOrganization {
  readonly id: string;
  readonly name: string;
  /** Other names: aliases and labels in other languages. */
  readonly aliases: readonly string[];
  readonly acronyms: readonly string[];
  readonly city?: string;
  readonly state?: string;
  readonly countryCode?: string;
  readonly countryName?: string;
  readonly types: readonly string[];
  /** `active`, `inactive` or `withdrawn`. */
  readonly status: string;
  /** The record this one was merged into or succeeded by, when known. */
  readonly successor?: string;
  /** Ids of the organizations this one is part of (a campus's system, a lab's university). */
  readonly parents?: readonly string[];
  /** Ids of the organizations that are part of this one. */
  readonly children?: readonly string[];
}

/** One organization an affiliation names, with how sure the matcher is (0–1). */
export interface AffiliationMatch {
  readonly organization: MatchableOrganization;
  readonly score: number;
}
