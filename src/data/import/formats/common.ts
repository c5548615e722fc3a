/** What a format mapper returns, and the small helpers mappers share. */
import type { NativeKind, NativeRecord } from '../../../model/native-records.ts';

/** One native record produced from a source record, or the id of one to remove (a merged id). */
export type Mapped =
  { readonly kind: NativeKind; readonly record: NativeRecord } | { readonly kind: NativeKind; readonly remove: string };

/** A source record that cannot be mapped: reported with file:line by the importer. */
export class MalformedRecord extends Error {}

/** A CSV header without a column its layout needs: the whole file is refused. */
export class MissingColumn extends Error {
  constructor(
    readonly layout: string,
    readonly column: string,
  ) {
    super(`the ${layout} header has no ${column} column`);
  }
}

export type Loose = Readonly<Record<string, unknown>>;

export const str = (v: unknown): string | undefined =>
  typeof v === 'string' && v.trim().length > 0 ? v.trim() : undefined;
export const num = (v: unknown): number | undefined => (typeof v === 'number' && Number.isFinite(v) ? v : undefined);
export const arr = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);
export const obj = (v: unknown): Loose =>
  v !== null && typeof v === 'object' && !Array.isArray(v) ? (v as Loose) : {};

/** Parses one JSON text into an object, or throws MalformedRecord. */
export function parseObject(text: string): Loose {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (err) {
    throw new MalformedRecord(`not valid JSON (${(err as Error).message})`);
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value))
    throw new MalformedRecord('not a JSON object');
  return value as Loose;
}

/** A DOI without URL prefix, lower-cased. */
export function bareDoi(v: unknown): string | undefined {
  const s = str(v);
  return s === undefined
    ? undefined
    : s
        .replace(/^https?:\/\/(dx\.)?doi\.org\//i, '')
        .replace(/^doi:/i, '')
        .toLowerCase();
}

/** An ORCID iD without URL prefix. */
export function bareOrcid(v: unknown): string | undefined {
  const s = str(v);
  return s?.replace(/^https?:\/\/orcid\.org\//i, '');
}

/** Splits "Ana Maria Silva" into first and last name. */
export function splitName(full: string): { first_name: string; last_name: string } {
  const parts = full.trim().split(/\s+/);
  if (parts.length <= 1) return { first_name: '', last_name: parts[0] ?? '' };
  return { first_name: parts.slice(0, -1).join(' '), last_name: parts[parts.length - 1] as string };
}

/** A date `YYYY-MM-DD` from year/month/day parts (missing parts as 01). */
export function isoDate(year: number, month?: number, day?: number): string {
  const p = (n: number | undefined): string => String(n ?? 1).padStart(2, '0');
  return `${String(year).padStart(4, '0')}-${p(month)}-${p(day)}`;
}

/** The short form of an OpenAlex id URL (`https://openalex.org/W123` -> `W123`). */
export function openAlexId(v: unknown): string | undefined {
  const s = str(v);
  return s?.replace(/^https?:\/\/openalex\.org\//i, '');
}

/** A ROR id as the full URL (`02gjn4306` or `https://ror.org/02gjn4306` -> the URL). */
export function rorUrl(v: unknown): string | undefined {
  const s = str(v);
  if (s === undefined) return undefined;
  return s.startsWith('http') ? s.replace(/^http:/, 'https:') : `https://ror.org/${s}`;
}
