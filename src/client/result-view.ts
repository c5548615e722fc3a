/**
 * How a result is laid out for reading, from its query text: which source it searched (for
 * `--rows`, whose rows carry that source's record id), and for each facet the columns that
 * identify a row and the indicators in the order the query's `aggregate` named them, so a
 * narrow terminal keeps those and drops the entity's other fields first.
 */
import { parse } from '../dsl/parse.ts';
import { requiredFields, rowsOf, type RowKind } from './flatten.ts';
import { QuarryClientError } from './errors.ts';
import { METADATA_KEYS, type QueryResult } from './records.ts';

/** Columns that identify a facet row, before its count and indicators. */
const IDENTIFYING = ['id', 'name', 'title', 'first_name', 'last_name'];

export interface ResultShape {
  /** The searched source, when the query is a search. */
  readonly source?: string;
  /** Per result key: the columns to show first. */
  readonly leading: ReadonlyMap<string, readonly string[]>;
}

/** The shape of a query's result; a text that does not parse (the service said why) has none. */
export function resultShape(text: string): ResultShape {
  let query;
  try {
    query = parse(text);
  } catch {
    return { leading: new Map() };
  }
  if (query.kind !== 'SearchQuery') return { leading: new Map() };
  const source = query.source.value;
  const leading = new Map<string, readonly string[]>();
  for (const clause of query.returns) {
    if (clause.target.kind !== 'ResultTarget') continue;
    const name = clause.target.name.value;
    // The source's records keep the order their field list asked for.
    if (name === source) continue;
    const key = clause.alias?.value ?? name;
    leading.set(key, [...IDENTIFYING, 'count', ...(clause.aggregate ?? []).map((n) => n.value)]);
  }
  return { source, leading };
}

/**
 * The result with the searched source's records replaced by one row per nested item
 * (`rowsOf`). Refused when the query searched nothing, or when records came back without
 * the nested field (the message says which field to return).
 */
export function withRows(result: QueryResult, kind: RowKind, shape: ResultShape): QueryResult {
  const option = `--rows ${kind}`;
  const source = shape.source;
  const records = source === undefined ? undefined : result[source];
  if (source === undefined || !Array.isArray(records) || METADATA_KEYS.has(source))
    throw QuarryClientError.client('CLIENT_OPTION_INVALID', {
      option,
      reason: 'it makes rows of the searched source’s records: return them, e.g. `return publications[id + authors]`',
    });
  const nested = requiredFields(kind);
  const carried = records.some((r) => typeof r === 'object' && r !== null && nested.some((field) => field in r));
  if (!carried && records.length > 0)
    throw QuarryClientError.client('CLIENT_OPTION_INVALID', {
      option,
      reason: `the records came back without ${nested.join(' or ')}: add it to the fields, e.g. \`return ${source}[id + ${nested[0] ?? kind}]\``,
    });
  return { ...result, [source]: rowsOf(kind, source, records) };
}
