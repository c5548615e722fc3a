import type { SourceName } from '../types.ts';
import type { SourceTable } from './field-row.ts';
import { GRANTS } from './grants.ts';
import { ORGANIZATIONS } from './organizations.ts';
import { PUBLICATIONS } from './publications.ts';
import { RESEARCHERS } from './researchers.ts';

/** The field table of every source (spec/data-model.md). */
export const SOURCE_FIELD_TABLES: Readonly<Record<SourceName, SourceTable>> = {
  publications: PUBLICATIONS,
  grants: GRANTS,
  researchers: RESEARCHERS,
  organizations: ORGANIZATIONS,
};
