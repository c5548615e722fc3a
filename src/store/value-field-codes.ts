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
 * linked entities (`LinkTableSpec.readThrough`), per values table of an owner that reads
 * them: their rows were copies of the organizations' columns, and nothing reads them now.
 */
export function dropReadThroughValuesSql(): string[] {
  return LINK_TABLES.flatMap((through) => {
    const fields = Object.keys(through.readThrough ?? {});
    const values = LINK_TABLES.find(
      (l) => l.owner === through.owner && 'discriminator' in l.holds && l.holds.discriminator === 'field',
    );
    if (fields.length === 0 || values === undefined) return [];
    const codes = fields.map((f) => literal(valueFieldCode(f))).join(', ');
    return [`DELETE FROM ${values.table} WHERE field IN (${codes})`];
  });
}
