/**
 * The SourceCatalog the lowering reads: field types and fieldsets per source.
 */
import { ENTITY_TYPES, type CatalogField, type SourceCatalog } from '../compile/catalog.ts';
import { FIELD_TABLE } from './field-table.ts';

/** Fieldsets (spec/data-model.md: Quarry's choices). */
const FIELDSETS: Readonly<Record<string, Readonly<Record<string, readonly string[]>>>> = {
  publications: {
    basics: ['id', 'title', 'doi', 'type', 'year', 'date', 'journal', 'volume', 'issue', 'pages', 'authors'],
    extras: ['times_cited', 'recent_citations', 'altmetric', 'relative_citation_ratio', 'field_citation_ratio', 'pmid', 'pmcid', 'arxiv_id', 'publisher', 'open_access', 'authors_count'],
    book: ['book_doi', 'book_title', 'book_series_title', 'proceedings_title'],
  },
  grants: {
    basics: ['id', 'title', 'funders', 'start_date', 'end_date', 'funding_usd', 'research_orgs'],
    extras: ['grant_number', 'foa_number', 'start_year', 'active_year', 'funding_currency', 'language', 'linkout'],
  },
  researchers: {
    basics: ['id', 'first_name', 'last_name', 'orcid_id', 'research_orgs'],
    extras: ['first_publication_year', 'last_publication_year', 'first_grant_year', 'last_grant_year', 'total_publications', 'total_grants', 'current_research_org', 'nih_ppid', 'obsolete'],
  },
  organizations: {
    basics: ['id', 'name', 'acronym', 'types', 'city_name', 'country_name'],
    nuts: ['nuts_level1_code', 'nuts_level1_name', 'nuts_level2_code', 'nuts_level2_name', 'nuts_level3_code', 'nuts_level3_name'],
  },
};

/** Search indexes per source (spec/data-model.md). */
const SEARCH_INDEXES: Readonly<Record<string, readonly string[]>> = {
  publications: ['title_only', 'title_abstract_only', 'terms', 'authors', 'acknowledgements', 'concepts', 'full_data_exact', 'full_data'],
  grants: ['investigators', 'title_abstract_only', 'title_only', 'concepts', 'full_data'],
  researchers: ['full_data'],
  organizations: ['full_data'],
};

/** Sub-fields of the entities that are not sources themselves (spec/data-model.md). */
const ENTITY_FIELDS: Readonly<Record<string, readonly string[]>> = {
  categories: ['id', 'name'],
  cities: ['id', 'name'],
  countries: ['id', 'name'],
  states: ['id', 'name'],
  journals: ['id', 'title'],
  source_titles: ['id', 'title'],
  open_access: ['id', 'name', 'description'],
  publication_links: ['id', 'doi', 'pmid', 'pmcid'],
};

function build(): SourceCatalog {
  const fields = new Map<string, Map<string, CatalogField>>();
  for (const [source, rows] of Object.entries(FIELD_TABLE)) {
    const map = new Map<string, CatalogField>();
    for (const [name, type, multi] of rows) map.set(name, { name, type, multi, isEntity: ENTITY_TYPES.has(type) });
    fields.set(source, map);
  }
  return {
    isSource: (name) => Object.hasOwn(SEARCH_INDEXES, name),
    searchIndexes: (source) => SEARCH_INDEXES[source] ?? [],
    field: (source, name) => fields.get(source)?.get(name),
    hasSubfield: (entity, name) => (ENTITY_FIELDS[entity] ?? [...(fields.get(entity)?.keys() ?? [])]).includes(name),
    fieldset: (source, name) => {
      const sets = FIELDSETS[source];
      if (name === 'categories') return FIELD_TABLE[source]?.map(([n]) => n).filter((n) => n.startsWith('category_'));
      if (name === 'all') return FIELD_TABLE[source]?.map(([n]) => n);
      return sets?.[name];
    },
  };
}

export const CATALOG: SourceCatalog = build();
