/**
 * An export's query, cut into chunks by the record key. The submitted query is a search
 * returning its own source (as a paged query would be); each chunk is the same search with
 * `id > "<last key written>"` added to its filter, sorted by `id`, `limit` the chunk size.
 * Keyset paging, not offsets: a chunk costs the same at record 9,000,000 as at record 0,
 * and no 50,000-record window applies (each chunk has no `skip`).
 *
 * Every record carries its `id` (the key the next chunk starts after): a field list that
 * leaves it out gets it added.
 */
import {
  parse,
  print,
  type Comparison,
  type FieldSpec,
  type FilterNode,
  type ReturnClause,
  type SearchQuery,
  type Span,
} from '../dsl/index.ts';

/** The field every record is keyed by, in every source. */
export const RECORD_KEY = 'id';

/** A submitted query checked for export, ready to be cut into chunks. */
export interface ExportPlan {
  readonly query: SearchQuery;
  /** The result key the records come under (the source, or the `as` alias). */
  readonly recordsKey: string;
}

/** Why a query cannot be exported, in words for the error message. */
export class NotExportable extends Error {}

/** Chunks carry no positions: errors are reported against the submitted text, checked before. */
const NO_SPAN: Span = { start: 0, end: 0 };

/**
 * Checks that `text` is a search returning its own source, once, without its own limit,
 * skip or sort (the export decides those) and without unnesting (which repeats a record).
 * Text that does not parse is left to the engine, which reports it with its position.
 *
 * @example exportPlan('search grants where start_year = 2020 return grants[title]').recordsKey // 'grants'
 */
export function exportPlan(text: string): ExportPlan {
  const query = parse(text);
  if (query.kind !== 'SearchQuery') throw new NotExportable('only a search query has records to export');
  const refuse = (reason: string): never => {
    throw new NotExportable(reason);
  };
  if (query.returns.length !== 1) refuse('it has several return phrases; export one `return SOURCE` at a time');
  const ret = query.returns[0] as ReturnClause;
  if (ret.target.kind !== 'ResultTarget' || ret.target.name.value !== query.source.value)
    refuse(`it returns a facet or a function, not the searched source '${query.source.value}'`);
  if (ret.group !== undefined) refuse('it returns into a group (`return in "..."`)');
  if (ret.limit !== undefined || ret.skip !== undefined)
    refuse('it sets its own limit or skip; an export holds every record the query matches');
  if (ret.sort !== undefined) refuse('it sets its own order; an export is written in record id order');
  if (ret.aggregate !== undefined) refuse('it aggregates; only records are exported');
  if (ret.target.kind === 'ResultTarget' && ret.target.fields?.some((f) => f.kind === 'Unnest'))
    refuse('it unnests a field, which repeats a record; export the records and unnest afterwards');
  return { query, recordsKey: ret.alias?.value ?? query.source.value };
}

/**
 * The text of the chunk after `afterKey` (the first chunk when null), `size` records.
 *
 * @example chunkText(exportPlan('search grants where start_year = 2020 return grants[title]'), 'grant.9', 1000)
 * // 'search grants where start_year = 2020 and id > "grant.9" return grants[title + id] sort by id asc limit 1000'
 */
export function chunkText(plan: ExportPlan, afterKey: string | null, size: number): string {
  const { query } = plan;
  const ret = query.returns[0] as ReturnClause;
  const filter = afterKey === null ? query.filter : andFilter(query.filter, keyAfter(afterKey));
  const fields = ret.target.kind === 'ResultTarget' ? withKey(ret.target.fields) : undefined;
  const target = ret.target.kind === 'ResultTarget' && fields !== undefined ? { ...ret.target, fields } : ret.target;
  const chunk: SearchQuery = {
    ...query,
    ...(filter === undefined ? {} : { filter }),
    returns: [
      {
        ...ret,
        target,
        sort: { kind: 'Sort', key: fieldPath(RECORD_KEY), direction: 'asc', span: NO_SPAN },
        limit: { kind: 'Number', value: size, raw: String(size), integer: true, span: NO_SPAN },
      },
    ],
  };
  return print(chunk);
}

function andFilter(filter: FilterNode | undefined, key: Comparison): FilterNode {
  return filter === undefined ? key : { kind: 'And', operands: [filter, key], span: NO_SPAN };
}

function keyAfter(key: string): Comparison {
  return {
    kind: 'Comparison',
    field: fieldPath(RECORD_KEY),
    op: '>',
    value: { kind: 'String', value: key, triple: false, span: NO_SPAN },
    span: NO_SPAN,
  };
}

/** The field list with the record key in it (no list: the source's default fields, which hold it). */
function withKey(fields: readonly FieldSpec[] | undefined): readonly FieldSpec[] | undefined {
  if (fields === undefined) return undefined;
  const named = fields.some((f) => f.kind === 'FieldRef' && !f.exclude && f.path.path === RECORD_KEY);
  return named ? fields : [...fields, { kind: 'FieldRef', path: fieldPath(RECORD_KEY), exclude: false, span: NO_SPAN }];
}

function fieldPath(name: string) {
  return { kind: 'FieldPath', segments: [name], path: name, span: NO_SPAN } as const;
}
