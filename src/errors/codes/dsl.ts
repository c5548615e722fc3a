import type { CodeTable } from '../code-table.ts';

/** Error codes raised by `src/dsl`-area modules. Codes are never renamed or reused once published. */
export const DSL_CODES = {} as const satisfies CodeTable;
