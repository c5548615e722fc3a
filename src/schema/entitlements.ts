/**
 * What a subscription's sources entitle a query to read (docs/language.md, "Subscriptions").
 *
 * - Searching a source, and every record, facet row, indicator and function it returns,
 *   needs that source (`known-source`, and `describe source`).
 * - A linked entity that is itself a source (researchers, organizations) is shown in the
 *   searched source's records and facet rows by its id and display fields: what the
 *   searched source's own records say of it (an author's name, ORCID and researcher id are
 *   in the byline; an organization's name and place in the affiliations). The searched
 *   source covers those. Any other field of the entity's record (`researchers[extras]`:
 *   grant counts, NIH ids; `research_orgs[nuts]`) is that source's data and needs it.
 * - Other entities (categories, countries, journals, ...) are not sources: the searched
 *   source covers them whole.
 */
import type { SchemaPermissions } from './context.ts';
import type { EntityName, Schema, SourceName } from './types.ts';

/** Whether the caller's subscription includes `source` (no list means every source). */
export function entitledTo(permissions: SchemaPermissions | undefined, source: SourceName): boolean {
  return permissions?.sources === undefined || permissions.sources.includes(source);
}

/**
 * The fields of a linked entity that the source linking to it covers: its id and the
 * display fields its facet rows and nested objects show.
 *
 * @example coveredFields(schema, 'researchers') // id, first_name, last_name, orcid_id, research_orgs
 */
export function coveredFields(schema: Schema, entity: EntityName): readonly string[] {
  return ['id', ...(schema.entities.get(entity)?.displayFields ?? [])];
}
