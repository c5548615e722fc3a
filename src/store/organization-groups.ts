/**
 * What the admin page and `quarry groups` ask of the organization groups (the
 * `funder_groups` and `research_org_groups` sources): list, define, remove. One
 * implementation (`src/data/groups/administration.ts`) serves both callers; the composition
 * root builds it over the record database, so the web pages never reach the writer directly.
 * Every failure is a coded QuarryError (GROUP_*, DATA_FILE_NOT_FOUND).
 */

/** A group as stored and shown. */
export interface StoredGroup {
  readonly source: string;
  readonly id: string;
  readonly name: string;
  readonly organization_ids: readonly string[];
}

/** A group to define: its members as a members file's text, or as one organization and its descendants. */
export interface GroupDefinition {
  readonly source: string;
  readonly name: string;
  /** Made from the name when absent. */
  readonly id?: string | undefined;
  /** A JSON array of organization ids, or CSV with an id per line in its first column. */
  readonly membersText?: string | undefined;
  /** Where the members text came from, for errors (a file name, "the members field"). */
  readonly membersFrom?: string | undefined;
  /** An organization id: the group is it and everything under it in the hierarchy. */
  readonly organization?: string | undefined;
}

export interface GroupAdministration {
  /** The group sources, in the order pages list them. */
  readonly sources: readonly string[];
  /** The groups of a source (or of every source), by name. */
  list(source?: string): Promise<StoredGroup[]>;
  /** Stores a group, replacing one of the same id in its source; the group stored. */
  define(definition: GroupDefinition): Promise<StoredGroup>;
  remove(source: string, id: string): Promise<void>;
}
