import { readFileSync } from 'node:fs';
import { defaultFacetColumnsMb } from './facet-columns-budget.ts';
import { problem, QuarryError, type Problem } from './errors/index.ts';

/** One rate limit: `max` requests per `windowSeconds`, counted per account or per client IP. */
export interface RateLimitSetting {
  readonly max: number;
  readonly windowSeconds: number;
  readonly scope: 'account' | 'ip';
}

/** Transport limits (docs/operations.md, "Timeouts and connection caps"). */
export interface HttpLimits {
  /** The request line and headers must arrive within this time (408 after it). */
  readonly headersTimeoutMs: number;
  /** The whole request, body included, must arrive within this time (408 after it). */
  readonly requestTimeoutMs: number;
  /** An idle keep-alive connection is closed after this time. */
  readonly keepAliveTimeoutMs: number;
  /** Larger header blocks answer 431. */
  readonly maxHeaderBytes: number;
  /** Open connections at once; past it, new connections answer 503. */
  readonly maxConnections: number;
  /** Open connections at once from one peer address; past it, 429. */
  readonly maxConnectionsPerIp: number;
}

/** Quarry's whole configuration; defaults follow spec/protocol.md. */
export interface QuarryConfig {
  /**
   * Where records and accounts live: a SQLite file path, or a PostgreSQL URL
   * (`postgres://user@host:5432/quarry` or `postgresql://...`). `src/backends.ts` opens it.
   */
  readonly database: string;
  /** PostgreSQL read replicas (URLs) that take queries; writes always go to `database`. */
  readonly readUrls: readonly string[];
  /** The earlier name of `database`, kept as an alias: it always equals `database`. */
  readonly db: string;
  readonly host: string;
  readonly port: number;
  /** Whether X-Forwarded-For is believed: false, true, a hop count, or a comma-separated list of proxy addresses. */
  readonly trustProxy: boolean | number | string;
  readonly logLevel: 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent';
  /** Who users should contact about their account; appears in 403 messages. */
  readonly adminContact: string;
  readonly families: { readonly token: boolean; readonly auth: boolean };
  readonly query: {
    readonly timeoutMs: number;
    readonly maxBytes: number;
    /** Engine worker threads; 0 lets the engine choose. */
    readonly workers: number;
    /** Memory for cached results (repeated identical queries answered without SQL), in MiB; 0 switches the cache off. */
    readonly cacheMb: number;
    /** SQLite page cache of all query workers together, in MiB (each worker gets its share). */
    readonly pageCacheMb: number;
    /** Memory-mapped reads of all query workers together, in MiB (0: none). */
    readonly mmapMb: number;
    /**
     * In-memory link facet columns of all query workers together, in MiB (0: every facet in SQL);
     * default an eighth of the machine's memory, 256 MiB to 4 GiB (`defaultFacetColumnsMb`).
     */
    readonly facetColumnsMb: number;
    /** Queries one account may have running or waiting at once; past it, 429 with Retry-After. */
    readonly maxPerPrincipal: number;
    /** Estimated rows touched above which a query runs in the expensive lane. */
    readonly cheapRowLimit: number;
  };
  readonly tokens: {
    readonly tokenPathLifetimeSeconds: number;
    readonly authPathLifetimeSeconds: number;
    /**
     * HS256 secret for auth-path JWTs. Null: read from `jwtSecretFile`, else (SQLite only) from
     * `<db>.jwt-secret`, made on first start. Never kept in the database: PostgreSQL
     * deployments must set this or `jwtSecretFile`, the same on every instance.
     */
    readonly jwtSecret: string | null;
    /** A file holding the HS256 secret (first line, at least 32 characters); read, never created. */
    readonly jwtSecretFile: string | null;
  };
  readonly rateLimits: {
    readonly enabled: boolean;
    /** Query requests on `/v2/api/query`. */
    readonly tokenV2: RateLimitSetting;
    /** Query requests on `/v3/api/query`. */
    readonly tokenV3: RateLimitSetting;
    /** Query requests on `/api/dsl*`. */
    readonly authPath: RateLimitSetting;
    /** `/v2/token`, `/v3/token`, `/api/auth`, `/api/auth.json`. */
    readonly authentication: RateLimitSetting;
  };
  readonly versions: {
    /** From this instant `/api/dsl` and `/api/dsl.json` run DSL v2 (before it, v1). */
    readonly aliasToV2From: string;
    /** From this instant `/api/dsl/v1` answers 410; null keeps v1 forever. */
    readonly v1RemovedFrom: string | null;
    /** Where the v1 → v2 migration notes are (Link header on v1 responses). */
    readonly migrationNotes: string;
  };
  readonly web: { readonly enabled: boolean };
  /** Bulk exports past the 50,000-record window (docs/exports.md). */
  readonly exports: {
    readonly enabled: boolean;
    /**
     * Where export files are written; null: `<database>.exports/` beside a SQLite file,
     * `./data/exports` for PostgreSQL. Instances that share a PostgreSQL database must share it too.
     */
    readonly dir: string | null;
    /** Hours a finished export (its file and its job) is kept before it is deleted. */
    readonly retentionHours: number;
    /** Exports one account may have queued or running at once; past it, 429 with Retry-After. */
    readonly maxPerAccount: number;
    /** Exports this instance runs at once (the others wait queued). */
    readonly maxRunning: number;
    /** Records per chunk: each chunk is one query of the engine (at most 1000, the page limit). */
    readonly chunkRecords: number;
  };
  /** OpenAPI document and its UI at /docs. */
  readonly docs: { readonly enabled: boolean };
  /** Limits on connections and on how slowly a client may send, so slow or idle clients cannot hold the server. */
  readonly http: HttpLimits;
  /**
   * A Redis server (`redis://host:6379/0` or `rediss://...`) shared by several instances for
   * rate-limit counters, web sessions and login codes; null keeps them in this process (and
   * sessions and codes in the database).
   */
  readonly redisUrl: string | null;
  /** Starts every Redis key Quarry writes, so deployments can share one Redis. */
  readonly redisKeyPrefix: string;
}

export const DEFAULT_CONFIG: QuarryConfig = {
  database: './data/quarry.db',
  readUrls: [],
  db: './data/quarry.db',
  host: '127.0.0.1',
  port: 8080,
  trustProxy: false,
  logLevel: 'info',
  adminContact: 'the administrator of this Quarry service',
  families: { token: true, auth: true },
  query: {
    timeoutMs: 30_000,
    maxBytes: 64 * 1024,
    workers: 0,
    cacheMb: 64,
    pageCacheMb: 256,
    mmapMb: 512,
    facetColumnsMb: defaultFacetColumnsMb(),
    maxPerPrincipal: 4,
    cheapRowLimit: 20_000,
  },
  tokens: { tokenPathLifetimeSeconds: 7200, authPathLifetimeSeconds: 7200, jwtSecret: null, jwtSecretFile: null },
  rateLimits: {
    enabled: true,
    tokenV2: { max: 30, windowSeconds: 60, scope: 'account' },
    tokenV3: { max: 30, windowSeconds: 60, scope: 'ip' },
    authPath: { max: 30, windowSeconds: 60, scope: 'ip' },
    authentication: { max: 30, windowSeconds: 60, scope: 'ip' },
  },
  versions: {
    aliasToV2From: '2021-12-01T00:00:00Z',
    v1RemovedFrom: '2022-04-01T00:00:00Z',
    migrationNotes: '/docs/language#version-1-and-version-2',
  },
  web: { enabled: true },
  exports: { enabled: true, dir: null, retentionHours: 24, maxPerAccount: 2, maxRunning: 1, chunkRecords: 1000 },
  docs: { enabled: true },
  http: {
    headersTimeoutMs: 10_000,
    requestTimeoutMs: 30_000,
    // Longer than the idle timeout of common proxies (60 s), so they never reuse a socket we just closed.
    keepAliveTimeoutMs: 72_000,
    maxHeaderBytes: 16_384,
    maxConnections: 1_000,
    maxConnectionsPerIp: 100,
  },
  redisUrl: null,
  redisKeyPrefix: 'quarry:',
};

export type DeepPartial<T> = {
  -readonly [K in keyof T]?: T[K] extends readonly unknown[]
    ? T[K] | undefined
    : T[K] extends object
      ? DeepPartial<T[K]> | undefined
      : T[K] | undefined;
};

/**
 * The environment variables Quarry reads, and where each goes. Values are strings; they are
 * converted and checked like the file's values.
 */
export const ENV_VARIABLES: Readonly<
  Record<string, { path: string; kind: 'string' | 'number' | 'boolean' | 'trust' | 'families' | 'date' | 'list' }>
> = {
  QUARRY_DB: { path: 'database', kind: 'string' },
  // Later entries win: the URL form is what hosting platforms set.
  QUARRY_DATABASE_URL: { path: 'database', kind: 'string' },
  QUARRY_READ_URLS: { path: 'readUrls', kind: 'list' },
  QUARRY_HOST: { path: 'host', kind: 'string' },
  QUARRY_PORT: { path: 'port', kind: 'number' },
  QUARRY_TRUST_PROXY: { path: 'trustProxy', kind: 'trust' },
  QUARRY_LOG_LEVEL: { path: 'logLevel', kind: 'string' },
  QUARRY_ADMIN_CONTACT: { path: 'adminContact', kind: 'string' },
  QUARRY_FAMILIES: { path: 'families', kind: 'families' },
  QUARRY_QUERY_TIMEOUT_MS: { path: 'query.timeoutMs', kind: 'number' },
  QUARRY_QUERY_WORKERS: { path: 'query.workers', kind: 'number' },
  QUARRY_QUERY_CACHE_MB: { path: 'query.cacheMb', kind: 'number' },
  QUARRY_QUERY_PAGE_CACHE_MB: { path: 'query.pageCacheMb', kind: 'number' },
  QUARRY_QUERY_MMAP_MB: { path: 'query.mmapMb', kind: 'number' },
  QUARRY_QUERY_FACET_COLUMNS_MB: { path: 'query.facetColumnsMb', kind: 'number' },
  QUARRY_QUERY_MAX_PER_PRINCIPAL: { path: 'query.maxPerPrincipal', kind: 'number' },
  QUARRY_QUERY_CHEAP_ROW_LIMIT: { path: 'query.cheapRowLimit', kind: 'number' },
  QUARRY_TOKEN_LIFETIME_SECONDS: {
    path: 'tokens.tokenPathLifetimeSeconds,tokens.authPathLifetimeSeconds',
    kind: 'number',
  },
  QUARRY_JWT_SECRET: { path: 'tokens.jwtSecret', kind: 'string' },
  QUARRY_JWT_SECRET_FILE: { path: 'tokens.jwtSecretFile', kind: 'string' },
  QUARRY_RATE_LIMITS: { path: 'rateLimits.enabled', kind: 'boolean' },
  QUARRY_ALIAS_TO_V2_FROM: { path: 'versions.aliasToV2From', kind: 'date' },
  QUARRY_V1_REMOVED_FROM: { path: 'versions.v1RemovedFrom', kind: 'date' },
  QUARRY_WEB: { path: 'web.enabled', kind: 'boolean' },
  QUARRY_DOCS: { path: 'docs.enabled', kind: 'boolean' },
  QUARRY_EXPORTS: { path: 'exports.enabled', kind: 'boolean' },
  QUARRY_EXPORT_DIR: { path: 'exports.dir', kind: 'string' },
  QUARRY_EXPORT_RETENTION_HOURS: { path: 'exports.retentionHours', kind: 'number' },
  QUARRY_EXPORT_MAX_PER_ACCOUNT: { path: 'exports.maxPerAccount', kind: 'number' },
  QUARRY_EXPORT_MAX_RUNNING: { path: 'exports.maxRunning', kind: 'number' },
  QUARRY_EXPORT_CHUNK_RECORDS: { path: 'exports.chunkRecords', kind: 'number' },
  QUARRY_REDIS_URL: { path: 'redisUrl', kind: 'string' },
  QUARRY_HTTP_HEADERS_TIMEOUT_MS: { path: 'http.headersTimeoutMs', kind: 'number' },
  QUARRY_HTTP_REQUEST_TIMEOUT_MS: { path: 'http.requestTimeoutMs', kind: 'number' },
  QUARRY_HTTP_KEEP_ALIVE_TIMEOUT_MS: { path: 'http.keepAliveTimeoutMs', kind: 'number' },
  QUARRY_HTTP_MAX_HEADER_BYTES: { path: 'http.maxHeaderBytes', kind: 'number' },
  QUARRY_HTTP_MAX_CONNECTIONS: { path: 'http.maxConnections', kind: 'number' },
  QUARRY_HTTP_MAX_CONNECTIONS_PER_IP: { path: 'http.maxConnectionsPerIp', kind: 'number' },
  QUARRY_REDIS_KEY_PREFIX: { path: 'redisKeyPrefix', kind: 'string' },
};

/**
 * Builds the configuration from defaults, then a JSON file, then QUARRY_* environment
 * variables, then explicit overrides (command-line flags), and checks every value. All
 * problems are reported at once as SERVICE_CONFIG_INVALID.
 *
 * @example loadConfig({ file: 'quarry.json', env: process.env, overrides: { port: 9000 } })
 */
export function loadConfig(
  options: {
    file?: string | undefined;
    env?: Readonly<Record<string, string | undefined>>;
    overrides?: DeepPartial<QuarryConfig>;
  } = {},
): QuarryConfig {
  const problems: Problem[] = [];
  const bad = (detail: string) => problems.push(problem('SERVICE_CONFIG_INVALID', { params: { detail } }));
  let merged: Record<string, unknown> = structuredClone(DEFAULT_CONFIG) as unknown as Record<string, unknown>;
  if (options.file !== undefined) {
    let parsed: unknown;
    try {
      parsed = JSON.parse(readFileSync(options.file, 'utf8'));
    } catch (error) {
      bad(
        `the file ${options.file} could not be read as JSON (${error instanceof Error ? error.message : String(error)})`,
      );
    }
    if (parsed !== undefined) {
      if (!isPlainObject(parsed)) bad(`the file ${options.file} must hold a JSON object`);
      else merged = deepMerge(merged, databaseAlias(parsed, `the file ${options.file}`, bad), '', bad);
    }
  }
  for (const [name, { path, kind }] of Object.entries(ENV_VARIABLES)) {
    const raw = options.env?.[name];
    if (raw === undefined || raw === '') continue;
    const value = fromEnv(raw, kind);
    if (value === undefined) {
      bad(
        `${name}=${JSON.stringify(raw)} is not a valid ${kind === 'trust' ? 'trust setting (true, false, a hop count or addresses)' : kind}`,
      );
      continue;
    }
    for (const p of path.split(',')) setPath(merged, p, value);
  }
  if (options.overrides) merged = deepMerge(merged, databaseAlias(options.overrides, 'the overrides', bad), '', bad);
  merged.db = merged.database;
  const config = merged as unknown as QuarryConfig;
  check(config, bad);
  if (problems.length > 0) throw new QuarryError(problems);
  return config;
}

function check(c: QuarryConfig, bad: (detail: string) => void): void {
  const nonEmpty = (v: unknown, name: string) =>
    (typeof v === 'string' && v.trim() !== '') || bad(`${name} must be a non-empty string`);
  const int = (v: unknown, name: string, min: number, max = Number.MAX_SAFE_INTEGER) =>
    (Number.isInteger(v) && (v as number) >= min && (v as number) <= max) ||
    bad(`${name} must be a whole number from ${min} to ${max}`);
  const bool = (v: unknown, name: string) => typeof v === 'boolean' || bad(`${name} must be true or false`);
  const date = (v: unknown, name: string) =>
    (typeof v === 'string' && !Number.isNaN(Date.parse(v))) ||
    bad(`${name} must be a date such as 2022-04-01 or 2022-04-01T00:00:00Z`);
  if (nonEmpty(c.database, 'database') === true) {
    const scheme = /^([a-z][a-z0-9+.-]*):\/\//i.exec(c.database)?.[1]?.toLowerCase();
    if (scheme !== undefined && !isPostgresUrl(c.database))
      bad(`database must be a file path or a postgres:// URL; ${scheme}:// is not a database Quarry opens`);
  }
  if (!Array.isArray(c.readUrls)) bad('readUrls must be a list of postgres:// URLs');
  else {
    for (const url of c.readUrls as unknown[])
      if (typeof url !== 'string' || !isPostgresUrl(url))
        bad(`readUrls: ${JSON.stringify(url)} is not a postgres:// URL`);
    if (c.readUrls.length > 0 && typeof c.database === 'string' && !isPostgresUrl(c.database))
      bad('readUrls (read replicas) need a PostgreSQL database; database is a SQLite file');
  }
  nonEmpty(c.host, 'host');
  int(c.port, 'port', 0, 65535);
  if (!(
    typeof c.trustProxy === 'boolean' ||
    (Number.isInteger(c.trustProxy) && (c.trustProxy as number) >= 0) ||
    (typeof c.trustProxy === 'string' && c.trustProxy.trim() !== '')
  )) {
    bad('trustProxy must be true, false, a hop count, or a comma-separated list of proxy addresses');
  }
  if (!['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'].includes(c.logLevel))
    bad('logLevel must be one of fatal, error, warn, info, debug, trace, silent');
  nonEmpty(c.adminContact, 'adminContact');
  bool(c.families?.token, 'families.token');
  bool(c.families?.auth, 'families.auth');
  int(c.query?.timeoutMs, 'query.timeoutMs', 1);
  int(c.query?.maxBytes, 'query.maxBytes', 16, 16 * 1024 * 1024);
  int(c.query?.workers, 'query.workers', 0, 256);
  int(c.query?.cacheMb, 'query.cacheMb', 0, 1024 * 1024);
  int(c.query?.pageCacheMb, 'query.pageCacheMb', 1, 1024 * 1024);
  int(c.query?.mmapMb, 'query.mmapMb', 0, 1024 * 1024);
  int(c.query?.facetColumnsMb, 'query.facetColumnsMb', 0, 1024 * 1024);
  int(c.query?.maxPerPrincipal, 'query.maxPerPrincipal', 1, 10_000);
  int(c.query?.cheapRowLimit, 'query.cheapRowLimit', 1);
  bool(c.exports?.enabled, 'exports.enabled');
  if (c.exports?.dir !== null) nonEmpty(c.exports?.dir, 'exports.dir');
  int(c.exports?.retentionHours, 'exports.retentionHours', 1, 24 * 365);
  int(c.exports?.maxPerAccount, 'exports.maxPerAccount', 1, 1000);
  int(c.exports?.maxRunning, 'exports.maxRunning', 1, 64);
  int(c.exports?.chunkRecords, 'exports.chunkRecords', 1, 1000);
  int(c.tokens?.tokenPathLifetimeSeconds, 'tokens.tokenPathLifetimeSeconds', 1);
  int(c.tokens?.authPathLifetimeSeconds, 'tokens.authPathLifetimeSeconds', 1);
  if (c.tokens?.jwtSecret !== null && (typeof c.tokens?.jwtSecret !== 'string' || c.tokens.jwtSecret.length < 32)) {
    bad('tokens.jwtSecret must be null (read from tokens.jwtSecretFile) or a string of at least 32 characters');
  }
  if (c.tokens?.jwtSecretFile !== null) {
    if (nonEmpty(c.tokens?.jwtSecretFile, 'tokens.jwtSecretFile') === true && c.tokens.jwtSecret !== null)
      bad('set tokens.jwtSecret (QUARRY_JWT_SECRET) or tokens.jwtSecretFile (QUARRY_JWT_SECRET_FILE), not both');
  }
  bool(c.rateLimits?.enabled, 'rateLimits.enabled');
  for (const family of ['tokenV2', 'tokenV3', 'authPath', 'authentication'] as const) {
    const r = c.rateLimits?.[family];
    int(r?.max, `rateLimits.${family}.max`, 1);
    int(r?.windowSeconds, `rateLimits.${family}.windowSeconds`, 1, 86_400);
    if (r?.scope !== 'account' && r?.scope !== 'ip') bad(`rateLimits.${family}.scope must be "account" or "ip"`);
  }
  if (c.rateLimits?.authentication?.scope === 'account')
    bad('rateLimits.authentication.scope must be "ip": the caller is not known before authenticating');
  date(c.versions?.aliasToV2From, 'versions.aliasToV2From');
  if (c.versions?.v1RemovedFrom !== null) date(c.versions?.v1RemovedFrom, 'versions.v1RemovedFrom');
  nonEmpty(c.versions?.migrationNotes, 'versions.migrationNotes');
  bool(c.web?.enabled, 'web.enabled');
  bool(c.docs?.enabled, 'docs.enabled');
  checkHttpLimits(c.http, int, bad);
  if (c.redisUrl !== null && !(typeof c.redisUrl === 'string' && isUrlOf(c.redisUrl, ['redis:', 'rediss:'])))
    bad('redisUrl must be null or a redis:// (or rediss://) URL such as redis://127.0.0.1:6379/0');
  nonEmpty(c.redisKeyPrefix, 'redisKeyPrefix');
}

/** True for a parseable `postgres://` or `postgresql://` URL. */
/**
 * Where export files go: `exports.dir`, else beside a SQLite database (`<file>.exports/`),
 * else `./data/exports` (PostgreSQL).
 *
 * @example exportDirOf(loadConfig({ env: { QUARRY_DATABASE: '/srv/q.db' } })) // '/srv/q.db.exports'
 */
export function exportDirOf(config: QuarryConfig): string {
  if (config.exports.dir !== null) return config.exports.dir;
  return isPostgresUrl(config.database) ? './data/exports' : `${config.database}.exports`;
}

export function isPostgresUrl(value: string): boolean {
  return isUrlOf(value, ['postgres:', 'postgresql:']);
}

function isUrlOf(value: string, protocols: readonly string[]): boolean {
  if (!URL.canParse(value)) return false;
  return protocols.includes(new URL(value).protocol.toLowerCase());
}

/**
 * `db` is the earlier name of `database`: a layer (file or overrides) that gives `db` means
 * `database`. Giving both in one layer is refused rather than guessed.
 */
function databaseAlias(
  layer: Record<string, unknown>,
  where: string,
  bad: (detail: string) => void,
): Record<string, unknown> {
  if (layer.db === undefined) return layer;
  const { db, ...rest } = layer;
  if (rest.database !== undefined) {
    bad(`${where} gives both database and db (its earlier name); keep database`);
    return rest;
  }
  return { ...rest, database: db };
}

function checkHttpLimits(
  h: HttpLimits | undefined,
  int: (v: unknown, name: string, min: number, max?: number) => unknown,
  bad: (detail: string) => void,
): void {
  int(h?.headersTimeoutMs, 'http.headersTimeoutMs', 100, 3_600_000);
  int(h?.requestTimeoutMs, 'http.requestTimeoutMs', 100, 3_600_000);
  int(h?.keepAliveTimeoutMs, 'http.keepAliveTimeoutMs', 100, 3_600_000);
  int(h?.maxHeaderBytes, 'http.maxHeaderBytes', 1024, 1024 * 1024);
  int(h?.maxConnections, 'http.maxConnections', 1, 1_000_000);
  int(h?.maxConnectionsPerIp, 'http.maxConnectionsPerIp', 1, 1_000_000);
  // Node refuses a header limit longer than the whole-request limit.
  if (h && h.headersTimeoutMs > h.requestTimeoutMs)
    bad('http.headersTimeoutMs must not be longer than http.requestTimeoutMs (the whole request includes its headers)');
  if (h && h.maxConnectionsPerIp > h.maxConnections)
    bad('http.maxConnectionsPerIp must not be larger than http.maxConnections');
}

function fromEnv(raw: string, kind: (typeof ENV_VARIABLES)[string]['kind']): unknown {
  const lower = raw.trim().toLowerCase();
  switch (kind) {
    case 'string':
      return raw;
    case 'number':
      return /^-?\d+$/.test(raw.trim()) ? Number(raw) : undefined;
    case 'boolean':
      return ['1', 'true', 'on', 'yes'].includes(lower)
        ? true
        : ['0', 'false', 'off', 'no'].includes(lower)
          ? false
          : undefined;
    case 'trust':
      if (lower === 'true' || lower === 'false') return lower === 'true';
      return /^\d+$/.test(lower) ? Number(lower) : raw.trim();
    case 'families': {
      const list = lower
        .split(',')
        .map((s) => s.trim())
        .filter(Boolean);
      if (list.some((f) => f !== 'token' && f !== 'auth')) return undefined;
      return { token: list.includes('token'), auth: list.includes('auth') };
    }
    case 'list':
      return raw
        .split(',')
        .map((s) => s.trim())
        .filter((s) => s !== '');
    case 'date':
      return lower === 'never' ? null : Number.isNaN(Date.parse(raw)) ? undefined : raw.trim();
  }
}

function isPlainObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** Merges `over` into `base`; unknown keys are reported (a typo must not be silently ignored). */
function deepMerge(
  base: Record<string, unknown>,
  over: Record<string, unknown>,
  prefix: string,
  bad: (d: string) => void,
): Record<string, unknown> {
  const out: Record<string, unknown> = { ...base };
  for (const [key, value] of Object.entries(over)) {
    if (value === undefined) continue;
    const name = prefix + key;
    if (!Object.hasOwn(base, key)) {
      bad(`${name} is not a setting Quarry knows`);
      continue;
    }
    const current = base[key];
    if (name === 'versions.v1RemovedFrom' && value === 'never') out[key] = null;
    else if (isPlainObject(current) && isPlainObject(value)) out[key] = deepMerge(current, value, `${name}.`, bad);
    else out[key] = value;
  }
  return out;
}

function setPath(target: Record<string, unknown>, path: string, value: unknown): void {
  const parts = path.split('.');
  let node = target;
  for (const part of parts.slice(0, -1)) node = node[part] as Record<string, unknown>;
  node[parts[parts.length - 1] as string] = value;
}
