import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { isQuarryError, QuarryError } from '../errors/index.ts';
import { renderErrorBody } from '../errors/index.ts';
import { STATUS_BY_CATEGORY } from './status.ts';

/** A header value safe to quote back: printable ASCII only, at most 100 characters. */
export function quotable(value: string | undefined, fallback: string): string {
  const clean = (value ?? '').replace(/[^\x20-\x7e]/g, '').slice(0, 100);
  return clean === '' ? fallback : clean;
}

/**
 * True once the client has closed its connection: nothing sent now reaches it. A query it
 * left is cancelled (ENGINE_CANCELLED) and a body it stopped sending fails with Node's
 * `aborted` (ECONNRESET); neither is the service's fault.
 */
export function clientClosed(request: FastifyRequest): boolean {
  return request.raw.socket?.destroyed === true;
}

/** One info line, no stack, for a request whose client went away before its answer. */
export function logClientClosed(request: FastifyRequest, code: string): void {
  request.log.info({ route: request.routeOptions.url ?? request.url, code }, 'client closed the connection');
}

/**
 * Turns anything thrown while answering into the protocol's error body (spec/protocol.md §4).
 * QuarryErrors keep their code; Fastify's own client errors (unreadable body, too large,
 * unsupported type, bad URL) get service codes; anything else is a bug: logged in full with
 * the request id, answered with a generic INTERNAL body that holds nothing but that id.
 */
export function toQuarryError(error: unknown, request: FastifyRequest): QuarryError {
  if (isQuarryError(error)) return error;
  const fastifyError = error as Partial<FastifyError>;
  switch (fastifyError.code ?? '') {
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return QuarryError.of('SERVICE_BODY_TOO_LARGE', { params: { max: request.routeOptions.bodyLimit ?? 'the' } });
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return QuarryError.of('SERVICE_MEDIA_TYPE_UNSUPPORTED', {
        params: { contentType: quotable(request.headers['content-type'], '(none)') },
      });
  }
  if (fastifyError.code === 'ECONNRESET' && clientClosed(request)) {
    return QuarryError.of('SERVICE_BAD_REQUEST', { params: { detail: 'the client closed the connection' } });
  }
  if (
    typeof fastifyError.statusCode === 'number' &&
    fastifyError.statusCode >= 400 &&
    fastifyError.statusCode < 500 &&
    typeof fastifyError.code === 'string' &&
    fastifyError.code.startsWith('FST_')
  ) {
    return QuarryError.of('SERVICE_BAD_REQUEST', {
      params: { detail: (fastifyError.message ?? 'malformed request').replace(/\.$/, '') },
    });
  }
  request.log.error({ err: error }, 'unexpected error while answering');
  return QuarryError.of('INTERNAL', { params: { requestId: request.id } }, { cause: error });
}

/** Seconds a 503 asks the client to wait before trying again. */
export const UNAVAILABLE_RETRY_AFTER_SECONDS = 5;

/**
 * Every 429 and 503 tells the client when to retry (spec/protocol.md §4; RFC 9110 §10.2.3):
 * rate limits set their own value first; a service that is starting, closing or without its
 * shared store is asked again after a few seconds rather than at once in a tight loop.
 */
export function setRetryAfter(reply: FastifyReply, status: number): void {
  if (reply.hasHeader('Retry-After')) return;
  if (status === 429) reply.header('Retry-After', '1');
  else if (status === 503) reply.header('Retry-After', String(UNAVAILABLE_RETRY_AFTER_SECONDS));
}

/** The app's error handler, and Fastify's handler for its own framework errors (bad URLs). */
export function handleError(error: unknown, request: FastifyRequest, reply: FastifyReply): FastifyReply {
  return sendError(toQuarryError(error, request), request, reply);
}

/** Sends a QuarryError as the protocol's error body with the status of its category. */
export function sendError(quarryError: QuarryError, request: FastifyRequest, reply: FastifyReply): FastifyReply {
  const status = STATUS_BY_CATEGORY[quarryError.category];
  // Still sent (a no-op on the closed socket) so the request ends and is counted as usual.
  if (clientClosed(request)) logClientClosed(request, quarryError.code);
  else if (status < 500) request.log.info({ code: quarryError.code, status }, 'request refused');
  else if (quarryError.category !== 'internal') request.log.warn({ code: quarryError.code, status }, 'request failed');
  setRetryAfter(reply, status);
  if (status === 401) {
    reply.header(
      'WWW-Authenticate',
      request.routeOptions.config?.family === 'auth' ? 'JWT realm="Quarry"' : 'Bearer realm="Quarry"',
    );
  }
  return reply
    .status(status)
    .type('application/json; charset=utf-8')
    .send(renderErrorBody(quarryError, { dslVersion: request.dslVersion, queryText: request.queryText }));
}
