/**
 * The columns that show an entity (facet rows, entity fields of returned records), read
 * from the entity table aliased `e`.
 */
import type { Dialect } from './dialect.ts';
import { LIST_COLUMN_PREFIX, type EntityDisplay } from './layout.ts';
import { ident, literal } from './sql.ts';

/**
 * @example displayColumns(sqliteDialect, organizations)
 *   // ['e."name" AS "name"', ..., '(SELECT json_group_array(v."value") FROM "organization_values" v
 *   //   WHERE v."organization_pk" = e."pk" AND v."field" = \'types\') AS "__list_types"']
 */
export function displayColumns(dialect: Dialect, display: EntityDisplay): string[] {
  const columns = Object.entries(display.columns).map(([out, col]) => `e.${ident(col)} AS ${ident(out)}`);
  for (const [out, list] of Object.entries(display.lists ?? {})) {
    columns.push(
      `(SELECT ${dialect.jsonArrayAgg(`v.${ident(list.valueColumn)}`)} FROM ${ident(list.table)} v WHERE v.${ident(list.ownerColumn)} = e.${ident(list.entityKey)}${list.field === undefined ? '' : ` AND v."field" = ${literal(list.field)}`}) AS ${ident(LIST_COLUMN_PREFIX + out)}`,
    );
  }
  return columns;
}
