/**
 * `POST /mcp`: the MCP Streamable HTTP transport with Quarry's tools (src/mcp/tools.ts).
 *
 * Stateless: each request gets a new server and transport (no `sessionIdGenerator`),
 * so any instance behind a load balancer answers any request and nothing is kept between
 * them. The transport then has no stream of its own to offer on `GET` (nor a session to end
 * with `DELETE`): both answer 405, as the transport allows.
 *
 * The caller presents the API key itself (`Authorization: Bearer <key>`), checked on every
 * request by the lookup `GET /v2/token?api_key=` makes; a missing or refused key is answered
 * at the HTTP level (401/403) with a JSON-RPC error body an MCP client shows. Each tool call
 * counts against the `tokenV2` rule per account, like a token-path query; a refusal comes
 * back as a tool error carrying the wait (see docs/mcp.md for why).
 */
import { performance } from 'node:perf_hooks';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import type { FastifyPluginCallback, FastifyReply, FastifyRequest } from 'fastify';
import type { Principal } from '../../auth/principal.ts';
import { isQuarryError, QuarryError, renderErrorBody } from '../../errors/index.ts';
import { quarryMcpServer, type QuarryBackend } from '../../mcp/tools.ts';
import { packageVersion } from '../../package-root.ts';
import type { ServiceContext } from '../context.ts';
import { setRetryAfter, toQuarryError } from '../error-handler.ts';
import { countToken } from '../metrics.ts';
import { documentOnly } from '../openapi.ts';
import { bearerOf } from '../query-text.ts';
import { countAgainstLimit } from '../rate-limit.ts';
import { runForPrincipal } from '../run-query.ts';
import { STATUS_BY_CATEGORY } from '../status.ts';

/** JSON-RPC codes of the errors answered before the MCP server sees the request. */
const PARSE_ERROR = -32700;
/** The implementation-defined server-error range; the SDK uses -32000 for its own refusals. */
const REFUSED = -32001;

/** A JSON-RPC error response with no id: what MCP clients show for a refused HTTP request. */
function rpcError(code: number, message: string, data?: unknown): Record<string, unknown> {
  return { jsonrpc: '2.0', error: { code, message, ...(data === undefined ? {} : { data }) }, id: null };
}

/** Answers a QuarryError with its category's status, the JSON-RPC error body, and Quarry's error body as its data. */
function refuse(error: QuarryError, request: FastifyRequest, reply: FastifyReply): FastifyReply {
  const status = STATUS_BY_CATEGORY[error.category];
  request.log.info({ code: error.code, status }, 'MCP request refused');
  setRetryAfter(reply, status);
  if (status === 401) reply.header('WWW-Authenticate', 'Bearer realm="Quarry"');
  const body = renderErrorBody(error, { dslVersion: 2 });
  return reply
    .status(status)
    .type('application/json; charset=utf-8')
    .send(rpcError(REFUSED, `${body.error.message} [${error.code}]`, body));
}

/** The principal behind the presented API key, or a 401/403 refusal. */
async function principalOf(ctx: ServiceContext, request: FastifyRequest): Promise<Principal> {
  const key = bearerOf(request.headers.authorization, 'Bearer');
  if (key === undefined) throw QuarryError.of('SERVICE_MCP_KEY_MISSING');
  return countToken(ctx.metrics, 'token', 'check', ctx.tokens.principalForKey(key, 'token'));
}

/** The tools' queries for one caller: the query endpoint's entitlements, limits, time limit and metrics. */
function serviceBackend(ctx: ServiceContext, request: FastifyRequest, principal: Principal): QuarryBackend {
  return {
    async admit() {
      const verdict = await countAgainstLimit(ctx, 'tokenV2', principal, request.ip);
      if (verdict.refusal) throw verdict.refusal;
      ctx.accounts.recordUsage(principal.accountId, { requests: 1 });
    },
    async query(text, signal) {
      const started = performance.now();
      try {
        const outcome = await runForPrincipal(ctx, {
          text,
          dslVersion: 2,
          principal,
          log: request.log,
          ...(signal ? { signal } : {}),
        });
        const { source, result, cost = 'none' } = outcome.labels ?? { source: 'unknown', result: 'unknown' };
        ctx.metrics.queryDuration.observe(
          { family: 'token', source, result, cost, outcome: 'ok' },
          (performance.now() - started) / 1000,
        );
        return outcome.result;
      } catch (error) {
        const category = isQuarryError(error) ? error.category : 'internal';
        ctx.metrics.queryDuration.observe(
          { family: 'token', source: 'unknown', result: 'unknown', cost: 'unknown', outcome: category },
          (performance.now() - started) / 1000,
        );
        throw error;
      }
    },
    unexpected: (error) => toQuarryError(error, request),
  };
}

/** The body as JSON, or undefined when it is not JSON. */
function jsonBody(body: unknown): { value: unknown } | undefined {
  if (!Buffer.isBuffer(body)) return undefined;
  try {
    return { value: JSON.parse(body.toString('utf8')) as unknown };
  } catch {
    return undefined;
  }
}

/** A JSON-RPC error body, as the MCP endpoint answers a refused request. */
const RPC_ERROR_SCHEMA = {
  type: 'object',
  required: ['jsonrpc', 'error', 'id'],
  properties: {
    jsonrpc: { const: '2.0' },
    error: {
      type: 'object',
      required: ['code', 'message'],
      properties: {
        code: { type: 'integer', description: '-32001 for a refusal by Quarry, -32700 for a body that is not JSON' },
        message: { type: 'string', description: "The service's message with its code in brackets" },
        data: { $ref: 'ErrorBody#', description: "Quarry's error body" },
      },
    },
    id: { type: 'null' },
  },
} as const;

const rpcErrorResponse = (description: string, headers: Record<string, unknown> = {}) => ({
  description,
  headers,
  content: { 'application/json': { schema: RPC_ERROR_SCHEMA } },
});

/** The OpenAPI description of `POST /mcp` (the MCP messages themselves are the protocol's). */
const MCP_ROUTE_SCHEMA = {
  tags: ['mcp'],
  operationId: 'mcp',
  summary: 'Send an MCP message (Streamable HTTP transport, stateless)',
  description:
    'One JSON-RPC message of the Model Context Protocol (initialize, tools/list, tools/call, ...); send `Accept: application/json, text/event-stream`. ' +
    'The answer is an event stream carrying the response. Tool failures (bad queries, rate limits, time limits) are tool results with `isError: true`; ' +
    'only a missing or refused key is answered with an HTTP error. `GET` and `DELETE` answer 405: the server keeps no sessions. See docs/mcp.md.',
  security: [{ mcpKey: [] }],
  body: {
    type: 'object',
    required: ['jsonrpc', 'method'],
    properties: { jsonrpc: { const: '2.0' }, id: { type: ['string', 'integer'] }, method: { type: 'string' } },
    examples: [
      {
        jsonrpc: '2.0',
        id: 1,
        method: 'tools/call',
        params: { name: 'run_query', arguments: { query: 'search grants return grants limit 5' } },
      },
    ],
  },
  response: {
    200: {
      description: 'The JSON-RPC response, as a server-sent event',
      content: { 'text/event-stream': { schema: { type: 'string' } } },
    },
    400: rpcErrorResponse('The body is not a JSON-RPC message'),
    401: rpcErrorResponse('No key, or a key that is unknown, revoked or expired', {
      'WWW-Authenticate': { type: 'string', description: '`Bearer realm="Quarry"`' },
    }),
    403: rpcErrorResponse('The account is pending, suspended, closed or not subscribed to the token-path family'),
    429: rpcErrorResponse('Too many failed authentications from this address', {
      'Retry-After': { type: 'integer', description: 'Seconds to wait before retrying' },
    }),
  },
} as const;

export const mcpRoutes: FastifyPluginCallback<{ ctx: ServiceContext }> = (app, { ctx }, done) => {
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', { parseAs: 'buffer' }, (_request, body, done) => done(null, body));

  documentOnly(app);
  app.post('/mcp', { config: { family: 'token' }, schema: MCP_ROUTE_SCHEMA }, async (request, reply) => {
    let principal: Principal;
    try {
      principal = await principalOf(ctx, request);
    } catch (error) {
      // Failed authentications are counted per client address, as on the query endpoints.
      const verdict = await countAgainstLimit(ctx, 'tokenV2', null, request.ip);
      reply.headers(verdict.headers);
      return refuse(verdict.refusal ?? toQuarryError(error, request), request, reply);
    }
    request.principal = principal;
    const body = jsonBody(request.body);
    if (body === undefined)
      return reply.status(400).send(rpcError(PARSE_ERROR, 'Parse error: the body is not a JSON-RPC message.'));

    const server = quarryMcpServer(serviceBackend(ctx, request, principal), packageVersion());
    const transport = new StreamableHTTPServerTransport({});
    reply.raw.once('close', () => {
      void transport.close();
      void server.close();
    });
    await server.connect(transport);
    // From here the transport writes the answer (JSON or an event stream) itself.
    void reply.hijack();
    await transport.handleRequest(request.raw, reply.raw, body.value);
    return reply;
  });

  // A stateless server has no stream to open on GET and no session to end on DELETE.
  const notAllowed = async (_request: FastifyRequest, reply: FastifyReply) =>
    reply
      .status(405)
      .header('Allow', 'POST')
      .send(rpcError(-32000, 'Method not allowed: this MCP server is stateless; send messages with POST.'));
  app.get('/mcp', { config: { family: 'token' } }, notAllowed);
  app.delete('/mcp', { config: { family: 'token' } }, notAllowed);
  done();
};
