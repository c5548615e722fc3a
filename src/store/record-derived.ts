/**
 * Values `finish()` derives from the layout for sources beyond the first four, in SQL both
 * engines run as written (as `per-year-tables.ts` holds theirs): the places a source's records
 * name themselves, and the in-corpus citation counts of a source whose records cite records
 * of their own kind. Both are read from the declarations (`model/storage.ts`), so a later
 * source with such fields gets them without a change here.
 */
import { SOURCE_FIELD_TABLES } from '../model/sources.ts';
import {
  LINK_TABLES,
  PLACE_TABLES,
  SOURCE_TABLES,
  type LinkTableSpec,
  type PlaceTable,
  type RecordKind,
} from '../model/storage.ts';

const literal = (text: string): string => `'${text.replace(/'/g, "''")}'`;

/**
 * Per place table, the `<owner>_values` fields of that entity type (patents'
 * `assignee_countries` and `funder_countries` are countries, `assignee_cities` cities):
 * places a record names as values, not through an organization (USPTO gives an assignee's
 * city and country without any organization id).
 */
function placeValueFields(): ReadonlyMap<PlaceTable, readonly { link: LinkTableSpec; code: string }[]> {
  const byTable = new Map<PlaceTable, { link: LinkTableSpec; code: string }[]>();
  for (const link of LINK_TABLES) {
    const holds = link.holds;
    if (!('discriminator' in holds) || holds.discriminator !== 'field') continue;
    const types = new Map<string, string>(
      (SOURCE_FIELD_TABLES as Readonly<Record<string, { fields: readonly (readonly string[])[] }>>)[
        link.owner
      ]?.fields.map(([name, type]) => [name as string, type as string]) ?? [],
    );
    for (const [field, code] of Object.entries(holds.fields)) {
      const type = types.get(field);
      if (type === undefined || !Object.hasOwn(PLACE_TABLES, type)) continue;
      const table = type as PlaceTable;
      byTable.set(table, [...(byTable.get(table) ?? []), { link, code }]);
    }
  }
  return byTable;
}

const PLACE_VALUE_FIELDS = placeValueFields();

/**
 * Adds to the place tables the places the records name as values that no organization named
 * (run after the organizations' places): a city is keyed and named by its name (USPTO and
 * PatentsView give no GeoNames id), a state (`US-CA`) gets the country of its ISO 3166-2
 * code and no name, a country no name (`nameCountries` gives it one).
 *
 * @example placeValuesFillSql()
 *   // ["INSERT INTO countries (id, name) SELECT v.value, NULL FROM (SELECT DISTINCT value FROM patent_values
 *   //   WHERE field IN ('47', '13')) v WHERE NOT EXISTS (SELECT 1 FROM countries c WHERE c.id = v.value)", ...]
 */
export function placeValuesFillSql(): string[] {
  const shown: Readonly<Record<PlaceTable, string>> = {
    countries: 'v.value, NULL',
    cities: 'v.value, v.value, NULL',
    states: "v.value, NULL, CASE WHEN v.value LIKE '__-%' THEN substr(v.value, 1, 2) END",
  };
  return [...PLACE_VALUE_FIELDS].map(([table, fields]) => {
    const byLink = new Map<string, string[]>();
    for (const { link, code } of fields) byLink.set(link.table, [...(byLink.get(link.table) ?? []), code]);
    // UNION: each place once, whichever records and fields name it.
    const values = [...byLink]
      .map(([link, codes]) => `SELECT DISTINCT value FROM ${link} WHERE field IN (${codes.map(literal).join(', ')})`)
      .join(' UNION ');
    const columns = ['id', ...PLACE_TABLES[table].map((c) => c.name)].join(', ');
    return (
      `INSERT INTO ${table} (${columns}) SELECT ${shown[table]} FROM (${values}) v ` +
      `WHERE NOT EXISTS (SELECT 1 FROM ${table} c WHERE c.id = v.value)`
    );
  });
}

/** The countries without a name, for `countryName`. */
export const UNNAMED_COUNTRIES_SQL = 'SELECT id FROM countries WHERE name IS NULL ORDER BY id';

const REGION_NAMES = new Intl.DisplayNames(['en'], { type: 'region', fallback: 'none' });

/**
 * The English name of an ISO 3166-1 alpha-2 code (`CA` → `Canada`), for a country the
 * records name by its code alone; undefined for anything else.
 */
export function countryName(code: string): string | undefined {
  if (!/^[A-Z]{2}$/.test(code)) return undefined;
  try {
    const name = REGION_NAMES.of(code);
    return name === undefined || name === code || name === 'Unknown Region' ? undefined : name;
  } catch {
    return undefined;
  }
}

/** A source counting its in-corpus citations from its own references (`citedCounts`). */
export interface CitedCounts {
  readonly kind: RecordKind;
  readonly table: string;
  /** Its references' link table, interned into a vocabulary of the cited ids. */
  readonly references: LinkTableSpec & { readonly interned: NonNullable<LinkTableSpec['interned']> };
}

/**
 * The sources whose `times_cited` is the number of held records of their own kind citing
 * them (`reference_ids`), where the record does not carry it: patents. Publications count
 * theirs with their recent citations and per-year tables in one pass (`per-year-tables.ts`).
 */
export const CITED_COUNTS: readonly CitedCounts[] = LINK_TABLES.flatMap((link): CitedCounts[] => {
  const source = SOURCE_TABLES[link.owner];
  if (link.owner === 'publications' || !('field' in link.holds) || link.holds.field !== 'reference_ids') return [];
  if (link.interned === undefined || !source.columns.some((c) => c.name === 'times_cited')) return [];
  return [{ kind: link.owner, table: source.table, references: { ...link, interned: link.interned } }];
});

/**
 * PostgreSQL's (and a grouped) statement for `times_cited` of the records without one: the
 * references grouped by cited id, joined to the records by id.
 */
export function citedCountsGroupedSql({ table, references }: CitedCounts): string {
  const { interned } = references;
  const cited = references.key[references.key.length - 1]?.name ?? '';
  return (
    `UPDATE ${table} s SET times_cited = coalesce(c.n, 0) FROM ${table} s2 ` +
    `LEFT JOIN (SELECT v.${interned.column} AS id, count(*) AS n FROM ${references.table} r ` +
    `JOIN ${interned.table} v ON v.id = r.${cited} GROUP BY v.${interned.column}) c ON c.id = s2.id ` +
    `WHERE s2.pk = s.pk AND s.times_cited IS NULL`
  );
}
