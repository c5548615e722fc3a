import type { CodeTable } from '../code-table.ts';

/** Codes that any layer may raise. */
export const COMMON_CODES = {
  INTERNAL: {
    category: 'internal',
    message: 'An internal error occurred. Quote request id {requestId} when reporting it.',
    fix: 'Nothing is wrong with the request. Retry later; if it persists, report the request id to the operator, whose log holds the cause.',
  },
} as const satisfies CodeTable;
