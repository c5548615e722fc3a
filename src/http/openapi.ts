/**
 * The API reference: an OpenAPI 3.1 document that @fastify/swagger generates from the route
 * schemas (`GET /docs/json`), Swagger UI at `/docs` (served compressed, its static files
 * cached), and the language reference pages (`/docs/language`, `/docs/errors`).
 *
 * Only routes with tags are documented: the web pages and their hashed assets have none.
 * The schemas describe; they neither validate nor serialize (see `documentOnly`).
 */
import compress from '@fastify/compress';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import { DOCS_THEME } from './docs-theme.ts';
import type { FastifyInstance } from 'fastify';
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
  jwt: {
    type: 'apiKey',
    in: 'header',
    name: 'Authorization',
    description:
      'Auth-path family: `JWT <token>` with the token `POST /api/auth` answered (type the word JWT, a space, then the token).',
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
`;

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
        description:
          'Research-data queries in the DSL over two families of endpoints. ' +
          '**Token-path**: `GET /v3/token?api_key=...` answers a token; send queries to `POST /v3/api/query` with `Authorization: Bearer <token>`. ' +
          '**Auth-path**: `POST /api/auth` with `{"key": "..."}` answers `{"token": "<JWT>"}`; send queries to `POST /api/dsl/v2` with `Authorization: JWT <token>`. ' +
          'The request body of a query is the query text. Every error answers the body `ErrorBody`. ' +
          'The language: [/docs/language](/docs/language); every error code: [/docs/errors](/docs/errors).\n\n' +
          'To try it here: **Authorize** with your API key (`apiKey`), run `GET /v3/token`, copy the token it answers into `bearerToken` under Authorize, then run `POST /v3/api/query`.',
      },
      tags: [
        {
          name: 'token-path',
          description: '`/v2` (rate-limited per account) and `/v3` (per client address): key → token → Bearer',
        },
        { name: 'auth-path', description: 'Key (or legacy username and password) → JWT; the DSL endpoints' },
        { name: 'operations', description: 'Health, readiness and metrics for the operator' },
      ],
      components: { securitySchemes: SECURITY_SCHEMES },
      externalDocs: { description: 'The query language', url: '/docs/language' },
    },
    hideUntagged: true,
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
      },
      theme: { ...DOCS_THEME, css: [{ filename: 'quarry.css', content: DOCS_CSS }, ...(DOCS_THEME.css ?? [])] },
    });
    await docs.register(referencePages);
  });
}
