import type { CodeTable } from '../code-table.ts';

/** Error codes raised by `src/client`-area modules. Codes are never renamed or reused once published. */
export const CLIENT_CODES = {} as const satisfies CodeTable;
