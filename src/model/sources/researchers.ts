import type { SourceTable } from './field-row.ts';

/** spec/data-model.md, "researchers". */
export const RESEARCHERS = {
  description: 'Disambiguated researchers, with their affiliations and activity.',
  fields: [
    ['current_research_org', 'organizations', 'fc', 'The most recent affiliation.'],
    ['dimensions_url', 'string', '', 'Link to the record on the web.'],
    ['first_grant_year', 'integer', 'fc', 'Start year of the first grant.'],
    ['first_name', 'string', 'f', 'First name.'],
    ['first_publication_year', 'integer', 'fc', 'Year of the first publication.'],
    ['id', 'string', 'f', 'Quarry researcher identifier.'],
    ['last_grant_year', 'integer', 'fc', 'Start year of the last grant.'],
    ['last_name', 'string', 'f', 'Last name.'],
    ['last_publication_year', 'integer', 'fc', 'Year of the last publication.'],
    ['nih_ppid', 'string', 'f', 'NIH principal investigator profile identifier.'],
    ['obsolete', 'integer', 'fn', '1 when the record was merged into another (see redirect), else 0.'],
    ['orcid_id', 'string', 'fm', 'ORCID identifiers.'],
    ['redirect', 'string', 'fm', 'Identifiers of the records this one was merged into.'],
    ['research_orgs', 'organizations', 'fcm', 'Organizations the researcher has been affiliated with.'],
    [
      'score',
      'float',
      'n',
      'Relevance of the record to the query\'s full-text search, higher is more relevant (only with `for "..."`; `sort by score` is `sort by relevance`).',
    ],
    ['total_grants', 'integer', 'fcn', 'Number of held grants.'],
    ['total_publications', 'integer', 'fcn', 'Number of held publications.'],
  ],
  removedInV2: [],
  fieldsets: [
    {
      name: 'basics',
      description: 'Returned when no field list is given.',
      fields: ['id', 'first_name', 'last_name', 'orcid_id', 'research_orgs'],
    },
    {
      name: 'extras',
      description: 'Scalar indicators and identifiers.',
      fields: [
        'total_publications',
        'total_grants',
        'first_publication_year',
        'last_publication_year',
        'first_grant_year',
        'last_grant_year',
        'current_research_org',
        'nih_ppid',
        'dimensions_url',
      ],
    },
  ],
  searchIndexes: [{ name: 'full_data', description: 'Names and identifiers ("\\"Ana Silva\\"" matches the person).' }],
  defaultIndex: 'full_data',
  indicators: ['count'],
  defaultOrder: { field: 'last_name', direction: 'asc' },
} as const satisfies SourceTable;
