import type { CodeTable } from '../code-table.ts';

/** Error codes raised by `src/service`-area modules. Codes are never renamed or reused once published. */
export const SERVICE_CODES = {} as const satisfies CodeTable;
