import type { CodeTable } from '../code-table.ts';

/**
 * Error codes raised by `src/schema`-area modules. Codes are never renamed or reused once published.
 * `{hint}` placeholders hold a "did you mean" sentence (with its leading space) or nothing.
 */
export const SCHEMA_CODES = {
  SCHEMA_UNKNOWN_SOURCE: {
    category: 'semantic',
    message: "'{name}' is not a source.{hint}",
    fix: 'Search one of the sources this deployment holds (`describe schema` lists them).',
  },
  SCHEMA_SOURCE_NOT_SUBSCRIBED: {
    category: 'permission',
    message:
      "Your subscription does not include the source '{name}'; ask the administrator of this deployment to add it.",
    fix: 'Search (or describe) a source of your subscription (`describe schema` lists them), or have the administrator add this one: `quarry accounts subscribe EMAIL --sources ...`.',
  },
  SCHEMA_LINKED_SOURCE_NOT_SUBSCRIBED: {
    category: 'permission',
    message:
      "'{name}' in the field list of '{facet}' shows {fields} of the source '{source}', which your subscription does not include; without it, '{facet}' rows can show {covered}. Ask the administrator of this deployment to add '{source}'.",
    fix: "Keep to the fields the searched source covers (a linked researcher's or organization's id and display fields, as its records show them), or have the administrator add the linked source: `quarry accounts subscribe EMAIL --sources ...`.",
  },
  SCHEMA_UNKNOWN_ENTITY: {
    category: 'semantic',
    message: "'{name}' is not an entity.{hint}",
    fix: 'Name one of the entities that `describe schema` lists (categories, cities, countries, journals, ...).',
  },
  SCHEMA_UNKNOWN_FIELD: {
    category: 'semantic',
    message: "Field '{name}' is not a field of '{source}'.{hint}",
    fix: 'Check the spelling against `describe source <name>`; in a field list, fieldsets (basics, extras, ...) are allowed too.',
  },
  SCHEMA_UNKNOWN_SUBFIELD: {
    category: 'semantic',
    message: "'{name}' is not a field of the entity '{entity}' (in '{path}').{hint}",
    fix: 'Use one of the sub-fields that `describe entity <name>` lists, for example research_orgs.name or journal.title.',
  },
  SCHEMA_NOT_AN_ENTITY: {
    category: 'semantic',
    message: "Field '{name}' is of type {type} and has no sub-fields ('{path}').",
    fix: 'Only entity-typed fields (organizations, categories, journals, ...) have dotted sub-fields; compare the field itself.',
  },
  SCHEMA_REMOVED_FIELD: {
    category: 'semantic',
    message: "Field '{name}' was removed in version 2 of the language; use '{replacement}' instead.",
    fix: 'Replace the field by its version-2 equivalent (docs/language.md lists them), or send the query to the version-1 endpoint while it exists.',
  },
  SCHEMA_REMOVED_FIELDSET: {
    category: 'semantic',
    message: "The fieldset 'all' was removed in version 2 of the language; list the fields, or use {replacement}.",
    fix: 'Name the fields you need, or combine fieldsets: [basics + extras].',
  },
  SCHEMA_NOT_FILTERABLE: {
    category: 'semantic',
    message: "Field '{name}' of '{source}' cannot be used in a filter.{advice}",
    fix: 'Filter on a filterable field (`describe source <name>` shows is_filter), or search the text with for "..." and a search index.',
  },
  SCHEMA_OPERATOR_NOT_SUPPORTED: {
    category: 'semantic',
    message: "Field '{name}' ({type}) does not support {operator}; it supports {supported}.",
    fix: 'Use one of the operators the field supports: ~ works on text only, is empty not on counters, count() on multi-value fields.',
  },
  SCHEMA_INVALID_VALUE: {
    category: 'semantic',
    message: "{value} is not a valid value for '{name}': expected {expected}.",
    fix: 'Write dates as "YYYY-MM-DD" (or "YYYY" / "YYYY-MM"), integers as digits (quoted digits are accepted), and text in double quotes.',
  },
  SCHEMA_UNKNOWN_INDEX: {
    category: 'semantic',
    message: "'{name}' is not a search index of '{source}'; it has {indexes}.{hint}",
    fix: 'Choose one of the search indexes that `describe source <name>` lists under search_fields, or leave out in INDEX to search full_data.',
  },
  SCHEMA_PERSON_NAME_PARTS: {
    category: 'semantic',
    message:
      "A search in the person-name index '{index}' needs names of two or more parts (first and last name); '{term}' has one.",
    fix: 'Give first and last name (initials are allowed) as a phrase: in authors for "\\"Jennifer A Doudna\\"".',
  },
  SCHEMA_UNKNOWN_RESULT: {
    category: 'semantic',
    message: "'{name}' is not a source or facet of '{source}'.{hint}",
    fix: 'Return the searched source (with an optional field list), one of its facet fields (`describe source <name>` shows is_facet), or a function.',
  },
  SCHEMA_NOT_A_FACET: {
    category: 'semantic',
    message: "Field '{name}' of '{source}' cannot be returned as a facet.",
    fix: 'Return it inside the field list of the source instead: return {source}[id + {name}].',
  },
  SCHEMA_FACET_FIELD_LIST: {
    category: 'semantic',
    message:
      "The facet '{name}' groups plain values, not entities: its rows hold only id and count, so it takes no field list.",
    fix: 'Remove the [...] after the facet name; field lists are for entity facets such as research_orgs[name].',
  },
  SCHEMA_FACET_FIELD_SHAPE: {
    category: 'semantic',
    message:
      "'{name}' cannot be shown in the rows of the facet '{facet}': a facet row holds one entity, so its field list takes whole fields and fieldsets, without unnest() or dotted paths.",
    fix: 'Name the whole field ({facet}[research_orgs]), or return the source with unnest() to get one row per value.',
  },
  SCHEMA_UNKNOWN_FACET_FIELD: {
    category: 'semantic',
    message: "'{name}' is not a field of the {entity} the facet '{facet}' shows.{hint}",
    fix: '`describe source {entity}` (or `describe entity {entity}`) lists the fields a facet row can show.',
  },
  SCHEMA_UNSUPPORTED_FUNCTION: {
    category: 'unsupported',
    message: "The function '{name}' is not offered by this deployment.",
    fix: 'Remove the call; `describe schema` lists what this deployment offers. Ask the operator whether it can be added.',
  },
  SCHEMA_UNKNOWN_FUNCTION: {
    category: 'semantic',
    message: "'{name}' is not a function.{hint}",
    fix: 'The functions this deployment offers are listed in docs/language.md (citations_per_year(from, to), funding_per_year(from, to, "USD")).',
  },
  SCHEMA_STATEMENT_NOT_RESULT: {
    category: 'semantic',
    message:
      "'{name}' is a statement of its own, not a result of a search: write {name}(...) alone, without search ... return.",
    fix: 'Send the function call as the whole query, for example: extract_concepts("malaria in children", return_scores=true). docs/functions.md lists the statement functions.',
  },
  SCHEMA_FUNCTION_NEEDS_SEARCH: {
    category: 'semantic',
    message: "The function '{name}' is returned from a search: search {sources} ... return {name}(...).",
    fix: 'Write it as a return clause of a search, for example: search publications for "brexit" return citations_per_year(2010, 2020).',
  },
  SCHEMA_FUNCTION_SOURCE: {
    category: 'semantic',
    message: "The function '{name}' can only be returned from a search of {sources}, not of '{source}'.",
    fix: 'Search one of the sources the function works on.',
  },
  SCHEMA_FUNCTION_ARGUMENTS: {
    category: 'semantic',
    message: 'Wrong arguments for {name}: {problem}.',
    fix: 'citations_per_year takes two years, from and to, with from <= to, at most 200 years apart: citations_per_year(2010, 2020); funding_per_year adds a currency: funding_per_year(2010, 2020, "USD").',
  },
  SCHEMA_STATEMENT_ARGUMENTS: {
    category: 'semantic',
    message: 'Wrong arguments for {name}(): {problem}.',
    fix: '`describe schema` lists the statement functions with their parameters (statement_functions); docs/functions.md gives each one with examples, for example extract_grants(grant_number="R01CA123456", funder_name="National Cancer Institute").',
  },
  SCHEMA_IDENTIFY_EXPERTS: {
    category: 'semantic',
    message: 'Wrong identify experts query: {problem}.',
    fix: 'identify experts from concepts "\\"concept one\\" OR \\"concept two\\"" [using publications|grants] [where ...] return experts[basics] [limit N] [annotate coauthorship, organizational overlap with ["ur.…", "grid.…"]]; docs/functions.md explains each part.',
  },
  SCHEMA_SEARCH_FUNCTION_ARGUMENTS: {
    category: 'semantic',
    message: 'Wrong arguments for {name}(): {problem}.',
    fix: 'min_should_match takes a search string and how many of its clauses must match: min_should_match("a OR b OR c", 2); complex takes words and their largest distance: complex("quantum networking", 3); similar_documents takes one text with words to compare by: similar_documents("Malaria drugs and their doses in Africa").',
  },
  SCHEMA_MIN_SHOULD_MATCH_TOO_BROAD: {
    category: 'budget',
    message:
      'min_should_match with {min} of {clauses} clauses has {combinations} combinations; this deployment searches at most {max}.',
    fix: 'Use fewer clauses, or ask for fewer or more of them to match (all of them is one combination).',
  },
  SCHEMA_FUNCTION_MODIFIER: {
    category: 'semantic',
    message: "A function result takes no '{modifier}'.",
    fix: 'Remove aggregate, sort, limit and skip from the function return; they apply to records and facets.',
  },
  SCHEMA_LIMIT_TOO_LARGE: {
    category: 'budget',
    message: 'Limit {limit} exceeds maximum allowed limit {max}.',
    fix: 'Ask for at most 1000 records per page and page through with skip.',
  },
  SCHEMA_FACET_LIMIT_TOO_LARGE: {
    category: 'budget',
    message: 'Facet limit {limit} exceeds maximum allowed limit {max}.',
    fix: 'Ask for at most 1000 facet rows; narrow the query with a filter to see the rest.',
  },
  SCHEMA_PAGING_TOO_DEEP: {
    category: 'budget',
    message: 'skip + limit is {total}, which exceeds the maximum paging depth {max}.',
    fix: 'Narrow the query with a filter (for example by year) instead of paging deeper than 50,000 records.',
  },
  SCHEMA_NEGATIVE_PAGING: {
    category: 'semantic',
    message: '{what} must be zero or more, found {value}.',
    fix: 'Give limit and skip as whole numbers of zero or more.',
  },
  SCHEMA_FACET_SKIP: {
    category: 'semantic',
    message: "offset is not supported for facet results (skip {skip} on '{name}').",
    fix: 'Remove skip from the facet return; raise its limit (at most 1000) instead.',
  },
  SCHEMA_UNKNOWN_INDICATOR: {
    category: 'semantic',
    message: "'{name}' is not an indicator of '{source}'; it has {indicators}.{hint}",
    fix: 'Aggregate one of the indicators of the searched source (`describe source <name>` lists them under metrics).',
  },
  SCHEMA_AGGREGATE_ON_RECORDS: {
    category: 'semantic',
    message: "aggregate applies to facet results, not to the records of '{name}'.",
    fix: 'Return a facet to aggregate over, for example: return funders aggregate citations_total.',
  },
  SCHEMA_INVALID_SORT_FIELD: {
    category: 'semantic',
    message: "Records of '{source}' cannot be sorted by '{name}'{reason}.",
    fix: 'Sort by a single-valued text, number or date field (year, date, times_cited, ...), or by relevance with full-text search.',
  },
  SCHEMA_RELEVANCE_WITHOUT_FULLTEXT: {
    category: 'semantic',
    message: 'Sorting by relevance (`relevance` or `score`) needs a full-text search (for "...").',
    fix: 'Add for "..." to the query, or sort by a field.',
  },
  SCHEMA_INVALID_FACET_SORT: {
    category: 'semantic',
    message: "Facet rows of '{name}' can be sorted by count or by an aggregated indicator, not by '{key}'.{advice}",
    fix: 'Sort facet rows by count, or add the indicator to aggregate and sort by it: aggregate funding sort by funding.',
  },
  SCHEMA_UNNEST_NOT_MULTIVALUE: {
    category: 'semantic',
    message: "unnest({name}) needs a multi-value field; '{name}' holds one value.",
    fix: 'Return the field without unnest, or unnest a multi-value field such as researchers or category_for.',
  },
  SCHEMA_UNNEST_MORE_THAN_ONE: {
    category: 'semantic',
    message: "Only one field per return can be unnested; '{name}' is the second.",
    fix: 'Unnest one field, and send a second query to unnest another.',
  },
  SCHEMA_SUBFIELD_IN_FIELD_LIST: {
    category: 'semantic',
    message: "Field lists take whole fields; '{path}' names a sub-field.",
    fix: 'Return the whole entity field (journal instead of journal.title); unnest(field) gives its sub-fields as dotted keys.',
  },
  SCHEMA_EMPTY_FIELD_LIST: {
    category: 'semantic',
    message: "The field list of '{name}' leaves no field to return.",
    fix: 'Include at least one field, for example [basics - doi] or [id + title].',
  },
  SCHEMA_DUPLICATE_RESULT_KEY: {
    category: 'semantic',
    message: "Two returns would both produce the key '{key}'.",
    fix: 'Give one of them another key with as "name", or remove the duplicate.',
  },
  SCHEMA_RESERVED_RESULT_KEY: {
    category: 'semantic',
    message: "The key '{key}' is reserved for result metadata (keys starting with _).",
    fix: 'Choose another name with as "name" or return in "group".',
  },
  SCHEMA_TOO_MANY_PROBLEMS: {
    category: 'semantic',
    message: 'Validation stopped after {max} problems.',
    fix: 'Fix the problems shown and validate again.',
  },
} as const satisfies CodeTable;
