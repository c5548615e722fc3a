import { parse, type Query } from '../dsl/index.ts';
import { QuarryClientError } from './errors.ts';

/** The service's paging limits (spec/protocol.md §5). */
export const MAX_PAGE_SIZE = 1000;
export const MAX_DEPTH = 50_000;

/** What the client knows about a query it pages through. */
export interface PageablePlan {
  /** The query without trailing whitespace or `;`, ready for ` limit N skip M`. */
  readonly base: string;
  /** The result key the records come under (the source, or the `as` alias); undefined when the text could not be read here. */
  readonly recordsKey: string | undefined;
}

/**
 * Checks that a query can be paged by appending `limit N skip M`: a search whose only
 * return phrase returns the searched source, without a limit or skip of its own. Text this
 * build cannot parse is passed on as is: the service reports the error with its position
 * (appending at the end leaves every position as it was).
 *
 * @example
 * pageablePlan('search grants where start_year = 2020 return grants[id + title];')
 * // { base: 'search grants where start_year = 2020 return grants[id + title]', recordsKey: 'grants' }
 */
export function pageablePlan(text: string): PageablePlan {
  const base = text.replace(/[\s;]+$/, '');
  let query: Query;
  try {
    query = parse(base);
  } catch {
    return { base, recordsKey: undefined };
  }
  const refuse = (reason: string): never => {
    throw QuarryClientError.client('CLIENT_NOT_PAGEABLE', { reason });
  };
  if (query.kind !== 'SearchQuery')
    return refuse(
      `only search queries have pages, not ${query.kind === 'DescribeQuery' ? 'describe' : 'function calls'}`,
    );
  if (query.returns.length !== 1)
    return refuse('it has several return phrases; page through one `return SOURCE` at a time');
  const ret = query.returns[0];
  if (ret === undefined) return refuse('it has no return phrase');
  if (ret.target.kind !== 'ResultTarget' || ret.target.name.value !== query.source.value) {
    return refuse(
      `it returns a facet or a function, not the searched source '${query.source.value}' (facets have no skip)`,
    );
  }
  if (ret.group !== undefined) return refuse('it returns into a group (`return in "..."`)');
  if (ret.limit !== undefined || ret.skip !== undefined)
    return refuse('it sets its own limit or skip; leave them out, the client adds them page by page');
  return { base, recordsKey: ret.alias?.value ?? query.source.value };
}

/** The text of one page. */
export function pageText(plan: PageablePlan, limit: number, skip: number): string {
  return `${plan.base} limit ${limit} skip ${skip}`;
}
