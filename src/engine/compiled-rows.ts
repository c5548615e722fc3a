/**
 * Turning the rows of compiled statements into executed results, the same for every back
 * end: a page's records (document + columns), entity fields filled per page, facet rows with
 * their display fields, citation years with zeros. Each back end's driver runs the
 * statements its way (synchronously in a SQLite worker, awaited on a PostgreSQL pool) and
 * hands the rows here.
 */
import type { CompiledFacet, CompiledPerYear, HydrateStep } from '../compile/compile-search.ts';
import { HELD } from '../compile/records.ts';
import { JSON_COLUMN_PREFIX, LIST_COLUMN_PREFIX } from '../compile/layout.ts';
import type { SqlParam } from '../compile/sql.ts';
import { pickFields, type ExecutedFacet, type ExecutedPerYear, type Row } from './shape.ts';

export type DbRow = Record<string, unknown>;

/** `(?, ?, ...)`, or the dialect's numbered marks from `start + 1`, for a list of keys. */
export function inList(n: number, mark: (k: number) => string = () => '?', start = 0): string {
  return `(${Array.from({ length: n }, (_, k) => mark(start + k + 1)).join(', ')})`;
}

/**
 * The text of a packed value (a BLOB of SQLite's store: `store/sqlite/packed-text.ts`).
 * Pages select the document and packed columns as stored; a back end whose store packs
 * values gives this to `pageRecords`.
 */
export type UnpackText = (packed: Uint8Array) => string | null;

/**
 * The records of a page, by key; `total` is the page's `__total` column when it has one and
 * a row. BLOB values (`__doc`, packed columns: the only BLOBs a page reads) become their
 * text through `unpack`.
 */
export function pageRecords(
  rows: readonly DbRow[],
  unpack?: UnpackText,
): {
  readonly records: Map<unknown, Record<string, unknown>>;
  readonly total: number | undefined;
} {
  const first = rows[0];
  const names = first === undefined ? [] : Object.keys(first);
  return pageRecordsOfArrays(
    names,
    rows.map((row) => names.map((name) => row[name])),
    unpack,
  );
}

/**
 * `pageRecords` for rows read as arrays in the order of `names` (a statement's columns):
 * at 1000 rows of 23 columns, SQLite hands them over in half the time it takes to make
 * an object of each.
 */
export function pageRecordsOfArrays(
  names: readonly string[],
  rows: readonly (readonly unknown[])[],
  unpack?: UnpackText,
): {
  readonly records: Map<unknown, Record<string, unknown>>;
  readonly total: number | undefined;
} {
  const records = new Map<unknown, Record<string, unknown>>();
  const keyAt = names.indexOf('__key');
  const docAt = names.indexOf('__doc');
  const totalAt = names.indexOf('__total');
  const firstTotal = rows[0]?.[totalAt];
  const total = totalAt >= 0 && typeof firstTotal === 'number' ? firstTotal : undefined;
  // `__key`, `__doc`, `__total`, `__id`: the statement's own columns, not fields; a field's
  // column of JSON text is named `__json_<field>` and parsed.
  const columns = names.flatMap((name, at) =>
    name.startsWith(JSON_COLUMN_PREFIX)
      ? [{ name: name.slice(JSON_COLUMN_PREFIX.length), at, json: true }]
      : name.startsWith('__')
        ? []
        : [{ name, at, json: false }],
  );
  const text = (v: unknown): unknown => (unpack !== undefined && v instanceof Uint8Array ? unpack(v) : v);
  for (const row of rows) {
    const raw = docAt < 0 ? undefined : text(row[docAt]);
    // The parsed document becomes the record; column values are written onto it.
    const record = (typeof raw === 'string' && raw.length > 2 ? JSON.parse(raw) : {}) as Record<string, unknown>;
    for (const { name, at, json } of columns) {
      const v = text(row[at]);
      if (v !== null && v !== undefined) record[name] = json && typeof v === 'string' ? JSON.parse(v) : v;
    }
    records.set(keyAt < 0 ? undefined : row[keyAt], record);
  }
  return { records, total };
}

/** The page's keys, to bind after a hydrate step's prefix. */
export function pageKeys(records: ReadonlyMap<unknown, unknown>): SqlParam[] {
  return [...records.keys()] as SqlParam[];
}

/** Writes one entity field, read for the whole page, onto the page's records. */
export function applyHydrate(
  records: ReadonlyMap<unknown, Record<string, unknown>>,
  step: HydrateStep,
  linked: readonly DbRow[],
): void {
  const byKey = new Map<unknown, unknown[]>();
  // Records naming an entity that is not held (single entities): their id, shown only when the document has no value.
  const unheld = new Map<unknown, unknown>();
  for (const { __key, [HELD]: held, ...value } of linked) {
    if (held === null) {
      unheld.set(__key, value.id);
      continue;
    }
    const item =
      step.entity !== undefined
        ? entityRow(value, step.entity)
        : step.numeric === true && typeof value.id === 'string'
          ? Number(value.id)
          : value.id;
    const list = byKey.get(__key);
    if (list === undefined) byKey.set(__key, [item]);
    else list.push(item);
  }
  for (const [key, record] of records) {
    const values = byKey.get(key);
    if (step.multi) {
      if (values !== undefined) record[step.field] = values;
      else if (!Array.isArray(record[step.field])) delete record[step.field];
    } else if (values !== undefined) {
      record[step.field] = values[0];
    } else if (unheld.has(key) && record[step.field] === undefined) {
      // The document leaves out an entity the record named by id alone (`store/rows.ts`).
      record[step.field] = unheld.get(key);
    }
  }
}

/** Facet rows, indicators rounded and ids of the facet's type (a database may hand integers back as text). */
export function facetRows(compiled: CompiledFacet, rows: readonly DbRow[]): DbRow[] {
  const numeric = compiled.output.valueType === 'integer' || compiled.output.valueType === 'float';
  return rows.map((row) => {
    const out = roundIndicators(row);
    if (numeric && typeof out.id === 'string' && out.id.trim() !== '' && Number.isFinite(Number(out.id)))
      out.id = Number(out.id);
    return out;
  });
}

/** The facet rows with each entity's display fields from `details`. */
export function withDisplay(compiled: CompiledFacet, rows: readonly DbRow[], details: readonly DbRow[]): ExecutedFacet {
  const byId = new Map<unknown, DbRow>();
  for (const d of details) byId.set(d.id, entityRow(d));
  const entity = compiled.output.entity;
  const shaped = rows.map((r): Row => {
    const { id, count, ...indicators } = r;
    // The looked-up row again through entityRow: the id becomes a number for cities.
    const { id: shownId = id, ...display } = entityRow({ id, ...(byId.get(id) ?? {}) }, entity);
    return { id: shownId, count, ...display, ...indicators };
  });
  return { output: compiled.output, rows: shaped };
}

/** The entity records of a facet's field list by id (`__id`), from their rows keyed by `__key`. */
export function recordsById(
  rows: readonly DbRow[],
  records: ReadonlyMap<unknown, Record<string, unknown>>,
): Map<unknown, Record<string, unknown>> {
  const byId = new Map<unknown, Record<string, unknown>>();
  for (const row of rows) {
    const record = records.get(row.__key);
    if (record !== undefined) byId.set(row.__id, record);
  }
  return byId;
}

/**
 * The facet rows with the requested fields of each entity's record (a field list over an
 * entity that is a source); entity lists named in `idLists` are given as their ids, as the
 * hosted service's researcher facet rows give `research_orgs`.
 */
export function withEntityRecords(
  compiled: CompiledFacet,
  rows: readonly DbRow[],
  byId: ReadonlyMap<unknown, Record<string, unknown>>,
): ExecutedFacet {
  const wanted = compiled.output.entityRecords;
  const shaped = rows.map((r): Row => {
    const { id, count, ...indicators } = r;
    const record = byId.get(id);
    const fields = record === undefined || wanted === undefined ? {} : { ...pickFields(record, wanted.fields) };
    for (const name of wanted?.idLists ?? []) {
      const list = fields[name];
      if (Array.isArray(list))
        fields[name] = list.map((v: unknown) => (v !== null && typeof v === 'object' ? (v as { id?: unknown }).id : v));
    }
    return { id, count, ...fields, ...indicators };
  });
  return { output: compiled.output, rows: shaped };
}

/**
 * Entities whose ids are numbers in the hosted service's answers: cities are GeoNames ids
 * (`research_org_cities[].id`), kept as text by the store (a city without one is keyed by
 * its name, which stays text).
 */
const NUMERIC_ID_ENTITIES: ReadonlySet<string> = new Set(['cities']);

/** An entity's display row: nulls dropped, list columns parsed (empty lists dropped), numeric ids as numbers. */
export function entityRow(row: DbRow, entity?: string): DbRow {
  const out: DbRow = {};
  for (const [k, v] of Object.entries(row)) {
    if (v === null) continue;
    if (
      k === 'id' &&
      entity !== undefined &&
      NUMERIC_ID_ENTITIES.has(entity) &&
      typeof v === 'string' &&
      /^\d+$/.test(v)
    ) {
      out[k] = Number(v);
      continue;
    }
    if (k.startsWith(LIST_COLUMN_PREFIX)) {
      const list = typeof v === 'string' ? (JSON.parse(v) as unknown[]) : [];
      if (list.length > 0) out[k.slice(LIST_COLUMN_PREFIX.length)] = list;
    } else {
      out[k] = v;
    }
  }
  return out;
}

/** Averages and medians as plain numbers with a sensible precision. */
function roundIndicators(row: DbRow): DbRow {
  const out: DbRow = {};
  for (const [k, v] of Object.entries(row))
    out[k] = typeof v === 'number' && !Number.isInteger(v) ? Math.round(v * 1e4) / 1e4 : v;
  return out;
}

/** One value per year from `from` to `to`, keyed by the year as text, zeros included. */
export function perYearValues(compiled: CompiledPerYear, rows: readonly DbRow[]): ExecutedPerYear {
  const found = new Map<number, number>();
  for (const r of rows) found.set(Number(r.year), Number(r.value));
  const money = compiled.output.kind === 'funding_per_year';
  const values: Record<string, number> = {};
  for (let year = compiled.output.from; year <= compiled.output.to; year++) {
    const value = found.get(year) ?? 0;
    // Amounts spread over years are fractions of a unit: cents are enough.
    values[String(year)] = money ? Math.round(value * 100) / 100 : value;
  }
  return { output: compiled.output, values };
}
