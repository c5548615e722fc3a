/**
 * A query's own `limit N [skip M]`, taken out so the client can page it: `.export` in the
 * shell exports what the last query showed, and that query usually carries a limit.
 */
import { parse } from '../dsl/index.ts';

export interface OwnWindow {
  /** The text without its `limit ... [skip ...]` (the text as is when it has none or does not parse). */
  readonly text: string;
  readonly limit?: number;
  readonly skip?: number;
}

/**
 * @example
 * withoutOwnWindow('search grants return grants[id] limit 20')
 * // { text: 'search grants return grants[id]', limit: 20 }
 */
export function withoutOwnWindow(text: string): OwnWindow {
  const trimmed = text.replace(/[\s;]+$/, '');
  let query;
  try {
    query = parse(trimmed);
  } catch {
    return { text };
  }
  if (query.kind !== 'SearchQuery' || query.returns.length !== 1) return { text };
  const ret = query.returns[0];
  if (ret?.limit === undefined) return { text };
  // `limit` is the keyword just before its number; `skip M`, when written, follows it.
  const keyword = /limit\s*$/i.exec(trimmed.slice(0, ret.limit.span.start));
  if (keyword === null) return { text };
  const end = Math.max(ret.limit.span.end, ret.skip?.span.end ?? 0);
  return {
    text: `${trimmed.slice(0, keyword.index).trimEnd()}${trimmed.slice(end)}`,
    limit: ret.limit.value,
    ...(ret.skip === undefined ? {} : { skip: ret.skip.value }),
  };
}
