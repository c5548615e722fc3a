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
 * proxy, an empty body, ...).
 */
export function parseErrorBody(status: number, text: string): ServerError | undefined {
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    return undefined;
  }
  const query = (body as { errors?: { query?: unknown } } | null)?.errors?.query;
  if (typeof query !== 'object' || query === null) return undefined;
  const q = query as Record<string, unknown>;
  const details = Array.isArray(q.details) ? q.details.filter((d): d is string => typeof d === 'string') : [];
  return {
    status,
    header: typeof q.header === 'string' ? q.header : `HTTP ${status}`,
    details: details.length > 0 ? details : [typeof q.header === 'string' ? q.header : `HTTP ${status}`],
    ...(typeof q.code === 'string' ? { code: q.code } : {}),
    ...(Number.isInteger(q.line) ? { line: q.line as number } : {}),
    ...(Number.isInteger(q.column) ? { column: q.column as number } : {}),
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
 * The error for a service's refusal. With the query text, the first problem gets a span
 * from the body's line and column, so the CLI can put a caret under it.
 */
export function errorFromServer(server: ServerError, queryText?: string, extra: ErrorParams = {}): QuarryClientError {
  const code = knownCode(server.code);
  if (code === undefined) {
    const params = {
      status: server.status,
      header: server.header,
      detail: server.details.join(' '),
      attempts: 1,
      ...extra,
    };
    return QuarryClientError.client(fallbackCode(server.status), params, server);
  }
  const problems: Problem[] = server.details.map((detail, i) => {
    const message = detail.replace(/\s*\(line \d+, column \d+\)$/, '');
    if (i > 0 || server.line === undefined || server.column === undefined || queryText === undefined)
      return { code, message };
    const span = spanAt(queryText, server.line, server.column);
    return span === undefined
      ? { code, message }
      : { code, message, span, position: { line: server.line, column: server.column } };
  });
  return new QuarryClientError(problems, server);
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
