import {
  ERROR_CODES,
  definitionOf,
  formatMessage,
  QuarryError,
  type ErrorCode,
  type ErrorParams,
  type Problem,
} from '../errors/index.ts';

/** What a service said in its error body (spec/protocol.md §4), with the HTTP status. */
export interface ServerError {
  readonly status: number;
  readonly header: string;
  readonly details: readonly string[];
  /** The service's stable code, when it sent one. */
  readonly code?: string;
  readonly line?: number;
  readonly column?: number;
  /** The top-level `error.message`, when the service sent one (the reason in one string). */
  readonly message?: string;
  /**
   * The query text the service echoed in `errors.query.query`: what it read, so what its
   * line and column count in (the hosted service and Quarry echo it; older servers do not).
   */
  readonly query?: string;
}

/**
 * An error of the client: either the service refused (then `server` holds its body as it
 * came: header, details, code, line, column, status), or the client gave up on its own
 * (network down after retries, too many 429s, a token refused right after logging in, the
 * depth limit, ...). It is a QuarryError, so the CLI maps its category to an exit code and
 * shows a caret under the position of query errors.
 *
 * `code` is the service's own code when Quarry knows it (`SCHEMA_UNKNOWN_FIELD`, ...),
 * otherwise a `CLIENT_*` code.
 */
export class QuarryClientError extends QuarryError {
  /** The service's error body, when the service answered with one. */
  readonly server: ServerError | undefined;

  constructor(problems: Problem | readonly Problem[], server?: ServerError, options?: { cause?: unknown }) {
    super(problems, options);
    this.name = 'QuarryClientError';
    this.server = server;
  }

  /** The HTTP status of the service's answer, when there was one. */
  get status(): number | undefined {
    return this.server?.status;
  }

  get header(): string | undefined {
    return this.server?.header;
  }

  get details(): readonly string[] {
    return this.server?.details ?? this.problems.map((p) => p.message);
  }

  get line(): number | undefined {
    return this.server?.line ?? this.first.position?.line;
  }

  get column(): number | undefined {
    return this.server?.column ?? this.first.position?.column;
  }

  /**
   * The query text the positions of the problems count in: the service's echo when it sent
   * one, else the text the client sent; undefined for errors that are not about a query.
   */
  get query(): string | undefined {
    return this.server?.query ?? this.#sentQuery;
  }

  /** The text the client sent, remembered so a caret can be drawn under it. */
  #sentQuery: string | undefined;

  /** This error, remembering the query text the client sent (when the service echoed none). */
  aboutQuery(text: string | undefined): this {
    this.#sentQuery = text;
    return this;
  }

  /** A client-side condition (no service body), with the registry's message. */
  static client(
    code: ErrorCode,
    params: ErrorParams = {},
    server?: ServerError,
    options?: { cause?: unknown },
  ): QuarryClientError {
    return new QuarryClientError({ code, message: formatMessage(definitionOf(code).message, params) }, server, options);
  }
}

export function isQuarryClientError(value: unknown): value is QuarryClientError {
  return value instanceof QuarryClientError;
}

/**
 * Reads the protocol's error body; undefined when the text is not one (an HTML page from a
 * proxy, an empty body, ...). `errors.query.header`/`details` are the protocol's; the echoed
 * `errors.query.query` and a top-level `error.message` are read when present, and a body
 * with only `error.message` still says why (its lines become the details).
 *
 * @example parseErrorBody(400, '{"error":{"message":"Unknown field"}}')
 * // { status: 400, header: 'HTTP 400', details: ['Unknown field'], message: 'Unknown field' }
 */
export function parseErrorBody(status: number, text: string): ServerError | undefined {
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (typeof body !== 'object' || body === null) return undefined;
  const query = (body as { errors?: { query?: unknown } }).errors?.query;
  const topMessage = (body as { error?: { message?: unknown } }).error?.message;
  const message = typeof topMessage === 'string' && topMessage.trim() !== '' ? topMessage : undefined;
  const q: Record<string, unknown> | undefined =
    typeof query === 'object' && query !== null ? (query as Record<string, unknown>) : undefined;
  if (q === undefined && message === undefined) return undefined;
  const header = typeof q?.header === 'string' ? q.header : `HTTP ${status}`;
  const listed = Array.isArray(q?.details) ? q.details.filter((d): d is string => typeof d === 'string') : [];
  const fromMessage = message?.split('\n').filter((line) => line.trim() !== '') ?? [];
  const details = listed.length > 0 ? listed : fromMessage.length > 0 ? fromMessage : [header];
  return {
    status,
    header,
    details,
    ...(typeof q?.code === 'string' ? { code: q.code } : {}),
    ...(Number.isInteger(q?.line) ? { line: q?.line as number } : {}),
    ...(Number.isInteger(q?.column) ? { column: q?.column as number } : {}),
    ...(message !== undefined ? { message } : {}),
    ...(typeof q?.query === 'string' ? { query: q.query } : {}),
  };
}

/** The server's code when this build of Quarry knows it. */
export function knownCode(code: string | undefined): ErrorCode | undefined {
  return code !== undefined && Object.hasOwn(ERROR_CODES, code) ? (code as ErrorCode) : undefined;
}

/** The client code for a refusal whose code Quarry does not know, by status. */
function fallbackCode(status: number): ErrorCode {
  if (status === 401) return 'CLIENT_AUTHENTICATION_FAILED';
  if (status === 403 || status === 410) return 'CLIENT_REQUEST_REFUSED';
  if (status >= 500) return 'CLIENT_SERVER_UNAVAILABLE';
  return 'CLIENT_QUERY_REJECTED';
}

/**
 * The error for a service's refusal. The first problem gets a span from the body's line and
 * column, counted in the query the service echoed (what it read) or else in the text the
 * client sent, so the CLI can put a caret under it; the error's `query` is that text.
 */
export function errorFromServer(server: ServerError, queryText?: string, extra: ErrorParams = {}): QuarryClientError {
  const code = knownCode(server.code);
  const positionText = server.query ?? queryText;
  const located = (problem: Problem): Problem => {
    if (server.line === undefined || server.column === undefined || positionText === undefined) return problem;
    const span = spanAt(positionText, server.line, server.column);
    return span === undefined ? problem : { ...problem, span, position: { line: server.line, column: server.column } };
  };
  if (code === undefined) {
    const params = {
      status: server.status,
      header: server.header,
      detail: server.details.join(' '),
      attempts: 1,
      ...extra,
    };
    const fallback = fallbackCode(server.status);
    const problem = located({ code: fallback, message: formatMessage(definitionOf(fallback).message, params) });
    return new QuarryClientError(problem, server).aboutQuery(queryText);
  }
  const problems: Problem[] = server.details.map((detail, i) => {
    const problem = { code, message: detail.replace(/\s*\(line \d+, column \d+\)$/, '') };
    return i === 0 ? located(problem) : problem;
  });
  return new QuarryClientError(problems, server).aboutQuery(queryText);
}

/**
 * The span starting at a 1-based line and column, running over the word (or quoted string)
 * there, so a caret underlines what the service pointed at.
 */
export function spanAt(text: string, line: number, column: number): { start: number; end: number } | undefined {
  const lines = text.split('\n');
  if (line < 1 || line > lines.length) return undefined;
  let start = column - 1;
  for (let i = 0; i < line - 1; i++) start += (lines[i] ?? '').length + 1;
  if (start < 0 || start > text.length) return undefined;
  const rest = text.slice(start);
  const word = /^("(?:[^"\\\n]|\\.)*"|[\w.]+)/.exec(rest);
  return { start, end: start + Math.max(1, word?.[0].length ?? 1) };
}
