import { DEFAULT_RETRY, type RetryPolicy } from './backoff.ts';
import { QuarryClientError } from './errors.ts';
import { MAX_DEPTH, MAX_PAGE_SIZE, pageablePlan, pageText, type PageablePlan } from './paging.ts';
import {
  METADATA_KEYS,
  type DescribedSchema,
  type DescribedSource,
  type QueryResult,
  type QuarryRecord,
  type SearchResult,
  type SourceName,
  type SourceRecords,
  type VersionInfo,
} from './records.ts';
import { exportAll, type ServerExportOptions, type ServerExportReport } from './server-export.ts';
import { Session, type Credentials } from './session.ts';
import { Transport, type ClientEvent } from './transport.ts';

/** Where and how to log in: an API key, or (auth family) a legacy username and password. */
export type ConnectTarget = { readonly url: string } & Credentials;

export interface ConnectOptions {
  /** `auth`: POST /api/auth then /api/dsl/vN with `JWT`; `token`: GET /v3/token then /v3/api/query with `Bearer`. Default `auth`. */
  readonly family?: 'auth' | 'token';
  /** DSL version; default 2. Version 1 is offered by the auth family only. */
  readonly dslVersion?: 1 | 2;
  /** Token family: `v3` (default, limited per client address) or `v2` (per account). */
  readonly tokenPathVersion?: 'v2' | 'v3';
  /** Retry settings; missing fields keep `DEFAULT_RETRY`. */
  readonly retry?: Partial<RetryPolicy>;
  /** Sees logins, re-logins, 429 waits, retries and pages as they happen. */
  readonly onEvent?: (event: ClientEvent) => void;
  /** Replaceable for tests. */
  readonly fetch?: typeof fetch;
  readonly sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
  readonly random?: () => number;
}

/** What to do when a result is deeper than the service pages (skip + limit ≤ 50,000). */
export type DepthLimitAction = 'error' | 'stop';

export interface IterateOptions {
  /** Records per request, 1–1000; default 1000. */
  readonly pageSize?: number;
  /** Stop after this many records. */
  readonly maxRecords?: number;
  /** Start at this offset (to continue an interrupted export); default 0. */
  readonly startAt?: number;
  readonly signal?: AbortSignal;
  /**
   * At the depth limit the records up to it are delivered either way; then `error` (the
   * default) throws CLIENT_DEPTH_LIMIT_REACHED, `stop` ends quietly and says so in `summary`.
   */
  readonly onDepthLimit?: DepthLimitAction;
}

/** One page as it came. */
export interface Page<T> {
  readonly records: readonly T[];
  readonly skip: number;
  readonly limit: number;
  /** `_stats.total_count` of this page's answer. */
  readonly total: number | undefined;
  /** The offset of the next page. */
  readonly nextSkip: number;
  readonly warnings: readonly string[];
}

/** How a paging run went; filled in as it goes, final once the iteration ends. */
export interface PagingSummary {
  records: number;
  pages: number;
  total: number | undefined;
  /** `total`: every matching record was read; `end`: the service sent a short page; `max_records`; `depth_limit`. */
  stoppedBy: 'total' | 'end' | 'max_records' | 'depth_limit' | undefined;
  /** Distinct `_warnings` the service sent. */
  warnings: string[];
}

/** An async iterable of records with a running summary; `pages()` gives whole pages instead. Consume it once. */
export interface RecordStream<T> extends AsyncIterable<T> {
  readonly summary: PagingSummary;
  pages(): AsyncGenerator<Page<T>, void, undefined>;
}

/**
 * A search over one source, for the typed overloads: a text starting `search publications `
 * gives `Publication` records. (Other texts give plain records; name the type to narrow
 * them: `client.iterate<Publication>(text)`.)
 */
type SearchText<S extends SourceName> = `search ${S} ${string}`;

/**
 * What a client sends queries through: a `Session` with a service, or anything else that
 * answers query text with the service's result (the command line's `--db` runs queries on
 * a local database, and pages them with the same code).
 */
export interface QueryChannel {
  login(signal?: AbortSignal): Promise<unknown>;
  post(text: string, signal?: AbortSignal): Promise<unknown>;
}

/**
 * A connection to a Quarry (or compatible) service. Logs in on first use, logs in again
 * once when the token expires, waits out 429s, retries passing failures, and pages.
 */
export class QuarryClient {
  readonly #session: QueryChannel;
  readonly #events: Pick<Transport, 'emit'>;

  constructor(session: QueryChannel, events: Pick<Transport, 'emit'>) {
    this.#session = session;
    this.#events = events;
  }

  /** Logs in now instead of on the first query (to check credentials early). */
  async login(signal?: AbortSignal): Promise<void> {
    await this.#session.login(signal);
  }

  /**
   * Runs one query and returns the service's JSON result.
   *
   * @example
   * const r = await client.query('search publications for "machine learning" return publications[id + title] limit 5');
   * r.publications[0]?.title; r._stats?.total_count;
   */
  query<S extends SourceName>(text: SearchText<S>, options?: { signal?: AbortSignal }): Promise<SearchResult<S>>;
  query(text: string, options?: { signal?: AbortSignal }): Promise<QueryResult>;
  async query(text: string, options: { signal?: AbortSignal } = {}): Promise<QueryResult> {
    return (await this.#session.post(text, options.signal)) as QueryResult;
  }

  /**
   * `describe version | schema | source NAME | entity NAME`.
   *
   * @example const schema = await client.describe('schema'); Object.keys(schema.sources)
   */
  describe(target: 'version', name?: undefined, options?: { signal?: AbortSignal }): Promise<VersionInfo>;
  describe(target: 'schema', name?: undefined, options?: { signal?: AbortSignal }): Promise<DescribedSchema>;
  describe(
    target: 'source' | 'entity',
    name: string,
    options?: { signal?: AbortSignal },
  ): Promise<DescribedSource & QueryResult>;
  async describe(
    target: 'version' | 'schema' | 'source' | 'entity',
    name?: string,
    options: { signal?: AbortSignal } = {},
  ): Promise<unknown> {
    if ((target === 'source' || target === 'entity') && (name === undefined || !/^\w+$/.test(name))) {
      throw QuarryClientError.client('CLIENT_OPTION_INVALID', {
        option: 'name',
        reason: `describe ${target} needs a ${target} name such as 'publications'`,
      });
    }
    return this.#session.post(name === undefined ? `describe ${target}` : `describe ${target} ${name}`, options.signal);
  }

  /**
   * Every record of a search, page by page: appends `limit N skip M` to the query, stops
   * exactly at `_stats.total_count` (or `maxRecords`), and at the service's depth limit
   * (skip + limit ≤ 50,000) delivers what is reachable and then says so (see
   * `onDepthLimit`). The query must have one `return SOURCE` phrase and no limit/skip.
   *
   * @example
   * const stream = client.iterate('search grants where start_year = 2020 return grants[id + title]', { pageSize: 500 });
   * for await (const grant of stream) console.log(grant.id);
   * stream.summary; // { records: 1234, total: 1234, stoppedBy: 'total', ... }
   */
  iterate<S extends SourceName>(text: SearchText<S>, options?: IterateOptions): RecordStream<SourceRecords[S]>;
  iterate<T = QuarryRecord>(text: string, options?: IterateOptions): RecordStream<T>;
  iterate<T = QuarryRecord>(text: string, options: IterateOptions = {}): RecordStream<T> {
    const plan = pageablePlan(text);
    const settings = checkIterateOptions(options);
    const summary: PagingSummary = { records: 0, pages: 0, total: undefined, stoppedBy: undefined, warnings: [] };
    const pages = () => this.#pages<T>(plan, settings, summary, options.signal);
    return {
      summary,
      pages,
      async *[Symbol.asyncIterator]() {
        for await (const page of pages()) yield* page.records;
      },
    };
  }

  /**
   * Every record of a search into `options.file`, through the service's bulk export (no
   * 50,000-record window): submits the job, reports its progress, downloads the file. Only a
   * client of a service can (a local `--db` channel pages instead).
   *
   * @example await client.exportAll('search publications return publications[id + title]', { file: 'all.jsonl.gz' });
   */
  async exportAll(text: string, options: ServerExportOptions): Promise<ServerExportReport> {
    if (!(this.#session instanceof Session)) throw QuarryClientError.client('CLIENT_EXPORT_NEEDS_SERVICE');
    return exportAll(this.#session, text, options);
  }

  /**
   * All records of a search in one array (through `iterate`).
   *
   * @example const orgs = await client.all('search organizations where country_name = "Japan" return organizations');
   */
  all<S extends SourceName>(text: SearchText<S>, options?: IterateOptions): Promise<Array<SourceRecords[S]>>;
  all<T = QuarryRecord>(text: string, options?: IterateOptions): Promise<T[]>;
  async all<T = QuarryRecord>(text: string, options: IterateOptions = {}): Promise<T[]> {
    const records: T[] = [];
    for await (const record of this.iterate<T>(text, options)) records.push(record);
    return records;
  }

  async *#pages<T>(
    plan: PageablePlan,
    settings: Required<Pick<IterateOptions, 'pageSize' | 'startAt' | 'onDepthLimit'>> & { maxRecords: number },
    summary: PagingSummary,
    signal?: AbortSignal,
  ): AsyncGenerator<Page<T>, void, undefined> {
    let skip = settings.startAt;
    for (;;) {
      const remaining = settings.maxRecords - summary.records;
      const limit = Math.min(settings.pageSize, MAX_DEPTH - skip, remaining);
      if (remaining <= 0) {
        summary.stoppedBy = 'max_records';
        return;
      }
      if (limit <= 0) break;
      const result = (await this.#session.post(pageText(plan, limit, skip), signal)) as QueryResult;
      const rows = recordsOf(result, plan.recordsKey);
      const total = typeof result._stats?.total_count === 'number' ? result._stats.total_count : undefined;
      const records = (rows.length > remaining ? rows.slice(0, remaining) : rows) as readonly T[];
      for (const warning of result._warnings ?? [])
        if (!summary.warnings.includes(warning)) summary.warnings.push(warning);
      summary.total = total;
      summary.pages++;
      summary.records += records.length;
      // `limit` counts source records (a page of unnested rows can be longer), so the next
      // page starts `limit` further on whatever the number of rows.
      const nextSkip = skip + limit;
      this.#events.emit({ kind: 'page', skip, limit, records: records.length, total });
      yield { records, skip, limit, total, nextSkip, warnings: result._warnings ?? [] };
      skip = nextSkip;
      if (summary.records >= settings.maxRecords) {
        summary.stoppedBy = 'max_records';
        return;
      }
      if (total !== undefined ? skip >= total : rows.length < limit) {
        summary.stoppedBy = total !== undefined ? 'total' : 'end';
        return;
      }
      if (rows.length === 0) {
        // The service says there is more but sends nothing: the data changed under us.
        summary.stoppedBy = 'end';
        return;
      }
    }
    // Out of depth with records left.
    summary.stoppedBy = 'depth_limit';
    const warning = `Stopped at the depth limit: ${summary.records} of ${summary.total ?? 'more'} records read (skip + limit ≤ ${MAX_DEPTH}).`;
    summary.warnings.push(warning);
    if (settings.onDepthLimit === 'error') {
      throw QuarryClientError.client('CLIENT_DEPTH_LIMIT_REACHED', {
        done: skip,
        total: summary.total ?? 'more',
        maxDepth: MAX_DEPTH,
      });
    }
  }
}

function checkIterateOptions(
  options: IterateOptions,
): Required<Pick<IterateOptions, 'pageSize' | 'startAt' | 'onDepthLimit'>> & { maxRecords: number } {
  const pageSize = options.pageSize ?? MAX_PAGE_SIZE;
  const invalid = (option: string, reason: string) =>
    QuarryClientError.client('CLIENT_OPTION_INVALID', { option, reason });
  if (!Number.isInteger(pageSize) || pageSize < 1 || pageSize > MAX_PAGE_SIZE)
    throw invalid('pageSize', `${pageSize} is not a whole number from 1 to ${MAX_PAGE_SIZE}`);
  const maxRecords = options.maxRecords ?? Number.POSITIVE_INFINITY;
  if (maxRecords !== Number.POSITIVE_INFINITY && (!Number.isInteger(maxRecords) || maxRecords < 0))
    throw invalid('maxRecords', `${maxRecords} is not a whole number of 0 or more`);
  const startAt = options.startAt ?? 0;
  if (!Number.isInteger(startAt) || startAt < 0 || startAt > MAX_DEPTH)
    throw invalid('startAt', `${startAt} is not a whole number from 0 to ${MAX_DEPTH}`);
  return { pageSize, maxRecords, startAt, onDepthLimit: options.onDepthLimit ?? 'error' };
}

/** The records of a page: under the expected key, or the one array in the result. */
function recordsOf(result: QueryResult, key: string | undefined): readonly unknown[] {
  if (key !== undefined && Array.isArray(result[key])) return result[key] as unknown[];
  const arrays = Object.keys(result).filter((k) => !METADATA_KEYS.has(k) && Array.isArray(result[k]));
  if (arrays.length === 1) return result[arrays[0] as string] as unknown[];
  throw QuarryClientError.client('CLIENT_BAD_RESPONSE', {
    url: 'the query endpoint',
    status: 200,
    reason: `expected one list of records${key ? ` under '${key}'` : ''}, found ${arrays.length === 0 ? 'none' : arrays.join(', ')}`,
  });
}

/**
 * Connects to a Quarry service (nothing is sent until the first query or `login()`).
 *
 * @example
 * const client = connect({ url: 'http://127.0.0.1:8080', key: process.env.QUARRY_KEY! }, { family: 'auth', dslVersion: 2 });
 * for await (const pub of client.iterate('search publications where year = 2020 return publications[id + doi]')) console.log(pub.doi);
 */
export function connect(target: ConnectTarget, options: ConnectOptions = {}): QuarryClient {
  const transport = new Transport({
    retry: { ...DEFAULT_RETRY, ...options.retry },
    ...(options.fetch ? { fetch: options.fetch } : {}),
    ...(options.sleep ? { sleep: options.sleep } : {}),
    ...(options.random ? { random: options.random } : {}),
    ...(options.onEvent ? { onEvent: options.onEvent } : {}),
  });
  const credentials: Credentials =
    'key' in target ? { key: target.key } : { username: target.username, password: target.password };
  const session = new Session(transport, {
    url: target.url,
    family: options.family ?? 'auth',
    credentials,
    dslVersion: options.dslVersion ?? 2,
    tokenPathVersion: options.tokenPathVersion ?? 'v3',
  });
  return new QuarryClient(session, transport);
}
