import type { CodeTable } from '../code-table.ts';

/** Error codes raised by `src/schema`-area modules. Codes are never renamed or reused once published. */
export const SCHEMA_CODES = {} as const satisfies CodeTable;
