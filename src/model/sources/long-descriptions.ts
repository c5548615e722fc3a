/**
 * The `long_description` of fields whose values are structured (spec/schema-2026.md §6.4):
 * the shape of each returned object, as `describe schema` gives it. Every other field's
 * `long_description` is null, as in the hosted service's answer for most fields.
 */
import type { SourceName } from '../types.ts';

const AUTHORS =
  'Returned objects contain: `first_name`, `last_name`, `corresponding`, `orcid`, `current_organization_id`, ' +
  '`researcher_id`, `affiliations` and `raw_affiliation` (the affiliation strings as printed). Each of ' +
  '`affiliations` contains: `id` (organization id), `name`, `city`, `city_id` (GeoNames id, a number), `country`, ' +
  '`country_code`, `state`, `state_code` and `raw_affiliation`. Missing values are left out. ' +
  '`current_organization_id` is deprecated in the hosted service and kept here for its clients.';

const CONCEPTS_SCORES = 'Returned objects contain: `concept` and `relevance` (0 to 1), most relevant first.';

export const LONG_DESCRIPTIONS: Readonly<Record<SourceName, Readonly<Record<string, string>>>> = {
  publications: { authors: AUTHORS, concepts_scores: CONCEPTS_SCORES },
  grants: {
    concepts_scores: CONCEPTS_SCORES,
    investigators:
      'Returned objects contain: `first_name`, `middle_name`, `last_name`, `role` (e.g. PI, Co-PI), `researcher_id` ' +
      'and `affiliations` (each with `id`, `name`, `city`, `city_id`, `country`, `country_code`, `state`, `state_code`).',
  },
  researchers: {},
  organizations: {},
};
