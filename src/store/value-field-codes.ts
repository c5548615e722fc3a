/**
 * The migration of `<owner>_values` rows from field names to the stored codes of
 * `VALUE_FIELD_CODES` (model/storage.ts), the same SQL on SQLite and PostgreSQL. Databases
 * written before the codes hold the names; after it, every row holds a code, which is all
 * the compiler and the writer know.
 */
import { LINK_TABLES, VALUE_FIELD_CODES, valueFieldCode, type RecordKind } from '../model/storage.ts';

/** Names and codes are both plain ASCII from the model, so they go in as literals. */
const literal = (text: string): string => `'${text.replace(/'/g, "''")}'`;

/**
 * `UPDATE <owner>_values SET field = CASE field WHEN 'issn' THEN '1' ... END WHERE field IN (...)`,
 * per values table (of the owners in `kinds`, where given: SQLite's migration 7 is pinned to
 * the sources it knew).
 */
export function recodeValueFieldsSql({ kinds }: { readonly kinds?: ReadonlySet<RecordKind> } = {}): string[] {
  const entries = Object.entries(VALUE_FIELD_CODES);
  const cases = entries.map(([name, code]) => `WHEN ${literal(name)} THEN ${literal(code)}`).join(' ');
  const names = entries.map(([name]) => literal(name)).join(', ');
  return LINK_TABLES.filter(
    (l) =>
      'discriminator' in l.holds && l.holds.discriminator === 'field' && (kinds === undefined || kinds.has(l.owner)),
  ).map((l) => `UPDATE ${l.table} SET field = CASE field ${cases} END WHERE field IN (${names})`);
}

/**
 * The fields records migration 10 (SQLite) and 8 (PostgreSQL) stopped storing: the places
 * and names of a record's organizations, now read through its links (`readThrough` in
 * model/storage.ts). Fixed here, not read from the model, so the migration stays what it was
 * when a later change reads other fields through an entity.
 */
const ORGANIZATION_PLACE_FIELDS = [
  'research_org_countries',
  'research_org_country_names',
  'research_org_cities',
  'research_org_state_codes',
  'research_org_state_names',
  'research_org_names',
  'funder_countries',
] as const;

/**
 * `DELETE FROM <owner>_values WHERE field IN (...)` of those fields, for the publications'
 * and the grants' values tables: their rows were copies of the organizations' columns, and
 * nothing reads them now.
 */
export function dropOrganizationPlaceValuesSql(): string[] {
  const codes = ORGANIZATION_PLACE_FIELDS.map((f) => literal(valueFieldCode(f))).join(', ');
  return ['publication_values', 'grant_values'].map((table) => `DELETE FROM ${table} WHERE field IN (${codes})`);
}
