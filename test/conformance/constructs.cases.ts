/**
 * The language constructs users write today (issue 13), one or more queries each, named
 * after the construct. Every case runs on the tiny record database (test/engine/fixtures)
 * and its whole answer, or its error code and category, is compared with the fixture
 * `fixtures/<fixture>.json`. The fixtures were recorded from Quarry and checked by hand
 * against the hosted service's answer shapes (spec/schema-2026.md §2, sample-results/).
 */
export interface ConstructCase {
  /** The construct's name, as docs/language.md and the issue call it. */
  readonly construct: string;
  readonly query: string;
  /** The fixture file under fixtures/, without `.json`. */
  readonly fixture: string;
  /** DSL version (default 2). */
  readonly version?: 1 | 2;
}

export const CONSTRUCT_CASES: readonly ConstructCase[] = [
  // Binary `not`: `A not B` is `A and not B`.
  {
    construct: 'binary not',
    query: 'search publications where year = 2019 not type = "chapter" return publications[id + type]',
    fixture: 'binary-not',
  },
  {
    construct: 'binary not',
    query:
      'search publications where year in [2019:2020] not type = "book" or year = 2016 return publications[id + year + type]',
    fixture: 'binary-not-chained',
  },
  // `field = [from:to]` and `field = [a, b]` are `in`.
  {
    construct: 'equals range',
    query: 'search publications where year = [2019:2020] return publications[id + year]',
    fixture: 'equals-range',
  },
  {
    construct: 'equals list',
    query: 'search publications where type = ["book", "chapter"] return publications[id + type]',
    fixture: 'equals-list',
  },
  // Term boosting changes the relevance order only.
  {
    construct: 'term boosting',
    query: 'search publications for "malaria^10 OR learning" return publications[id]',
    fixture: 'term-boosting-malaria',
  },
  {
    construct: 'term boosting',
    query: 'search publications for "malaria OR learning^10" return publications[id]',
    fixture: 'term-boosting-learning',
  },
  {
    construct: 'phrase boosting',
    query: 'search publications for "\\"machine learning\\"^5 OR malaria" return publications[id]',
    fixture: 'phrase-boosting',
  },
  // Search functions after `for`.
  {
    construct: 'min_should_match',
    query: 'search publications for min_should_match("malaria OR learning OR africa", 2) return publications[id]',
    fixture: 'min-should-match',
  },
  {
    construct: 'min_should_match',
    query: 'search publications for min_should_match("malaria OR learning OR africa", 4) return publications[id]',
    fixture: 'min-should-match-too-many',
  },
  {
    construct: 'complex',
    query: 'search publications in title_abstract_only for complex("formal model", 1) return publications[id]',
    fixture: 'complex',
  },
  {
    construct: 'complex',
    query: 'search publications for complex("mach* africa", 3) return publications[id]',
    fixture: 'complex-prefix',
  },
  {
    construct: 'complex',
    query: 'search publications for complex("malaria OR africa", 3) return publications[id]',
    fixture: 'complex-operators',
  },
  {
    construct: 'similar_documents',
    query: 'search publications for similar_documents("Malaria drugs: doses in Africa") return publications[id]',
    fixture: 'similar-documents',
  },
  // Version 1 keeps the v1-era names with the hosted service's `_warnings` text; version 2
  // rejects them naming the replacement.
  {
    construct: 'v1 names',
    query:
      'search publications where FOR.id = "80003" return publications[id + FOR + FOR_first + RCDC + terms + open_access_categories + references]',
    fixture: 'v1-names-publications',
    version: 1,
  },
  {
    construct: 'v1 names',
    query: 'search publications where id = "pub.1900000002" return publications[id + author_affiliations]',
    fixture: 'v1-author-affiliations',
    version: 1,
  },
  {
    construct: 'v1 names',
    query:
      'search grants where id = "grant.9000001" return grants[id + investigator_details + research_org_name + project_num]',
    fixture: 'v1-names-grants',
    version: 1,
  },
  {
    construct: 'v1 names',
    query: 'search publications where id = "pub.1900000001" return publications[all]',
    fixture: 'v1-all-fieldset',
    version: 1,
  },
  // Version 1's default return held author_affiliations (the hosted v1 answer), unwarned.
  {
    construct: 'v1 names',
    query: 'search publications where id = "pub.1900000002" return publications',
    fixture: 'v1-default-return',
    version: 1,
  },
  {
    construct: 'v1 names',
    query: 'search publications return publications[id + author_affiliations]',
    fixture: 'v2-rejects-author-affiliations',
  },
  {
    construct: 'v1 names',
    query: 'search grants return grants[id + research_org_name]',
    fixture: 'v2-rejects-research-org-name',
  },
  {
    construct: 'v1 names',
    query: 'search publications return publications[all]',
    fixture: 'v2-rejects-all-fieldset',
  },
  // `is empty` / `is not empty` on every field the hosted service allows, abstract included.
  {
    construct: 'is empty',
    query: 'search publications where abstract is empty return publications[id]',
    fixture: 'is-empty-abstract',
  },
  {
    construct: 'is not empty',
    query: 'search publications where acknowledgements is not empty return publications[id + acknowledgements]',
    fixture: 'is-not-empty-acknowledgements',
  },
  {
    construct: 'is empty',
    query: 'search publications where times_cited is empty return publications[id]',
    fixture: 'is-empty-counter-rejected',
  },
  // `sort by` on every single-valued field, grants `title` included.
  {
    construct: 'sort by',
    query: 'search grants return grants[id + title] sort by title asc',
    fixture: 'sort-by-grants-title',
  },
  {
    construct: 'sort by',
    query: 'search publications where year >= 2019 return publications[id + title] sort by title',
    fixture: 'sort-by-publications-title',
  },
  // Current fields of the 2026 schema: names of held fields, and fields of their own.
  {
    construct: 'current fields',
    query: 'search grants where funder_orgs = "grid.900003.c" return funder_orgs return funder_org_countries',
    fixture: 'current-grants-funder-orgs',
  },
  {
    construct: 'current fields',
    query:
      'search grants where keywords = "malaria" return grants[id + active_status + keywords + funding_schemes + funding_cny + category_for_2020] sort by title asc',
    fixture: 'current-grants-fields',
  },
  {
    construct: 'current fields',
    query: 'search grants return keywords return active_status',
    fixture: 'current-grants-facets',
  },
  {
    construct: 'current fields',
    query:
      'search publications where document_type is not empty return document_type return publications[id + document_type]',
    fixture: 'current-publications-document-type',
  },
  {
    construct: 'grants basics',
    query: 'search grants return grants',
    fixture: 'grants-basics',
  },
  // Per-year functions answer an object keyed by year, as the hosted service does.
  {
    construct: 'citations_per_year',
    query: 'search publications for "malaria" return citations_per_year(2018, 2021)',
    fixture: 'citations-per-year',
  },
  {
    construct: 'funding_per_year',
    query: 'search grants return funding_per_year(2011, 2015, "USD")',
    fixture: 'funding-per-year-usd',
  },
  {
    construct: 'funding_per_year',
    query: 'search grants where keywords = "screening" return funding_per_year(2013, 2014, "CNY")',
    fixture: 'funding-per-year-cny',
  },
  {
    construct: 'funding_per_year',
    query: 'search grants return funding_per_year(2011, 2015, "XYZ")',
    fixture: 'funding-per-year-bad-currency',
  },
  // Several unnest() in one field list: the cartesian product, with a warning.
  {
    construct: 'several unnest',
    query:
      'search publications where id = "pub.1900000002" return publications[id + unnest(researchers) + unnest(category_for)]',
    fixture: 'several-unnest',
  },
  // unnest() of every multi-value field, structured ones included.
  {
    construct: 'unnest',
    query: 'search publications where id = "pub.1900000003" return publications[id + unnest(concepts)]',
    fixture: 'unnest-concepts',
  },
  {
    construct: 'unnest',
    query: 'search grants where id = "grant.9000002" return grants[id + unnest(keywords)]',
    fixture: 'unnest-keywords',
  },
  // What the hosted service rejects stays rejected.
  {
    construct: 'rejected proximity',
    query: 'search publications for "(chassis control)~2" return publications',
    fixture: 'rejected-proximity-group',
  },
  {
    construct: 'rejected proximity',
    query: 'search publications for "covid 19~5" return publications',
    fixture: 'rejected-proximity-term',
  },
  // Facets with a field list: the rows show those fields of the entity (id and count always).
  {
    construct: 'facet field list',
    query: 'search publications return research_orgs[name] limit 3',
    fixture: 'facet-research-orgs-name',
  },
  {
    construct: 'facet field list',
    query: 'search publications return researchers[id] limit 3',
    fixture: 'facet-researchers-id',
  },
  {
    construct: 'facet field list',
    query: 'search publications return researchers[basics + current_research_org] limit 3',
    fixture: 'facet-researchers-basics-current-org',
  },
  {
    construct: 'facet field list',
    query: 'search publications return category_for[name] limit 3',
    fixture: 'facet-category-for-name',
  },
  {
    construct: 'facet field list',
    query: 'search publications return year[id]',
    fixture: 'facet-field-list-value-facet-rejected',
  },
  {
    construct: 'facet field list',
    query: 'search publications return research_orgs[nme]',
    fixture: 'facet-field-list-unknown-field',
  },
  {
    construct: 'facet field list',
    query: 'search publications return researchers[unnest(research_orgs)]',
    fixture: 'facet-field-list-unnest-rejected',
  },
  // `score` and `sort by score` (relevance).
  {
    construct: 'score',
    query: 'search publications for "malaria" return publications[id + score] limit 3',
    fixture: 'score-publications',
  },
  {
    construct: 'sort by score',
    query: 'search publications for "malaria OR cancer" return publications[id + score] sort by score limit 4',
    fixture: 'sort-by-score',
  },
  {
    construct: 'sort by score',
    query: 'search publications where year = 2018 return publications[id] sort by score',
    fixture: 'sort-by-score-without-full-text',
  },
  // describe schema: long_description on every field, entity fields with name, current search fields.
  { construct: 'describe entity', query: 'describe entity categories', fixture: 'describe-entity-categories' },
  {
    // The tiny grants name no investigator: no affiliation to find (test/sources/grants has hits).
    construct: 'search index of grants raw_affiliations',
    query: 'search grants in raw_affiliations for "paris" return grants',
    fixture: 'search-index-grants-raw-affiliations',
  },
  // Result shapes: organization and researcher facet rows, nested researchers, city ids as numbers.
  {
    construct: 'organization facet rows',
    query: 'search publications return research_orgs limit 2',
    fixture: 'shape-research-orgs-facet',
  },
  {
    construct: 'researcher facet rows',
    query: 'search publications return researchers limit 2',
    fixture: 'shape-researchers-facet',
  },
  {
    construct: 'nested researchers and organizations',
    query:
      'search publications where id = "pub.1900000001" return publications[researchers + research_orgs + research_org_cities]',
    fixture: 'shape-nested-researchers-orgs',
  },
  {
    construct: 'research_org_cities ids',
    query: 'search publications return research_org_cities',
    fixture: 'shape-research-org-cities-facet',
  },
];
