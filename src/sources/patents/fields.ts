/**
 * The `patents` source's field table (spec/schema-2026.md §7.5): every field the 2026
 * `describe schema` lists, with its description there (the spec trims long ones with "…";
 * those are finished here in the same words' sense), flags as describe gives them, the
 * fieldsets (§5), search indexes (§3) and indicators (§4).
 */
import { CATEGORY_FIELDS } from '../../model/shared-fields.ts';
import type { FieldRow, SourceTable } from '../../model/field-table.ts';

/** Patents carry the category schemes of §7.5: all but `category_sdg` and `category_uoa`. */
const PATENT_CATEGORY_FIELDS = CATEGORY_FIELDS.filter(
  ([name]) => name !== 'category_sdg' && name !== 'category_uoa',
) satisfies readonly FieldRow[];

export const PATENTS = {
  description: 'Patent grants and published applications.',
  fields: [
    ['abstract', 'string', '', 'Abstract of the patent.'],
    [
      'additional_filters',
      'string',
      'fm',
      "Additional filters describing the patents, e.g. whether it's about a 'Research Organisation', or it is part of the 'Orange Book'.",
    ],
    [
      'application_number',
      'string',
      'f',
      'The application number is the number assigned to a patent application when it is filed.',
    ],
    [
      'assignee_cities',
      'cities',
      'fcm',
      'City of the assignees of the patent, expressed as GeoNames ID and name (note: this value is extracted independently from GRID).',
    ],
    [
      'assignee_countries',
      'countries',
      'fcm',
      'Country of the assignees of the patent, expressed as GeoNames code and name (note: this value is extracted independently from GRID).',
    ],
    ['assignee_names', 'string', 'fm', 'Name of assignees of the patent, as they appear in the original document.'],
    [
      'assignee_state_codes',
      'states',
      'fcm',
      'State of the assignee, expressed using GeoNames (ISO-3166-2) codes (note: this value is extracted independently from GRID).',
    ],
    [
      'assignees',
      'organizations',
      'fcm',
      'Disambiguated GRID organisations who own or have owned the rights of a patent (note: this is a combination of `current_assignees` and `original_assignees`).',
    ],
    [
      'associated_grant_ids',
      'string',
      'fm',
      'Dimensions IDs of the grants associated to the patent (see also: patents_model section).',
    ],
    ...PATENT_CATEGORY_FIELDS,
    ['claims_amount', 'integer', 'f', 'The number of claims associated with a patent.'],
    ['cpc', 'string', 'fcm', 'Cooperative Patent Classification Categorization.'],
    [
      'current_assignee_names',
      'string',
      'fm',
      'Names of the organisations currently holding the patent, as they appear in the original document.',
    ],
    ['current_assignees', 'organizations', 'fcm', 'Disambiguated GRID organisations currenlty owning the patent.'],
    ['date', 'date', 'f', 'The filing date is the date when a patent application is first filed at a patent office.'],
    [
      'date_inserted',
      'date',
      'f',
      'Date when the record was inserted into Dimensions (note: this field does not support exact match on the data, only range filters e.g. `<=` or `>=`).',
    ],
    ['dimensions_url', 'string', '', 'Link pointing to the Dimensions web application'],
    [
      'expiration_date',
      'date',
      'f',
      'Expiration date is an estimate of when a patent is expected to expire. Note: The expiration date should not be considered authoritative or final.',
    ],
    ['family_count', 'integer', 'fc', 'Number of documents within a simple patent family.'],
    ['family_id', 'integer', 'fc', 'Identifier of the corresponding EPO patent family.'],
    [
      'federal_support',
      'string',
      'fm',
      'The government interest statement describes how an invention was funded by a federal research grant or procurement contract.',
    ],
    [
      'filing_status',
      'string',
      'f',
      "Filing Status of the patent e.g. 'Application' or 'Grant' (note: this field is also called 'Publication type' in the Dimensions webapp).",
    ],
    [
      'funder_countries',
      'countries',
      'fcm',
      'The country of the funding organisation (note: currently this information is available only for US patents).',
    ],
    ['funders', 'organizations', 'fcm', 'GRID organisations funding the patent.'],
    ['granted_date', 'date', 'f', 'Granted date is the date when the patent office issues a patent to the applicant.'],
    ['granted_year', 'integer', 'fc', 'The year on which the official body grants the patent.'],
    ['id', 'string', 'f', 'Dimensions patent ID'],
    // describe marks it single-valued, but it holds one name per inventor, as the other
    // `*_names` fields do; Quarry keeps the list.
    ['inventor_names', 'string', 'fm', 'Names of the people who invented the patent.'],
    ['inventors', 'json', 'f', 'Details of the people who invented the patent.'],
    ['ipcr', 'string', 'fcm', 'International Patent Classification Reform Categorization.'],
    ['jurisdiction', 'string', 'fc', "The jurisdiction where the patent was granted, e.g. 'US', 'DE', 'EP'..."],
    ['kind', 'string', 'fc', 'Kind code of applications, from DOCDB.'],
    ['legal_status', 'string', 'f', "The legal status of the patent, e.g. 'Granted', 'Active', 'Abandoned' etc.."],
    ['orange_book', 'json', 'fm', 'Data added from the FDA Orange Book Data Files.'],
    [
      'original_assignee_names',
      'string',
      'fm',
      'Name of the organisations that first owned the patent, as they appear in the original document.',
    ],
    ['original_assignees', 'organizations', 'fcm', 'Disambiguated GRID organisations that first owned the patent.'],
    ['priority_date', 'date', 'f', 'The priority date describes the first date of filing of a patent application.'],
    ['priority_year', 'integer', 'fc', 'The filing year of the earliest application of which priority is claimed.'],
    ['publication_date', 'date', 'f', 'Date of publication of a patent.'],
    [
      'publication_ids',
      'string',
      'fm',
      'Dimensions IDs of the publications related to this patent (see also: patents_model section).',
    ],
    ['publication_year', 'integer', 'fc', 'Year of publication of a patent.'],
    [
      'publications',
      'publication_links',
      'fcm',
      'Publication IDs of the publications related to this patent (see also: patents_model section).',
    ],
    [
      'reference_ids',
      'string',
      'fm',
      'Dimensions IDs of the patents which are cited by this patent (see also: patents_model section). This field may in some cases include identifiers of patents that are not held.',
    ],
    [
      'researchers',
      'researchers',
      'fcm',
      "Researcher IDs matched to the patent's inventors list. (note: this returns only the disambiguated inventors of a patent; in order to get the full list of inventors, use `inventor_names`).",
    ],
    [
      'score',
      'float',
      'n',
      'Relevance of the record to the query\'s full-text search, higher is more relevant (only with `for "..."`; `sort by score` is `sort by relevance`).',
    ],
    ['times_cited', 'integer', 'fcn', 'The number of times the patent has been cited by other patents.'],
    ['title', 'string', '', 'The title of the patent.'],
    ['year', 'integer', 'fc', 'The year the patent was filed.'],
  ],
  aliases: [
    {
      row: ['category_for_2020', 'categories', 'fcm', 'Fields of Research (ANZSRC 2020) codes.'],
      readsFrom: 'category_for',
    },
    // Added in 2023-12 beside `date`, with the same description: the filing date, held once.
    {
      row: [
        'filing_date',
        'date',
        'f',
        'The filing date is the date when a patent application is first filed at a patent office.',
      ],
      readsFrom: 'date',
    },
  ],
  // `cited_by_ids` (gone after v2.0) and `category_for_2008` (2022-2023) were never version-1-only fields.
  removedInV2: [],
  fieldsets: [
    {
      name: 'basics',
      description: 'Returned when no field list is given (observed in the hosted service).',
      fields: [
        'id',
        'title',
        'year',
        'filing_status',
        'publication_date',
        'granted_year',
        'times_cited',
        'inventor_names',
        'assignee_names',
        'assignees',
      ],
    },
    {
      // The hosted membership is not recoverable from the public sources (spec §5): the
      // scalar identifiers and dates not in basics.
      name: 'extras',
      description: 'Identifiers, dates and counts.',
      fields: [
        'application_number',
        'jurisdiction',
        'kind',
        'date',
        'filing_date',
        'priority_date',
        'priority_year',
        'publication_year',
        'granted_date',
        'expiration_date',
        'legal_status',
        'claims_amount',
        'family_id',
        'family_count',
        'dimensions_url',
      ],
    },
    {
      name: 'categories',
      description: 'Every category_* field.',
      fields: [...PATENT_CATEGORY_FIELDS.map(([name]) => name), 'category_for_2020'],
    },
  ],
  searchIndexes: [
    { name: 'title_only', description: 'Titles.' },
    { name: 'title_abstract_only', description: 'Titles and abstracts.' },
    { name: 'assignees', description: 'Assignee names as written in the document.' },
    { name: 'inventors', description: 'Inventor names, matched as phrases in either order.', personNames: true },
    { name: 'title_abstract_claims', description: 'Titles, abstracts and claims.' },
    {
      name: 'full_data',
      description:
        'All text fields (the default): title, abstract, claims, inventor and assignee names, government-interest statements.',
    },
  ],
  defaultIndex: 'full_data',
  indicators: ['count'],
  // Newest first by publication date: the one date every grant and application has (an
  // application has no granted date; a filing date may be missing from a record).
  defaultOrder: { field: 'publication_date', direction: 'desc' },
} as const satisfies SourceTable;

/**
 * The `long_description` of the patents' structured fields (the store's
 * `LONG_DESCRIPTIONS` entry for `patents` when the source is registered).
 */
export const PATENT_LONG_DESCRIPTIONS: Readonly<Record<string, string>> = {
  inventors:
    'Returned objects contain, in the order the document lists the inventors: `first_name`, `last_name`, ' +
    '`researcher_id` (when the inventor is an identified researcher), `city`, `state_code` (ISO 3166-2, ' +
    'e.g. `US-CA`) and `country_code` (ISO 3166-1). Missing values are left out.',
  orange_book:
    'Returned objects are rows of the FDA Orange Book patent data file naming the patent, with its columns as ' +
    'keys: `Appl_Type`, `Appl_No`, `Product_No`, `Patent_No`, `Patent_Expire_Date_Text`, `Drug_Substance_Flag`, ' +
    '`Drug_Product_Flag`, `Patent_Use_Code`, `Delist_Flag` and `Submission_Date`.',
};
