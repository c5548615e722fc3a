/**
 * The next page of a records query, for run_query's `_next_page`: the same text with the
 * next `skip`. Only a search whose one return phrase returns the searched source has pages
 * (facets take no skip); the limit and skip the text gives are kept or rewritten in place,
 * so everything else the agent wrote stays as it wrote it.
 */
import { parse, type Query } from '../dsl/index.ts';

/** The service's paging limits (spec/dsl.md §2). */
const DEFAULT_LIMIT = 20;
const MAX_DEPTH = 50_000;

/**
 * The query text of the next page, or undefined when there is none (the last page, a query
 * without pages, the depth limit reached, or text this build cannot read).
 *
 * @example
 * nextPageQuery('search grants return grants limit 10', { grants: [...], _stats: { total_count: 25 } })
 * // 'search grants return grants limit 10 skip 10'
 */
export function nextPageQuery(text: string, result: Readonly<Record<string, unknown>>): string | undefined {
  // A trailing `;` (which clients strip) is kept as written, after the rewritten text.
  const base = text.replace(/[\s;]+$/, '');
  const tail = text.slice(base.length);
  let query: Query;
  try {
    query = parse(base);
  } catch {
    return undefined;
  }
  if (query.kind !== 'SearchQuery' || query.returns.length !== 1) return undefined;
  const ret = query.returns[0];
  if (ret === undefined || ret.group !== undefined) return undefined;
  if (ret.target.kind !== 'ResultTarget' || ret.target.name.value !== query.source.value) return undefined;
  const stats = result._stats as { total_count?: unknown } | undefined;
  const total = typeof stats?.total_count === 'number' ? stats.total_count : undefined;
  if (total === undefined) return undefined;
  const limit = ret.limit?.value ?? DEFAULT_LIMIT;
  const skip = ret.skip?.value ?? 0;
  const nextSkip = skip + limit;
  if (limit <= 0 || nextSkip >= total || nextSkip >= MAX_DEPTH) return undefined;
  const nextLimit = Math.min(limit, MAX_DEPTH - nextSkip);
  if (ret.skip !== undefined && ret.limit !== undefined && nextLimit === limit)
    return `${base.slice(0, ret.skip.span.start)}${nextSkip}${base.slice(ret.skip.span.end)}${tail}`;
  if (ret.limit !== undefined) {
    const end = (ret.skip ?? ret.limit).span.end;
    return `${base.slice(0, ret.limit.span.start)}${nextLimit} skip ${nextSkip}${base.slice(end)}${tail}`;
  }
  return `${base} limit ${nextLimit} skip ${nextSkip}${tail}`;
}
