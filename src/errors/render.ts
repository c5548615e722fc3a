import type { ErrorCategory } from './categories.ts';
import { type QuarryError } from './quarry-error.ts';

/**
 * The protocol's error body (spec/protocol.md §4). Clients parse `errors.query.header` and
 * `details`; the hosted service also echoes the query text there as `query`. Some clients
 * read only a top-level `error.message`, so it repeats the reason in one string.
 */
export interface ErrorBody {
  readonly errors: {
    readonly query: {
      readonly header: string;
      readonly details: readonly string[];
      readonly code: string;
      readonly line?: number;
      readonly column?: number;
      /** The query text the user sent, when the request got as far as reading it. */
      readonly query?: string;
    };
  };
  readonly error: { readonly message: string };
}

export interface RenderOptions {
  /** Query errors under DSL version 1 keep the v1 headers. */
  readonly dslVersion?: 1 | 2;
  /**
   * The query text to echo. Only the DSL text of a query request belongs here: never a
   * login body, an API key or a token (authentication failures must not echo them).
   */
  readonly queryText?: string | null;
}

const QUERY_CATEGORIES: ReadonlySet<ErrorCategory> = new Set(['syntax', 'semantic', 'unsupported', 'budget']);

const HEADERS: Record<ErrorCategory, string> = {
  syntax: 'Syntax Error',
  semantic: 'Semantic Error',
  unsupported: 'Semantic Error',
  budget: 'Semantic Error',
  authentication: 'Authentication Error',
  token: 'Authentication Error',
  permission: 'Permission Error',
  rate_limit: 'Rate Limit Exceeded',
  gone: 'Version Removed',
  timeout: 'Query Timeout',
  not_found: 'Not Found',
  input: 'Bad Request',
  method_not_allowed: 'Method Not Allowed',
  payload_too_large: 'Payload Too Large',
  unsupported_media_type: 'Unsupported Media Type',
  headers_too_large: 'Request Header Fields Too Large',
  request_timeout: 'Request Timeout',
  conflict: 'Conflict',
  unavailable: 'Service Unavailable',
  internal: 'Internal Server Error',
};

export function isQueryCategory(category: ErrorCategory): boolean {
  return QUERY_CATEGORIES.has(category);
}

/**
 * Renders an error as the protocol's body. Query errors under DSL version 2 use the header
 * `N QueryError found`; version 1 keeps `Syntax Error` / `Semantic Error` (spec/dsl.md §7).
 * `error.message` holds the details, one per line, so a client that prints only it still
 * says why.
 *
 * @example
 * renderErrorBody(err, { dslVersion: 2, queryText: 'search publications return years' })
 * // {"errors":{"query":{"header":"1 QueryError found","details":["..."],"code":"SCHEMA_...","line":1,"column":28,
 * //   "query":"search publications return years"}},"error":{"message":"..."}}
 */
export function renderErrorBody(error: QuarryError, options: RenderOptions = {}): ErrorBody {
  const category = error.category;
  const first = error.first;
  const header =
    isQueryCategory(category) && options.dslVersion !== 1
      ? `${error.problems.length} QueryError${error.problems.length === 1 ? '' : 's'} found`
      : HEADERS[category];
  const details = error.problems.map((p) =>
    p.position ? `${p.message} (line ${p.position.line}, column ${p.position.column})` : p.message,
  );
  return {
    errors: {
      query: {
        header,
        details,
        code: first.code,
        ...(first.position ? { line: first.position.line, column: first.position.column } : {}),
        ...(typeof options.queryText === 'string' ? { query: options.queryText } : {}),
      },
    },
    error: { message: details.join('\n') },
  };
}
