import type { ErrorCategory } from '../errors/index.ts';

/**
 * The one map from error category to HTTP status (spec/protocol.md §4). It must name every
 * category, so a new category breaks the build until it is given a status here.
 */
export const STATUS_BY_CATEGORY: Record<ErrorCategory, number> = {
  syntax: 400,
  semantic: 400,
  unsupported: 400,
  budget: 400,
  input: 400,
  method_not_allowed: 405,
  payload_too_large: 413,
  unsupported_media_type: 415,
  headers_too_large: 431,
  request_timeout: 408,
  authentication: 401,
  token: 403,
  permission: 403,
  not_found: 404,
  conflict: 409,
  gone: 410,
  rate_limit: 429,
  internal: 500,
  unavailable: 503,
  timeout: 504,
};
