/**
 * Changes the console makes to the query text: a filter added from a clicked bar, and the
 * query without its own `limit`/`skip` for paging and "export all". Both read the query with
 * the language's own parser and edit the text at the parsed spans, so the rest of the
 * query (layout, comments of whitespace) stays as the user wrote it.
 */
import { parse } from '../../dsl/parse.ts';
import type { Query, SearchQuery } from '../../dsl/ast.ts';
import { MAX_DEPTH, pageablePlan } from '../../client/paging.ts';
import { PAGING } from '../../schema/paging-limits.ts';

function searchQuery(text: string): SearchQuery | undefined {
  let query: Query;
  try {
    query = parse(text);
  } catch {
    return undefined;
  }
  return query.kind === 'SearchQuery' ? query : undefined;
}

/** A facet value as a filter value: numbers as they are, text quoted. */
function literal(value: string | number): string {
  return typeof value === 'number' ? String(value) : `"${value.replace(/[\\"]/g, (ch) => `\\${ch}`)}"`;
}

/**
 * The query with `field = value` added to its filter (`and` with what is there; an `or`
 * filter is put in parentheses first). Entity facets filter on their id (`funders.id = "grid.1"`).
 * Undefined when the text is not a search query.
 *
 * @example
 * withFilter('search publications return year', 'year', 2020, false)
 * // 'search publications where year = 2020 return year'
 */
export function withFilter(text: string, field: string, value: string | number, isEntity: boolean): string | undefined {
  const query = searchQuery(text);
  if (!query) return undefined;
  const condition = `${isEntity ? `${field}.id` : field} = ${literal(value)}`;
  const { filter } = query;
  if (filter) {
    const current = text.slice(filter.span.start, filter.span.end);
    const combined = filter.kind === 'Or' ? `(${current}) and ${condition}` : `${current} and ${condition}`;
    return text.slice(0, filter.span.start) + combined + text.slice(filter.span.end);
  }
  const at = query.returns[0]?.span.start ?? text.length;
  return `${text.slice(0, at)}where ${condition}\n${text.slice(at)}`;
}

/**
 * The query without the `limit N [skip M]` of its only return phrase, so the console can
 * page through it or export all of it (the client library's `pageablePlan` refuses a query
 * with its own limit). Without a limit to remove, the text comes back only trimmed.
 *
 * @example withoutPaging('search grants return grants limit 10 skip 20') // 'search grants return grants'
 */
export function withoutPaging(input: string): string {
  const text = input.replace(/[\s;]+$/, '');
  const query = searchQuery(text);
  const ret = query?.returns.length === 1 ? query.returns[0] : undefined;
  if (!ret?.limit) return text;
  const keyword = /\blimit\s*$/i.exec(text.slice(0, ret.limit.span.start));
  if (!keyword) return text;
  const end = (ret.skip ?? ret.limit).span.end;
  return (text.slice(0, keyword.index) + text.slice(end)).replace(/\s+$/, '');
}

/**
 * A broader version of a query that found nothing: without its `where` filter, or, when it
 * has none, without its full-text clause. Undefined when there is nothing to drop.
 *
 * @example broader('search grants where start_year = 1800 return grants') // 'search grants return grants'
 */
export function broader(text: string): string | undefined {
  const query = searchQuery(text);
  if (!query) return undefined;
  let start: number;
  let end: number;
  if (query.filter) {
    const keyword = /\bwhere[\s(]*$/i.exec(text.slice(0, query.filter.span.start));
    if (!keyword) return undefined;
    start = keyword.index;
    end = query.filter.span.end + (/^[\s)]*/.exec(text.slice(query.filter.span.end))?.[0].length ?? 0);
  } else if (query.fullText) {
    ({ start, end } = query.fullText.span);
  } else return undefined;
  const before = text.slice(0, start).replace(/\s+$/, '');
  const after = text.slice(end).replace(/^\s+/, '');
  return `${before}${after.startsWith('return') ? '\n' : ' '}${after}`;
}

/**
 * The same records query one page forward (`direction` 1) or back (-1): its limit kept
 * (20 when it has none, the service's default), its skip moved by one page. Undefined when
 * the query cannot be paged (a facet, several returns) or there is no page that way.
 *
 * @example nextPage('search grants return grants limit 10', 1) // 'search grants return grants limit 10 skip 10'
 */
export function nextPage(text: string, direction: 1 | -1): string | undefined {
  const base = withoutPaging(text);
  try {
    if (pageablePlan(base).recordsKey === undefined) return undefined;
  } catch {
    return undefined;
  }
  const ret = searchQuery(text)?.returns[0];
  const limit = ret?.limit?.value ?? PAGING.defaultLimit;
  const skip = (ret?.skip?.value ?? 0) + direction * limit;
  if (skip < 0 || skip + limit > MAX_DEPTH) return undefined;
  return `${base} limit ${limit}${skip > 0 ? ` skip ${skip}` : ''}`;
}
