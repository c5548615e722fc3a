/**
 * The API reference: an OpenAPI 3.1 document that @fastify/swagger generates from the route
 * schemas (`GET /docs/json`), Swagger UI at `/docs` (served compressed, its static files
 * cached), and the language reference pages (`/docs/language`, `/docs/errors`).
 *
 * Only routes with tags are documented: the web pages and their hashed assets have none.
 * The schemas describe; they neither validate nor serialize (see `documentOnly`).
 */
import compress from '@fastify/compress';
import swagger, { type SwaggerTransformObject } from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import { DOCS_THEME } from './docs-theme.ts';
import type { FastifyInstance } from 'fastify';
import type { OpenAPIV3_1 } from 'openapi-types';
import { referencePages } from './reference-pages.ts';

/** The security schemes, by the names the routes' `security` lists use. */
export const SECURITY_SCHEMES = {
  apiKey: {
    type: 'apiKey',
    in: 'query',
    name: 'api_key',
    description: 'Your API key (from the API home page at `/`), exchanged for a token at `GET /v3/token`.',
  },
  bearerToken: {
    type: 'http',
    scheme: 'bearer',
    description:
      'Token-path family: the token `GET /v3/token` (or `/v2/token`) answered, sent as `Authorization: Bearer <token>`.',
  },
  mcpKey: {
    type: 'http',
    scheme: 'bearer',
    description: 'The MCP endpoint: your API key itself (no token), sent as `Authorization: Bearer <API key>`.',
  },
  jwt: {
    type: 'apiKey',
    in: 'header',
    name: 'Authorization',
    description:
      'Auth-path family: the token `POST /api/auth` answered, sent as `Authorization: JWT <token>`. Here, paste the token alone: the page adds the word `JWT`.',
  },
} as const;

/**
 * Swagger UI's own colours fail WCAG AA contrast in places (white on light green method
 * labels, grey links and stamps); these keep its look with darker shades.
 */
const DOCS_CSS = `
.swagger-ui .opblock .opblock-summary-method { color: #fff; text-shadow: none; }
.swagger-ui .opblock.opblock-get .opblock-summary-method { background: #0b4f8a; }
.swagger-ui .opblock.opblock-post .opblock-summary-method { background: #0a6b3d; }
.swagger-ui .opblock.opblock-deprecated { opacity: 1; }
.swagger-ui .opblock.opblock-deprecated .opblock-summary-method { background: #4b5563; }
.swagger-ui .opblock.opblock-deprecated .opblock-summary-path,
.swagger-ui .opblock.opblock-deprecated .opblock-summary-path span,
.swagger-ui .opblock.opblock-deprecated .opblock-summary-description { color: #374151; }
.swagger-ui .info a, .swagger-ui .info .link, .swagger-ui .info__extdocs, .swagger-ui .info .url { color: #0b5cad; }
.swagger-ui .info .title small, .swagger-ui .info .title small pre { background: #374151; color: #fff; }
.swagger-ui .info .title small.version-stamp { background: #0a6b3d; }
.swagger-ui .btn.authorize { color: #0a6b3d; border-color: #0a6b3d; }
.swagger-ui .btn.authorize svg { fill: #0a6b3d; }
.swagger-ui .json-schema-2020-12-expand-deep-button { color: #374151; }
/* One relative server (this service): its picker has nothing to pick, and no label. */
.swagger-ui .schemes-server-container { display: none !important; }
`;

/**
 * Try it out sends the `jwt` scheme's value as the whole `Authorization` header; people paste
 * the token alone (as they do for the Bearer scheme, where Swagger UI adds the word), so
 * the word `JWT` is added when the value has no scheme word. Swagger UI runs this in the
 * page: @fastify/swagger-ui writes the function's source into its initializer script, so it
 * must not refer to anything outside itself.
 */
export function addJwtSchemeWord<R>(request: R): R {
  // Swagger UI's request is a plain object whose `headers` is a plain object too.
  const headers = (request as { headers?: Record<string, unknown> }).headers ?? {};
  const value = headers['Authorization'];
  if (typeof value === 'string' && value.length > 0 && !/^(JWT|Bearer)\s/i.test(value))
    headers['Authorization'] = 'JWT ' + value.trim();
  return request;
}

/** Operations that name no security scheme are public: say so (`security: []`), as OpenAPI linters ask. */
function markPublicOperations(document: Parameters<SwaggerTransformObject>[0]): Partial<OpenAPIV3_1.Document> {
  if (!('openapiObject' in document)) return document.swaggerObject as Partial<OpenAPIV3_1.Document>;
  const openapi = document.openapiObject as Partial<OpenAPIV3_1.Document>;
  for (const item of Object.values(openapi.paths ?? {}))
    for (const method of ['get', 'put', 'post', 'delete', 'patch', 'head', 'options'] as const) {
      const operation = item?.[method];
      if (operation !== undefined && operation.security === undefined) operation.security = [];
    }
  return openapi;
}

/** Static files of Swagger UI: not content-hashed, so cached for a day rather than for good. */
const STATIC_CACHE = 'public, max-age=86400';

/**
 * The API context's schemas document the protocol; the handlers check requests themselves
 * (the raw body under any content type, coded errors with positions) and send their own
 * bodies, so Fastify's validation and response serialization are switched off there.
 */
export function documentOnly(api: FastifyInstance): void {
  api.setValidatorCompiler(() => () => true);
  api.setSerializerCompiler(() => (data) => JSON.stringify(data));
}

/** Registers the document generator; call before any documented route is added (after `ERROR_BODY_SCHEMA`). */
export async function registerOpenApi(app: FastifyInstance, options: { version: string }): Promise<void> {
  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'Quarry',
        version: options.version,
        license: { name: 'MIT', identifier: 'MIT' },
        description:
          'Research-data queries in the DSL over two families of endpoints. ' +
          '**Token-path**: `GET /v3/token?api_key=...` answers a token; send queries to `POST /v3/api/query` with `Authorization: Bearer <token>`. ' +
          '**Auth-path**: `POST /api/auth` with `{"key": "..."}` answers `{"token": "<JWT>"}`; send queries to `POST /api/dsl/v2` with `Authorization: JWT <token>`. ' +
          'The request body of a query is the query text. Every error answers the body `ErrorBody`. ' +
          'The language: [/docs/language](/docs/language); every error code: [/docs/errors](/docs/errors).\n\n' +
          'To try it here: **Authorize** with your API key (`apiKey`), run `GET /v3/token`, copy the token it answers into `bearerToken` under Authorize, then run `POST /v3/api/query`. ' +
          'Under Authorize, paste tokens alone: the page adds `Bearer` or `JWT` itself.',
      },
      tags: [
        {
          name: 'token-path',
          description: '`/v2` (rate-limited per account) and `/v3` (per client address): key → token → Bearer',
        },
        { name: 'auth-path', description: 'Key (or legacy username and password) → JWT; the DSL endpoints' },
        {
          name: 'mcp',
          description:
            'The Model Context Protocol (Streamable HTTP, stateless) for AI assistants: the API key as Bearer, tools for queries, the schema and the analytic functions (docs/mcp.md)',
        },
        { name: 'operations', description: 'Health, readiness and metrics for the operator' },
      ],
      // Relative: the document describes the service that serves it, at whatever address.
      servers: [{ url: '/', description: 'This Quarry service' }],
      components: { securitySchemes: SECURITY_SCHEMES },
      externalDocs: { description: 'The query language', url: '/docs/language' },
    },
    hideUntagged: true,
    transformObject: markPublicOperations,
    refResolver: {
      buildLocalReference: (json, _baseUri, _fragment, i) => (typeof json.$id === 'string' ? json.$id : `def-${i}`),
    },
  });
}

/** Swagger UI at /docs and the language reference pages. */
export async function registerDocsPages(app: FastifyInstance): Promise<void> {
  await app.register(async (docs) => {
    await docs.register(compress, { global: true, encodings: ['br', 'gzip'] });
    docs.addHook('onSend', async (request, reply, payload) => {
      if (request.url.startsWith('/docs/static/')) reply.header('Cache-Control', STATIC_CACHE);
      return payload;
    });
    await docs.register(swaggerUi, {
      routePrefix: '/docs',
      // validatorUrl null: no badge fetched from another host.
      // BaseLayout: no top bar, whose spec-URL box and logo only distract here.
      // deepLinking off: its links sit inside each operation's toggle button, nested controls
      // that screen readers and keyboards cannot use (axe: nested-interactive).
      uiConfig: {
        layout: 'BaseLayout',
        validatorUrl: null,
        tryItOutEnabled: true,
        displayRequestDuration: true,
        deepLinking: false,
        requestInterceptor: addJwtSchemeWord,
      },
      theme: { ...DOCS_THEME, css: [{ filename: 'quarry.css', content: DOCS_CSS }, ...(DOCS_THEME.css ?? [])] },
    });
    await docs.register(referencePages);
  });
}
