/**
 * A result cache in front of any QueryEngine (SQLite, PostgreSQL): the JSON text of a
 * successful result, keyed by the normalised query text, the language version, what the
 * caller may see (its sources) and the data's import epoch. A repeated query is answered
 * from memory without parsing, queueing or SQL. The epoch is read for every query, so an
 * import (which advances it) makes every older entry unreachable at once; they are dropped
 * when the epoch is seen to change. Memory is bounded by the total size of the cached texts.
 */
import { performance } from 'node:perf_hooks';
import { LRUCache } from 'lru-cache';
import { outcomeFromJson } from './outcome.ts';
import type { QueryEngine, QueryLabels, QueryOptions, QueryOutcome } from './types.ts';

export interface ResultCacheOptions {
  /** The most result text kept, in bytes (UTF-16 code units × 2, what the strings occupy). */
  readonly maxBytes: number;
  /** A result larger than this is not kept (default: an eighth of `maxBytes`). */
  readonly maxEntryBytes?: number;
  /**
   * The data's import epoch: any value that changes whenever the records change (the SQLite
   * store advances `store_meta.data_epoch` with every write transaction).
   */
  readonly epoch: () => string | Promise<string>;
}

export interface ResultCacheStats {
  readonly hits: number;
  readonly misses: number;
  readonly entries: number;
  readonly bytes: number;
  readonly maxBytes: number;
}

/** A QueryEngine with a result cache in front; `cacheStats` feeds `/metrics`. */
export interface CachingQueryEngine extends QueryEngine {
  cacheStats(): ResultCacheStats;
  /** Drops every entry (the next epoch check would too; this frees the memory at once). */
  invalidate(): void;
}

interface Entry {
  readonly json: string;
  /** Set when the result's warnings point at positions in the text: then only the exact text may reuse it. */
  readonly exactText?: string;
  /** The engine's labels of the query that made it, so a hit is counted under the same source and result kind. */
  readonly labels?: QueryLabels;
}

/**
 * @example
 * const sqlite = createSqliteEngine({ dbPath });
 * const engine = withResultCache(sqlite, { maxBytes: 64 * 2 ** 20, epoch: () => sqlite.dataEpoch() });
 */
export function withResultCache(engine: QueryEngine, options: ResultCacheOptions): CachingQueryEngine {
  const maxEntry = options.maxEntryBytes ?? Math.floor(options.maxBytes / 8);
  const cache = new LRUCache<string, Entry>({
    maxSize: Math.max(1, options.maxBytes),
    sizeCalculation: (entry) => Math.max(1, entry.json.length * 2),
  });
  let currentEpoch: string | undefined;
  let hits = 0;
  let misses = 0;
  return {
    async run(text: string, queryOptions: QueryOptions): Promise<QueryOutcome> {
      // A background chunk is asked for once: keeping it would only push out interactive results.
      if (queryOptions.background === true || queryOptions.countMatches === false)
        return engine.run(text, queryOptions);
      const t0 = performance.now();
      const epoch = await options.epoch();
      if (epoch !== currentEpoch) {
        // The data changed: nothing kept can be asked for again.
        cache.clear();
        currentEpoch = epoch;
      }
      const key = cacheKey(text, queryOptions, epoch);
      const found = cache.get(key);
      if (found !== undefined && (found.exactText === undefined || found.exactText === text)) {
        hits++;
        const labels: QueryLabels | undefined = found.labels && { ...found.labels, cost: 'cached' };
        return outcomeFromJson(found.json, { parseMs: performance.now() - t0, executeMs: 0 }, labels);
      }
      misses++;
      const outcome = await engine.run(text, queryOptions);
      const json = outcome.json;
      if (json.length * 2 <= maxEntry) {
        // Warnings carry positions in the text as written; a differently spaced text must not get them.
        const positioned = json.includes('"_warnings"');
        const labels = outcome.labels === undefined ? {} : { labels: outcome.labels };
        cache.set(key, positioned ? { json, exactText: text, ...labels } : { json, ...labels });
      }
      return outcome;
    },
    ready: () => engine.ready(),
    queueDepth: () => engine.queueDepth(),
    ...(engine.load ? { load: engine.load.bind(engine) } : {}),
    ...(engine.dataEpoch ? { dataEpoch: engine.dataEpoch.bind(engine) } : {}),
    close: () => engine.close(),
    cacheStats: () => ({ hits, misses, entries: cache.size, bytes: cache.calculatedSize, maxBytes: options.maxBytes }),
    invalidate: () => cache.clear(),
  };
}

/**
 * The key: everything that decides a result besides the data, which the epoch stands for.
 * What a query may read depends on the entitled sources as a set (validation refuses a
 * source, a linked source's fields or a `describe` outside it, and `describe schema` lists
 * only it), so the set is written so that two different sets never share a key.
 */
function cacheKey(text: string, options: QueryOptions, epoch: string): string {
  const sources = options.permissions?.sources;
  const entitled = sources === undefined ? '*' : JSON.stringify([...new Set(sources)].sort());
  return `${epoch}\u0000${options.dslVersion}\u0000${entitled}\u0000${normaliseQueryText(text)}`;
}

/**
 * The query with runs of whitespace between tokens made one space and the ends trimmed, so
 * layout does not split the cache. Strings are copied as written: `"..."` (with `\`
 * escapes) and `"""..."""` (verbatim up to the first `"""`), as the lexer reads them.
 *
 * @example normaliseQueryText('search  publications\n  for "a  b"  return year') // 'search publications for "a  b" return year'
 */
export function normaliseQueryText(text: string): string {
  let out = '';
  let space = false;
  let i = 0;
  while (i < text.length) {
    const ch = text[i] as string;
    if (SPACE.has(ch)) {
      space = out.length > 0;
      i++;
      continue;
    }
    if (space) out += ' ';
    space = false;
    const end = ch === '"' ? stringEnd(text, i) : i + 1;
    out += text.slice(i, end);
    i = end;
  }
  return out;
}

/** The lexer's whitespace. */
const SPACE = new Set([' ', '\t', '\n', '\r', '\v', '\f']);

/** The index just past the string literal starting at `start` (the text's end if unterminated). */
function stringEnd(text: string, start: number): number {
  if (text.startsWith('"""', start)) {
    const close = text.indexOf('"""', start + 3);
    return close < 0 ? text.length : close + 3;
  }
  let i = start + 1;
  while (i < text.length) {
    const ch = text[i];
    if (ch === '\\') i += 2;
    else if (ch === '"') return i + 1;
    else i++;
  }
  return text.length;
}
