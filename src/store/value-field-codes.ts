/**
 * The migration of `<owner>_values` rows from field names to the stored codes of
 * `VALUE_FIELD_CODES` (model/storage.ts), the same SQL on SQLite and PostgreSQL. Databases
 * written before the codes hold the names; after it, every row holds a code, which is all
 * the compiler and the writer know.
 */
import { LINK_TABLES, VALUE_FIELD_CODES, valueFieldCode } from '../model/storage.ts';

/** Names and codes are both plain ASCII from the model, so they go in as literals. */
const literal = (text: string): string => `'${text.replace(/'/g, "''")}'`;

/** `UPDATE <owner>_values SET field = CASE field WHEN 'issn' THEN '1' ... END WHERE field IN (...)`, per values table. */
export function recodeValueFieldsSql(): string[] {
  const entries = Object.entries(VALUE_FIELD_CODES);
  const cases = entries.map(([name, code]) => `WHEN ${literal(name)} THEN ${literal(code)}`).join(' ');
  const names = entries.map(([name]) => literal(name)).join(', ');
  return LINK_TABLES.filter((l) => 'discriminator' in l.holds && l.holds.discriminator === 'field').map(
    (l) => `UPDATE ${l.table} SET field = CASE field ${cases} END WHERE field IN (${names})`,
  );
}

/**
 * `DELETE FROM <owner>_values WHERE field IN (...)` for the fields now read through the
 * linked entities (`LinkTableSpec.readThrough`), one statement per values table: their rows
 * were copies of the organizations' columns, and nothing reads them now.
 */
export function dropReadThroughValuesSql(): string[] {
  return LINK_TABLES.flatMap((values) => {
    if (!('discriminator' in values.holds) || values.holds.discriminator !== 'field') return [];
    const fields = LINK_TABLES.filter((l) => l.owner === values.owner).flatMap((l) => Object.keys(l.readThrough ?? {}));
    if (fields.length === 0) return [];
    const codes = fields.map((f) => literal(valueFieldCode(f))).join(', ');
    return [`DELETE FROM ${values.table} WHERE field IN (${codes})`];
  });
}
