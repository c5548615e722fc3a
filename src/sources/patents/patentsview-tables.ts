/**
 * The PatentsView bulk tables Quarry reads (granted patents, `g_*.tsv`, distributed as
 * `g_<table>.tsv.zip`), with the columns each needs. Column names are the published ones:
 * the export views of PatentsView's own build, `resources/create_export_views.sql` in
 * PatentsView/PatentsView-DB (view `patentsview_export_granted.g_<table>`), which name
 * every column of every download; `g_patent_abstract` (`patent_id, patent_abstract`), the
 * table later releases moved the abstracts into, as its downloads' header has it.
 */
import { MissingColumn } from '../../data/import/formats/common.ts';

export const PATENTSVIEW_TABLES = {
  /** patent_id, patent_type, patent_date, patent_title, patent_abstract, wipo_kind, num_claims, withdrawn, filename */
  g_patent: ['patent_id', 'patent_date', 'patent_title', 'wipo_kind'],
  /** patent_id, patent_abstract */
  g_patent_abstract: ['patent_id', 'patent_abstract'],
  /** application_id, patent_id, patent_application_type, filing_date, series_code, rule_47_flag */
  g_application: ['patent_id', 'application_id', 'filing_date'],
  /** patent_id, assignee_sequence, assignee_id, disambig_assignee_individual_name_first, _last, disambig_assignee_organization, assignee_type, location_id */
  g_assignee_disambiguated: [
    'patent_id',
    'assignee_sequence',
    'disambig_assignee_individual_name_first',
    'disambig_assignee_individual_name_last',
    'disambig_assignee_organization',
    'location_id',
  ],
  /** patent_id, inventor_sequence, inventor_id, disambig_inventor_name_first, disambig_inventor_name_last, gender_code, location_id */
  g_inventor_disambiguated: [
    'patent_id',
    'inventor_sequence',
    'disambig_inventor_name_first',
    'disambig_inventor_name_last',
    'location_id',
  ],
  /** location_id, disambig_city, disambig_state, disambig_country, latitude, longitude, county, state_fips, county_fips */
  g_location_disambiguated: ['location_id', 'disambig_city', 'disambig_state', 'disambig_country'],
  /** patent_id, cpc_sequence, cpc_section, cpc_class, cpc_subclass, cpc_group, cpc_type */
  g_cpc_current: ['patent_id', 'cpc_sequence', 'cpc_group'],
  /** patent_id, ipc_sequence, classification_level, section, ipc_class, subclass, main_group, subgroup, ... */
  g_ipc_at_issue: ['patent_id', 'ipc_sequence', 'section', 'ipc_class', 'subclass', 'main_group', 'subgroup'],
  /** patent_id, citation_sequence, citation_patent_id, citation_date, record_name, wipo_kind, citation_category */
  g_us_patent_citation: ['patent_id', 'citation_sequence', 'citation_patent_id', 'wipo_kind'],
  /** patent_id, gi_statement */
  g_gov_interest: ['patent_id', 'gi_statement'],
  /** patent_id, gi_organization_id, fedagency_name, level_one, level_two, level_three */
  g_gov_interest_org: ['patent_id', 'fedagency_name'],
  /** patent_id, contract_award_number */
  g_gov_interest_contracts: ['patent_id', 'contract_award_number'],
  /** patent_id, priority_claim_sequence, priority_claim_kind, foreign_application_id, filing_date, foreign_country_filed */
  g_foreign_priority: ['patent_id', 'priority_claim_sequence', 'filing_date'],
} as const satisfies Readonly<Record<string, readonly string[]>>;

export type PatentsViewTable = keyof typeof PATENTSVIEW_TABLES;

/**
 * The table a file or zip entry holds, by its name (`g_patent.tsv`, `g_cpc_current.tsv.zip`,
 * `dir/g_patent.tsv.gz`), or undefined for a file that is none of them.
 */
export function patentsViewTable(name: string): PatentsViewTable | undefined {
  const base = (name.split(/[\\/!]/).pop() ?? '').replace(/\.(tsv)(\.(zip|gz))?$/i, '').toLowerCase();
  return base in PATENTSVIEW_TABLES ? (base as PatentsViewTable) : undefined;
}

/** Checks a table's header: MissingColumn for the first column it needs and lacks. */
export function checkHeader(table: PatentsViewTable, columns: readonly string[]): void {
  const has = new Set(columns);
  const missing = PATENTSVIEW_TABLES[table].find((c) => !has.has(c));
  if (missing !== undefined) throw new MissingColumn(`PatentsView ${table}`, missing);
}
