/**
 * The native record of a source title: what the importers produce and the generator writes
 * (one JSON object per JSONL line), following `model/native-records.ts`: field names are the
 * schema's (spec/schema-2026.md §7.10), optional fields are left out, never `null`.
 * `publisher` is no field of the 2026 schema; it is kept, as the journals Quarry held before
 * the source existed kept it, for the publications' `publisher` and a later field.
 *
 * @example
 *   {"id":"S137773608","title":"Nature","type":"journal","issn":["0028-0836","1476-4687"],
 *    "issn_print":"0028-0836","issn_electronic":"1476-4687","publisher":"Nature Portfolio",
 *    "journal_lists":["CWTS core"],"linkout":"https://www.nature.com/nature/","start_year":1869}
 */
import type { SourceTitleType } from './fields.ts';

export interface SourceTitleRecord {
  /** `jour.` and digits when generated; the OpenAlex short id (`S137773608`), `issn:<ISSN>` or `crossref:<id>` when imported. */
  readonly id: string;
  readonly title: string;
  readonly type?: SourceTitleType;
  /** Every ISSN known (print, electronic, linking), each `NNNN-NNNX`. */
  readonly issn?: readonly string[];
  readonly issn_print?: string;
  readonly issn_electronic?: string;
  readonly journal_lists?: readonly string[];
  readonly linkout?: string;
  readonly start_year?: number;
  readonly sjr?: number;
  readonly snip?: number;
  readonly publisher?: string;
}
