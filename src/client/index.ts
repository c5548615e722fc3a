/**
 * The Quarry client library: log in, query, page through results, export. Works against
 * Quarry or any service that speaks the same protocol (spec/protocol.md).
 *
 * @example
 * import { connect } from 'quarry';
 * const client = connect({ url: 'http://127.0.0.1:8080', key: process.env.QUARRY_KEY! }, { family: 'auth', dslVersion: 2 });
 * const grants = await client.all('search grants where start_year = 2020 return grants[id + title + funding_usd]');
 */
export {
  connect,
  QuarryClient,
  type ConnectTarget,
  type ConnectOptions,
  type IterateOptions,
  type DepthLimitAction,
  type Page,
  type PagingSummary,
  type RecordStream,
} from './client.ts';
export { QuarryClientError, isQuarryClientError, type ServerError } from './errors.ts';
export { DEFAULT_RETRY, backoffDelay, parseRetryAfter, type RetryPolicy } from './backoff.ts';
export type { ClientEvent } from './transport.ts';
export type { Credentials } from './session.ts';
export { MAX_DEPTH, MAX_PAGE_SIZE } from './paging.ts';
export {
  exportAll,
  type ServerExportFormat,
  type ServerExportJob,
  type ServerExportOptions,
  type ServerExportReport,
} from './server-export.ts';
export { exportToFile, checkpointPath, type ExportFormat, type ExportOptions, type ExportReport } from './export.ts';
export { loadProfile, saveProfile, readProfiles, profilePath, type Profile, type ProfileFile } from './profiles.ts';
export { csvLine, csvRows, jsonLines, type OutputFormat } from './output.ts';
export { table, displayText, type TableOptions } from './terminal-table.ts';
export { flattenRecord, rowsOf, ROW_KINDS, type RowKind } from './flatten.ts';
export type * from './records.ts';
export { METADATA_KEYS } from './records.ts';
