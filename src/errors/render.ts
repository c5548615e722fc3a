import type { ErrorCategory } from './categories.ts';
import { type QuarryError } from './quarry-error.ts';

/** The protocol's error body (spec/protocol.md §4); clients parse `errors.query.header` and `details`. */
export interface ErrorBody {
  readonly errors: {
    readonly query: {
      readonly header: string;
      readonly details: readonly string[];
      readonly code: string;
      readonly line?: number;
      readonly column?: number;
    };
  };
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
 *
 * @example
 * renderErrorBody(err, { dslVersion: 2 })
 * // {"errors":{"query":{"header":"1 QueryError found","details":["..."],"code":"DSL_...","line":1,"column":8}}}
 */
export function renderErrorBody(error: QuarryError, options: { dslVersion?: 1 | 2 } = {}): ErrorBody {
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
      },
    },
  };
}
