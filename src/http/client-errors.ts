import { STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';
import type { FastifyBaseLogger } from 'fastify';
import { QuarryError, renderErrorBody } from '../errors/index.ts';
import { STATUS_BY_CATEGORY } from './status.ts';

export interface ClientErrorLimits {
  readonly headersTimeoutMs: number;
  readonly requestTimeoutMs: number;
  readonly maxHeaderBytes: number;
}

/**
 * The error Node's HTTP parser or its timers raised on a connection, as a QuarryError:
 * a request not received in time (408), headers too large (431), or bytes that are not
 * HTTP (400). Undefined when there is no one left to answer (the peer reset or left).
 */
export function clientErrorOf(error: NodeJS.ErrnoException, limits: ClientErrorLimits): QuarryError | undefined {
  switch (error.code ?? '') {
    case 'ECONNRESET':
    case 'EPIPE':
    case 'HPE_INVALID_EOF_STATE':
      return undefined;
    case 'ERR_HTTP_REQUEST_TIMEOUT':
      return QuarryError.of('SERVICE_REQUEST_TIMEOUT', {
        params: { headersSeconds: limits.headersTimeoutMs / 1000, requestSeconds: limits.requestTimeoutMs / 1000 },
      });
    case 'HPE_HEADER_OVERFLOW':
      return QuarryError.of('SERVICE_HEADERS_TOO_LARGE', { params: { max: limits.maxHeaderBytes } });
    default: {
      const reason = (error as { reason?: unknown }).reason;
      return QuarryError.of('SERVICE_MALFORMED_REQUEST', {
        params: {
          reason: typeof reason === 'string' ? reason.replace(/[^\x20-\x7e]/g, '').slice(0, 100) : 'unreadable',
        },
      });
    }
  }
}

/** A complete HTTP/1.1 response carrying the protocol's error body, closing the connection. */
export function rawErrorResponse(error: QuarryError, extraHeaders: Readonly<Record<string, string>> = {}): string {
  const status = STATUS_BY_CATEGORY[error.category];
  const body = JSON.stringify(renderErrorBody(error));
  const headers = {
    'Content-Type': 'application/json; charset=utf-8',
    'Content-Length': String(Buffer.byteLength(body)),
    Connection: 'close',
    ...extraHeaders,
  };
  const head = Object.entries(headers)
    .map(([name, value]) => `${name}: ${value}\r\n`)
    .join('');
  return `HTTP/1.1 ${status} ${STATUS_CODES[status] ?? 'Error'}\r\n${head}\r\n${body}`;
}

/**
 * Fastify's `clientErrorHandler`: answers errors raised below the router (malformed
 * requests, oversized headers, slow clients) with the protocol's error body instead of
 * Fastify's default one, then closes the connection. Like Node's own handler it writes
 * nothing when a response on this socket has already started.
 */
export function clientErrorHandler(limits: ClientErrorLimits) {
  // Fastify calls it bound to the app, whose logger it uses.
  return function (this: { log: FastifyBaseLogger }, error: NodeJS.ErrnoException, socket: Socket): void {
    const quarryError = socket.destroyed ? undefined : clientErrorOf(error, limits);
    if (quarryError === undefined) {
      socket.destroy();
      return;
    }
    this.log.info(
      { code: quarryError.code, status: STATUS_BY_CATEGORY[quarryError.category], remoteAddress: socket.remoteAddress },
      'connection refused before routing',
    );
    const inFlight = (socket as Socket & { _httpMessage?: { headersSent?: boolean } })._httpMessage;
    if (!socket.writable || inFlight?.headersSent) {
      socket.destroy();
      return;
    }
    socket.end(rawErrorResponse(quarryError), () => socket.destroy());
  };
}
