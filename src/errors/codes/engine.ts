import type { CodeTable } from '../code-table.ts';

/** Error codes raised by `src/engine`-area modules. Codes are never renamed or reused once published. */
export const ENGINE_CODES = {
  ENGINE_TIMEOUT: {
    category: 'timeout',
    message: 'The query ran longer than {limitMs} ms and was cancelled.',
    fix: 'Narrow the query: add filters (for example on year or research_orgs), use a more specific full-text search without leading wildcards, return fewer fields or a smaller limit, or aggregate fewer indicators.',
  },
  ENGINE_CANCELLED: {
    category: 'unavailable',
    message: 'The query was cancelled before it finished ({reason}).',
    fix: 'Send the query again; it is cancelled when the caller disconnects or the server shuts down.',
  },
  ENGINE_PRINCIPAL_BUSY: {
    category: 'rate_limit',
    message:
      'You already have {running} queries running or waiting, the most one caller may have at once. Retry after {retryAfter} seconds, when one of them has finished.',
    fix: 'Wait for your earlier queries to answer before sending more (the Retry-After header says how long); the operator sets the cap (query.maxPerPrincipal).',
  },
  ENGINE_CLOSED: {
    category: 'unavailable',
    message: 'The query engine is shutting down and accepts no more queries.',
    fix: 'Retry in a moment, against the restarted service.',
  },
  ENGINE_DATABASE_UNAVAILABLE: {
    category: 'unavailable',
    message: 'The database {path} cannot be opened: {reason}',
    fix: 'Check that the file exists, is readable, and was created by `quarry import` (or `quarry generate`).',
  },
} as const satisfies CodeTable;
