import type { CodeDefinition } from './code-table.ts';
import { CLIENT_CODES } from './codes/client.ts';
import { COMMON_CODES } from './codes/common.ts';
import { DATA_CODES } from './codes/data.ts';
import { DSL_CODES } from './codes/dsl.ts';
import { ENGINE_CODES } from './codes/engine.ts';
import { GROUP_CODES } from './codes/groups.ts';
import { SCHEMA_CODES } from './codes/schema.ts';
import { SERVICE_CODES } from './codes/service.ts';
import { WEB_CODES } from './codes/web.ts';

/**
 * The one registry of error codes. Each area keeps its codes in `codes/<area>.ts`; this
 * merge is what everything else reads. `test/errors/registry.test.ts` keeps it in step with
 * `docs/errors.md` (regenerate that with `npm run docs:errors`).
 */
export const ERROR_CODES = {
  ...COMMON_CODES,
  ...DSL_CODES,
  ...SCHEMA_CODES,
  ...ENGINE_CODES,
  ...SERVICE_CODES,
  ...WEB_CODES,
  ...DATA_CODES,
  ...GROUP_CODES,
  ...CLIENT_CODES,
} as const;

export type ErrorCode = keyof typeof ERROR_CODES;

/** The areas in registry order, for the documentation generator and the duplicate check. */
export const CODE_AREAS: ReadonlyArray<{
  readonly area: string;
  readonly codes: Readonly<Record<string, CodeDefinition>>;
}> = [
  { area: 'Common', codes: COMMON_CODES },
  { area: 'Query language', codes: DSL_CODES },
  { area: 'Schema and validation', codes: SCHEMA_CODES },
  { area: 'Query execution', codes: ENGINE_CODES },
  { area: 'Service, accounts and authentication', codes: SERVICE_CODES },
  { area: 'Web pages', codes: WEB_CODES },
  { area: 'Data generation and import', codes: DATA_CODES },
  { area: 'Organization groups', codes: GROUP_CODES },
  { area: 'Client and command line', codes: CLIENT_CODES },
];

export function definitionOf(code: ErrorCode): CodeDefinition {
  return ERROR_CODES[code];
}
