import type { CodeTable } from '../code-table.ts';

/** Error codes raised by `src/engine`-area modules. Codes are never renamed or reused once published. */
export const ENGINE_CODES = {} as const satisfies CodeTable;
