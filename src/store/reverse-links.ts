/**
 * The views of the reverse links (`REVERSE_LINKS`, `model/storage.ts`), one statement for both
 * engines: plain joins on the source tables' `pk` and `id`, which each engine reads through
 * its indexes (the link table's reverse index on the owner's id, the other table's key).
 */
import { SOURCE_TABLES, ownerKey, type ReverseLinkSpec } from '../model/storage.ts';

/**
 * The `CREATE VIEW` of a reverse link.
 *
 * @example reverseLinkViewSql(grants' resulting publications)
 * // CREATE VIEW grant_resulting_publications AS SELECT o.pk AS grant_pk, s.id AS publication_id
 * //   FROM publication_grants l JOIN grants o ON o.id = l.grant_id JOIN publications s ON s.pk = l.publication_pk
 */
export function reverseLinkViewSql(reverse: ReverseLinkSpec): string {
  const owner = SOURCE_TABLES[reverse.owner].table;
  const other = SOURCE_TABLES[reverse.link.owner].table;
  return (
    `CREATE VIEW ${reverse.view} AS SELECT o.pk AS ${reverse.recordColumn}, s.id AS ${reverse.valueColumn}` +
    ` FROM ${reverse.link.table} l JOIN ${owner} o ON o.id = l.${reverse.linkColumn}` +
    ` JOIN ${other} s ON s.pk = l.${ownerKey(reverse.link.owner)}`
  );
}
