/**
 * What the API routes' schemas say about requests and answers, for the OpenAPI document
 * (openapi.ts): the protocol's error body, the statuses each route can answer with their
 * headers, and the query body with examples that find records in the demo dataset.
 * Statuses come from STATUS_BY_CATEGORY, so the document follows the one category map.
 */
import type { ErrorCategory } from '../errors/index.ts';
import { STATUS_BY_CATEGORY } from './status.ts';

/** The protocol's error body (spec/protocol.md §4), shared by every error status. */
export const ERROR_BODY_SCHEMA = {
  $id: 'ErrorBody',
  type: 'object',
  description:
    'Every non-2xx answer. Clients print `header` and `details`; `code` is stable (listed at /docs/errors); query errors add `line` and `column`, and `query` echoes the query text. `error.message` repeats the details in one string for clients that read only it.',
  required: ['errors', 'error'],
  properties: {
    errors: {
      type: 'object',
      required: ['query'],
      properties: {
        query: {
          type: 'object',
          required: ['header', 'details'],
          // Extra machine-readable members may sit beside these (spec/protocol.md §4).
          additionalProperties: true,
          properties: {
            header: { type: 'string', description: 'A short class of failure', examples: ['1 QueryError found'] },
            details: {
              type: 'array',
              minItems: 1,
              items: { type: 'string' },
              description: 'Human sentences saying what is wrong and what to do',
              examples: [["Field 'titel' is not a field of 'publications'. Did you mean 'title'? (line 1, column 41)"]],
            },
            code: { type: 'string', description: 'The stable error code', examples: ['SCHEMA_UNKNOWN_FIELD'] },
            line: { type: 'integer', minimum: 1, description: 'Query errors: the line of the mistake' },
            column: { type: 'integer', minimum: 1, description: 'Query errors: the column of the mistake' },
            query: {
              type: 'string',
              description: 'The query text as sent, once the request got as far as reading it',
              examples: ['search publications return publications[id + titel]'],
            },
          },
        },
      },
    },
    error: {
      type: 'object',
      required: ['message'],
      properties: {
        message: {
          type: 'string',
          description: 'The details in one string (one per line), for clients that print only this',
          examples: ["Field 'titel' is not a field of 'publications'. Did you mean 'title'? (line 1, column 41)"],
        },
      },
    },
  },
} as const;

const integerHeader = (description: string) => ({ type: 'integer', description }) as const;

/** The IETF rate-limit headers every answer of a limited route carries. */
export const RATE_LIMIT_HEADERS = {
  'RateLimit-Limit': integerHeader('Requests allowed in the window'),
  'RateLimit-Remaining': integerHeader('Requests left in the window'),
  'RateLimit-Reset': integerHeader('Seconds until the window resets'),
} as const;

/** What each status means for a caller (spec/protocol.md §4). */
const STATUS_DESCRIPTIONS: Readonly<Record<number, string>> = {
  400: 'A mistake in the query or the request: syntax, unknown source or field, bad operator, a limit out of range, a body too large. Query errors carry `line` and `column`.',
  401: 'No `Authorization` header (or the wrong scheme word), no `api_key`, or a bad key or password. Carries `WWW-Authenticate`.',
  403: 'The token expired, was revoked or is not valid (log in again and retry); or the account is pending, suspended, or not subscribed to this family or source.',
  404: 'Not found.',
  409: 'Conflict.',
  410: 'This language version was removed; the body names the version to use.',
  429: 'Too many requests: wait `Retry-After` seconds and retry.',
  500: 'Unexpected: the body quotes a request id for the operator; the cause is only in the server log.',
  503: 'The service is starting, closing, or its database or shared store does not answer: retry after `Retry-After` seconds.',
  504: 'The query ran past the time limit; the body says how to narrow it.',
};

/** The error categories a route can answer, turned into response schemas by status. */
export function errorResponses(
  categories: readonly ErrorCategory[],
  options: { readonly rateLimited: boolean; readonly authScheme?: 'Bearer' | 'JWT' },
): Record<string, unknown> {
  const statuses = [...new Set([...categories, 'internal' as const].map((c) => STATUS_BY_CATEGORY[c]))].sort();
  const responses: Record<string, unknown> = {};
  for (const status of statuses) {
    const headers: Record<string, unknown> = options.rateLimited ? { ...RATE_LIMIT_HEADERS } : {};
    if (status === 429 || status === 503) headers['Retry-After'] = integerHeader('Seconds to wait before retrying');
    if (status === 401 && options.authScheme)
      headers['WWW-Authenticate'] = { type: 'string', description: `\`${options.authScheme} realm="Quarry"\`` };
    responses[String(status)] = {
      description: STATUS_DESCRIPTIONS[status] ?? 'Error',
      ...(Object.keys(headers).length > 0 ? { headers } : {}),
      content: { 'application/json': { schema: { $ref: 'ErrorBody#' } } },
    };
  }
  return responses;
}

/** The categories of every query route: mistakes, credentials, limits, time, the service. */
export const QUERY_ERROR_CATEGORIES: readonly ErrorCategory[] = [
  'syntax',
  'authentication',
  'token',
  'rate_limit',
  'timeout',
  'unavailable',
];

/** Queries that find records in the demo dataset (`npm start`); a test runs each on it. */
export const QUERY_EXAMPLES: Readonly<Record<string, { summary: string; value: string }>> = {
  fullText: {
    summary: 'Full-text search',
    value: 'search publications for "climate change" return publications[id + title + year + times_cited] limit 5',
  },
  facet: {
    summary: 'Funders of recent papers on a topic',
    value: 'search publications for "breast cancer" where year >= 2018 return funders limit 5',
  },
  sorted: {
    summary: 'Largest grants',
    value: 'search grants return grants[id + title + start_year + funding_usd] sort by funding_usd desc limit 5',
  },
  describe: { summary: 'The version this endpoint runs', value: 'describe version' },
};

/** The query body: the DSL text as is (any content type works; text/plain is the norm). */
export function queryBody(examples: Readonly<Record<string, { summary: string; value: string }>> = QUERY_EXAMPLES) {
  return {
    content: {
      'text/plain': {
        schema: {
          type: 'string',
          maxLength: 65536,
          description:
            'The query text (UTF-8). Read raw under any Content-Type; a JSON object `{"query": "..."}` is accepted too (under any Content-Type).',
          'x-examples': examples,
        },
      },
      'application/json': {
        schema: {
          type: 'object',
          required: ['query'],
          properties: { query: { type: 'string', description: 'The query text' } },
          examples: [{ query: examples[Object.keys(examples)[0] ?? '']?.value ?? 'describe version' }],
        },
      },
    },
  };
}

/** The headers of a successful query answer. */
export const QUERY_SUCCESS_HEADERS = {
  ...RATE_LIMIT_HEADERS,
  'Server-Timing': { type: 'string', description: 'parse, execute and total time in ms' },
  'X-Request-Id': { type: 'string', description: 'Quote it when reporting a problem' },
} as const;
