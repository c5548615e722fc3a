import type { CodeTable } from '../code-table.ts';

/** Error codes raised by `src/data`-area modules. Codes are never renamed or reused once published. */
export const DATA_CODES = {} as const satisfies CodeTable;
