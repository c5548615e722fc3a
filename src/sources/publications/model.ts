/**
 * The publications source (spec/data-model.md, "publications"): its field table, its
 * storage, how a publication record becomes rows, all declared here once. The registry
 * (`model/sources.ts`) lists it; the schema, both stores and the compiler derive from it.
 */
import {
  CONCEPT_NAMES,
  FUNDER_FIELDS,
  RESEARCH_ORGANIZATION_FIELDS,
  RESEARCH_ORGANIZATION_TYPES,
  byFieldCode,
  byScheme,
  categoryKey,
  i,
  r,
  t,
  valueKey,
} from '../../model/layout-parts.ts';
import {
  affiliationIds,
  categoryRows,
  conceptRows,
  conceptTexts,
  distinctIds,
  idOf,
  ids,
  joinNames,
  list,
  personIds,
  personName,
  rawAffiliationTexts,
  text,
  valueRows,
} from '../../model/record-values.ts';
import { defineSource } from '../../model/source-module.ts';
import { CATEGORY_FIELDS, CATEGORY_FIELD_NAMES, CONCEPTS_SCORES } from '../../model/shared-fields.ts';
import type { SourceTable } from '../../model/field-table.ts';
import type { InternedValues } from '../../model/storage-types.ts';

/** spec/data-model.md, "publications". */
const FIELDS = {
  description: 'Scholarly publications: articles, chapters, books, proceedings, preprints.',
  fields: [
    ['abstract', 'string', '', 'Abstract or summary.'],
    ['acknowledgements', 'string', '', 'Acknowledgements section.'],
    ['altmetric', 'float', 'f', 'Altmetric attention score.'],
    ['altmetric_id', 'integer', 'f', 'Altmetric identifier.'],
    ['arxiv_id', 'string', 'f', 'arXiv identifier.'],
    ['authors', 'json', 'fm', 'Ordered list of authors: first_name, last_name, researcher_id, orcid, affiliations.'],
    ['authors_count', 'integer', 'fcn', 'Number of authors.'],
    ['book_doi', 'string', 'f', 'DOI of the book a chapter belongs to.'],
    ['book_series_title', 'string', '', 'Title of the book series.'],
    ['book_title', 'string', '', 'Title of the book a chapter belongs to.'],
    ...CATEGORY_FIELDS,
    ['clinical_trial_ids', 'string', 'fm', 'Clinical trial registry identifiers mentioned.'],
    ['concepts', 'json', 'f', 'Concepts extracted from title and abstract, most relevant first.'],
    ['concepts_scores', 'json', 'f', 'Concepts with their relevance scores.'],
    ['date', 'date', 'f', 'Publication date (YYYY-MM-DD).'],
    ['date_inserted', 'date', 'f', 'Date the record was added to this deployment.'],
    ['date_online', 'string', 'f', 'Date of online publication.'],
    ['date_print', 'string', 'f', 'Date of print publication.'],
    ['dimensions_url', 'string', '', 'Link to the record on the web.'],
    [
      'document_type',
      'string',
      'fc',
      'Document type predicted from the content and metadata (research_article, review_article, ...).',
    ],
    ['doi', 'string', 'f', 'Digital Object Identifier.'],
    ['editors', 'string', 'f', 'Editors of the book or proceedings volume, as printed (names joined by "; ").'],
    ['field_citation_ratio', 'float', 'f', 'Citations relative to publications of the same field and year.'],
    ['funder_countries', 'countries', 'fcm', 'Countries of the funders.'],
    ['funding_section', 'string', 'f', 'Funding statement, as printed in the publication.'],
    ['funders', 'organizations', 'fcm', 'Organizations that funded the work.'],
    ['id', 'string', 'f', 'Quarry publication identifier.'],
    ['isbn', 'string', 'fm', 'ISBNs of the book or volume.'],
    ['issn', 'string', 'fm', 'ISSNs of the journal.'],
    ['issue', 'string', 'f', 'Journal issue.'],
    ['journal', 'journals', 'fc', 'The journal.'],
    ['journal_lists', 'string', 'fcm', 'Curated journal lists the journal belongs to.'],
    ['journal_title_raw', 'string', 'f', 'Journal title as given by the source.'],
    ['linkout', 'string', '', "Link to the full text at the publisher's site."],
    ['mesh_terms', 'string', 'fcm', 'MeSH headings.'],
    ['open_access', 'string', 'fcm', 'Open access status (oa_all, gold, green, bronze, hybrid, closed).'],
    ['pages', 'string', 'f', 'Page range.'],
    ['pmcid', 'string', 'f', 'PubMed Central identifier.'],
    ['pmid', 'string', 'f', 'PubMed identifier.'],
    ['proceedings_title', 'string', '', 'Title of the proceedings.'],
    ['publisher', 'string', 'fc', 'Publisher name.'],
    ['recent_citations', 'integer', 'fn', 'Citations received in the last two years.'],
    ['reference_ids', 'string', 'fm', 'Identifiers of the held publications this one cites.'],
    ['referenced_pubs', 'publication_links', 'fcm', 'Publications this one cites, with their identifiers.'],
    ['relative_citation_ratio', 'float', 'f', 'Relative Citation Ratio.'],
    ['research_org_cities', 'cities', 'fcm', 'Cities of the research organizations.'],
    ['research_org_countries', 'countries', 'fcm', 'Countries of the research organizations.'],
    ['research_org_country_names', 'string', 'fm', 'Country names of the research organizations.'],
    ['research_org_names', 'string', 'fm', 'Names of the research organizations.'],
    ['research_org_state_codes', 'states', 'fcm', 'States of the research organizations.'],
    ['research_org_state_names', 'string', 'm', 'State names of the research organizations.'],
    ['research_org_types', 'string', 'fcm', 'Types of the research organizations (Education, Healthcare, ...).'],
    ['research_orgs', 'organizations', 'fcm', 'Distinct organizations of the authors’ affiliations.'],
    ['researchers', 'researchers', 'fcm', 'Distinct identified researchers among the authors.'],
    ['resulting_publication_doi', 'string', 'f', 'DOI of the publication a preprint resulted in.'],
    [
      'score',
      'float',
      'n',
      'Relevance of the record to the query\'s full-text search, higher is more relevant (only with `for "..."`; `sort by score` is `sort by relevance`).',
    ],
    ['source_title', 'source_titles', 'fc', 'The journal, book or proceedings the publication appeared in.'],
    ['subtitles', 'string', 'm', 'Subtitles.'],
    ['supporting_grant_ids', 'string', 'fm', 'Identifiers of the grants that supported the work.'],
    ['times_cited', 'integer', 'fcn', 'Number of held publications citing this one.'],
    ['title', 'string', '', 'Title.'],
    ['type', 'string', 'fc', 'Publication type (article, chapter, book, proceeding, preprint, monograph).'],
    ['volume', 'string', 'f', 'Journal volume.'],
    ['year', 'integer', 'fc', 'Year of publication.'],
  ],
  aliases: [
    {
      row: ['category_for_2020', 'categories', 'fcm', 'Fields of Research (ANZSRC 2020) codes.'],
      readsFrom: 'category_for',
    },
  ],
  removedInV2: [
    {
      row: ['FOR', 'categories', 'fcm', 'Fields of Research codes (version 1).'],
      replacement: 'category_for',
      readsFrom: 'category_for',
    },
    {
      row: ['FOR_first', 'categories', 'fcm', 'Top-level (two-digit) Fields of Research codes (version 1).'],
      replacement: 'category_for',
      readsFrom: 'category_for',
      derivation: 'first-level',
    },
    {
      row: ['RCDC', 'categories', 'fcm', 'RCDC categories (version 1).'],
      replacement: 'category_rcdc',
      readsFrom: 'category_rcdc',
    },
    {
      row: ['HRCS_HC', 'categories', 'fcm', 'HRCS Health Categories (version 1).'],
      replacement: 'category_hrcs_hc',
      readsFrom: 'category_hrcs_hc',
    },
    {
      row: ['HRCS_RAC', 'categories', 'fcm', 'HRCS Research Activity Codes (version 1).'],
      replacement: 'category_hrcs_rac',
      readsFrom: 'category_hrcs_rac',
    },
    {
      row: ['author_affiliations', 'json', 'm', 'Affiliations of each author, a list of lists (version 1).'],
      replacement: 'authors',
      readsFrom: 'authors',
      derivation: 'affiliations-of-authors',
    },
    {
      row: ['references', 'string', 'fm', 'Identifiers of cited publications (version 1).'],
      replacement: 'reference_ids',
      readsFrom: 'reference_ids',
    },
    { row: ['terms', 'string', 'm', 'Extracted terms (version 1).'], replacement: 'concepts', readsFrom: 'concepts' },
    {
      row: ['open_access_categories', 'open_access', 'fcm', 'Open access categories (version 1).'],
      replacement: 'open_access',
      readsFrom: 'open_access',
    },
  ],
  fieldsets: [
    {
      name: 'basics',
      description: 'Returned when no field list is given.',
      fields: ['id', 'title', 'doi', 'type', 'year', 'date', 'journal', 'volume', 'issue', 'pages', 'authors'],
    },
    {
      name: 'extras',
      description: 'Scalar indicators and identifiers.',
      fields: [
        'times_cited',
        'recent_citations',
        'field_citation_ratio',
        'relative_citation_ratio',
        'altmetric',
        'authors_count',
        'pmid',
        'pmcid',
        'arxiv_id',
        'altmetric_id',
        'dimensions_url',
        'linkout',
      ],
    },
    {
      name: 'book',
      description: 'Book and proceedings fields.',
      fields: ['book_doi', 'book_title', 'book_series_title', 'proceedings_title', 'isbn', 'editors'],
    },
    {
      name: 'categories',
      description: 'Every category_* field.',
      fields: [...CATEGORY_FIELD_NAMES, 'category_for_2020'],
    },
  ],
  searchIndexes: [
    { name: 'full_data_exact', description: 'All text fields, without stemming.' },
    { name: 'title_only', description: 'Titles.' },
    { name: 'terms', description: 'Extracted terms and concepts.' },
    { name: 'authors', description: 'Author names, matched as phrases in either order.', personNames: true },
    { name: 'funding', description: 'Funding sections and the names of the funders.' },
    { name: 'acknowledgements', description: 'Acknowledgements sections.' },
    { name: 'title_abstract_only', description: 'Titles and abstracts.' },
    { name: 'concepts', description: 'Extracted concepts.' },
    { name: 'raw_affiliations', description: "The authors' affiliations as printed." },
    { name: 'full_data', description: 'All text fields (the default).' },
  ],
  defaultIndex: 'full_data',
  indicators: [
    'altmetric_avg',
    'altmetric_median',
    'citations_avg',
    'citations_median',
    'citations_total',
    'count',
    'fcr_gavg',
    'rcr_avg',
    'recent_citations_total',
  ],
  defaultOrder: { field: 'date', direction: 'desc' },
} as const satisfies SourceTable;

const AUTHORS =
  'Returned objects contain: `first_name`, `last_name`, `corresponding`, `orcid`, `current_organization_id`, ' +
  '`researcher_id`, `affiliations` and `raw_affiliation` (the affiliation strings as printed). Each of ' +
  '`affiliations` contains: `id` (organization id), `name`, `city`, `city_id` (GeoNames id, a number), `country`, ' +
  '`country_code`, `state`, `state_code` and `raw_affiliation`. Every key is present: a missing text is `""`, ' +
  'a missing list `[]`, a missing affiliation value `null`. ' +
  '`current_organization_id` is deprecated in the hosted service and kept here for its clients.';

/** The stored codes of `publication_values` fields (`SourceStorage.valueFieldCodes`). */
const VALUE_FIELD_CODES = {
  issn: '1',
  mesh_terms: '2',
  open_access: '3',
  clinical_trial_ids: '4',
  journal_lists: '5',
  subtitles: '6',
};

/**
 * The ids publications cite: 19.1M references to 805,682 ids at 1M publications, each id
 * 14 characters (`pub.1912345678`) in every row and again in the reverse index.
 */
const CITED_IDS: InternedValues = { table: 'cited_ids', column: 'cited_id', replaced: 'cited_id' };

/** Distinct non-empty texts joined for one full-text column. */
const joined = (texts: readonly string[]): string => [...new Set(texts.filter((t) => t !== ''))].join(' ; ');

/** The names of the organizations a list gives as objects (ids alone name none). */
const namesOf = (organizations: unknown): string[] =>
  list(organizations).flatMap((o) =>
    o !== null && typeof o === 'object' ? [text((o as Record<string, unknown>)['name'])] : [],
  );

/**
 * The `funding` index's text: the funding section as printed, and the names of the funders
 * the record gives (its supporting grants are ids, no text to search).
 *
 * @example fundingText({ funding_section: 'Funded by NSF (grant 123).', funders: [{ id: 'grid.1', name: 'NSF' }] })
 * // 'Funded by NSF (grant 123). ; NSF'
 */
export function fundingText(record: Record<string, unknown>): string {
  return joined([text(record['funding_section']), ...namesOf(record['funders'])]);
}

/**
 * The `raw_affiliations` index's text: each author's affiliation strings as printed, or,
 * for an affiliation without one, its name as the record writes it.
 *
 * @example rawAffiliationsText({ authors: [{ raw_affiliation: ['Dept. of X, Univ. Y, Oslo'], affiliations: [] }] })
 * // 'Dept. of X, Univ. Y, Oslo'
 */
export function rawAffiliationsText(record: Record<string, unknown>): string {
  return joined(rawAffiliationTexts(record['authors']));
}

export const publications = defineSource({
  name: 'publications',
  singular: 'publication',
  refersTo: ['categories', 'organizations', 'source_titles', 'researchers', 'grants'],
  fieldTable: FIELDS,
  longDescriptions: { authors: AUTHORS, concepts_scores: CONCEPTS_SCORES },
  requiredFields: [
    ['title', 'string'],
    ['year', 'number'],
  ],
  storage: {
    table: {
      table: 'publications',
      packedText: ['abstract'],
      keptApart: { abstract: 'publication_abstracts' },
      columns: [
        t('title'),
        t('abstract'),
        t('acknowledgements'),
        t('doi'),
        t('type'),
        i('year'),
        t('date'),
        t('date_inserted'),
        t('date_online'),
        t('date_print'),
        t('journal_id'),
        t('journal_title_raw'),
        t('volume'),
        t('issue'),
        t('pages'),
        t('publisher'),
        t('book_doi'),
        t('book_title'),
        t('book_series_title'),
        t('proceedings_title'),
        t('pmid'),
        t('pmcid'),
        t('arxiv_id'),
        i('altmetric_id'),
        t('resulting_publication_doi'),
        i('times_cited'),
        i('recent_citations'),
        r('altmetric'),
        r('relative_citation_ratio'),
        r('field_citation_ratio'),
        i('authors_count'),
        t('linkout'),
        t('dimensions_url'),
      ],
      indexes: [['doi'], ['year'], ['date', 'id'], ['type'], ['journal_id'], ['times_cited'], ['publisher']],
      entityColumns: {
        // Both name a row of source_titles: `journal` shows its id and title, `source_title`
        // the source title's own fields (the journals' table became source_titles).
        journal: { column: 'journal_id', entity: 'journals', countedIn: 'n_publications' },
        source_title: { column: 'journal_id', entity: 'source_titles', countedIn: 'n_publications' },
      },
      valueCounts: { year: 'publication_year_counts' },
      narrow: {
        table: 'publications_narrow',
        columns: [
          'id',
          'year',
          'date',
          'type',
          'journal_id',
          'times_cited',
          'recent_citations',
          'altmetric',
          'relative_citation_ratio',
          'field_citation_ratio',
        ],
        counts: {
          researchers: 'n_researchers',
          research_orgs: 'n_research_orgs',
          funders: 'n_funders',
          supporting_grant_ids: 'n_supporting_grant_ids',
          reference_ids: 'n_reference_ids',
          concepts: 'n_concepts',
        },
        indexes: [['year'], ['type'], ['journal_id']],
      },
      perYear: {
        function: 'citations_per_year',
        fresh: 'per_year_publications',
        // Citations a held publication received from held publications of each year (citing
        // publications without a year are not in any year).
        byRecord: { table: 'publication_citations_by_year', columns: [i('citations')] },
        corpus: { table: 'citations_by_year', key: [], columns: [i('citations')] },
      },
    },
    links: [
      {
        table: 'publication_researchers',
        key: [t('researcher_id')],
        extra: [],
        reverse: ['researcher_id'],
        holds: { field: 'researchers', countedIn: 'n_publications' },
        postings: { table: 'publication_researchers_postings', column: 'publication_pks' },
      },
      {
        table: 'publication_research_orgs',
        key: [t('org_id')],
        extra: [],
        reverse: ['org_id'],
        holds: { field: 'research_orgs', countedIn: 'n_publications' },
        readThrough: { ...RESEARCH_ORGANIZATION_FIELDS, ...RESEARCH_ORGANIZATION_TYPES },
        // `year` (records migration 6): organization + year filters read one index range;
        // `date` (migration 9): a page newest first is cut from that index before any record row.
        ownerColumns: ['year', 'date'],
      },
      {
        table: 'publication_funders',
        key: [t('org_id')],
        extra: [],
        reverse: ['org_id'],
        holds: { field: 'funders', countedIn: 'n_funded_publications' },
        readThrough: FUNDER_FIELDS,
      },
      {
        table: 'publication_grants',
        key: [t('grant_id')],
        extra: [],
        reverse: ['grant_id'],
        holds: { field: 'supporting_grant_ids' },
      },
      {
        table: 'publication_categories',
        key: categoryKey,
        extra: [],
        reverse: ['scheme', 'category_id'],
        holds: byScheme,
      },
      {
        table: 'publication_references',
        key: [i('cited_key')],
        extra: [],
        reverse: ['cited_key'],
        holds: { field: 'reference_ids' },
        interned: CITED_IDS,
        postings: { table: 'publication_references_postings', column: 'publication_pks' },
        listed: { table: 'publication_references_lists', column: 'cited_keys' },
      },
      {
        table: 'publication_concepts',
        key: [i('concept_id')],
        extra: [],
        dropped: [r('score')],
        reverse: ['concept_id'],
        holds: { field: 'concepts' },
        interned: CONCEPT_NAMES,
        postings: { table: 'publication_concepts_postings', column: 'publication_pks' },
        listed: { table: 'publication_concepts_lists', column: 'concept_ids' },
      },
      {
        table: 'publication_values',
        key: valueKey,
        extra: [],
        reverse: ['field', 'value'],
        holds: byFieldCode(VALUE_FIELD_CODES),
      },
    ],
    fullText: {
      table: 'publications_fts',
      columns: ['title', 'abstract', 'acknowledgements', 'concepts', 'authors'],
      indexes: {
        full_data: ['title', 'abstract', 'acknowledgements', 'concepts', 'authors'],
        full_data_exact: ['title', 'abstract', 'acknowledgements', 'concepts', 'authors'],
        title_only: ['title'],
        title_abstract_only: ['title', 'abstract'],
        terms: ['concepts'],
        concepts: ['concepts'],
        authors: ['authors'],
        acknowledgements: ['acknowledgements'],
        funding: ['funding'],
        raw_affiliations: ['raw_affiliations'],
      },
      // The `funding` and `raw_affiliations` indexes came after the table (records migration
      // 24, PostgreSQL 16, which fill them from the records held); `full_data` keeps to the
      // columns it had.
      apart: { table: 'publications_fts_apart', columns: ['funding', 'raw_affiliations'] },
    },
    valueFieldCodes: VALUE_FIELD_CODES,
  },
  rows: {
    links: (record) => {
      const authors = list(record['authors']);
      return {
        publication_researchers: ids(distinctIds(record['researchers'], personIds(authors))),
        publication_research_orgs: ids(distinctIds(record['research_orgs'], affiliationIds(authors))),
        publication_funders: ids(distinctIds(record['funders'])),
        publication_grants: ids(distinctIds(record['supporting_grant_ids'])),
        publication_categories: categoryRows(record),
        publication_references: ids(distinctIds(record['reference_ids'])),
        publication_concepts: conceptRows(record),
        publication_values: valueRows(record, VALUE_FIELD_CODES),
      };
    },
    fullText: (record) => [
      text(record['title']),
      text(record['abstract']),
      text(record['acknowledgements']),
      [...conceptTexts(record), ...list(record['mesh_terms']).map(text)].join(' ; '),
      joinNames(list(record['authors']).map(personName)),
      fundingText(record),
      rawAffiliationsText(record),
    ],
    columnFallbacks: {
      journal_id: (record) => idOf(record['journal']),
      authors_count: (record) => (Array.isArray(record['authors']) ? record['authors'].length : undefined),
    },
    // References are held only in their link table (and shown from it).
    notInDoc: ['reference_ids'],
    namedCategories: true,
    journal: true,
  },
});
