/**
 * Puts executed rows into the protocol's result shape (spec/dsl.md §5, protocol.md §3):
 * one key per return (or a group object for `return in "g"`), `_stats` with the searched
 * source's `total_count` (and `limit`/`offset` when the query gave them), `_warnings` when
 * there are any.
 */
import type { PerYearOutput, FacetOutput, RecordsOutput, ReturnedFieldPlan, SearchPlan } from '../compile/plan.ts';
import type { QueryResult } from './types.ts';
import { completeAuthors } from './author-objects.ts';
import { openAccessCategories, openAccessFacetRows } from './open-access-categories.ts';

export type Row = Readonly<Record<string, unknown>>;

export interface ExecutedRecords {
  readonly output: RecordsOutput;
  /** One object per record, holding at least the requested fields (missing ones absent). */
  readonly records: readonly Row[];
}

export interface ExecutedFacet {
  readonly output: FacetOutput;
  /** `{id, count, ...display fields, ...indicators}`, already ordered and limited. */
  readonly rows: readonly Row[];
}

/**
 * A per-year function's answer (`citations_per_year`, `funding_per_year`): one value per
 * year, keyed by the year as text, in year order — the hosted service's object shape.
 */
export interface ExecutedPerYear {
  readonly output: PerYearOutput;
  readonly values: Readonly<Record<string, number>>;
}

export interface ExecutedSearch {
  readonly plan: SearchPlan;
  readonly totalCount: number;
  readonly results: ReadonlyArray<ExecutedRecords | ExecutedFacet | ExecutedPerYear>;
  /** Warnings found while executing (e.g. a wildcard expansion was capped). */
  readonly warnings?: readonly string[];
}

/**
 * @example shapeResult({ plan, totalCount: 2, results: [{ output: yearFacet, rows: [{ id: 2020, count: 2 }] }] })
 *   // { year: [{ id: 2020, count: 2 }], _stats: { total_count: 2 } }
 */
export function shapeResult(executed: ExecutedSearch): QueryResult {
  const result: Record<string, unknown> = {};
  let paging: RecordsOutput | undefined;
  for (const item of executed.results) {
    const value =
      'records' in item
        ? shapeRecords(item)
        : 'values' in item
          ? { ...item.values }
          : item.output.objects === 'open-access-categories'
            ? openAccessFacetRows(item.rows, item.output.sortBy)
            : item.rows.map((r) => ({ ...r }));
    const { key, group } = item.output;
    if (group === undefined) {
      result[key] = value;
    } else {
      const bucket = (result[group] ??= {}) as Record<string, unknown>;
      bucket[key] = value;
    }
    if ('records' in item && item.output.pagingGiven && paging === undefined) paging = item.output;
  }
  const stats: Record<string, number> = { total_count: executed.totalCount };
  if (paging !== undefined) {
    stats.limit = paging.limit;
    stats.offset = paging.skip;
  }
  result._stats = stats;
  const warnings = [...executed.plan.warnings, ...(executed.warnings ?? [])];
  if (warnings.length > 0) result._warnings = warnings;
  return result;
}

function shapeRecords({ output, records }: ExecutedRecords): Row[] {
  const picked = records.map((record) => pickFields(record, output.fields));
  if (output.unnest === undefined) return picked;
  // Unnesting one field after another gives the cartesian product of their values.
  let rows = picked;
  for (const field of output.unnests ?? [output.unnest]) rows = rows.flatMap((record) => unnestRecord(record, field));
  return rows;
}

/** The returned fields of a record under their keys (missing values left out). */
export function pickFields(record: Row, fields: readonly ReturnedFieldPlan[]): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const f of fields) {
    const raw = record[f.field];
    const v =
      f.derivation !== undefined
        ? derive(raw, f.derivation)
        : f.objects === 'authors'
          ? completeAuthors(raw, 2)
          : f.objects === 'open-access-categories'
            ? openAccessCategories(raw)
            : raw;
    if (v !== undefined && v !== null) out[f.key] = v;
  }
  return out;
}

/** Version-1 fields answered from their replacement (spec/dsl.md §7). */
function derive(value: unknown, derivation: NonNullable<ReturnedFieldPlan['derivation']>): unknown {
  if (!Array.isArray(value)) return value;
  switch (derivation) {
    case 'first-level':
      // Top-level Fields of Research codes are the two-digit ones ("16 Studies in Human Society").
      return value.filter((c: unknown) => {
        const o = (c ?? {}) as { id?: unknown; name?: unknown };
        const name = typeof o.name === 'string' ? o.name : '';
        const id = typeof o.id === 'string' || typeof o.id === 'number' ? String(o.id) : '';
        return /^\d{2}(\s|$)/.test(name) || /^\d{2}$/.test(id);
      });
    case 'affiliations-of-authors':
      // The hosted service's v1 shape: one list holding the author objects with the v1 keys
      // (without the later `corresponding` and `raw_affiliation`), which dimcli's authors
      // dataframe reads.
      return [completeAuthors(value, 1)];
  }
}

/**
 * One row per value of `field`, the value's keys written as `field.key` (scalar values as
 * `field`); a record without values keeps one row without them. `limit` counted records,
 * so a page may hold more rows than `limit`.
 */
export function unnestRecord(record: Row, field: string): Row[] {
  const { [field]: values, ...rest } = record;
  const list = Array.isArray(values) ? (values as unknown[]) : values === undefined ? [] : [values];
  if (list.length === 0) return [rest];
  return list.map((value) => {
    const row: Record<string, unknown> = { ...rest };
    if (value !== null && typeof value === 'object' && !Array.isArray(value)) {
      for (const [k, v] of Object.entries(value as Record<string, unknown>)) row[`${field}.${k}`] = v;
    } else {
      row[field] = value;
    }
    return row;
  });
}
