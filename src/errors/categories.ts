/**
 * Every error belongs to one category. Transports map categories, never codes: `http/`
 * maps each to a status, the CLI to an exit code, and both maps must cover every category
 * (the compiler checks it through `Record<ErrorCategory, ...>`).
 */
export const ERROR_CATEGORIES = [
  /** The query text is not in the language. */
  'syntax',
  /** The query is in the language but names or combines things the schema does not allow. */
  'semantic',
  /** The query uses a source or function this deployment does not offer. */
  'unsupported',
  /** The query exceeds an input budget (length, tokens, nesting, list sizes, paging). */
  'budget',
  /** Credentials are missing or wrong (HTTP 401). */
  'authentication',
  /** The token is expired, revoked or invalid: log in again (HTTP 403). */
  'token',
  /** The account may not do this: pending, suspended, closed, not subscribed (HTTP 403). */
  'permission',
  /** Too many requests (HTTP 429). */
  'rate_limit',
  /** The API version asked for has been removed (HTTP 410). */
  'gone',
  /** The query ran longer than allowed and was cancelled. */
  'timeout',
  /** A resource (route, account, key, file) does not exist. */
  'not_found',
  /** A request or command argument is malformed (not the query language itself). */
  'input',
  /** The path exists, but not for this HTTP method (HTTP 405). */
  'method_not_allowed',
  /** The request body is larger than the transport accepts (HTTP 413). */
  'payload_too_large',
  /** The request body's Content-Type is not one the route reads (HTTP 415). */
  'unsupported_media_type',
  /** The request's header block is larger than the server reads (HTTP 431). */
  'headers_too_large',
  /** The client did not send its request in full within the configured time (HTTP 408). */
  'request_timeout',
  /** The request conflicts with existing state (an e-mail already registered, ...). */
  'conflict',
  /** A dependency (database, worker pool) is not available right now. */
  'unavailable',
  /** Anything unexpected; the cause stays in the server log. */
  'internal',
] as const;

export type ErrorCategory = (typeof ERROR_CATEGORIES)[number];
