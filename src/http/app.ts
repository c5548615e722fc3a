import { randomUUID } from 'node:crypto';
import Fastify, { type FastifyInstance, type FastifyPluginAsync } from 'fastify';
import type { AccountService } from '../accounts/service.ts';
import { systemClock, type Clock } from '../identity/clock.ts';
import { jwtKey } from '../auth/jwt.ts';
import { TokenService } from '../auth/tokens.ts';
import type { QuarryConfig } from '../config.ts';
import type { QueryEngine } from '../engine/types.ts';
import { QuarryError } from '../errors/index.ts';
import { packageVersion } from '../package-root.ts';
import { RateLimiter } from '../ratelimit/limiter.ts';
import type { RateLimitStore } from '../store/rate-limits.ts';
import type { TokenStore } from '../store/tokens.ts';
import type { GroupAdministration } from '../store/organization-groups.ts';
import type { LoginCodeStore, WebStore } from '../store/web.ts';
import type { ServiceContext } from './context.ts';
import { AllowedMethods } from './allowed-methods.ts';
import { clientErrorHandler } from './client-errors.ts';
import { ConnectionGate } from './connection-gate.ts';
import { handleError, sendError } from './error-handler.ts';
import { createMetrics } from './metrics.ts';
import { documentOnly, registerDocsPages, registerOpenApi } from './openapi.ts';
import { ERROR_BODY_SCHEMA } from './route-docs.ts';
import { RECORD_SCHEMAS } from './record-schemas.ts';
import './route-config.ts';
import type { ExportService } from '../exports/export-service.ts';
import { authPathRoutes } from './routes/auth-path.ts';
import { exportRoutes } from './routes/exports.ts';
import { mcpRoutes } from './routes/mcp.ts';
import { operationsRoutes } from './routes/operations.ts';
import { tokenPathRoutes } from './routes/token-path.ts';
import { versionPolicy } from './versions.ts';

/** What the web pages' plugin receives when `build()` registers it. */
export interface WebPluginOptions {
  readonly accounts: AccountService;
  readonly engine: QueryEngine;
  readonly tokens: TokenService;
  readonly config: QuarryConfig;
  readonly clock: Clock;
  /**
   * The API's own context: the console runs queries through the API's query handler and
   * counts sign-ins and queries in the API's rate limiter (one budget per caller).
   */
  readonly service: ServiceContext;
  readonly webStore: WebStore;
  readonly loginCodes: LoginCodeStore;
  /** The organization groups the admin pages define; without it they offer none. */
  readonly groups?: GroupAdministration;
  /**
   * Gives the app the page a browser gets for an unknown address (the API's clients keep
   * getting the JSON error body).
   */
  readonly setNotFoundPage: (render: (path: string) => NotFoundPage) => void;
}

/** A page for an unknown address: its HTML and the headers pages are sent with. */
export interface NotFoundPage {
  readonly html: string;
  readonly headers: Readonly<Record<string, string>>;
}

/** The web pages (API home at `/`, account section, console): a plugin from `src/web/`. */
export type WebPlugin = FastifyPluginAsync<WebPluginOptions>;

export interface AppDeps {
  readonly config: QuarryConfig;
  readonly engine: QueryEngine;
  readonly accounts: AccountService;
  /** Where issued tokens are recorded (the account database). */
  readonly tokenStore: TokenStore;
  readonly clock?: Clock;
  /** Where rate-limit counters live (memory for one instance, Redis for several). */
  readonly rateLimitStore: RateLimitStore;
  /** The web pages' store; required with `web`. */
  readonly webStore?: WebStore;
  /** Login codes; the web store unless a shared store (Redis) holds them. */
  readonly loginCodes?: LoginCodeStore;
  /** Log destination and level; false silences the log (tests). Defaults to stdout at config.logLevel. */
  readonly logger?: false | { readonly level?: string; readonly stream?: NodeJS.WritableStream };
  /** Registered when given and `config.web.enabled`. */
  readonly web?: WebPlugin;
  /** The organization groups, for the web pages' administration (`/admin/groups`). */
  readonly groups?: GroupAdministration;
  /** Why the record database must not be served now (an import that did not finish), or undefined. */
  readonly recordsNotReady?: () => string | undefined;
  /**
   * Bulk exports (docs/exports.md): routed when given and `config.exports.enabled`; started
   * once the app is ready (jobs a stopped process left resume) and closed with the app.
   */
  readonly exports?: ExportService;
}

/** Routes labelled `operations` in the request-duration histogram. */
const OPERATIONS_ROUTES: ReadonlySet<string> = new Set(['/healthz', '/readyz', '/metrics']);

/** Query strings and headers that carry secrets; kept out of every log line. */
function redactUrl(url: string): string {
  return url.replace(/([?&]api_key=)[^&]*/gi, '$1[redacted]');
}

/**
 * Builds the Quarry HTTP app: both protocol families, operations endpoints, OpenAPI docs,
 * and (when given) the web pages. It does not listen; `src/main.ts` does, tests `inject`.
 *
 * @example
 * const app = await build({ config: loadConfig({ env: { QUARRY_JWT_SECRET: randomSecret() } }), engine, accounts, tokenStore, rateLimitStore: new MemoryRateLimitStore(), clock: manualClock('2022-01-01') });
 * const res = await app.inject({ method: 'GET', url: '/healthz' });
 */
export async function build(deps: AppDeps): Promise<FastifyInstance> {
  const { config, engine, accounts } = deps;
  const exports = config.exports.enabled ? deps.exports : undefined;
  // Resolved by the composition root (src/backends.ts) from outside the database, never read from it.
  const jwtSecret = config.tokens.jwtSecret;
  if (jwtSecret === null) throw new Error('build() needs config.tokens.jwtSecret (src/backends.ts resolves it)');
  const clock = deps.clock ?? systemClock;
  const limits = config.http;
  const app = Fastify({
    logger:
      deps.logger === false
        ? false
        : {
            level: deps.logger?.level ?? config.logLevel,
            ...(deps.logger?.stream ? { stream: deps.logger.stream } : {}),
            redact: ['req.headers.authorization'],
            serializers: {
              req: (req: { method: string; url: string; ip?: string }) => ({
                method: req.method,
                url: redactUrl(req.url),
                remoteAddress: req.ip ?? '',
              }),
            },
          },
    genReqId: () => randomUUID(),
    requestIdHeader: false,
    // A number is a hop count; Fastify accepts it at run time though its types do not say so.
    trustProxy: (typeof config.trustProxy === 'string'
      ? config.trustProxy.split(',').map((s) => s.trim())
      : config.trustProxy) as boolean | string[],
    bodyLimit: config.query.maxBytes * 4 + 4096,
    // Fastify's 503 while closing has its own body; a request that reaches the router then
    // is answered normally instead (its connection closes after, see preClose below).
    return503OnClosing: false,
    requestTimeout: limits.requestTimeoutMs,
    keepAliveTimeout: limits.keepAliveTimeoutMs,
    http: {
      headersTimeout: limits.headersTimeoutMs,
      maxHeaderSize: limits.maxHeaderBytes,
      // Node checks the two timeouts on this interval (30 s by default); a tighter one
      // closes a slow client close to its limit rather than up to 30 s after it.
      connectionsCheckingInterval: Math.min(1000, Math.max(50, Math.floor(limits.headersTimeoutMs / 4))),
    },
    clientErrorHandler: clientErrorHandler(limits),
    frameworkErrors: (error, request, reply) => void handleError(error, request, reply),
    // Clients join a base URL and a path by concatenation; a base URL given with a trailing
    // slash yields `//api/auth.json`, which must reach the same route as `/api/auth.json`.
    routerOptions: { ignoreDuplicateSlashes: true },
  });
  // Connections past a cap are answered and closed by the gate; they never reach a route
  // (the gate counts them for /metrics).
  const gate = new ConnectionGate(limits);
  gate.attach(app.server);
  const allowed = new AllowedMethods();
  allowed.track(app);

  const tokens = new TokenService({
    accounts,
    store: deps.tokenStore,
    clock,
    jwtSecret: jwtKey(jwtSecret),
    lifetimeSeconds: { token: config.tokens.tokenPathLifetimeSeconds, auth: config.tokens.authPathLifetimeSeconds },
    contact: config.adminContact,
  });
  const ctx: ServiceContext = {
    config,
    engine,
    accounts,
    tokens,
    clock,
    limiter: new RateLimiter({ store: deps.rateLimitStore, clock }),
    metrics: createMetrics(engine, { connectionsRefused: () => gate.refused }),
    versions: versionPolicy(config.versions),
    recordsNotReady: deps.recordsNotReady ?? ((): undefined => undefined),
  };

  app.decorateRequest('dslVersion', 2);
  app.decorateRequest('principal', null);
  app.decorateRequest('queryText', null);
  app.addHook('onRequest', async (request, reply) => {
    reply.header('X-Request-Id', request.id);
  });
  app.addHook('onResponse', async (request, reply) => {
    const route = request.routeOptions.config?.metricsRoute ?? request.routeOptions.url ?? 'unmatched';
    const status = String(reply.statusCode);
    ctx.metrics.requests.inc({ route, method: request.method, status });
    const family = request.routeOptions.config?.family ?? (OPERATIONS_ROUTES.has(route) ? 'operations' : 'web');
    ctx.metrics.requestDuration.observe({ route, family, status }, reply.elapsedTime / 1000);
  });
  app.setErrorHandler(handleError);
  let notFoundPage: ((path: string) => NotFoundPage) | undefined;
  app.setNotFoundHandler((request, reply) => {
    const path = redactUrl(request.url.split('?')[0] ?? '/');
    const methods = allowed.of(path);
    if (methods.length === 0 && notFoundPage !== undefined && wantsPage(request.method, path, request.headers.accept)) {
      const shown = notFoundPage(path);
      return reply.code(404).headers(shown.headers).type('text/html; charset=utf-8').send(shown.html);
    }
    if (methods.length === 0) {
      return sendError(
        QuarryError.of('SERVICE_ROUTE_NOT_FOUND', { params: { method: request.method, path } }),
        request,
        reply,
      );
    }
    reply.header('Allow', methods.join(', '));
    const params = { method: request.method, path, allowed: methods.join(', ') };
    return sendError(QuarryError.of('SERVICE_METHOD_NOT_ALLOWED', { params }), request, reply);
  });

  // Every error status of the routes' schemas refers to it.
  app.addSchema(ERROR_BODY_SCHEMA);
  // The query answers' record schemas, one per source.
  for (const schema of RECORD_SCHEMAS) app.addSchema(schema);
  if (config.docs.enabled) await registerOpenApi(app, { version: packageVersion() });

  // The API routes read the raw body whatever the Content-Type says (clients rely on it),
  // so they live in their own context with a single catch-all parser; the web pages keep
  // Fastify's normal parsers.
  await app.register(async (api) => {
    api.removeAllContentTypeParsers();
    // Bytes, not a string: decoding here would turn invalid UTF-8 into U+FFFD unseen.
    api.addContentTypeParser('*', { parseAs: 'buffer' }, (_request, body, done) => done(null, body));
    documentOnly(api);
    if (config.families.token) await api.register(tokenPathRoutes, { ctx });
    if (config.families.auth) await api.register(authPathRoutes, { ctx });
    if (exports !== undefined) await api.register(exportRoutes, { ctx, exports });
  });
  // The MCP endpoint reads its body itself (a JSON-RPC message) and counts like the token-path.
  if (config.families.token) await app.register(mcpRoutes, { ctx });
  await app.register(operationsRoutes, { ctx });
  if (config.docs.enabled) await registerDocsPages(app);

  if (deps.web && config.web.enabled) {
    if (!deps.webStore) throw new Error('build(): the web pages need deps.webStore');
    await app.register(deps.web, {
      accounts,
      engine,
      tokens,
      config,
      clock,
      service: ctx,
      webStore: deps.webStore,
      loginCodes: deps.loginCodes ?? deps.webStore,
      ...(deps.groups ? { groups: deps.groups } : {}),
      setNotFoundPage: (render) => {
        notFoundPage = render;
      },
    });
  }

  // Graceful shutdown: once closing starts, answers in flight still go out, but tell
  // keep-alive clients to reconnect elsewhere and drop each connection as soon as it is
  // idle, so close() does not wait for keep-alive timeouts.
  let closing = false;
  app.addHook('preClose', (done) => {
    closing = true;
    app.server.closeIdleConnections();
    done();
  });
  app.addHook('onSend', async (_request, reply) => {
    if (closing) reply.header('Connection', 'close');
  });
  // Expired token records are only history; drop them now and then.
  const purge = setInterval(() => {
    tokens.purgeExpired().catch((error: unknown) => app.log.warn({ err: error }, 'purging expired tokens failed'));
  }, 3600_000);
  purge.unref();
  app.addHook('onClose', async () => {
    clearInterval(purge);
    // Running exports stop after their chunk in flight and resume at the next start.
    await exports?.close();
    await accounts.flushUsage();
  });
  await app.ready();
  await exports?.start(app.log);
  return app;
}

/**
 * Whether an unknown address should get a page rather than the protocol's error body: a
 * browser's navigation (it asks for HTML first) to an address outside the API's families.
 */
function wantsPage(method: string, path: string, accept: string | undefined): boolean {
  if (method !== 'GET' && method !== 'HEAD') return false;
  if (/^\/(api|v\d+)(\/|$)/.test(path)) return false;
  return /^\s*text\/html\b/.test(accept ?? '');
}
